// SONiC's front-panel map: which interface name a front-panel port carries, from the files a
// SONiC platform ships (sonic-buildimage device/<platform>/):
//   port_config.ini  "# name lanes alias index speed ..." header, then one interface per line;
//                    `index` is the front-panel port (0- or 1-based, as the platform counts)
//   platform.json    "interfaces": {"Ethernet0": {"index": "1,1,1,1", "lanes": "1,2,3,4", ...}}
//                    the first element of `index` is the front-panel port
// With breakouts several interfaces share a port: the port is named by the one on its lowest
// lane (Ethernet0 of Ethernet0/2/4/6), the interface SONiC's xcvrd reports the module under.
//
// optoe's `port_name` joins the two: SONiC platform init writes the same number there ("port0",
// "Port12", "7") that the platform's port_config.ini uses as `index`.
//
// The parsers are pure and fuzzed (tests/fuzz/fuzz_sonic_port_map.cpp); errors name line and
// column.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace xcvr::optoe {

struct SonicPortMap {
  std::map<int, std::string> by_index;  // front-panel port -> interface name
  std::string source;                   // the file it came from
};

// "path:line:col: what" (line/col where there is one).
struct SonicMapError {
  std::string message;
};

std::variant<SonicPortMap, SonicMapError> parse_port_config_ini(std::string_view text, const std::string& source);
std::variant<SonicPortMap, SonicMapError> parse_platform_json(std::string_view text, const std::string& source);

// Reads `path` (platform.json by its name, else port_config.ini format; the config-file size cap).
std::variant<SonicPortMap, SonicMapError> load_sonic_port_map(const std::string& path);

// Where a SONiC platform keeps the map, most specific first: the pmon container's
// /usr/share/sonic/hwsku/port_config.ini and /usr/share/sonic/platform/platform.json, then the
// host's device/<onie_platform>/<default sku>/port_config.ini and device/<onie_platform>/
// platform.json (onie_platform from /host/machine.conf). `root` prefixes every path (tests).
std::vector<std::string> sonic_port_map_candidates(const std::string& root = "");

// The map to name front-panel ports by. `configured`: a file (an error when it cannot be used),
// "none" (no map), or "" — the first of sonic_port_map_candidates(root) that exists (one that
// does not parse is noted and ignored), none when there is none (not a SONiC host).
struct SonicMapLookup {
  std::optional<SonicPortMap> map;
  std::string note;   // "SONiC port map <path> (32 front-panel ports)", "SONiC port map ignored: …", or ""
  std::string error;  // the configured file is unusable
};
SonicMapLookup lookup_sonic_port_map(const std::string& configured, const std::string& root = "");

// The front-panel number in an optoe port_name as SONiC platforms write it: "port3", "Port3",
// "3". nullopt for anything else.
std::optional<int> front_panel_number(std::string_view port_name);

// A name usable as a port: 1-64 printable characters, no blank, quote or backslash.
bool usable_port_name(std::string_view name);

// The port name an optoe `port_name` gives: a front-panel number is the interface `sonic` maps
// it to, else "port<N>"; any other usable name as written. nullopt for optoe's default
// ("unitialized", sic), an empty or an unusable one.
std::optional<std::string> name_from_port_name(std::string_view port_name, const SonicPortMap* sonic);

}  // namespace xcvr::optoe
