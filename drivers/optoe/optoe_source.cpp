#include "drivers/optoe/optoe_source.hpp"

#include <algorithm>
#include <cctype>

#include "drivers/discover_report.hpp"

namespace xcvr::optoe {

const std::vector<std::string>& OptoeSource::eeprom_drivers() const { return drivers.empty() ? kOptoeDrivers : drivers; }

SonicMapLookup OptoeSource::find_port_map(const std::string& location) const {
  SonicMapLookup r = lookup_sonic_port_map(sonic_port_map);
  if (!r.error.empty()) r.error = location + ": sonic_port_map: " + r.error;
  return r;
}

EepromDiscovery OptoeSource::discover(const SonicMapLookup& sonic) const {
  return discover_optoe(kSysI2cDevices, kSysSxCore, eeprom_drivers(), sonic.map ? &*sonic.map : nullptr);
}

std::optional<std::string> OptoeSource::build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const {
  for (const OptoePortConfig& c : ports) out.ports.push_back({c.port, "", "", std::make_unique<OptoeTransport>(c)});
  if (!discovery.discover) return std::nullopt;
  // Ports named by front panel (optoe port_name, through the SONiC port map), bus
  // ("optoe-11") or module ("module3").
  const SonicMapLookup sonic = find_port_map(ctx.location);
  if (!sonic.error.empty()) return sonic.error;
  const EepromDiscovery d = discover(sonic);
  std::vector<drivers::FoundPort> found;
  for (const DiscoveredEeprom& e : d.found) {
    found.push_back({e.name, "path:" + e.config.path, [config = e.config] { return std::make_unique<OptoeTransport>(config); }});
  }
  std::string driver_names;
  for (const std::string& n : eeprom_drivers()) driver_names += (driver_names.empty() ? "" : "/") + n;
  drivers::add_found(discovery, ctx, found,
                     {"optoe", "no i2c device of driver " + driver_names + " and no sx_core module",
                      "i2c clients and sx_core modules looked at: " + std::to_string(d.looked_at) +
                          (sonic.note.empty() ? "" : "; " + sonic.note),
                      "Instantiate optoe (echo optoe3 0x50 > /sys/bus/i2c/devices/i2c-N/new_device) or list ports "
                      "with [[source.port]] path = \"…\" (docs/configuration.md)"},
                     out);
  return std::nullopt;
}

std::string OptoeSource::fingerprint() const {
  std::string fp;
  if (!discovery.discover) return fp;
  for (const DiscoveredEeprom& e : discover(find_port_map("")).found) fp += "\neeprom " + e.config.path + " " + e.name;
  return fp;
}

std::vector<std::string> OptoeSource::claims() const {
  return drivers::claims_of(ports, "path:", [](const OptoePortConfig& p) { return p.path; });
}

namespace {

bool driver_name(const std::string& d) {
  return !d.empty() && d.size() <= 32 && std::all_of(d.begin(), d.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-' || c == '.';
  });
}

std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable& t, std::span<const drivers::ListedPort> listed,
                                                     const std::string& config_dir) {
  auto s = std::make_unique<OptoeSource>();
  s->discovery = drivers::Discovery::read(t, !listed.empty());
  s->sonic_port_map = t.str("sonic_port_map").value_or("");
  if (s->sonic_port_map != "none") s->sonic_port_map = drivers::resolve_path(config_dir, s->sonic_port_map);
  if (t.node("drivers") != nullptr) {
    s->drivers = t.strings("drivers");
    if (s->drivers.size() > 16 || !std::all_of(s->drivers.begin(), s->drivers.end(), driver_name)) {
      t.fail(t.node("drivers"), "drivers", "i2c driver names as in sysfs `name` (\"optoe3\", \"sff8436\", \"24c02\"), at most 16");
    }
  }
  for (const drivers::ListedPort& p : listed) {
    OptoePortConfig c;
    c.port = p.name;
    c.path = drivers::resolve_path(config_dir, p.table->str("path").value_or(""));
    if (c.path.empty()) base::toml_fail(p.table->raw(), p.table->name() + ": '" + p.name + "' needs path");
    c.domain = p.table->str("domain").value_or("");
    s->ports.push_back(std::move(c));
  }
  return s;
}

constexpr drivers::CliOption kOptions[] = {
    {"optoe", "optoe eeprom file (.../N-0050/eeprom) or sx_core module dir"},
};

std::variant<drivers::OpenedModule, drivers::Error> open(const drivers::CliValues& v) {
  OptoePortConfig cfg;
  cfg.path = cfg.port = v.at("optoe");
  auto t = std::make_unique<OptoeTransport>(cfg);
  std::string label = t->describe() + " (" + std::string(layout_name(t->layout())) + ")";
  return drivers::OpenedModule{std::move(t), std::move(label)};
}

constexpr drivers::CliOption kDiscoverOptions[] = {
    {"i2c-devices", "Where the i2c clients are (default: sysfs's)"},
    {"sx-core", "Where NVIDIA sx_core's module directories are (default: sysfs's)"},
    {"optoe-drivers", "i2c drivers whose eeprom file is a module's, comma-separated (sff8436,24c02; default: optoe's)"},
    {"sonic-port-map", "SONiC port_config.ini or platform.json naming front-panel ports (default: where SONiC keeps "
                       "it; none: never)"},
};

std::optional<std::string> discover(const drivers::CliValues& v, drivers::DiscoverReport& out) {
  const auto given = [&](const char* name, const std::string& fallback) {
    const auto it = v.find(name);
    return it == v.end() ? fallback : it->second;
  };
  std::vector<std::string> eeprom_drivers = kOptoeDrivers;
  if (const auto it = v.find("optoe-drivers"); it != v.end()) {
    eeprom_drivers.clear();
    for (std::size_t at = 0; at <= it->second.size();) {
      const std::size_t comma = std::min(it->second.find(',', at), it->second.size());
      if (comma > at) eeprom_drivers.push_back(it->second.substr(at, comma - at));
      at = comma + 1;
    }
  }
  const SonicMapLookup sonic = lookup_sonic_port_map(given("sonic-port-map", ""));
  if (!sonic.error.empty()) return "--sonic-port-map: " + sonic.error;
  const EepromDiscovery d = discover_optoe(given("i2c-devices", kSysI2cDevices), given("sx-core", kSysSxCore),
                                           eeprom_drivers, sonic.map ? &*sonic.map : nullptr);
  out.text = (sonic.note.empty() ? "" : sonic.note + "\n") + "optoe / sx_core: " + std::to_string(d.found.size()) +
             " module eeproms (" + std::to_string(d.looked_at) + " i2c clients and sx_core modules looked at)\n";
  nlohmann::json found = nlohmann::json::array();
  for (const DiscoveredEeprom& e : d.found) {
    out.text += "  " + e.name + "  " + e.config.path + "\n";
    found.push_back({{"port", e.name}, {"path", e.config.path}});
  }
  out.json = {{"found", found}, {"looked_at", d.looked_at}};
  if (!d.found.empty()) out.config = "\n[[source]]\ntype = \"optoe\"\n";
  for (const DiscoveredEeprom& e : d.found) {
    out.config += "[[source.port]]\nname = " + drivers::toml_string(e.name) + "\npath = " +
                  drivers::toml_string(e.config.path) + "\n";
  }
  return std::nullopt;
}

}  // namespace

const drivers::SourceKind kOptoeSource{
    .type = "optoe", .port_table = "port", .lists_devices = true, .can_discover = true, .parse = parse, .options = kOptions, .open = open,
    .discover_options = kDiscoverOptions, .discover = discover,
    .access = "run as root: the eeprom files are root's"};

}  // namespace xcvr::optoe
