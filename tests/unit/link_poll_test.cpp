// Link health in the poller and /metrics: read on its own interval beside the module's
// schedule, withheld when stale or when the cage is empty, never asked again of a path that
// has none, and rendered beside the optic's series by `port`.
#include <gtest/gtest.h>

#include "daemon/port_poller.hpp"
#include "emulator/bus.hpp"
#include "emulator/emulator_transport.hpp"
#include "exporters/metrics.hpp"
#include "tests/support/delegating_transport.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using base::kSecond;

// An emulated cage whose link health is scripted: counts the reads, fails on demand.
class LinkTransport final : public xcvr::testing_support::DelegatingTransport {
 public:
  using DelegatingTransport::DelegatingTransport;
  std::variant<drivers::LinkHealth, drivers::Error> read_link_health() override {
    ++reads;
    if (error) return *error;
    drivers::LinkHealth h;
    h.counters.push_back({drivers::LinkCounterId::SymbolErrors, "7", 0, symbol_errors, symbol_errors == 0xFFFF});
    h.counters.push_back({drivers::LinkCounterId::FecUncorrectableBlocks, "7", 2, 11, false});
    return h;
  }
  int reads = 0;
  uint64_t symbol_errors = 5;
  std::optional<drivers::Error> error;
};

struct LinkRig {
  base::VirtualClock clock{1000 * kSecond};
  emulator::EmulatedBus bus{[] {
    emulator::BusConfig bc;
    bc.cages = 1;
    return bc;
  }(), clock};
  LinkTransport* link = nullptr;
  std::unique_ptr<PortPoller> poller;
  double now = 0;

  LinkRig() {
    bus.insert(0, testing_support::make_module("osfp-800g-2xsr4-finned", clock));
    PollConfig poll;
    poll.dynamic_interval_s = 1;
    poll.link_interval_s = 10;
    poll.settle_delay_s = 0;
    auto t = std::make_unique<LinkTransport>(std::make_unique<emulator::EmulatorTransport>(bus, 0, "sw/0"));
    link = t.get();
    poller = std::make_unique<PortPoller>(PortIdentity{"sw/0", "sw", "ib", "", {}, {}}, std::move(t), poll);
  }
  // Runs the poller in virtual time up to `until` seconds.
  void run(double until) { testing_support::run_poller(*poller, clock, now, until); }
};

TEST(LinkPoll, ReadOnItsOwnIntervalBesideTheModule) {
  LinkRig r;
  r.run(35);
  EXPECT_EQ(r.link->reads, 4) << "t = 0, 10, 20, 30";
  const PortSnapshot s = r.poller->snapshot(r.now);
  ASSERT_TRUE(s.link);
  EXPECT_EQ(s.link->counters.size(), 2u);
  EXPECT_TRUE(s.report) << "the module is read as before";
  EXPECT_GT(s.link_read_unix, 1.7e9);
}

TEST(LinkPoll, FailedReadsCountAndStaleCountersAreWithheld) {
  LinkRig r;
  r.run(1);
  r.link->error = drivers::Error{drivers::ErrorKind::Timeout, "no answer"};
  r.run(25);
  PortSnapshot s = r.poller->snapshot(r.now);
  EXPECT_TRUE(s.link) << "within stale_after_intervals (3) link intervals of the last good read";
  EXPECT_EQ(s.link_read_errors_total["timeout"], 2u);
  r.run(45);
  s = r.poller->snapshot(r.now);
  EXPECT_FALSE(s.link) << "old counters are not served as fresh";
  EXPECT_TRUE(s.report);
}

TEST(LinkPoll, APathWithoutLinkCountersIsNotAskedAgain) {
  LinkRig r;
  r.link->error = drivers::Error{drivers::ErrorKind::Unsupported, "none here"};
  r.run(100);
  EXPECT_EQ(r.link->reads, 1);
  EXPECT_FALSE(r.poller->snapshot(r.now).link);
}

TEST(LinkPoll, RenderedBesideTheOpticWithSaturation) {
  LinkRig r;
  r.link->symbol_errors = 0xFFFF;
  r.run(3);
  Snapshot snap;
  snap.ports.push_back(r.poller->snapshot(r.now));
  const std::string text = exporters::render_text(health::FleetView(snap));
  EXPECT_NE(text.find("transceiver_link_symbol_errors_total{port=\"sw/0\",node=\"sw\",link=\"7\"} 65535"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("transceiver_link_saturated{port=\"sw/0\",node=\"sw\",link=\"7\",counter="
                      "\"transceiver_link_symbol_errors_total\"} 1"),
            std::string::npos);
  EXPECT_NE(text.find("transceiver_link_fec_uncorrectable_blocks_total{port=\"sw/0\",node=\"sw\",link=\"7\",lane=\"2\"} 11"),
            std::string::npos);
  EXPECT_NE(text.find("transceiver_temperature_celsius{port=\"sw/0\",node=\"sw\"}"), std::string::npos)
      << "the optic's own series sit beside it";
}

}  // namespace
}  // namespace xcvr::daemon
