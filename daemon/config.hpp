// The daemon's configuration (/etc/transceiver-exporter/config.toml), strictly validated:
// unknown keys, wrong types, overlapping ports and impossible values are errors that name
// file:line:column, and nothing starts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "drivers/ib/ib_settings.hpp"
#include "daemon/web_defaults.hpp"

namespace xcvr::daemon {

struct PollConfig {
  double dynamic_interval_s = 5;      // monitors, flags, states
  double thermal_interval_s = 0;      // fast temperature-only path; 0 = off
  double vdm_interval_s = 60;         // VDM real-time pages
  double link_interval_s = 30;        // link health: FEC / PMA error counters of the port's link(s)
  int static_reverify_cycles = 720;   // re-read identity pages every N dynamic cycles
  double settle_delay_s = 2;          // after insertion, before the first read
  int stale_after_intervals = 3;      // no good read for K intervals -> stale
  double backoff_max_s = 60;          // per-port backoff ceiling while failing
  int retries = 2;                    // immediate retries of a retryable read error
};

struct WebConfig {
  std::vector<std::string> listen_addresses{":10458"};
  std::string tls_cert_file;
  std::string tls_key_file;
  std::map<std::string, std::string> basic_auth_users;  // user -> bcrypt hash
  std::vector<std::string> auth_exempt_paths{"/healthz"};
  std::size_t max_request_bytes = web_defaults::kMaxRequestBytes;
  double read_timeout_s = web_defaults::kReadTimeoutMs / 1000.0;
  double write_timeout_s = web_defaults::kWriteTimeoutMs / 1000.0;
  int max_connections = web_defaults::kMaxConnections;
  // "file:line:col" of the keys checked after parsing (listen_addresses[i], tls_cert_file,
  // tls_key_file, basic_auth_users.<user>; "web" for the table): errors found when the TLS
  // files are loaded or the addresses bound still name the config line.
  std::map<std::string, std::string> locations;
  std::string location_of(const std::string& key) const;
  bool operator==(const WebConfig&) const = default;
};

// A port or some of its lanes configured out of service (a half-cabled twin-port module: lanes
// 5-8): reported `unused`, never alarming. Copied into every PortSnapshot of the port.
struct PortService {
  bool in_service = true;
  std::vector<int> unused_lanes;  // 1-based, sorted, no duplicates, within lanes_for_cage()
};

// Lanes a cage form factor carries: SFP 1, SFP-DD/DSFP 2, QSFP (not -DD) 4, OSFP-XD 16, else 8.
int lanes_for_cage(std::string_view cage);

// One port of a source. Which keys apply depends on the source type.
struct PortConfig {
  std::string name;            // exported `port` label; unique across the exporter
  std::string cage;            // optional cage form factor ("OSFP", "QSFP-DD", ...)
  std::string path;            // file: dump path; optoe: eeprom path; i2c: /dev/i2c-N
  std::string presence_file;   // i2c: optional sysfs presence file
  bool presence_active_low = false;
  std::string netdev;          // netlink: interface
  std::string domain;          // serialization-domain override (ports on sibling mux channels)
  std::string config_location; // "file:line:col" of the port's table, for later errors
  PortService service;         // in_service, unused_lanes
};

// Ports a source finds itself: netlink (ethtool::discover_netdevs, named by the netdev) and
// optoe (optoe::discover_optoe, named by bus or sx_core module).
struct Discovery {
  bool discover = false;  // `discover`; default true when the source lists no [[source.port]]
  std::string include;    // ECMAScript regex a found port's name must match ("" = every one)
  std::string exclude;    // regex of names to leave out
  // optoe: i2c client driver names whose `eeprom` file is a module's memory (`drivers`);
  // empty: optoe's own (optoe::kOptoeDrivers).
  std::vector<std::string> drivers;
  // optoe: SONiC's port_config.ini / platform.json naming front-panel ports (`sonic_port_map`):
  // "" = look where SONiC keeps it (optoe::sonic_port_map_candidates), "none" = never.
  std::string sonic_port_map;
};
bool selected(const Discovery& s, const std::string& name);

struct SourceConfig {
  std::string type;  // "emulator", "file", "i2c", "optoe", "netlink", "ib"
  std::string fleet;  // emulator: fleet TOML path (resolved relative to the config file)
  std::string clock = "realtime";      // emulator: "realtime" (sleeps wire time) or "wallclock"
  std::vector<std::string> scenarios;  // emulator: fault timeline files added to the fleet
  // Listed ports; for emulator (fleet ports by name) and ib (`[[source.module]]`: fabric ports
  // by name) only service settings for ports the source finds itself.
  std::vector<PortConfig> ports;
  ib::IbSourceSettings ib;             // ib: CA port, targets, politeness, shard
  Discovery discovery;          // netlink, optoe: ports the source finds itself
  std::string config_location;
  // The source's table as canonical TOML (and the directory its relative paths resolve
  // against): a reload keeps the ports of a source whose settings and files did not change.
  std::string settings;
};

struct BudgetConfig {
  std::string group;
  std::string ports;          // glob over port names ("spine1/*")
  double per_port_watts = 0;  // allowance per cage
  double total_watts = 0;     // group budget
  std::string config_location;
};

// Module style the cages of a port group need (coding check module_style).
struct CageStyleConfig {
  std::string ports;  // glob over port names, as budgets use
  std::string style;  // "flat-top" or "finned-top" (aliases normalized)
  std::string config_location;
};

struct Config {
  std::string path;  // the file it came from
  std::string state_directory = "/var/lib/transceiver-exporter";
  std::string log_level = "info";
  // Optic catalog files/directories, in order (later entries override). Not given
  // (catalog_set false): the shipped catalog and /etc/transceiver-exporter/catalog.d if present.
  std::vector<std::string> catalog;
  bool catalog_set = false;
  std::string oui_registry = "/usr/share/ieee-data";  // directory or oui.csv / oui.txt
  PollConfig poll;
  WebConfig web;
  std::vector<SourceConfig> sources;
  std::vector<BudgetConfig> budgets;
  std::vector<CageStyleConfig> cage_styles;
};

struct ConfigError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  std::string to_string() const;  // "file:line:col: message"
};

using ConfigResult = std::variant<Config, ConfigError>;

ConfigResult load_config_file(const std::string& path);
// `origin` names the text in errors and anchors relative paths.
ConfigResult parse_config(std::string_view text, const std::string& origin);


// Shell-style glob on port names: '*' any run, '?' one char.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace xcvr::daemon
