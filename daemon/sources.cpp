#include "daemon/sources.hpp"

#include "drivers/dumpfile/file_transport.hpp"

namespace xcvr::daemon {
namespace {

std::optional<SourceError> add_file_source(const SourceConfig& s, BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    auto opened = dumpfile::FileTransport::open(p.path);
    if (auto* err = std::get_if<drivers::Error>(&opened)) {
      return SourceError{p.config_location + ": port " + p.name + ": " + err->message};
    }
    out.ports.push_back({PortIdentity{p.name, "", "file", p.cage, {}},
                         std::move(std::get<std::unique_ptr<dumpfile::FileTransport>>(opened))});
  }
  return std::nullopt;
}

}  // namespace

std::optional<SourceError> add_emulator_source(const SourceConfig& s, BuiltSources& out);  // emulator_source.cpp

std::variant<BuiltSources, SourceError> build_sources(const Config& config) {
  BuiltSources out;
  for (const SourceConfig& s : config.sources) {
    std::optional<SourceError> err;
    if (s.type == "file") {
      err = add_file_source(s, out);
    } else if (s.type == "emulator") {
      err = add_emulator_source(s, out);
    } else {
      err = SourceError{s.config_location + ": source type '" + s.type +
                        "' is not available in this build yet (emulator and file are)"};
    }
    if (err) return *err;
  }
  return out;
}

}  // namespace xcvr::daemon
