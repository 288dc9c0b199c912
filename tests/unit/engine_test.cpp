// Poll engine on the emulator, in virtual time: lifecycle, flags, freshness, isolation, budgets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/interned.hpp"
#include "daemon/budget.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using base::kSecond;
using testing_support::Fleet;
using testing_support::make_module;

uint64_t flag_total(const PortSnapshot& p, const std::string& flag, int lane) {
  for (const FlagHistory& f : p.flags) {
    if (f.flag == flag && f.lane == lane) return f.raised_total;
  }
  return 0;
}

TEST(Engine, ReadsEveryPortAfterTheSettleDelay) {
  Fleet f(2, 4);
  EXPECT_EQ(f.engine->domain_count(), 2u);
  f.run_for(1.0);
  EXPECT_EQ(daemon::port_state_name(f.port("sw/b0c0").state), "settling");
  EXPECT_EQ(f.port("sw/b0c0").report, nullptr);
  for (auto& bus : f.buses) EXPECT_EQ(bus->stats().bytes_read, 0u) << "read during the settle delay";
  f.run_for(3.0);
  for (const PortSnapshot& p : f.store.current()->ports) {
    EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
    ASSERT_NE(p.report, nullptr) << p.port;
    EXPECT_EQ(p.insertions_total, 1u);
    EXPECT_TRUE(p.report->temperature_celsius) << p.port;
    EXPECT_EQ(p.report->lanes.size(), 8u) << p.port;
    EXPECT_GT(p.last_good_read_unix, 0);
  }
}

TEST(Engine, SteadyStateReadsOnlyTheDynamicBytes) {
  Fleet f(1, 1);
  // Settle, static read and the first VDM poll done; the window runs between poll times, so it
  // holds exactly ten polls however long the earlier ones took on the bus.
  f.run_for(4.5);
  f.buses[0]->reset_stats();
  f.run_for(10.0);
  const auto stats = f.buses[0]->stats();
  ASSERT_GT(stats.transactions, 0u);
  const double polls = 10.0;
  // CMIS 8-lane dynamic set: lower 0-25 (26 B) + page 11h 128-201 (74 B) = 100 data bytes.
  EXPECT_NEAR(static_cast<double>(stats.bytes_read) / polls, 100.0, 1e-9);
}

// At 2,048 ports each report a port keeps costs ~10 MiB: a report no snapshot holds is gone once
// the next poll has replaced it (no spare kept for reuse), and its flag history's names are
// shared, not copied, by every snapshot.
TEST(Engine, APortHoldsOneReportBetweenPolls) {
  Fleet f(1, 1);
  f.run_for(5.0);
  const std::weak_ptr<const cmis::ModuleReport> before = f.port("sw/b0c0").report;
  ASSERT_FALSE(before.expired());
  f.run_for(2.0);
  const PortSnapshot& now = f.port("sw/b0c0");  // drops the snapshot that held `before`
  ASSERT_NE(now.report, nullptr);
  EXPECT_TRUE(before.expired()) << "a second report is kept per port";
  ASSERT_FALSE(now.flags.empty());  // the insertion's state-change flags
  EXPECT_EQ(now.flags[0].flag.data(), base::interned(now.flags[0].flag).data());
}

TEST(Engine, TransientFlagsBetweenPollsAreCountedExactly) {
  Fleet f(1, 1);
  f.run_for(4.0);
  auto& bus = *f.buses[0];
  for (int i = 0; i < 1000; ++i) {
    // LOS rises and falls between two polls: only the module's latch remembers it.
    bus.with_module(0, [](emulator::EmulatedModule& m) {
      m.faults().rx_los.set(0);
      m.update();
      m.faults().rx_los.reset(0);
      m.update();
    });
    f.run_for(1.0);
  }
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 1000u);
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 2), 0u);
}

TEST(Engine, StuckBusMakesOnlyItsPortsStale) {
  Fleet f(2, 2);
  f.run_for(4.0);
  f.buses[1]->stick(INT64_MAX);
  f.run_for(10.0);
  EXPECT_FALSE(f.port("sw/b0c0").stale);
  EXPECT_EQ(daemon::port_state_name(f.port("sw/b0c0").state), "ok");
  const PortSnapshot& stuck = f.port("sw/b1c0");
  EXPECT_TRUE(stuck.stale);
  EXPECT_GT(stuck.read_errors_total.at("timeout"), 0u);  // a stuck bus times out: not "busy"
  // Identity is kept, marked stale; fresh-looking values are not.
  ASSERT_NE(stuck.report, nullptr);
  EXPECT_LT(stuck.last_good_read_unix, f.clock.wall() - 3);
  // The healthy bus kept polling every interval while the other one timed out.
  const uint64_t before = f.store.current()->domains[0].cycles_total;
  f.run_for(5.0);
  EXPECT_GE(f.store.current()->domains[0].cycles_total - before, 5u);
}

TEST(Engine, HotSwapToADifferentModuleIsANewInsertion) {
  Fleet f(1, 1);
  f.run_for(4.0);
  const std::string serial = f.port("sw/b0c0").report->id.serial;
  f.buses[0]->remove(0);
  f.run_for(2.0);
  EXPECT_EQ(daemon::port_state_name(f.port("sw/b0c0").state), "empty");
  EXPECT_EQ(f.port("sw/b0c0").report, nullptr);
  f.buses[0]->insert(0, make_module("qsfpdd-400g-dr4", f.clock, 77));
  f.run_for(4.0);
  const PortSnapshot& p = f.port("sw/b0c0");
  EXPECT_EQ(p.insertions_total, 2u);
  ASSERT_NE(p.report, nullptr);
  EXPECT_NE(p.report->id.part_number, "");
  EXPECT_EQ(daemon::port_state_name(p.state), "ok");
}

TEST(Engine, BudgetFlagsExactlyTheModulesOverTheAllowance) {
  Fleet f(8, 8, nullptr);
  const char* models[] = {"qsfpdd-400g-sr8", "qsfpdd-400g-dr4", "osfp-800g-2xsr4-finned", "qsfpdd-400g-dac"};
  for (int b = 0; b < 8; ++b) {
    for (int c = 0; c < 8; ++c) f.buses[b]->insert(c, make_module(models[(b + c) % 4], f.clock, b * 8 + c));
  }
  f.run_for(6.0);
  std::vector<PortSnapshot> ports = f.store.current()->ports;
  for (auto& p : ports) p.groups.clear();
  const auto budgets = compute_budgets({BudgetConfig{"spine", "sw/*", 5.0, 320.0, ""}}, ports);
  ASSERT_EQ(budgets.size(), 1u);
  double sum = 0;
  std::vector<std::string> expected_over;
  for (const PortSnapshot& p : ports) {
    ASSERT_NE(p.report, nullptr) << p.port;
    const double w = p.report->max_power_watts.value_or(0);
    sum += w;
    if (w > 5.0) expected_over.push_back(p.port);
    EXPECT_EQ(p.over_power_allowance, w > 5.0) << p.port;
  }
  EXPECT_EQ(budgets[0].ports, 64);
  EXPECT_EQ(budgets[0].present, 64);
  EXPECT_DOUBLE_EQ(budgets[0].allocated_watts, sum);
  EXPECT_EQ(budgets[0].over_allowance_ports, expected_over);
  EXPECT_FALSE(expected_over.empty());  // the 800G twin-port modules draw ~16 W
}

TEST(Engine, NoWriteOtherThanPageSelect) {
  Fleet f(1, 2);
  f.run_for(20.0);
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(f.buses[0]->module(c)->violations(), 0u);
    EXPECT_FALSE(f.buses[0]->module(c)->writes().empty());  // page selects did happen
  }
}

}  // namespace
}  // namespace xcvr::daemon

namespace xcvr::daemon {
namespace {

// Pulls the module out of its cage after `after` reads: an unplug in the middle of a poll.
class UnplugAfter final : public drivers::Transport {
 public:
  UnplugAfter(std::unique_ptr<drivers::Transport> inner, emulator::EmulatedBus& bus, int cage, int after)
      : inner_(std::move(inner)), bus_(bus), cage_(cage), left_(after) {}
  std::string domain() const override { return inner_->domain(); }
  std::string describe() const override { return inner_->describe(); }
  drivers::Presence presence() override { return inner_->presence(); }
  std::optional<drivers::Error> read(const drivers::ReadRequest& r, std::span<uint8_t> out) override {
    if (left_-- == 0) bus_.remove(cage_);
    return inner_->read(r, out);
  }
  void arm(int after) { left_ = after; }

 private:
  std::unique_ptr<drivers::Transport> inner_;
  emulator::EmulatedBus& bus_;
  int cage_;
  int left_;
};

TEST(Engine, UnplugMidReadServesNothingStaleAsFresh) {
  base::VirtualClock clock{1000 * kSecond};
  emulator::BusConfig bc;
  bc.cages = 1;
  emulator::EmulatedBus bus(bc, clock);
  bus.insert(0, make_module("osfp-800g-2xsr4-finned", clock));
  Config config;
  config.poll.dynamic_interval_s = 1;
  config.poll.settle_delay_s = 0.5;
  auto inner = std::make_unique<emulator::EmulatorTransport>(bus, 0, "p0");
  auto unplug = std::make_unique<UnplugAfter>(std::move(inner), bus, 0, 3);  // during the static read
  std::vector<PortSpec> ports;
  ports.push_back({PortIdentity{"p0", "", "emulator", "OSFP", {}, {}}, std::move(unplug)});
  SnapshotStore store;
  AgingStore aging("");
  PollEngine engine(config, std::move(ports), clock, store, aging);
  for (int i = 0; i < 10; ++i) {
    engine.step();
    clock.advance(kSecond / 2);
  }
  const PortSnapshot& p = store.current()->ports.at(0);
  EXPECT_EQ(daemon::port_state_name(p.state), "empty");
  EXPECT_EQ(p.report, nullptr);  // nothing half-read is served
  EXPECT_EQ(p.presence, PortPresence::Absent);
  bus.insert(0, make_module("qsfpdd-400g-fr4", clock, 9));
  for (int i = 0; i < 10; ++i) {
    engine.step();
    clock.advance(kSecond / 2);
  }
  const PortSnapshot& q = store.current()->ports.at(0);
  EXPECT_EQ(daemon::port_state_name(q.state), "ok");
  EXPECT_EQ(q.insertions_total, 2u);
  ASSERT_NE(q.report, nullptr);
  EXPECT_TRUE(q.report->missing_pages.empty()) << q.report->missing_pages[0];
}

}  // namespace
}  // namespace xcvr::daemon

namespace xcvr::daemon {
namespace {

bool flag_raised(const PortSnapshot& p, const std::string& flag, int lane) {
  for (const FlagHistory& f : p.flags) {
    if (f.flag == flag && f.lane == lane) return f.raised;
  }
  return false;
}

const FlagHistory* flag_of(const PortSnapshot& p, const std::string& flag, int lane) {
  for (const FlagHistory& f : p.flags) {
    if (f.flag == flag && f.lane == lane) return &f;
  }
  return nullptr;
}

void transient_tx_fault(emulator::EmulatedModule& m) { testing_support::pulse_tx_fault(m, 3); }

// Design invariant 3: the gauge is a time window (poll.flag_hold, 30 s by default), not a scrape
// window. Scrapes, however many, consume nothing.
TEST(Engine, RaisedFlagShowsForTheHoldWindowWhateverTheScrapes) {
  Fleet f(1, 1);
  const double hold = f.config.poll.flag_hold_s;
  ASSERT_EQ(hold, 30);
  f.run_for(4.0);
  f.buses[0]->with_module(0, transient_tx_fault);
  f.run_for(1.0);
  const FlagHistory* h = flag_of(f.port("sw/b0c0"), "tx_fault", 3);
  ASSERT_NE(h, nullptr);
  EXPECT_TRUE(h->raised);
  const double seen = h->last_seen_unix;
  EXPECT_EQ(h->since_unix, seen);
  EXPECT_GE(h->last_cleared_unix, seen);  // the confirming re-read found it gone at once
  for (int i = 0; i < 50; ++i) (void)f.store.current_for_scrape();
  f.run_for(hold - 5);  // polls that no longer see it, scraped or not: still within the window
  EXPECT_TRUE(flag_raised(f.port("sw/b0c0"), "tx_fault", 3));
  f.run_for(6.0);  // past the window since it was last seen
  h = flag_of(f.port("sw/b0c0"), "tx_fault", 3);
  EXPECT_FALSE(h->raised);
  EXPECT_EQ(h->last_seen_unix, seen);
  EXPECT_EQ(h->raised_total, 1u);
}

// "Since when?": the first read of this raising, not the last one. A flag that goes and comes
// back within the hold window is still the same raising; one that comes back after it is new.
TEST(Engine, FlagSinceIsTheFirstReadOfTheRaising) {
  Fleet f(1, 1);
  f.run_for(4.0);
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().tx_fault.set(2);
    m.update();
  });
  f.run_for(1.0);
  const double since = flag_of(f.port("sw/b0c0"), "tx_fault", 3)->since_unix;
  ASSERT_GT(since, 0);
  const double hold = f.config.poll.flag_hold_s;
  f.run_for(20.0);
  const FlagHistory* h = flag_of(f.port("sw/b0c0"), "tx_fault", 3);
  EXPECT_TRUE(h->raised);
  EXPECT_EQ(h->since_unix, since);
  EXPECT_GE(h->last_seen_unix, since + 19);
  EXPECT_EQ(h->raised_total, 1u);  // persisting: one event
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().tx_fault.reset(2);
    m.update();
  });
  f.run_for(hold / 3);
  f.buses[0]->with_module(0, transient_tx_fault);  // back within the window: same raising
  f.run_for(1.0);
  h = flag_of(f.port("sw/b0c0"), "tx_fault", 3);
  EXPECT_EQ(h->since_unix, since);
  EXPECT_EQ(h->raised_total, 2u);  // but a second event
  f.run_for(hold + 5);
  EXPECT_FALSE(flag_raised(f.port("sw/b0c0"), "tx_fault", 3));
  f.buses[0]->with_module(0, transient_tx_fault);  // after the window: a new raising
  f.run_for(1.0);
  h = flag_of(f.port("sw/b0c0"), "tx_fault", 3);
  EXPECT_TRUE(h->raised);
  EXPECT_GT(h->since_unix, since + 20 + hold / 3 + hold + 5);
  EXPECT_EQ(h->raised_total, 3u);
}

// VDM is read every vdm_interval (60 s); one read during a LOS finds zeros (nothing measured).
// When the light comes back the next poll reads VDM again, rather than serving those zeros for up
// to a minute as a clean link.
TEST(Engine, VdmIsReadAgainWhenLightReturns) {
  Fleet f(1, 1);
  ASSERT_EQ(f.config.poll.vdm_interval_s, 60);
  const auto ber = [&] {
    for (const cmis::VdmObservable& o : f.port("sw/b0c0").report->vdm) {
      if (o.name() == "pre_fec_ber_current_media" && o.lane == 1) return o.value;
    }
    return -1.0;
  };
  f.run_for(4.0);
  ASSERT_GT(ber(), 0);
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().rx_los.set(0);
    m.update();
  });
  f.run_for(70.0);  // a VDM read in the dark
  EXPECT_EQ(ber(), 0);
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().rx_los.reset(0);
    m.update();
  });
  f.run_for(3.0);  // the poll that sees LOS gone, and the next one
  EXPECT_GT(ber(), 0);
}

// A module pulled after a LOS burst and a healthy one inserted: the new module shows no LOS,
// though the port's event counter keeps what happened.
TEST(Engine, ANewModuleDoesNotInheritTheOldOnesFlags) {
  Fleet f(1, 1);
  f.run_for(4.0);
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().rx_los.set(4);
    m.update();
  });
  f.run_for(2.0);
  ASSERT_TRUE(flag_raised(f.port("sw/b0c0"), "rx_los", 5));
  f.buses[0]->insert(0, make_module("qsfpdd-400g-sr8", f.clock, 77));  // swapped within a poll
  f.run_for(5.0);
  const PortSnapshot& p = f.port("sw/b0c0");
  EXPECT_EQ(daemon::port_state_name(p.state), "ok");
  EXPECT_EQ(p.insertions_total, 2u);
  const FlagHistory* h = flag_of(p, "rx_los", 5);
  ASSERT_NE(h, nullptr);
  EXPECT_FALSE(h->raised);
  EXPECT_EQ(h->since_unix, 0);
  EXPECT_EQ(h->raised_total, 1u);
  // Pulled and left empty: nothing shows either.
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().rx_los.set(1);
    m.update();
  });
  f.run_for(2.0);
  ASSERT_TRUE(flag_raised(f.port("sw/b0c0"), "rx_los", 2));
  (void)f.buses[0]->remove(0);
  f.run_for(2.0);
  EXPECT_FALSE(flag_raised(f.port("sw/b0c0"), "rx_los", 2));
}

}  // namespace
}  // namespace xcvr::daemon
