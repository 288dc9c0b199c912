// /metrics consumes latched flags (design invariant 3): a flag raised and cleared between two
// scrapes shows 1 on the next scrape and 0 on the one after, while its counter keeps it. The
// landing page and JSON API only look at the snapshot and consume nothing.
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
  f.buses[0]->with_module(0, [](emulator::EmulatedModule& m) {
    m.faults().tx_fault.set(2);
    m.update();
    m.faults().tx_fault.reset(2);
    m.update();
  });
}

TEST(ExporterScrapeFlags, FlagRaisedAndClearedBetweenScrapesShowsOnceThenClears) {
  Fleet f(1, 1);
  const SnapshotCollector collector(f.store);
  f.run_for(4.0);
  EXPECT_FALSE(scrape(collector).flag.has_value());  // sparse: no series while never raised

  pulse_tx_fault_lane3(f);
  f.run_for(3.0);  // several polls; the flag is long gone from the module
  // Looking at the landing page does not consume it.
  (void)landing_page_html(*f.store.current(), LandingOptions{});
  f.run_for(1.0);
  const Scrape first = scrape(collector);
  EXPECT_EQ(first.flag, 1.0);
  EXPECT_EQ(first.total, 1.0);

  f.run_for(1.0);  // the next poll starts afresh from what is raised now: nothing
  const Scrape second = scrape(collector);
  EXPECT_NE(second.flag, 1.0);  // 0 or withheld, never 1 again
  EXPECT_EQ(second.total, 1.0);

  pulse_tx_fault_lane3(f);  // a second pulse shows again and counts again
  f.run_for(1.0);
  const Scrape third = scrape(collector);
  EXPECT_EQ(third.flag, 1.0);
  EXPECT_EQ(third.total, 2.0);
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
