// The IB source as the daemon builds it: subnet discovery by directed route, targets by LID
// and GUID, sharding one fabric over n instances with no module polled twice, the ib source
// kind's ports from a parsed config, and one module as `xcvrctl show --ib` opens it, on an
// emulated fabric and without hardware (the real binary).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <set>
#include <sstream>

#include "daemon/sources.hpp"
#include "tests/support/ib/fake_fabric.hpp"
#include "cmis/decode.hpp"
#include "drivers/ib/ib_module.hpp"
#include "drivers/ib/ib_source.hpp"
#include "drivers/module_reader.hpp"
#include "tests/support/run_command.hpp"


namespace xcvr::ib {
namespace {

using base::kSecond;

drivers::BuildContext context(const std::string& location) {
  drivers::BuildContext ctx;
  ctx.location = location;
  return ctx;
}

// The ports as the daemon polls them (build_sources' PortSpecs).
std::vector<daemon::PortSpec> specs(drivers::SourceBuild& built) {
  daemon::SourceConfig ib;
  ib.type = "ib";
  std::vector<std::string> problems;
  return daemon::port_specs(ib, built, problems);
}

// host HCA -- leaf-00..leaf-(n-1), every leaf linked to spine-00 and spine-01.
struct Topology {
  std::shared_ptr<base::VirtualClock> clock = std::make_shared<base::VirtualClock>(1000 * kSecond);
  FakeFabric fabric{*clock};
  FakeNode* hca = nullptr;
  std::vector<FakeNode*> leaves, spines;

  explicit Topology(int n_leaves = 4, int cages = 4) {
    hca = &fabric.add_connectx7(1, 0xA000, "host-01 mlx5_0");
    for (int s = 0; s < 2; ++s) {
      spines.push_back(&fabric.add_quantum2(static_cast<uint16_t>(200 + s), 0xB000 + static_cast<uint64_t>(s),
                                            "spine-0" + std::to_string(s), cages));
    }
    for (int i = 0; i < n_leaves; ++i) {
      leaves.push_back(&fabric.add_quantum2(static_cast<uint16_t>(100 + i), 0xC000 + static_cast<uint64_t>(i),
                                            "leaf-0" + std::to_string(i), cages));
      fabric.connect(*leaves.back(), 1, *spines[0], static_cast<uint8_t>(1 + i));
      fabric.connect(*leaves.back(), 2, *spines[1], static_cast<uint8_t>(1 + i));
    }
    fabric.connect(*hca, 1, *leaves.front(), 5);
  }
  DeviceOpener opener() {
    return [this](const std::string&, int, bool smp) {
      return std::variant<std::unique_ptr<UmadDevice>, drivers::Error>(fabric.open(*hca, smp));
    };
  }
};

TEST(IbSource, DiscoveryWalksTheSubnetByDirectedRoute) {
  Topology t;
  MadChannel ch(t.fabric.open(*t.hca), *t.clock, nullptr, MadPolicy{}, "walk");
  auto r = discover_subnet(ch);
  ASSERT_TRUE((std::holds_alternative<std::vector<DiscoveredNode>>(r)));
  const auto& nodes = std::get<std::vector<DiscoveredNode>>(r);
  ASSERT_EQ(nodes.size(), 1u + 2u + 4u);
  EXPECT_EQ(nodes[0].guid, 0xA000u);
  EXPECT_EQ(nodes[0].lid, 1);
  EXPECT_TRUE(nodes[0].path.empty());
  std::set<std::string> names;
  for (const DiscoveredNode& n : nodes) {
    names.insert(n.description);
    if (n.description.starts_with("leaf") || n.description.starts_with("spine")) {
      EXPECT_EQ(n.node_type, kNodeTypeSwitch) << n.description;
      EXPECT_EQ(t.fabric.by_lid(n.lid)->config().description, n.description);
    }
  }
  EXPECT_EQ(names.count("spine-01"), 1u);
  EXPECT_EQ(names.count("leaf-03"), 1u);
  // Without QP0 access there is no walk, and it says why.
  MadChannel no_smp(t.fabric.open(*t.hca, false), *t.clock, nullptr, MadPolicy{}, "walk");
  auto denied = discover_subnet(no_smp);
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(denied));
  EXPECT_EQ(std::get<drivers::Error>(denied).kind, drivers::ErrorKind::Permission);
}

TEST(IbSource, TargetsByLidGuidAndDiscovery) {
  Topology t;
  IbSourceSettings s;
  s.ca = "mlx5_0";
  s.local = true;
  s.targets.push_back({0, 0xC002, "", {0, 1}});  // leaf-02 by GUID, MCIA modules 0 and 1: cages 1 and 2
  s.targets.push_back({201, 0, "spine-B", {}});  // spine-01 by LID, renamed
  auto r = open_ib_source(s, t.opener(), t.clock);
  ASSERT_TRUE(std::holds_alternative<IbSource>(r)) << std::get<drivers::Error>(r).message;
  const IbSource& src = std::get<IbSource>(r);
  std::set<std::string> ports;
  for (const IbModulePort& p : src.ports.ports) ports.insert(p.name);
  EXPECT_EQ(ports.size(), 1u + 2u + 4u);
  EXPECT_EQ(ports.count("host-01 mlx5_0/1"), 1u);
  EXPECT_EQ(ports.count("leaf-02/1"), 1u);
  EXPECT_EQ(ports.count("leaf-02/2"), 1u);
  EXPECT_EQ(ports.count("leaf-02/3"), 0u);
  EXPECT_EQ(ports.count("spine-B/4"), 1u);

  s.targets = {{0, 0xDEAD, "", {}}};
  auto missing = open_ib_source(s, t.opener(), t.clock);
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(missing));
  EXPECT_NE(std::get<drivers::Error>(missing).message.find("0x000000000000dead"), std::string::npos);
}

TEST(IbSource, ShardsSplitTheFabricWithNoModulePolledTwice) {
  Topology t(12, 2);
  std::multiset<std::string> everywhere;
  std::vector<std::size_t> per_shard;
  for (int k = 1; k <= 3; ++k) {
    IbSourceSettings s;
    s.ca = "mlx5_0";
    s.local = false;
    s.discover = true;
    s.shard = std::to_string(k) + "/3";
    auto r = open_ib_source(s, t.opener(), t.clock);
    ASSERT_TRUE(std::holds_alternative<IbSource>(r)) << std::get<drivers::Error>(r).message;
    const IbSource& src = std::get<IbSource>(r);
    per_shard.push_back(src.ports.targets.size());
    for (const IbModulePort& p : src.ports.ports) everywhere.insert(p.name);
  }
  EXPECT_EQ(everywhere.size(), 14u * 2u) << "every switch module exactly once over the 3 shards";
  for (const std::string& name : everywhere) EXPECT_EQ(everywhere.count(name), 1u) << name;
  for (std::size_t n : per_shard) EXPECT_GE(n, 1u) << "every shard has work (balance: next test)";
  EXPECT_EQ(per_shard[0] + per_shard[1] + per_shard[2], 14u);
}

TEST(IbSource, ShardOwnershipIsStableAndMovesLittle) {
  EXPECT_EQ(parse_shard("2/5")->index, 2);
  EXPECT_FALSE(parse_shard("0/3"));
  EXPECT_FALSE(parse_shard("4/3"));
  EXPECT_FALSE(parse_shard("1/"));
  EXPECT_FALSE(parse_shard("a/b"));
  // Fixed values: the hash is part of the deployment contract (instances must agree).
  EXPECT_EQ(shard_owner(0x0002C90300A1B2C3ULL, 4), shard_owner(0x0002C90300A1B2C3ULL, 4));
  int moved = 0;
  std::vector<int> count(6, 0);
  for (uint64_t g = 0; g < 5000; ++g) {
    const uint64_t guid = 0x0002C90300000000ULL + g * 7919;
    const int a = shard_owner(guid, 5), b = shard_owner(guid, 6);
    ++count[static_cast<std::size_t>(b - 1)];
    if (a != b) {
      ++moved;
      EXPECT_EQ(b, 6) << "growing the shard count only moves switches to the new shard";
    }
  }
  EXPECT_NEAR(moved, 5000 / 6, 120);
  for (int c : count) EXPECT_NEAR(c, 5000 / 6, 150);
}

TEST(IbSource, SettingsAreValidated) {
  IbSourceSettings s;
  EXPECT_FALSE(validate(s));
  s.shard = "3/2";
  EXPECT_NE(validate(s)->find("shard"), std::string::npos);
  s.shard = "";
  s.access = "fast";
  EXPECT_NE(validate(s)->find("access"), std::string::npos);
  s.access = "gmp";
  s.mcia_bytes = 64;
  EXPECT_NE(validate(s)->find("mcia_bytes"), std::string::npos);
  s.mcia_bytes = 0;
  s.targets.push_back({});
  EXPECT_NE(validate(s)->find("lid or a guid"), std::string::npos);
}

TEST(IbSource, DaemonWiringMakesPortSpecs) {
  Topology t(2, 3);
  IbSourceSettings s;
  s.ca = "mlx5_0";
  s.discover = true;
  drivers::SourceBuild out;
  ASSERT_FALSE(add_ib_ports(s, context("config.toml:7:1"), out, t.opener(), t.clock));
  EXPECT_EQ(out.ports.size(), 1u + 4u * 3u);
  EXPECT_EQ(out.keep_alive.size(), 1u);
  std::set<std::string> domains;
  for (const daemon::PortSpec& p : specs(out)) {
    EXPECT_EQ(p.id.source, "ib");
    EXPECT_EQ(p.id.port, p.id.node + "/" + p.id.port.substr(p.id.node.size() + 1));
    domains.insert(p.transport->domain());
  }
  EXPECT_EQ(domains.size(), 1u + 4u * 2u) << "one lane for the HCA's single module, two per switch";

  s.shard = "9/2";
  const auto err = add_ib_ports(s, context("config.toml:7:1"), out, t.opener(), t.clock);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("config.toml:7:1: ib source (CA mlx5_0 port 1): shard"), std::string::npos) << *err;
}

// ca = "*" (a DGX in InfiniBand mode): every active InfiniBand port's own modules, named by the
// CA; what is no active IB port is skipped, a port the service may not open is a note — never
// an error, so the shipped config can carry the source on every host.
TEST(IbSource, EveryCaPollsEachHcaOwnModulesNamedByTheCa) {
  Topology t(1, 2);
  FakeNode& hca2 = t.fabric.add_connectx7(2, 0xA001, "host-01 mlx5_1");
  t.fabric.connect(hca2, 1, *t.leaves.front(), 6);
  IbSourceSettings s;
  s.ca = kEveryCa;
  ASSERT_FALSE(validate(s));
  const std::vector<LocalPort> host = {{"mlx5_0", 1, 1, 0, 0, kPortStateActive, "InfiniBand"},
                                       {"mlx5_1", 1, 2, 0, 0, kPortStateActive, "InfiniBand"},
                                       {"mlx5_2", 1, 0, 0, 0, kPortStateActive, "Ethernet"},
                                       {"mlx5_3", 1, 0, 0, 0, 1, "InfiniBand"},
                                       {"mlx5_4", 1, 5, 0, 0, kPortStateActive, "InfiniBand"}};
  DeviceOpener opener = [&](const std::string& ca, int, bool smp) -> std::variant<std::unique_ptr<UmadDevice>, drivers::Error> {
    if (ca == "mlx5_0") return t.fabric.open(*t.hca, smp);
    if (ca == "mlx5_1") return t.fabric.open(hca2, smp);
    return drivers::Error{drivers::ErrorKind::Permission, "/dev/infiniband/umad4: Permission denied (EACCES)"};
  };
  drivers::SourceBuild out;
  add_every_ca(s, context("config.toml:9:1"), out, host, opener, t.clock);
  EXPECT_EQ(out.keep_alive.size(), 2u);
  std::vector<std::string> names, nodes;
  for (const daemon::PortSpec& p : specs(out)) {
    names.push_back(p.id.port);
    nodes.push_back(p.id.node);
  }
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].rfind("mlx5_0/", 0), 0u) << names[0];
  EXPECT_EQ(names[1].rfind("mlx5_1/", 0), 0u) << names[1];
  EXPECT_EQ(nodes, (std::vector<std::string>{"mlx5_0", "mlx5_1"})) << "node = node_exporter's infiniband device";
  ASSERT_EQ(out.notes.size(), 1u);
  const std::string& note = out.notes[0];
  EXPECT_NE(note.find("ports " + names[0] + ", " + names[1]), std::string::npos) << note;
  EXPECT_NE(note.find("skipped: mlx5_2 (Ethernet), mlx5_3 (not active)"), std::string::npos) << note;
  EXPECT_NE(note.find("Permission denied"), std::string::npos) << note;
  EXPECT_NE(note.find("infiniband.conf"), std::string::npos) << note;

  drivers::SourceBuild none;  // a host without InfiniBand
  add_every_ca(s, context("config.toml:9:1"), none, {}, opener, t.clock);
  EXPECT_TRUE(none.ports.empty());
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_NE(none.notes[0].find("no module; InfiniBand CA ports looked at: 0"), std::string::npos) << none.notes[0];

  s.discover = true;  // every CA walking the same subnet: refused
  EXPECT_NE(validate(s).value_or("").find("ca = \"*\""), std::string::npos);
}

// A config with an `ib` source on a host without InfiniBand (no umad, no such CA): the daemon
// refuses to start with an error naming the source's location and its CA — no crash.
TEST(IbSource, ConfiguredSourceWithoutHardwareIsAClearError) {
  auto parsed = daemon::parse_config("[[source]]\ntype = \"ib\"\nca = \"xcvr_no_such_ca\"\nport = 2\n", "ib.toml");
  ASSERT_TRUE(std::holds_alternative<daemon::Config>(parsed)) << std::get<daemon::ConfigError>(parsed).to_string();
  auto built = daemon::build_sources(std::get<daemon::Config>(parsed));
  ASSERT_TRUE(std::holds_alternative<daemon::SourceError>(built));
  const std::string& m = std::get<daemon::SourceError>(built).message;
  EXPECT_EQ(m.rfind("ib.toml:1:1: ib source (CA xcvr_no_such_ca port 2): ", 0), 0u) << m;
  EXPECT_NE(m.find("InfiniBand xcvr_no_such_ca:2"), std::string::npos) << m;
  // No CA named: the first active port, and there is none.
  auto any = daemon::parse_config("[[source]]\ntype = \"ib\"\n", "ib.toml");
  ASSERT_TRUE(std::holds_alternative<daemon::Config>(any));
  auto built_any = daemon::build_sources(std::get<daemon::Config>(any));
  ASSERT_TRUE(std::holds_alternative<daemon::SourceError>(built_any));
  EXPECT_NE(std::get<daemon::SourceError>(built_any).message.find("no active InfiniBand port"), std::string::npos)
      << std::get<daemon::SourceError>(built_any).message;
}

// The config file's `ib` source, through the kind's parse and add_ib_ports, onto an emulated fabric.
TEST(IbSource, ParsedConfigBuildsTheFabricsPorts) {
  Topology t(3, 2);
  auto parsed = daemon::parse_config(R"(
[[source]]
type = "ib"
ca = "mlx5_0"
local = false
discover = false
rate_limit = 500
max_outstanding = 1
timeout = "50ms"
[[source.target]]
guid = "0xC001"
cages = [2]
[[source.target]]
lid = 200
name = "spine-A"
)", "ib.toml");
  ASSERT_TRUE(std::holds_alternative<daemon::Config>(parsed)) << std::get<daemon::ConfigError>(parsed).to_string();
  const daemon::SourceConfig& sc = std::get<daemon::Config>(parsed).sources.at(0);
  drivers::SourceBuild out;
  ASSERT_FALSE(add_ib_ports(sc.as<IbSourceConfig>().ib, context(sc.config_location), out, t.opener(), t.clock));
  std::set<std::string> names, domains;
  for (const daemon::PortSpec& p : specs(out)) {
    names.insert(p.id.port);
    domains.insert(p.transport->domain());
    EXPECT_EQ(p.id.port.substr(0, p.id.node.size() + 1), p.id.node + "/");
  }
  EXPECT_EQ(names, (std::set<std::string>{"leaf-01/2", "spine-A/1", "spine-A/2"}));
  EXPECT_EQ(domains.size(), 2u) << "max_outstanding = 1: one lane per target";
}

// What `xcvrctl show --ib CA:PORT --lid L --cage C` opens, then reads as the daemon does.
TEST(IbSource, OneModuleOnAnEmulatedFabric) {
  Topology t(1, 8);
  const auto read = [&](int lid, int module, cmis::ModuleImage& image) -> std::pair<std::string, std::optional<drivers::Error>> {
    auto opened = open_ib_module_transport("mlx5_0:1", lid, module, t.opener(), t.clock);
    if (auto* e = std::get_if<drivers::Error>(&opened)) return {"", *e};
    drivers::Transport& transport = *std::get<std::unique_ptr<drivers::Transport>>(opened);
    drivers::UnreachablePages unreachable;
    return {transport.describe(), drivers::read_static(transport, image, unreachable, {}).error};
  };
  cmis::ModuleImage image;
  const auto [leaf, error] = read(100, 3, image);
  EXPECT_FALSE(error) << error->message;
  EXPECT_NE(leaf.find("leaf-00"), std::string::npos) << leaf;
  EXPECT_NE(leaf.find("module 3 (cage 4)"), std::string::npos) << leaf;
  EXPECT_EQ(cmis::decode(image).lanes.size(), 8u);
  // An empty cage, and the local HCA by its own LID (lid 0).
  t.leaves[0]->remove(5);
  cmis::ModuleImage empty;
  const auto [cage, absent] = read(100, 5, empty);
  ASSERT_TRUE(absent);
  EXPECT_NE(absent->message.find("not connected"), std::string::npos) << absent->message;
  EXPECT_TRUE(empty.empty());
  cmis::ModuleImage local;
  const auto [hca, ok] = read(0, 0, local);
  EXPECT_FALSE(ok) << ok->message;
  EXPECT_NE(hca.find("host-01"), std::string::npos) << hca;
}

TEST(IbSource, OpeningWithoutInfinibandHardwareSaysWhat) {
  auto none = open_ib_module_transport("xcvr_no_such_ca:1", 5, 0);
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(none));
  const drivers::Error& e = std::get<drivers::Error>(none);
  EXPECT_NE(e.message.find("xcvr_no_such_ca:1"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("InfiniBand"), std::string::npos) << e.message;
  auto bad = open_ib_module_transport("mlx5_0:x", 5, 0);
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(bad));
  EXPECT_NE(std::get<drivers::Error>(bad).message.find("CA:PORT"), std::string::npos);
  EXPECT_EQ(parse_ca_port("mlx5_1")->second, 1);
  EXPECT_EQ(parse_ca_port("mlx5_1:2")->second, 2);
}

using CliRun = test::CommandResult;

CliRun xcvrctl(const std::string& args) {
  return test::run_command(std::string(XCVRCTL_PATH) + " " + args + " 2>&1");
}

// The real binary on this (InfiniBand-less) test host: exit 2 and say what is missing.
TEST(IbSource, XcvrctlShowIbWithoutHardwareExits2) {
  const CliRun r = xcvrctl("show --ib xcvr_no_such_ca:1 --lid 17 --cage 3");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("xcvrctl show: InfiniBand xcvr_no_such_ca:1: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(no such device on this host?)"), std::string::npos) << r.out;
  const CliRun json = xcvrctl("show --ib xcvr_no_such_ca:1 --json");
  EXPECT_EQ(json.code, 2) << json.out;
  const CliRun bad = xcvrctl("show --ib mlx5_0:x");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("CA:PORT"), std::string::npos) << bad.out;
  const CliRun both = xcvrctl("show --ib mlx5_0:1 --file /dev/null");
  EXPECT_NE(both.code, 0) << both.out;
  const CliRun lid = xcvrctl("show --ib mlx5_0:1 --lid 60000");
  EXPECT_EQ(lid.code, 2) << lid.out;
  EXPECT_NE(lid.out.find("--lid 60000 is not a unicast LID"), std::string::npos) << lid.out;
  for (const char* cage : {"0", "257", "x"}) {
    const CliRun c = xcvrctl(std::string("show --ib mlx5_0:1 --cage ") + cage);
    EXPECT_EQ(c.code, 2) << c.out;
    EXPECT_NE(c.out.find(std::string("--cage ") + cage + " is not a front-panel cage (1-256)"), std::string::npos) << c.out;
  }
  const CliRun orphan = xcvrctl("show --lid 5");
  EXPECT_NE(orphan.code, 0) << "--lid needs --ib";
}

}  // namespace
}  // namespace xcvr::ib
