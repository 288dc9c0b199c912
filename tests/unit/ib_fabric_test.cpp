// The daemon's PollEngine polls an emulated fabric of 16 Quantum-2 switches (64 cages of
// twin-port 800G OSFP modules each), configured as a config file's `ib` source and opened by
// the production code above the umad seam, from an emulated ConnectX-7:
// every module's data arrives; injected timeouts and busy statuses recover; a dead switch
// affects only its own ports; steady state costs <= 2 MADs per module (128-byte MCIA) or
// <= 4 (48-byte). Virtual time throughout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "daemon/poll_engine.hpp"
#include "cmis/read_plan.hpp"
#include "tests/support/ib/fabric_sweep.hpp"
#include "tests/support/ib/fake_fabric.hpp"
#include "drivers/ib/ib_ports.hpp"
#include "drivers/ib/ib_source.hpp"
#include "drivers/ib/ib_source_setup.hpp"

namespace xcvr::ib {
namespace {

using base::kMicrosecond;
using base::kSecond;


std::string leaf(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "leaf-%02d", i);
  return buf;
}

// The production path above the umad seam: a config file's `ib` source (daemon::parse_config)
// opened by ib::open_ib_source (as daemon/ib_source.cpp does) into the daemon's PollEngine.
struct Subnet {
  std::shared_ptr<base::VirtualClock> clock_ptr = std::make_shared<base::VirtualClock>(1000 * kSecond);
  base::VirtualClock& clock = *clock_ptr;
  FakeFabric fabric{clock, 200 * kMicrosecond};
  FakeNode* hca = nullptr;
  std::vector<FakeNode*> switches;
  IbSource source;
  IbPorts& ib = source.ports;
  daemon::Config config;
  daemon::SnapshotStore store;
  daemon::AgingStore aging{""};
  std::unique_ptr<daemon::PollEngine> engine;

  explicit Subnet(int n = 16, bool mcia_128 = true) {
    hca = &fabric.add_connectx7(1, 0x0002C90300000001ULL, "exporter-01 mlx5_0");
    std::string toml = "[poll]\ndynamic_interval = 5\nsettle_delay = 2\nstale_after_intervals = 3\nbackoff_max = 20\n"
                       "[[source]]\ntype = \"ib\"\nca = \"mlx5_0\"\nlocal = false\n";
    for (int i = 0; i < n; ++i) {
      FakeNode& sw = fabric.add_quantum2(static_cast<uint16_t>(100 + i), 0x0002C90300001000ULL + static_cast<uint64_t>(i), leaf(i));
      sw.set_mcia_128(mcia_128);
      switches.push_back(&sw);
      toml += "[[source.target]]\nlid = " + std::to_string(100 + i) + "\n";
    }
    auto parsed = daemon::parse_config(toml, "fabric.toml");
    if (auto* e = std::get_if<daemon::ConfigError>(&parsed)) throw std::runtime_error(e->to_string());
    config = std::get<daemon::Config>(parsed);
    const DeviceOpener opener = [this](const std::string& ca, int port, bool smp) {
      EXPECT_EQ(ca, "mlx5_0");
      EXPECT_EQ(port, 1);
      return std::variant<std::unique_ptr<UmadDevice>, drivers::Error>(fabric.open(*hca, smp));
    };
    auto opened = open_ib_source(config.sources.at(0).as<ib::IbSourceConfig>().ib, opener, clock_ptr);
    if (auto* e = std::get_if<drivers::Error>(&opened)) throw std::runtime_error(e->message);
    source = std::move(std::get<IbSource>(opened));
    std::vector<daemon::PortSpec> specs;
    for (IbModulePort& p : ib.ports) {
      specs.push_back({daemon::PortIdentity{p.name, p.node, "ib", "OSFP", {}, {}}, std::move(p.transport)});
    }
    engine = std::make_unique<daemon::PollEngine>(config, std::move(specs), clock, store, aging);
  }

  // Steps at most every `quantum` seconds: ports due within it are polled together (a step
  // publishes a snapshot of all 1024 ports, so one step per port's due time would be slow).
  void run_for(double seconds, double quantum = 0.5) {
    const double end = clock.monotonic() + seconds;
    while (clock.monotonic() < end) {
      const double next = engine->step();
      const double target = std::min(std::max(next, clock.monotonic() + quantum), end);
      clock.advance(static_cast<int64_t>((target - clock.monotonic()) * 1e9) + 1);
    }
  }
  uint64_t mads() const {
    uint64_t n = 0;
    for (const FakeNode* s : switches) n += s->mads();
    return n;
  }
  uint64_t link_mads() const {  // link health (PMA PortCounters, PPCNT, PPHCR), on its own interval
    uint64_t n = 0;
    for (const FakeNode* s : switches) {
      n += s->pma_mads() + s->register_accesses(kRegPpcnt) + s->register_accesses(kRegPphcr);
    }
    return n;
  }
};

TEST(IbFabric, PollsEveryModuleOf16Switches) {
  Subnet s;
  EXPECT_TRUE(s.ib.warnings.empty());
  ASSERT_EQ(s.ib.ports.size(), 16u * kQuantum2Cages);
  EXPECT_EQ(s.engine->domain_count(), 32u);  // 2 lanes per switch
  s.run_for(12);
  const auto snap = s.store.current();
  ASSERT_EQ(snap->ports.size(), 16u * kQuantum2Cages);
  for (const daemon::PortSnapshot& p : snap->ports) {
    EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
    EXPECT_EQ(p.source, "ib");
    EXPECT_EQ(p.port.substr(0, 8), p.node + "/") << p.port;
    EXPECT_EQ(p.node.substr(0, 5), "leaf-");
    ASSERT_NE(p.report, nullptr) << p.port;
    EXPECT_TRUE(p.report->temperature_celsius) << p.port;
    EXPECT_EQ(p.report->lanes.size(), 8u) << p.port;
    EXPECT_EQ(p.insertions_total, 1u);
  }
  for (const FakeNode* sw : s.switches) EXPECT_EQ(sw->module_write_violations(), 0u);
  EXPECT_EQ(s.store.current()->ports.front().report->id.part_number.empty(), false);
}

// A per-module figure: 4 switches (128 modules) measure it as well as 16 at a quarter of the
// CPU (each engine step copies every port's snapshot).
// Module MADs only: the link-health poll (PMA, PPCNT, PPHCR, every link_interval) is counted apart,
// per module.
double steady_mads_per_module(bool mcia_128, double* link_per_module = nullptr) {
  const int switches = 4;
  Subnet s(switches, mcia_128);
  s.run_for(15);  // settle, static reads, first dynamic polls
  auto lower_reads = [&s] {
    uint64_t n = 0;
    for (const FakeNode* sw : s.switches) n += sw->mcia_lower();
    return n;
  };
  const uint64_t mads_before = s.mads(), polls_before = lower_reads(), link_before = s.link_mads();
  s.run_for(30);
  for (const daemon::PortSnapshot& p : s.store.current()->ports) EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
  // Every steady-state poll reads lower memory exactly once (26 bytes: one MCIA at 48 or 128).
  const uint64_t polls = lower_reads() - polls_before;
  EXPECT_GE(polls, switches * kQuantum2Cages * 5u);
  const uint64_t link = s.link_mads() - link_before;
  if (link_per_module != nullptr) *link_per_module = static_cast<double>(link) / (switches * static_cast<double>(kQuantum2Cages));
  return static_cast<double>(s.mads() - mads_before - link) / static_cast<double>(polls);
}

TEST(IbFabric, SteadyStateMadsPerModule) {
  double link = 0;
  const double m128 = steady_mads_per_module(true, &link);
  EXPECT_LE(m128, 2.0);
  EXPECT_GE(m128, 2.0) << "the dynamic plan is two reads, presence is free";
  const double m48 = steady_mads_per_module(false);
  EXPECT_LE(m48, 4.0);
  EXPECT_GE(m48, 3.0);  // 26 B -> 1, 74 B -> 48 + 26 -> 2
  EXPECT_LE(m48, 3.0);
  std::printf("[ IB ] steady-state MADs per module per poll: %.3f (128-byte MCIA), %.3f (48-byte)\n", m128, m48);
  // Link health, 30 s of polling at link_interval = 30 s: one PortCounters and two PPCNT (BER,
  // FEC histogram) per IB port, six per twin-port cage (the PMLP map, ClassPortInfo, GeneralInfo
  // and the histograms' bins, PPHCR, were learned in the first 15 s).
  EXPECT_DOUBLE_EQ(link, 6.0);
  std::printf("[ IB ] link-health MADs per module per link poll: %.3f (PortCounters + 2 PPCNT, twin-port cage)\n",
              link);
}

TEST(IbFabric, InjectedTimeoutsAndBusyStatusesRecover) {
  Subnet s;
  s.run_for(12);
  s.switches[3]->drop_next(5);
  s.switches[4]->busy_next(10, FakeBusy::RegisterStatus);
  s.switches[5]->busy_next(6, FakeBusy::McciaI2cError);
  s.switches[6]->busy_next(8, FakeBusy::MadStatus);
  s.run_for(15);
  for (const daemon::PortSnapshot& p : s.store.current()->ports) {
    EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
    EXPECT_FALSE(p.stale) << p.port;
  }
  uint64_t timeouts = 0;
  for (const auto& t : s.ib.targets) timeouts += t->stats().busy;
  EXPECT_GE(timeouts, 10u + 8u);
}

TEST(IbFabric, DeadSwitchAffectsOnlyItsOwnPorts) {
  Subnet s;
  s.run_for(12);
  s.switches[7]->set_dead(true);
  const uint64_t dead_mads_before = s.switches[7]->mads();
  s.run_for(25);
  const double now = s.clock.wall();
  for (const daemon::PortSnapshot& p : s.store.current()->ports) {
    if (p.node == "leaf-07") {
      EXPECT_NE(daemon::port_state_name(p.state), "ok") << p.port;
      EXPECT_TRUE(p.stale) << p.port;
      EXPECT_GT(p.read_errors_total.at("busy"), 0u) << p.port;
    } else {
      EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
      EXPECT_LT(now - p.last_good_read_unix, 5.0 + 1.0) << p.port;
    }
  }
  // Two lanes x (2 unanswered transactions x 3 attempts) before the breakers open, then
  // nothing until the first probe 30 s later.
  EXPECT_LE(s.switches[7]->mads() - dead_mads_before, 12u);
  s.switches[7]->set_dead(false);
  s.run_for(35);  // the breaker's probe (30 s after it opened), then the ports' own backoff
  for (const daemon::PortSnapshot& p : s.store.current()->ports) EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
}

TEST(IbFabric, DynamicPlanMatchesTheDaemons) {
  Subnet s(1);
  s.run_for(12);
  daemon::PortPoller* p = s.engine->port("leaf-00/1");  // front-panel cage 1
  ASSERT_NE(p, nullptr);
  const auto daemon_plan = cmis::dynamic_reads(p->image());
  const auto plan = cmis_dynamic_plan();
  ASSERT_EQ(daemon_plan.size(), plan.size());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(daemon_plan[i].offset, plan[i].offset);
    EXPECT_EQ(daemon_plan[i].length, plan[i].length);
    EXPECT_EQ(daemon_plan[i].page.bank, plan[i].bank);
  }
}

// True parallelism in virtual time: every lane sweeps its modules at once under a DesClock.
struct SweepRig {
  DesClock clock{1000 * kSecond};
  FakeFabric fabric{clock};
  IbPorts ib;
  SweepRig(int switches, int64_t latency_ns, int lanes, double rate, int slow_switch = -1) {
    fabric.set_latency_ns(latency_ns);
    FakeNode& hca = fabric.add_connectx7(1, 1, "exporter-01 mlx5_0");
    std::vector<TargetSpec> targets;
    for (int i = 0; i < switches; ++i) {
      // 64 cages: the densest switch, the sweep docs/benchmarks-ib.md reports (16 x 64).
      FakeNode& sw = fabric.add_quantum2(static_cast<uint16_t>(100 + i), 0x1000 + static_cast<uint64_t>(i), leaf(i), 64);
      if (i == slow_switch) sw.set_extra_latency_ns(20 * latency_ns);
      TargetSpec t;
      t.options.lid = static_cast<uint16_t>(100 + i);
      targets.push_back(t);
    }
    IbPortsOptions o;
    o.lanes_per_target = lanes;
    o.rate_per_second = rate;
    auto built = build_ib_ports(targets, [&] { return std::variant<std::unique_ptr<UmadDevice>, drivers::Error>(fabric.open(hca)); },
                                clock, o);
    ib = std::move(std::get<IbPorts>(built));
  }
  SweepResult sweep_all(double rate, double burst = 32) {
    std::vector<IbTransport*> ports;
    for (auto& p : ib.ports) ports.push_back(p.transport.get());
    return sweep(ports, cmis_dynamic_plan(), clock, fabric.latency_ns(), rate, burst);
  }
};

TEST(IbFabric, SweepOf16x64ModulesMeetsItsLowerBound) {
  for (int lanes : {1, 2, 4}) {
    SweepRig rig(16, 1000 * kMicrosecond, lanes, 0);
    const SweepResult r = rig.sweep_all(0);
    EXPECT_EQ(r.errors, 0u);
    EXPECT_EQ(r.mads, 2048u);
    EXPECT_EQ(r.lanes, static_cast<std::size_t>(16 * lanes));
    EXPECT_NEAR(r.bound_seconds, 64.0 / lanes * 2 * 1e-3, 1e-9);
    EXPECT_GE(r.seconds, r.bound_seconds - 1e-9);
    EXPECT_LE(r.seconds, r.bound_seconds * 1.01) << lanes << " lanes";
  }
  // The subnet rate limit binds: 2048 MADs at 5000/s after a 32-MAD burst.
  SweepRig limited(16, 1000 * kMicrosecond, 2, 5000);
  const SweepResult r = limited.sweep_all(5000);
  EXPECT_NEAR(r.bound_seconds, (2048.0 - 32.0) / 5000.0 + 1e-3, 1e-9);
  EXPECT_GE(r.seconds, r.bound_seconds - 1e-9);
  EXPECT_LE(r.seconds, r.bound_seconds * 1.01);
}

TEST(IbFabric, ASlowSwitchDelaysOnlyItself) {
  SweepRig rig(16, 500 * kMicrosecond, 2, 0, /*slow_switch=*/9);
  std::vector<IbTransport*> fast;
  for (auto& p : rig.ib.ports) {
    if (p.node != "leaf-09") fast.push_back(p.transport.get());
  }
  // The fast switches alone, then everyone: the fast lanes finish at the same virtual time.
  const SweepResult alone = sweep(fast, cmis_dynamic_plan(), rig.clock, 500 * kMicrosecond, 0, 0);
  std::vector<IbTransport*> all;
  for (auto& p : rig.ib.ports) all.push_back(p.transport.get());
  const SweepResult with_slow = sweep(all, cmis_dynamic_plan(), rig.clock, 500 * kMicrosecond, 0, 0);
  EXPECT_NEAR(alone.seconds, alone.bound_seconds, 1e-6);
  EXPECT_GT(with_slow.seconds, 10 * alone.seconds) << "the slow switch takes 21x per MAD";
  EXPECT_EQ(with_slow.errors, 0u);
  int unaffected = 0;
  for (const auto& [lane, seconds] : with_slow.lane_seconds) {
    if (std::abs(seconds - alone.seconds) < 1e-6) ++unaffected;
  }
  EXPECT_EQ(unaffected, 30) << "every lane but the slow switch's two finishes as if it were not there";
}

}  // namespace
}  // namespace xcvr::ib
