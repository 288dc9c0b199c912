#include "drivers/netlink/netlink_source.hpp"

#include "drivers/discover_report.hpp"
#include "drivers/netlink/netdev_watch.hpp"

namespace xcvr::netlink {

std::optional<std::string> NetlinkSource::build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const {
  for (const NetlinkPortConfig& c : ports) out.ports.push_back({c.port, "", "", std::make_unique<NetlinkTransport>(c)});
  if (!discovery.discover) return std::nullopt;
  // Every netdev with a module interface, as a port named by the netdev (node_exporter's `device`).
  const NetdevDiscovery d = discover_netdevs();
  std::vector<drivers::FoundPort> found;
  for (const DiscoveredNetdev& n : d.found) {
    NetlinkPortConfig c;
    c.netdev = c.port = n.netdev;
    c.trust_banks = trust_banks;
    found.push_back({n.netdev, "netdev:" + n.netdev, [c] { return std::make_unique<NetlinkTransport>(c); }});
  }
  std::string looked_at = "physical netdevs looked at: " + std::to_string(d.found.size() + d.skipped.size());
  for (std::size_t i = 0; i < d.skipped.size(); ++i) looked_at += (i == 0 ? "; skipped: " : "; ") + d.skipped[i];
  drivers::add_found(discovery, ctx, found,
                     {"netlink", "no netdev with a module interface", looked_at,
                      "Name ports with [[source.port]] netdev = \"…\", or add i2c/optoe/ib sources (docs/configuration.md)"},
                     out);
  return std::nullopt;
}

std::string NetlinkSource::fingerprint() const {
  std::string fp;
  if (discovery.discover) {
    for (const std::string& n : physical_netdevs()) fp += "\nnetdev " + n;
  }
  return fp;
}

std::vector<std::string> NetlinkSource::claims() const {
  return drivers::claims_of(ports, "netdev:", [](const NetlinkPortConfig& p) { return p.netdev; });
}

namespace {

std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable& t, std::span<const drivers::ListedPort> listed,
                                                     const std::string&) {
  auto s = std::make_unique<NetlinkSource>();
  s->discovery = drivers::Discovery::read(t, !listed.empty());
  s->trust_banks = t.boolean("trust_banks").value_or(false);
  for (const drivers::ListedPort& p : listed) {
    NetlinkPortConfig c;
    c.port = p.name;
    c.netdev = p.table->str("netdev").value_or(p.name);
    c.domain = p.table->str("domain").value_or("");
    c.trust_banks = p.table->boolean("trust_banks").value_or(s->trust_banks);
    s->ports.push_back(std::move(c));
  }
  return s;
}

constexpr drivers::CliOption kOptions[] = {
    {"netlink", "network interface whose module to read (ethtool netlink; CAP_NET_ADMIN)", false, "netdev"},
    {"trust-banks", "with --netlink: the driver honours CMIS banks (not mlx5)", /*is_flag=*/true},
};

std::variant<drivers::OpenedModule, drivers::Error> open(const drivers::CliValues& v) {
  NetlinkPortConfig cfg;
  cfg.netdev = cfg.port = v.at("netlink");
  cfg.trust_banks = v.count("trust-banks") != 0;
  auto t = std::make_unique<NetlinkTransport>(cfg);
  std::string label = t->describe();
  return drivers::OpenedModule{std::move(t), std::move(label)};
}

constexpr drivers::CliOption kDiscoverOptions[] = {
    {"sysfs-net", "Where the netdevs are (default: sysfs's)"},
};

std::optional<std::string> discover(const drivers::CliValues& v, drivers::DiscoverReport& out) {
  const auto sysfs = v.find("sysfs-net");
  const NetdevDiscovery net = sysfs == v.end() ? discover_netdevs() : discover_netdevs(sysfs->second);
  out.text = "netlink (ethtool MODULE_EEPROM_GET): " + std::to_string(net.found.size()) + " of " +
             std::to_string(net.found.size() + net.skipped.size()) + " physical netdevs\n";
  nlohmann::json found = nlohmann::json::array();
  for (const DiscoveredNetdev& n : net.found) {
    out.text += "  " + n.netdev + "  " + n.domain + "\n";
    found.push_back({{"netdev", n.netdev}, {"domain", n.domain}});
  }
  for (const std::string& s : net.skipped) out.text += "  skipped " + s + "\n";
  out.json = {{"found", found}, {"skipped", net.skipped}};
  if (!net.found.empty()) out.config = "\n[[source]]\ntype = \"netlink\"\n";
  for (const DiscoveredNetdev& n : net.found) {
    out.config += "[[source.port]]\nname = " + drivers::toml_string(n.netdev) + "\nnetdev = " +
                  drivers::toml_string(n.netdev) + "\n";
  }
  return std::nullopt;
}

std::unique_ptr<drivers::DiscoveryWatch> watch() { return std::make_unique<NetdevWatch>(); }

}  // namespace

const drivers::SourceKind kNetlinkSource{
    .type = "netlink", .port_table = "port", .lists_devices = true, .can_discover = true, .parse = parse, .options = kOptions, .open = open,
    .discover_options = kDiscoverOptions, .discover = discover, .watch = watch,
    .access = "run as root, or with CAP_NET_ADMIN"};

}  // namespace xcvr::netlink
