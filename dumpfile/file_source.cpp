#include "dumpfile/file_source.hpp"

#include "dumpfile/dump_parser.hpp"
#include "dumpfile/file_transport.hpp"

namespace xcvr::dumpfile {

std::optional<std::string> FileSource::build(const drivers::BuildContext&, drivers::SourceBuild& out) const {
  for (const Port& p : ports) {
    auto opened = FileTransport::open(p.path);
    if (auto* err = std::get_if<drivers::Error>(&opened)) return p.location + ": port " + p.name + ": " + err->message;
    out.ports.push_back({p.name, "", "", std::move(std::get<std::unique_ptr<FileTransport>>(opened))});
  }
  return std::nullopt;
}

std::string FileSource::fingerprint() const {
  std::string fp;
  for (const Port& p : ports) fp += drivers::file_fingerprint(p.path, kDumpInput);
  return fp;
}

std::vector<std::string> FileSource::claims() const {
  return drivers::claims_of(ports, "path:", [](const Port& p) { return p.path; });
}

namespace {

std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable&, std::span<const drivers::ListedPort> listed,
                                                     const std::string& config_dir) {
  auto s = std::make_unique<FileSource>();
  for (const drivers::ListedPort& p : listed) {
    const std::string path = drivers::resolve_path(config_dir, p.table->str("path").value_or(""));
    if (path.empty()) base::toml_fail(p.table->raw(), p.table->name() + ": '" + p.name + "' needs path");
    s->ports.push_back({p.name, path, p.location});
  }
  return s;
}

constexpr drivers::CliOption kOptions[] = {
    {"file", "module dump file (any format xcvrctl decode reads; - for standard input)"},
};

std::variant<drivers::OpenedModule, drivers::Error> open(const drivers::CliValues& v) {
  const std::string& path = v.at("file");
  auto opened = FileTransport::open(path);
  if (auto* e = std::get_if<drivers::Error>(&opened)) return *e;
  return drivers::OpenedModule{std::move(std::get<std::unique_ptr<FileTransport>>(opened)), "dump file " + path};
}

}  // namespace

const drivers::SourceKind kFileSource{
    .type = "file", .port_table = "port", .lists_devices = true, .parse = parse, .options = kOptions, .open = open,
    .access = "check the file's permissions"};

}  // namespace xcvr::dumpfile
