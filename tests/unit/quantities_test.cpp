// cmis/quantities.hpp: a decoded quantity reaches /metrics, the JSON API, the port page and
// xcvrctl through its row alone. Each row is set, on its own, in an otherwise bare report, and
// every output must show it under the row's names — nothing else names it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli/human_report.hpp"
#include "cmis/quantities.hpp"
#include "exporters/api_json.hpp"
#include "exporters/landing_page.hpp"
#include "exporters/metrics.hpp"
#include "health/health.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr {
namespace {

using cmis::QuantitySpec;

// A one-port snapshot whose report holds `q` only (value 0.4375 — exact in binary, so every
// output prints it the same way), with thresholds for it when the row has them.
daemon::Snapshot only(const QuantitySpec& q) {
  daemon::Snapshot s = testing::make_fleet(1);
  auto r = std::make_shared<cmis::ModuleReport>(*s.ports[0].report);
  for (const QuantitySpec& other : cmis::kQuantities) {
    if (!other.per_lane()) (*r).*other.module_value = std::nullopt;
    for (cmis::LaneReport& l : r->lanes) {
      if (other.per_lane()) l.*other.lane_value = std::nullopt;
    }
  }
  r->thresholds.clear();
  r->vdm.clear();
  if (q.per_lane()) r->lanes.front().*q.lane_value = 0.4375;
  else (*r).*q.module_value = 0.4375;
  if (q.has_thresholds()) r->thresholds[q.key] = {0.75, 0.625, 0.25, 0.125};
  s.ports[0].report = r;
  s.ports[0].aging.clear();
  return s;
}

TEST(Quantities, RowsAreConsistent) {
  std::size_t with_thresholds = 0;
  for (const QuantitySpec& q : cmis::kQuantities) {
    EXPECT_EQ(&cmis::quantity(q.id), &q);
    EXPECT_EQ(cmis::quantity_by_key(q.key), &q);
    EXPECT_EQ(q.metric, std::string("transceiver_") + (q.per_lane() ? "lane_" : "") + std::string(q.key));
    if (q.has_thresholds()) {
      ++with_thresholds;
      EXPECT_EQ(q.threshold_metric,
                "transceiver_" + std::string(q.stem) + "_threshold_" + std::string(q.unit));
    }
  }
  EXPECT_EQ(with_thresholds, cmis::kThresholdQuantityCount);
  EXPECT_EQ(cmis::quantity_by_key("no_such_key"), nullptr);
}

TEST(Quantities, EveryRowReachesEveryOutput) {
  for (const QuantitySpec& q : cmis::kQuantities) {
    SCOPED_TRACE(std::string(q.key));
    const daemon::Snapshot s = only(q);
    const daemon::PortSnapshot& port = s.ports[0];

    const std::string metrics = exporters::render_text(health::FleetView(s));
    EXPECT_NE(metrics.find("# TYPE " + std::string(q.metric) + " gauge"), std::string::npos);
    EXPECT_NE(metrics.find("} 0.4375\n"), std::string::npos);
    if (q.has_thresholds()) {
      EXPECT_NE(metrics.find(std::string(q.threshold_metric) + "{"), std::string::npos);
    }
    for (const QuantitySpec& other : cmis::kQuantities) {  // and no other row's family
      if (&other != &q) {
        EXPECT_EQ(metrics.find(std::string(other.metric) + "{"), std::string::npos) << other.metric;
      }
    }

    const std::string api = exporters::port_json(s, port, health::assess(port)).dump();
    EXPECT_NE(api.find("\"" + std::string(q.key) + "\":0.4375"), std::string::npos) << api.substr(0, 400);

    const auto page = exporters::port_page_html(health::FleetView(s), port.port, exporters::LandingOptions{});
    ASSERT_TRUE(page.has_value());
    EXPECT_NE(page->find(">" + std::string(q.label) + "<"), std::string::npos);

    const std::string cli = cli::render_human(*port.report);
    if (!q.per_lane()) {
      EXPECT_NE(cli.find(std::string(q.ethtool_label)), std::string::npos) << cli;
    }
    if (q.has_thresholds()) {
      EXPECT_NE(cli.find(std::string(q.ethtool_label) + " high alarm threshold"), std::string::npos) << cli;
    }
  }
}

TEST(Quantities, ThresholdsKeepTheirLevelsInEveryOutput) {
  const QuantitySpec& t = cmis::quantity(cmis::Quantity::Temperature);
  const daemon::Snapshot s = only(t);
  const std::string metrics = exporters::render_text(health::FleetView(s));
  for (const char* level : {"high_alarm\"} 0.75", "high_warning\"} 0.625", "low_warning\"} 0.25",
                            "low_alarm\"} 0.125"}) {
    EXPECT_NE(metrics.find(level), std::string::npos) << level;
  }
  EXPECT_EQ(cmis::plain_text(t.unit, 0.4375), "0.44 C");
  EXPECT_EQ(cmis::plain_text("watts", 0.001), "1.0000 mW");
  EXPECT_EQ(cmis::plain_text("amperes", 0.0065), "6.500 mA");
}

}  // namespace
}  // namespace xcvr
