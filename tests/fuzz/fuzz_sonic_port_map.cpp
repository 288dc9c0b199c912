// libFuzzer target: SONiC's front-panel maps (drivers/optoe/sonic_port_map.cpp) — the same bytes
// as a port_config.ini and as a platform.json, files an operator or a platform package supplies,
// and its first bytes as an optoe port_name named through the map.
// Fails on a crash, a sanitizer report, an error that names no place ("source:line:col: ..."
// for port_config.ini, "source:..." for platform.json), or a map with an empty or blank name.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "drivers/optoe/sonic_port_map.hpp"

namespace {

void check(const std::variant<xcvr::optoe::SonicPortMap, xcvr::optoe::SonicMapError>& r, const std::string& source) {
  if (const auto* e = std::get_if<xcvr::optoe::SonicMapError>(&r)) {
    if (e->message.rfind(source + ":", 0) != 0) std::abort();
    return;
  }
  const auto& map = std::get<xcvr::optoe::SonicPortMap>(r);
  if (map.by_index.empty()) std::abort();
  for (const auto& [index, name] : map.by_index) {
    if (index < 0 || name.empty() || name.find_first_of(" \t\n\"\\") != std::string::npos) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check(xcvr::optoe::parse_port_config_ini(text, "port_config.ini"), "port_config.ini");
  check(xcvr::optoe::parse_platform_json(text, "platform.json"), "platform.json");
  const auto front = xcvr::optoe::front_panel_number(text.substr(0, 16));
  if (front && *front < 0) std::abort();
  const auto map = xcvr::optoe::parse_port_config_ini(text, "port_config.ini");
  const auto* sonic = std::get_if<xcvr::optoe::SonicPortMap>(&map);
  if (const auto name = xcvr::optoe::name_from_port_name(text.substr(0, 16), sonic);
      name && !xcvr::optoe::usable_port_name(*name)) {
    std::abort();  // a port name must be usable as one
  }
  return 0;
}
