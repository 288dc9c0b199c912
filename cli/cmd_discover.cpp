// xcvrctl discover [--emit-config]: what each source type would find on this host, the same
// discovery the daemon runs (netlink, optoe) plus the local InfiniBand ports an `ib` source can
// use; i2c-dev buses are never probed. --emit-config prints it as config to edit (rename ports,
// drop some) instead of relying on discovery; --json as one object.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/ib/umad_device.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::cli {
namespace {

struct DiscoverOptions {
  bool emit_config = false;
  bool json = false;
  std::string sysfs_net = "/sys/class/net";
  std::string i2c_devices = optoe::kSysI2cDevices;
  std::string sx_core = optoe::kSysSxCore;
  std::vector<std::string> drivers = optoe::kOptoeDrivers;
  std::string sonic_port_map;  // as the optoe source's setting: "" = SONiC's own places
};

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void print_found(const ethtool::NetdevDiscovery& net, const optoe::EepromDiscovery& eeproms,
                 const std::vector<ib::LocalPort>& ib_ports) {
  std::cout << "netlink (ethtool MODULE_EEPROM_GET): " << net.found.size() << " of "
            << net.found.size() + net.skipped.size() << " physical netdevs\n";
  for (const auto& n : net.found) std::cout << "  " << n.netdev << "  " << n.domain << '\n';
  for (const auto& s : net.skipped) std::cout << "  skipped " << s << '\n';
  std::cout << "optoe / sx_core: " << eeproms.found.size() << " module eeproms (" << eeproms.looked_at
            << " i2c clients and sx_core modules looked at)\n";
  for (const auto& e : eeproms.found) std::cout << "  " << e.name << "  " << e.config.path << '\n';
  std::cout << "ib (local InfiniBand ports, for `type = \"ib\"`): " << ib_ports.size() << '\n';
  for (const auto& p : ib_ports) {
    std::cout << "  " << p.ca << ':' << p.port << "  " << p.link_layer << "  state " << p.state << "  lid " << p.lid
              << '\n';
  }
  std::cout << "i2c: never probed (unsafe on arbitrary buses); `i2cdetect -l` lists the adapters\n";
}

void emit_config(const ethtool::NetdevDiscovery& net, const optoe::EepromDiscovery& eeproms,
                 const std::vector<ib::LocalPort>& ib_ports) {
  std::cout << "# Written by xcvrctl discover --emit-config: the ports found on this host, named as\n"
               "# discovery names them. Rename or drop ports, then use it instead of discovery.\n";
  if (!net.found.empty()) {
    std::cout << "\n[[source]]\ntype = \"netlink\"\n";
    for (const auto& n : net.found) {
      std::cout << "[[source.port]]\nname = " << toml_string(n.netdev) << "\nnetdev = " << toml_string(n.netdev)
                << '\n';
    }
  }
  if (!eeproms.found.empty()) {
    std::cout << "\n[[source]]\ntype = \"optoe\"\n";
    for (const auto& e : eeproms.found) {
      std::cout << "[[source.port]]\nname = " << toml_string(e.name) << "\npath = " << toml_string(e.config.path)
                << '\n';
    }
  }
  for (const auto& p : ib_ports) {
    if (!ib::is_infiniband(p.link_layer)) continue;
    std::cout << "\n# This host's own modules through " << p.ca << ':' << p.port
              << " (needs the umad drop-in, docs/installation.md)\n#[[source]]\n#type = \"ib\"\n#ca = "
              << toml_string(p.ca) << "\n#port = " << p.port << "\n#local = true\n";
  }
}

nlohmann::json to_json(const ethtool::NetdevDiscovery& net, const optoe::EepromDiscovery& eeproms,
                       const std::vector<ib::LocalPort>& ib_ports) {
  using nlohmann::json;
  json netdevs = json::array(), found = json::array(), ports = json::array();
  for (const auto& n : net.found) netdevs.push_back({{"netdev", n.netdev}, {"domain", n.domain}});
  for (const auto& e : eeproms.found) found.push_back({{"port", e.name}, {"path", e.config.path}});
  for (const auto& p : ib_ports) {
    ports.push_back({{"ca", p.ca}, {"port", p.port}, {"link_layer", p.link_layer}, {"state", p.state}, {"lid", p.lid}});
  }
  return {{"netlink", {{"found", netdevs}, {"skipped", net.skipped}}},
          {"optoe", {{"found", found}, {"looked_at", eeproms.looked_at}}},
          {"ib", ports}};
}

int run_discover(const DiscoverOptions& o) {
  const auto net = ethtool::discover_netdevs(o.sysfs_net);
  const optoe::SonicMapLookup sonic = optoe::lookup_sonic_port_map(o.sonic_port_map);
  if (!sonic.error.empty()) {
    std::cerr << "xcvrctl discover: --sonic-port-map: " << sonic.error << '\n';
    return kExitUnreadable;
  }
  if (!sonic.note.empty() && !o.json && !o.emit_config) std::cout << sonic.note << '\n';
  const auto eeproms = optoe::discover_optoe(o.i2c_devices, o.sx_core, o.drivers, sonic.map ? &*sonic.map : nullptr);
  const auto ib_ports = ib::list_local_ports();
  if (o.json) {
    std::cout << to_json(net, eeproms, ib_ports).dump(2) << '\n';
  } else if (o.emit_config) {
    emit_config(net, eeproms, ib_ports);
  } else {
    print_found(net, eeproms, ib_ports);
  }
  return kExitClean;
}

}  // namespace

void add_discover_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<DiscoverOptions>();
  CLI::App* cmd = app.add_subcommand("discover", "What each source type would find on this host (netlink, optoe, "
                                                 "ib); i2c buses are never probed");
  cmd->add_flag("--emit-config", opts->emit_config, "Print the ports found as config to edit");
  cmd->add_flag("--json", opts->json, "Print what was found as JSON");
  cmd->add_option("--sysfs-net", opts->sysfs_net, "Where the netdevs are")->capture_default_str();
  cmd->add_option("--i2c-devices", opts->i2c_devices, "Where the i2c clients are")->capture_default_str();
  cmd->add_option("--sx-core", opts->sx_core, "Where NVIDIA sx_core's module directories are")->capture_default_str();
  cmd->add_option("--optoe-drivers", opts->drivers, "i2c drivers whose eeprom file is a module's (sff8436, 24c02)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--sonic-port-map", opts->sonic_port_map,
                  "SONiC port_config.ini or platform.json naming front-panel ports (default: where SONiC keeps "
                  "it; none: never)");
  cmd->callback([opts, &exit_code] { exit_code = run_discover(*opts); });
}

}  // namespace xcvr::cli
