#include "drivers/source_kind.hpp"

#include <filesystem>
#include <regex>

namespace xcvr::drivers {

std::string error_hint(const SourceKind& kind, const Error& e, bool opening) {
  switch (e.kind) {
    case ErrorKind::Absent:
      return opening ? "(no such device on this host?)" : "(no module in the cage?)";
    case ErrorKind::Permission:
      return "(" + std::string(kind.access) + ")";
    default:
      return "";
  }
}

std::string file_fingerprint(const std::string& path, base::InputKind kind) {
  std::string error;
  const auto text = base::read_regular_file(path, kind, error);
  return "\n" + path + " " +
         (text ? std::to_string(std::hash<std::string>{}(*text)) + ":" + std::to_string(text->size()) : "unreadable " + error);
}

std::string resolve_path(const std::string& config_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(config_dir) / path).lexically_normal().string();
}

Discovery Discovery::read(base::TomlTable& t, bool ports_listed) {
  Discovery d;
  d.discover = t.boolean("discover").value_or(!ports_listed);
  for (auto [key, out] : {std::pair{"include", &d.include}, std::pair{"exclude", &d.exclude}}) {
    *out = t.str(key).value_or("");
    // Bounded: libstdc++ compiles a pattern recursively, and port names are short.
    if (out->size() > 200) t.fail(t.node(key), key, "longer than 200 characters");
    try {
      (void)std::regex(*out, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      t.fail(t.node(key), key, std::string("not a regular expression: ") + e.what());
    }
  }
  return d;
}

bool Discovery::selects(const std::string& name) const {
  if (!include.empty() && !std::regex_search(name, std::regex(include, std::regex::ECMAScript))) return false;
  return exclude.empty() || !std::regex_search(name, std::regex(exclude, std::regex::ECMAScript));
}

void add_found(const Discovery& d, const BuildContext& ctx, const std::vector<FoundPort>& found,
               const FoundReport& report, SourceBuild& out) {
  std::string taken;
  for (const FoundPort& f : found) {
    const bool claimed = ctx.claimed != nullptr && (ctx.claimed->count(f.claim) != 0 || ctx.claimed->count(f.name) != 0);
    if (claimed || !d.selects(f.name)) continue;
    out.ports.push_back(MadePort{f.name, "", "", f.transport(), /*discovered=*/true});
    taken += (taken.empty() ? "" : ", ") + f.name;
  }
  std::string note = ctx.location + ": " + report.what + " discovery: " + (taken.empty() ? report.none : "ports " + taken) +
                     "; " + report.looked_at;
  if (taken.empty()) note += ". " + report.hint;
  out.notes.push_back(std::move(note));
}

}  // namespace xcvr::drivers
