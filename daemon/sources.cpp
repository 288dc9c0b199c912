#include "daemon/sources.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "drivers/safe_file.hpp"

#include "drivers/dumpfile/file_transport.hpp"
#include "drivers/ethtool/ethtool_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/ib/umad_device.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::daemon {
namespace {

const std::vector<std::string>& eeprom_drivers(const SourceConfig& s) {
  return s.discovery.drivers.empty() ? optoe::kOptoeDrivers : s.discovery.drivers;
}

PortIdentity identity(const PortConfig& p, const std::string& source) {
  return PortIdentity{p.name, "", source, p.cage, {}, p.service};
}

std::optional<SourceError> add_file_source(const SourceConfig& s, BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    auto opened = dumpfile::FileTransport::open(p.path);
    if (auto* err = std::get_if<drivers::Error>(&opened)) {
      return SourceError{p.config_location + ": port " + p.name + ": " + err->message};
    }
    out.ports.push_back({identity(p, "file"),
                         std::move(std::get<std::unique_ptr<dumpfile::FileTransport>>(opened))});
  }
  return std::nullopt;
}

std::unique_ptr<drivers::Transport> netlink_transport(const PortConfig& p) {
  ethtool::EthtoolPortConfig c;
  c.netdev = p.netdev;
  c.port = p.name;
  c.domain = p.domain;
  return std::make_unique<ethtool::EthtoolNetlinkTransport>(c);
}

// What the config's listed ports claim, in every source: their names, netdevs and paths.
// Discovery leaves those to them, so a hand-named port beside the shipped discovery source is
// not found twice.
std::set<std::string> claimed_by_listed_ports(const Config& config) {
  std::set<std::string> out;
  for (const SourceConfig& source : config.sources) {
    for (const PortConfig& p : source.ports) {
      out.insert(p.name);
      if (!p.netdev.empty()) out.insert("netdev:" + p.netdev);
      if (!p.path.empty()) out.insert("path:" + p.path);
    }
  }
  return out;
}

// A port a discovering source found, before the listed ports and include/exclude have a say.
struct Found {
  std::string name;   // the port name it would get
  std::string claim;  // the key a listed port claims it by ("netdev:eth0", "path:/sys/...")
  std::function<std::unique_ptr<drivers::Transport>()> transport;
};

// Adds each found port that no listed port claims (by its name or its claim) and that the
// source's include/exclude select, and notes what discovery looked at (`looked_at`), found, and,
// when it found nothing, `hint`: a host where nothing is found says why. `what`: "netlink", ...
void add_found(const SourceConfig& s, const std::set<std::string>& claimed, const std::vector<Found>& found,
               const std::string& what, const std::string& none, const std::string& looked_at,
               const std::string& hint, BuiltSources& out) {
  std::vector<std::string> taken;
  for (const Found& f : found) {
    if (claimed.count(f.claim) != 0 || claimed.count(f.name) != 0 || !selected(s.discovery, f.name)) continue;
    PortConfig p;
    p.name = f.name;
    p.config_location = s.config_location;
    out.ports.push_back({identity(p, s.type), f.transport(), /*discovered=*/true});
    taken.push_back(f.name);
  }
  std::string note = s.config_location + ": " + what + " discovery: " +
                     (taken.empty() ? none : "ports " + fmt::format("{}", fmt::join(taken, ", "))) + "; " + looked_at;
  if (taken.empty()) note += ". " + hint;
  out.notes.push_back(std::move(note));
}

// Every netdev with a module interface, as a port named by the netdev (node_exporter's `device`).
void add_discovered_netdevs(const SourceConfig& s, const std::set<std::string>& claimed, BuiltSources& out) {
  const ethtool::NetdevDiscovery d = ethtool::discover_netdevs();
  std::vector<Found> found;
  for (const ethtool::DiscoveredNetdev& n : d.found) {
    PortConfig p;
    p.name = p.netdev = n.netdev;
    found.push_back({n.netdev, "netdev:" + n.netdev, [p] { return netlink_transport(p); }});
  }
  std::string looked_at = "physical netdevs looked at: " + std::to_string(d.found.size() + d.skipped.size());
  if (!d.skipped.empty()) looked_at += "; skipped: " + fmt::format("{}", fmt::join(d.skipped, "; "));
  add_found(s, claimed, found, "netlink", "no netdev with a module interface", looked_at,
            "Name ports with [[source.port]] netdev = \"…\", or add i2c/optoe/ib sources (docs/configuration.md)", out);
}

// The SONiC port map of an optoe source (its `sonic_port_map` file, else SONiC's own places);
// an unusable configured file names the source.
optoe::SonicMapLookup find_sonic_port_map(const SourceConfig& s) {
  optoe::SonicMapLookup r = optoe::lookup_sonic_port_map(s.discovery.sonic_port_map);
  if (!r.error.empty()) r.error = s.config_location + ": sonic_port_map: " + r.error;
  return r;
}

optoe::EepromDiscovery discover_eeproms(const SourceConfig& s, const optoe::SonicMapLookup& sonic) {
  return optoe::discover_optoe(optoe::kSysI2cDevices, optoe::kSysSxCore, eeprom_drivers(s),
                               sonic.map ? &*sonic.map : nullptr);
}

// Every optoe device (or device of the source's `drivers`) and sx_core module, as a port named
// by its front panel (optoe port_name, through the SONiC port map), bus ("optoe-11") or module
// ("module3").
std::optional<SourceError> add_discovered_eeproms(const SourceConfig& s, const std::set<std::string>& claimed,
                                                  BuiltSources& out) {
  const optoe::SonicMapLookup sonic = find_sonic_port_map(s);
  if (!sonic.error.empty()) return SourceError{sonic.error};
  const optoe::EepromDiscovery d = discover_eeproms(s, sonic);
  std::vector<Found> found;
  for (const optoe::DiscoveredEeprom& e : d.found) {
    found.push_back({e.name, "path:" + e.config.path,
                     [config = e.config] { return std::make_unique<optoe::OptoeTransport>(config); }});
  }
  add_found(s, claimed, found, "optoe", "no i2c device of driver " + fmt::format("{}", fmt::join(eeprom_drivers(s), "/")) +
                                          " and no sx_core module",
            "i2c clients and sx_core modules looked at: " + std::to_string(d.looked_at) +
                (sonic.note.empty() ? "" : "; " + sonic.note),
            "Instantiate optoe (echo optoe3 0x50 > /sys/bus/i2c/devices/i2c-N/new_device) or list ports "
            "with [[source.port]] path = \"…\" (docs/configuration.md)",
            out);
  return std::nullopt;
}

std::optional<SourceError> add_device_source(const SourceConfig& s, const std::set<std::string>& claimed,
                                            BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    std::unique_ptr<drivers::Transport> t;
    if (s.type == "i2c") {
      i2c::I2cPortConfig c;
      c.device = p.path;
      c.port = p.name;
      c.presence_file = p.presence_file;
      c.presence_active_low = p.presence_active_low;
      c.domain = p.domain;
      t = std::make_unique<i2c::I2cDevTransport>(c);
    } else if (s.type == "optoe") {
      optoe::OptoePortConfig c;
      c.path = p.path;
      c.port = p.name;
      c.domain = p.domain;
      t = std::make_unique<optoe::OptoeTransport>(c);
    } else {
      t = netlink_transport(p);
    }
    out.ports.push_back({identity(p, s.type), std::move(t)});
  }
  if (s.type == "netlink" && s.discovery.discover) add_discovered_netdevs(s, claimed, out);
  if (s.type == "optoe" && s.discovery.discover) return add_discovered_eeproms(s, claimed, out);
  return std::nullopt;
}

}  // namespace

std::optional<SourceError> add_emulator_source(const SourceConfig& s, BuiltSources& out);  // emulator_source.cpp
std::optional<SourceError> add_ib_source(const SourceConfig& s, BuiltSources& out);        // ib_source.cpp
std::optional<SourceError> build_one(const SourceConfig& s, const std::set<std::string>& claimed, BuiltSources& out);

std::vector<std::string> apply_port_service(const SourceConfig& source, std::span<PortSpec> ports) {
  std::vector<std::string> problems;
  for (const PortConfig& c : source.ports) {
    const auto it = std::find_if(ports.begin(), ports.end(), [&](const PortSpec& p) { return p.id.port == c.name; });
    if (it == ports.end()) {
      problems.push_back(c.config_location + ": port '" + c.name + "': no such port in this " + source.type + " source");
      continue;
    }
    const int lanes = lanes_for_cage(it->id.cage);
    if (!c.service.unused_lanes.empty() && c.service.unused_lanes.back() > lanes) {
      problems.push_back(c.config_location + ": port '" + c.name + "': unused_lanes: lanes are 1-" +
                         std::to_string(lanes) + " on a " + it->id.cage + " port");
      continue;
    }
    it->id.service = c.service;
  }
  return problems;
}

namespace {

// What decides whether a running source can be kept: its settings and the files it reads once
// (fleet, scenarios, dumps). Devices (i2c, optoe, netlink, ib) are read live, so their settings
// suffice.
std::string fingerprint(const SourceConfig& s) {
  std::string fp = s.settings;
  auto add_file = [&fp](const std::string& path, drivers::InputKind kind) {
    std::string error;
    const auto text = drivers::read_regular_file(path, kind, error);
    fp += "\n" + path + " " + (text ? std::to_string(std::hash<std::string>{}(*text)) + ":" + std::to_string(text->size())
                                     : "unreadable " + error);
  };
  if (s.type == "emulator") {
    add_file(s.fleet, drivers::InputKind::Fleet);
    for (const std::string& path : s.scenarios) add_file(path, drivers::InputKind::Scenario);
  }
  if (s.type == "file") {
    for (const PortConfig& p : s.ports) add_file(p.path, drivers::InputKind::Dump);
  }
  // A discovering source is built again when what it would find changed: a reload (SIGHUP)
  // picks up a NIC added or renamed, an optoe device instantiated, since.
  if (s.type == "netlink" && s.discovery.discover) {
    for (const std::string& n : ethtool::physical_netdevs()) fp += "\nnetdev " + n;
  }
  if (s.type == "ib" && s.ib.ca == ib::kEveryCa) {  // a CA port that came up or went down
    for (const ib::LocalPort& p : ib::list_local_ports()) {
      fp += "\nca " + p.ca + "/" + std::to_string(p.port) + " " + p.link_layer + " " + std::to_string(p.state);
    }
  }
  if (s.type == "optoe" && s.discovery.discover) {
    for (const optoe::DiscoveredEeprom& e : discover_eeproms(s, find_sonic_port_map(s)).found) {
      fp += "\neeprom " + e.config.path + " " + e.name;
    }
  }
  return fp;
}

}  // namespace

std::size_t BuiltSources::port_count() const {
  std::size_t n = 0;
  for (const BuiltSource& s : sources) n += s.port_names.size();
  return sources.empty() ? ports.size() : n;
}

std::variant<BuiltSources, SourceError> build_sources(const Config& config, const BuiltSources* running) {
  BuiltSources out;
  std::vector<bool> claimed(running != nullptr ? running->sources.size() : 0, false);
  std::map<std::string, std::string> owner;  // port name -> location of the source defining it
  const std::set<std::string> listed = claimed_by_listed_ports(config);
  for (const SourceConfig& s : config.sources) {
    BuiltSource record;
    record.fingerprint = fingerprint(s);
    for (std::size_t i = 0; i < claimed.size(); ++i) {
      if (!claimed[i] && running->sources[i].fingerprint == record.fingerprint) {
        claimed[i] = true;
        record.port_names = running->sources[i].port_names;
        record.resources = running->sources[i].resources;
        record.reused = true;
        break;
      }
    }
    if (!record.reused) {
      BuiltSources one;
      if (auto err = build_one(s, listed, one)) return *err;
      for (const PortSpec& p : one.ports) record.port_names.push_back(p.id.port);
      record.resources = one.resources;
      for (PortSpec& p : one.ports) out.ports.push_back(std::move(p));
      out.notes.insert(out.notes.end(), one.notes.begin(), one.notes.end());
    }
    for (const std::string& name : record.port_names) {
      auto [it, fresh] = owner.emplace(name, s.config_location);
      if (!fresh) {
        return SourceError{s.config_location + ": port '" + name + "' is also defined by the source at " + it->second +
                           "; port names must be unique across sources"};
      }
    }
    out.resources.insert(out.resources.end(), record.resources.begin(), record.resources.end());
    out.sources.push_back(std::move(record));
  }
  return out;
}

std::optional<SourceError> build_one(const SourceConfig& s, const std::set<std::string>& claimed, BuiltSources& out) {
  {
    std::optional<SourceError> err;
    if (s.type == "file") {
      err = add_file_source(s, out);
    } else if (s.type == "emulator") {
      err = add_emulator_source(s, out);
    } else if (s.type == "i2c" || s.type == "optoe" || s.type == "netlink") {
      // Devices are opened lazily by their transports: a missing bus or module shows up as an
      // absent port and an error counter, not as a daemon that refuses to start.
      err = add_device_source(s, claimed, out);
    } else if (s.type == "ib") {
      // Opened now, unlike the device sources: the CA port, the subnet walk and each target's
      // probe decide which ports exist.
      err = add_ib_source(s, out);
    } else {
      err = SourceError{s.config_location + ": source type '" + s.type +
                        "' is not available in this build yet"};
    }
    if (err) return *err;
  }
  return std::nullopt;
}

}  // namespace xcvr::daemon
