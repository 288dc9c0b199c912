// /metrics consumes nothing (design invariant 3): a flag raised and cleared between two polls
// shows 1 on every scrape within the hold window (poll.flag_hold) after it was last seen, and not
// after it, while its counter keeps it; scrapes, the landing page and the JSON API only look.
#include <gtest/gtest.h>

#include "exporters/landing_page.hpp"
#include "exporters/metrics.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::exporters {
namespace {

using daemon::testing_support::Fleet;

struct Scrape {
  std::optional<double> flag;
  std::optional<double> total;
};

Scrape scrape(const SnapshotCollector& c) {
  const auto rendered = c.render();
  EXPECT_NE(rendered, nullptr);
  if (!rendered) return {};
  const auto e = testing::parse_exposition(rendered->text);
  const std::map<std::string, std::string> l{{"port", "sw/b0c0"}, {"flag", "tx_fault"}, {"lane", "3"}};
  return {e.value("transceiver_flag", l), e.value("transceiver_flag_raised_total", l)};
}

void pulse_tx_fault_lane3(Fleet& f) {
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) { daemon::testing_support::pulse_tx_fault(m, 3); });
}

TEST(ExporterScrapeFlags, FlagRaisedAndClearedBetweenPollsShowsForTheHoldWindow) {
  Fleet f(1, 1);
  const SnapshotCollector collector(f.store);
  f.run_for(4.0);
  EXPECT_FALSE(scrape(collector).flag.has_value());  // sparse: no series while never raised

  pulse_tx_fault_lane3(f);
  f.run_for(3.0);  // several polls; the flag is long gone from the module
  (void)landing_page_html(health::FleetView(*f.store.current()), LandingOptions{});
  for (int i = 0; i < 10; ++i) {  // scraped every second by an HA pair and a person: still there
    const Scrape s = scrape(collector);
    EXPECT_EQ(s.flag, 1.0) << i;
    EXPECT_EQ(s.total, 1.0);
    (void)scrape(collector);
    f.run_for(1.0);
  }
  f.run_for(f.config.poll.flag_hold_s - 10.0);  // past the window after the last sighting
  const Scrape after = scrape(collector);
  EXPECT_NE(after.flag, 1.0);  // 0 or withheld
  EXPECT_EQ(after.total, 1.0);

  pulse_tx_fault_lane3(f);  // a second pulse shows again and counts again
  f.run_for(1.0);
  const Scrape again = scrape(collector);
  EXPECT_EQ(again.flag, 1.0);
  EXPECT_EQ(again.total, 2.0);
}

TEST(ExporterScrapeFlags, ScrapesOfTheSameSnapshotAgree) {
  Fleet f(1, 1);
  const SnapshotCollector collector(f.store);
  f.run_for(4.0);
  pulse_tx_fault_lane3(f);
  f.run_for(1.0);
  EXPECT_EQ(scrape(collector).flag, 1.0);
  EXPECT_EQ(scrape(collector).flag, 1.0);  // an HA pair sees the same bytes until the next poll
}

}  // namespace
}  // namespace xcvr::exporters
