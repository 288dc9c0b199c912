#include "drivers/optoe/sonic_port_map.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <climits>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/safe_file.hpp"
#include "base/text_position.hpp"
#include "drivers/transport.hpp"

namespace xcvr::optoe {
namespace {

constexpr base::InputKind kPortMapInput{"SONiC port map", std::size_t{1} << 20};

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

// The first comma-separated element as a number ("73,74,75" -> 73).
std::optional<int> first_of_list(std::string_view s) { return to_int(s.substr(0, s.find(','))); }

SonicMapError at(const std::string& source, int line, int column, const std::string& what) {
  return {source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what};
}

// Keeps, per front-panel port, the interface on the lowest lane.
struct Collector {
  std::map<int, std::pair<int, std::string>> best;  // index -> (first lane, name)
  void add(int index, int lane, const std::string& name) {
    auto [it, fresh] = best.emplace(index, std::pair{lane, name});
    if (!fresh && lane < it->second.first) it->second = {lane, name};
  }
  SonicPortMap done(const std::string& source) const {
    SonicPortMap m;
    m.source = source;
    for (const auto& [index, v] : best) m.by_index[index] = v.second;
    return m;
  }
};

}  // namespace

bool usable_port_name(std::string_view s) {
  return !s.empty() && s.size() <= 64 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isgraph(c) && c != '"' && c != '\\'; });
}

std::optional<std::string> name_from_port_name(std::string_view port_name, const SonicPortMap* sonic) {
  if (const auto front = front_panel_number(port_name)) {
    if (sonic != nullptr) {
      if (const auto it = sonic->by_index.find(*front); it != sonic->by_index.end()) return it->second;
    }
    return "port" + std::to_string(*front);
  }
  if (port_name == "unitialized" || port_name == "uninitialized" || !usable_port_name(port_name)) return std::nullopt;
  return std::string(port_name);
}

std::optional<int> front_panel_number(std::string_view port_name) {
  for (std::string_view prefix : {"port", "Port", ""}) {
    if (port_name.substr(0, prefix.size()) != prefix) continue;
    if (auto n = to_int(port_name.substr(prefix.size())); n && port_name.size() > prefix.size()) return n;
  }
  return std::nullopt;
}

std::variant<SonicPortMap, SonicMapError> parse_port_config_ini(std::string_view text, const std::string& source) {
  // Columns from the header comment; SONiC's default order where there is none.
  std::vector<std::string> columns = {"name", "lanes", "alias", "index"};
  Collector out;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    std::vector<std::pair<std::string_view, int>> fields;  // (field, 1-based column)
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      const std::size_t start = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i > start) fields.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
    }
    if (fields.empty()) continue;
    if (fields[0].first.front() == '#') {
      if (line_no == 1 || out.best.empty()) {  // the header: "# name lanes alias index speed"
        std::vector<std::string> header;
        for (std::size_t i = 0; i < fields.size(); ++i) {
          std::string_view f = fields[i].first;
          if (i == 0) f.remove_prefix(1);
          if (!f.empty()) header.emplace_back(f);
        }
        if (std::find(header.begin(), header.end(), "name") != header.end()) columns = header;
      }
      continue;
    }
    const auto column_of = [&](const char* key) -> std::optional<std::size_t> {
      const auto it = std::find(columns.begin(), columns.end(), key);
      if (it == columns.end()) return std::nullopt;
      return static_cast<std::size_t>(it - columns.begin());
    };
    const auto name_col = column_of("name"), index_col = column_of("index"), lanes_col = column_of("lanes");
    if (!name_col || !index_col) return at(source, line_no, 1, "the header names no 'name' and 'index' columns");
    if (fields.size() <= std::max(*name_col, *index_col)) {
      return at(source, line_no, 1, "expected a 'name' and an 'index' field (" + std::to_string(fields.size()) + " fields)");
    }
    const auto& [name, name_at] = fields[*name_col];
    const auto& [index_text, index_at] = fields[*index_col];
    if (!usable_port_name(name)) return at(source, line_no, name_at, "not an interface name");
    const auto index = first_of_list(index_text);
    if (!index) return at(source, line_no, index_at, "index '" + std::string(index_text) + "' is not a port number");
    const auto lane = lanes_col && *lanes_col < fields.size() ? first_of_list(fields[*lanes_col].first) : std::nullopt;
    out.add(*index, lane.value_or(INT_MAX), std::string(name));
  }
  if (out.best.empty()) return SonicMapError{source + ": no interfaces"};
  return out.done(source);
}

std::variant<SonicPortMap, SonicMapError> parse_platform_json(std::string_view text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    if (const auto p = what.find("parse error"); p != std::string::npos) what = what.substr(p);
    // e.byte is 1-based and points at the offending character.
    return SonicMapError{base::TextPositions(source, text).at(e.byte > 0 ? e.byte - 1 : 0) + ": not JSON: " + what};
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range: a number past double (1E99999)
    return SonicMapError{source + ": not usable JSON: " + e.what()};
  }
  const auto interfaces = doc.is_object() ? doc.find("interfaces") : doc.end();
  if (!doc.is_object() || interfaces == doc.end() || !interfaces->is_object()) {
    return SonicMapError{source + ": no \"interfaces\" object"};
  }
  Collector out;
  for (const auto& [name, iface] : interfaces->items()) {
    const std::string where = source + ": interfaces." + name;
    if (!usable_port_name(name)) return SonicMapError{where + ": not an interface name"};
    const auto index = iface.is_object() ? iface.find("index") : iface.end();
    if (!iface.is_object() || index == iface.end() || !index->is_string()) {
      return SonicMapError{where + ": no \"index\" string"};
    }
    const auto front = first_of_list(index->get_ref<const std::string&>());
    if (!front) return SonicMapError{where + ".index: not a port number"};
    const auto lanes = iface.find("lanes");
    const auto lane =
        lanes != iface.end() && lanes->is_string() ? first_of_list(lanes->get_ref<const std::string&>()) : std::nullopt;
    out.add(*front, lane.value_or(INT_MAX), name);
  }
  if (out.best.empty()) return SonicMapError{source + ": no interfaces"};
  return out.done(source);
}

std::variant<SonicPortMap, SonicMapError> load_sonic_port_map(const std::string& path) {
  std::string error;
  const auto text = base::read_regular_file(path, kPortMapInput, error);
  if (!text) return SonicMapError{error};
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return json ? parse_platform_json(*text, path) : parse_port_config_ini(*text, path);
}

std::vector<std::string> sonic_port_map_candidates(const std::string& root) {
  std::vector<std::string> out = {root + "/usr/share/sonic/hwsku/port_config.ini",
                                  root + "/usr/share/sonic/platform/platform.json"};
  std::string error;
  const auto machine = base::read_regular_file(root + "/host/machine.conf", drivers::kAttributeInput, error);
  if (!machine) return out;
  std::istringstream lines(*machine);
  std::string platform;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("onie_platform=", 0) == 0) platform = line.substr(14);
  }
  if (platform.empty() || platform.find('/') != std::string::npos || platform.find("..") != std::string::npos) return out;
  const std::string device = root + "/usr/share/sonic/device/" + platform;
  const auto sku_file = base::read_regular_file(device + "/default_sku", drivers::kAttributeInput, error);
  std::string sku;
  if (sku_file) std::istringstream(*sku_file) >> sku;
  if (!sku.empty() && sku.find('/') == std::string::npos && sku != "..") out.push_back(device + "/" + sku + "/port_config.ini");
  out.push_back(device + "/platform.json");
  return out;
}

SonicMapLookup lookup_sonic_port_map(const std::string& configured, const std::string& root) {
  if (configured == "none") return {};
  const auto load = [](const std::string& path) -> SonicMapLookup {
    auto loaded = load_sonic_port_map(path);
    if (auto* e = std::get_if<SonicMapError>(&loaded)) return {std::nullopt, "", e->message};
    auto& map = std::get<SonicPortMap>(loaded);
    std::string note = "SONiC port map " + path + " (" + std::to_string(map.by_index.size()) + " front-panel ports)";
    return {std::move(map), std::move(note), ""};
  };
  if (!configured.empty()) return load(configured);
  for (const std::string& candidate : sonic_port_map_candidates(root)) {
    std::error_code ec;
    if (!std::filesystem::exists(candidate, ec)) continue;
    SonicMapLookup r = load(candidate);
    if (!r.error.empty()) return {std::nullopt, "SONiC port map ignored: " + r.error, ""};
    return r;
  }
  return {};
}

}  // namespace xcvr::optoe
