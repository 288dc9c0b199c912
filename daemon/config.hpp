// The daemon's configuration (/etc/transceiver-exporter/config.toml), strictly validated:
// unknown keys, wrong types, overlapping ports and impossible values are errors that name
// file:line:column, and nothing starts.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "daemon/metrics_config.hpp"
#include "daemon/recorder_config.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::daemon {

// The config file, for base/safe_file: its name in messages and its size cap.
inline constexpr base::InputKind kConfigInput{"config file", std::size_t{1} << 20};

struct PollConfig {
  double dynamic_interval_s = 5;      // monitors, flags, states
  double thermal_interval_s = 0;      // fast temperature-only path; 0 = off
  double vdm_interval_s = 60;         // VDM real-time pages
  double link_interval_s = 30;        // link health: FEC / PMA error counters of the port's link(s)
  int static_reverify_cycles = 720;   // re-read identity pages every N dynamic cycles
  double settle_delay_s = 2;          // after insertion, before the first read
  int stale_after_intervals = 3;      // no good read for K intervals -> stale
  // A raised flag stays shown this long after its last sighting: >= one scrape interval (every
  // scraper sees it), < the flag alerts' `for:` (1m) less a poll (a blip must not page).
  double flag_hold_s = 30;
  double backoff_max_s = 60;          // per-port backoff ceiling while failing
  int retries = 2;                    // immediate retries of a retryable read error
  RecorderConfig recorder;            // the [recorder] table: each poller keeps its port's ring
  bool operator==(const PollConfig&) const = default;
};

// The [web] table (docs/configuration.md): the exporter-toolkit web settings plus limits, with
// every default in this one place. The HTTP server's config (exporters/http/server.hpp) is this
// plus limits no key sets. Defaults are safe for a switch: all addresses, plain HTTP, no auth.
struct WebConfig {
  // ":10458" = every IPv4 and IPv6 address; also "127.0.0.1:10458", "[::1]:10458", "host:port";
  // port 0 picks a free port.
  std::vector<std::string> listen_addresses{":10458"};
  // TLS when both files are set (PEM; the cert file may hold a chain). Plain HTTP otherwise.
  std::string tls_cert_file;
  std::string tls_key_file;
  // Basic auth: user -> bcrypt hash ("$2y$..." from htpasswd -nBC 10, or "$2b$"/"$2a$").
  // Empty = no auth. Paths listed here never ask for credentials.
  std::map<std::string, std::string> basic_auth_users;
  std::vector<std::string> auth_exempt_paths{"/healthz"};
  std::size_t max_request_bytes = 8192;  // request line + headers + body; larger is refused
  double read_timeout_s = 5;             // TLS handshake + request head
  double write_timeout_s = 10;           // stall allowed while the client reads
  double response_timeout_s = 60;        // a whole response must be read within it
  // Connections open at once; beyond it the oldest connection not being answered is closed.
  int max_connections = 64;
  std::chrono::milliseconds read_timeout() const { return milliseconds(read_timeout_s); }
  std::chrono::milliseconds write_timeout() const { return milliseconds(write_timeout_s); }
  std::chrono::milliseconds response_timeout() const { return milliseconds(response_timeout_s); }
  static std::chrono::milliseconds milliseconds(double seconds) {
    return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }
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

// The cage form factors a port's `cage` may name (docs/configuration.md lists them), with the
// lanes each carries. Names compare without regard to case.
struct CageKind {
  std::string_view name;
  int lanes;
};
inline constexpr CageKind kCageKinds[] = {
    {"SFP", 1},      {"SFP+", 1},    {"SFP28", 1},      {"SFP56", 1},      {"SFP112", 1},
    {"SFP-DD", 2},   {"DSFP", 2},    {"QSFP", 4},       {"QSFP+", 4},      {"QSFP28", 4},
    {"QSFP56", 4},   {"QSFP112", 4}, {"QSFP-DD", 8},    {"QSFP-DD800", 8}, {"QSFP-DD1600", 8},
    {"OSFP", 8},     {"OSFP112", 8}, {"OSFP-RHS", 8},   {"OSFP-XD", 16},
};
const CageKind* find_cage_kind(std::string_view name);  // nullptr: not a known kind

// Lanes a cage carries: its kind's, or 8 when no cage is given.
int lanes_for_cage(std::string_view cage);

// A listed port of a source ([[source.port]], or [[source.module]] of a source that finds its
// own ports): the keys every type shares. The type's own keys (a bus, a path, a netdev) are in
// the source's settings.
struct PortConfig {
  std::string name;            // exported `port` label; unique across the exporter
  std::string cage;            // optional cage form factor ("OSFP", "QSFP-DD", ...)
  std::string config_location; // "file:line:col" of the port's table, for later errors
  PortService service;         // in_service, unused_lanes
};

struct SourceConfig {
  std::string type;                         // a registered source type (drivers/source_registry.cpp)
  const drivers::SourceKind* kind = nullptr;
  std::shared_ptr<const drivers::SourceSettings> settings;  // the type's keys, parsed by its kind
  std::vector<PortConfig> ports;            // listed ports, in order
  std::string config_location;
  // The source's table as canonical TOML (and the directory its relative paths resolve
  // against): a reload keeps the ports of a source whose settings and files did not change.
  std::string canonical;

  // The type's settings (drivers/<folder>/<type>_source.hpp), e.g. as<ib::IbSourceConfig>().
  template <typename T>
  const T& as() const {
    return dynamic_cast<const T&>(*settings);
  }
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

// Where the daemon (and xcvrctl's --port) read the config by default.
inline constexpr const char* kDefaultConfigPath = "/etc/transceiver-exporter/config.toml";

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
  MetricsConfig metrics;
  std::vector<SourceConfig> sources;
  std::vector<BudgetConfig> budgets;
  std::vector<CageStyleConfig> cage_styles;
};

using ConfigError = base::TextError;  // "file:line:col: message"

using ConfigResult = std::variant<Config, ConfigError>;

ConfigResult load_config_file(const std::string& path);
// `origin` names the text in errors and anchors relative paths.
ConfigResult parse_config(std::string_view text, const std::string& origin);


// Shell-style glob on port names: '*' any run, '?' one char.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace xcvr::daemon
