// The view of a port (health/port_view.hpp): computed once per snapshot and shared by every
// output of that snapshot (health/fleet_view.hpp); the JSON API renders the view it is given and
// judges nothing again; raised flags keep the poller's since-times.
#include <gtest/gtest.h>

#include "exporters/api_json.hpp"
#include "health/fleet_view.hpp"
#include "health/health.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::health {
namespace {

using nlohmann::json;

TEST(HealthView, OneFleetViewPerSnapshotSharedByEveryReader) {
  const auto snapshot = std::make_shared<const daemon::Snapshot>(testing::make_rich_snapshot());
  const auto first = shared_views(snapshot);
  EXPECT_EQ(shared_views(snapshot).get(), first.get()) << "a second reader of the snapshot judges again";
  for (std::size_t i = 0; i < snapshot->ports.size(); ++i) {
    const PortView& v = first->port(i);
    EXPECT_EQ(&first->of(snapshot->ports[i]), &v);
    EXPECT_EQ(v.health, assess(snapshot->ports[i]).health) << snapshot->ports[i].port;
  }
  const auto next = std::make_shared<const daemon::Snapshot>(*snapshot);
  EXPECT_NE(shared_views(next).get(), first.get()) << "a new snapshot is judged anew";
  EXPECT_EQ(&first->snapshot(), snapshot.get()) << "the views keep their snapshot";
}

TEST(HealthView, TheJsonApiRendersTheViewItIsGiven) {
  const daemon::Snapshot s = testing::make_fleet(1);
  const daemon::PortSnapshot& p = s.ports[0];
  ASSERT_EQ(assess(p).health, Health::Ok);
  PortView view;  // what no judging of the snapshot gives: only the view can be its source
  view.health = Health::Alarm;
  Reason los;
  los.state = Health::Alarm;
  los.kind = "flag";
  los.name = "rx_los";
  los.lanes = {3};
  los.text = "from the view";
  view.reasons.push_back(los);
  view.monitors_visible = true;
  view.temperature_headroom_celsius = 1.5;
  view.worst_rx_margin = LaneMargin{2, -1.25};
  view.raised_flags = {{3, "rx_los", 100, 200}};
  const json j = exporters::port_json(s, p, view);
  EXPECT_EQ(j.at("health"), "alarm");
  ASSERT_EQ(j.at("reasons").size(), 1u);
  EXPECT_EQ(j.at("reasons")[0].at("text"), "from the view");
  EXPECT_EQ(j.at("temperature_headroom_celsius"), 1.5);
  EXPECT_EQ(j.at("worst_rx_margin").at("margin_db"), -1.25);
  EXPECT_EQ(j.at("raised_flags"),
            json::parse(R"([{"flag": "rx_los", "lane": 3, "since_unix": 100.0, "last_seen_unix": 200.0}])"));
}

TEST(HealthView, RaisedFlagsKeepTheirSinceTimes) {
  daemon::PortSnapshot p = testing::editable_port();
  p.flags = {testing::flag_history("rx_los", 3, 2, true)};
  p.flags[0].since_unix = testing::kNow - 30;
  p.flags[0].last_seen_unix = testing::kNow - 2;
  testing::report_of(p).lanes[2].flags = {"rx_los"};        // also in the last report: one flag
  testing::report_of(p).module_flags = {"temperature_high_warning"};  // only in the report
  const PortView v = assess(p);
  ASSERT_EQ(v.raised_flags.size(), 2u);
  EXPECT_EQ(v.raised_flags[0].flag, "temperature_high_warning");
  EXPECT_EQ(v.raised_flags[0].since_unix, p.last_good_read_unix) << "a flag only the report shows: seen at that read";
  EXPECT_EQ(v.raised_flags[1].flag, "rx_los");
  EXPECT_EQ(v.raised_flags[1].since_unix, testing::kNow - 30);
  EXPECT_EQ(v.raised_flags[1].last_seen_unix, testing::kNow - 2);
}

TEST(HealthView, HeadroomIsTheModulesOwnHighWarningLessItsTemperature) {
  daemon::PortSnapshot p = testing::editable_port();
  testing::report_of(p).temperature_celsius = 66.5;  // the synthetic module's high warning: 70 °C
  EXPECT_DOUBLE_EQ(assess(p).temperature_headroom_celsius.value(), 3.5);
  p.stale = true;
  EXPECT_FALSE(assess(p).temperature_headroom_celsius) << "withheld with the values";
}

}  // namespace
}  // namespace xcvr::health
