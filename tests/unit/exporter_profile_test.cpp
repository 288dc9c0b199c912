// The metric profiles (docs/metrics.md "Profiles"): what the fleet profile keeps of a port, which
// ports it shows lane by lane and for how long, each port's worst lanes (served in both), and
// the threshold levels it keeps held to the shipped alert rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "exporters/metrics.hpp"
#include "exporters/metrics_internal.hpp"
#include "health/health.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using testing::Exposition;
using testing::make_fleet;
using testing::parse_exposition;

const std::string kE0 = "spine1/Ethernet0";

daemon::MetricsConfig fleet(double hold_s = 900, std::vector<std::string> detail_ports = {}) {
  daemon::MetricsConfig c;
  c.profile = daemon::MetricsProfile::Fleet;
  c.detail_hold_s = hold_s;
  c.detail_ports = std::move(detail_ports);
  return c;
}

daemon::Snapshot with_profile(daemon::Snapshot s, daemon::MetricsConfig config) {
  s.metrics = std::make_shared<const daemon::MetricsConfig>(std::move(config));
  return s;
}

// The snapshot rendered as SnapshotCollector does: planned by `planner` under the snapshot's profile.
Exposition render(const daemon::Snapshot& s, SeriesPlanner& planner) {
  const health::FleetView views(s);
  return parse_exposition(render_text(views, {}, planner.plan(views)));
}
Exposition render(const daemon::Snapshot& s) {
  SeriesPlanner planner;
  return render(s, planner);
}

std::size_t lane_series(const Exposition& e, const std::string& port) {
  std::size_t n = 0;
  for (const auto& s : e.samples) n += s.labels.count("lane") != 0 && s.labels.at("port") == port ? 1 : 0;
  return n;
}

TEST(ExporterProfile, AHealthyEightLaneModuleCostsAtMostThirtySeriesInTheFleetProfile) {
  daemon::Snapshot s = make_fleet(1);
  auto& p = s.ports[0];
  p.read_errors_total.clear();  // a healthy module has none (a kind appears with its first error)
  p.flags = {testing::flag_history("data_path_state_changed", 1, 1, false),
             testing::flag_history("data_path_state_changed", 2, 1, false),
             testing::flag_history("module_state_changed", 0, 1, false)};
  const Exposition full = render(s);
  const Exposition slim = render(with_profile(s, fleet()));
  const std::size_t full_series = full.count_with_label("port", kE0), fleet_series = slim.count_with_label("port", kE0);
  EXPECT_LE(fleet_series, 30u);
  EXPECT_GE(full_series, 5 * fleet_series);  // the issue's "a tenth of the series", within reason
  EXPECT_EQ(lane_series(slim, kE0), 0u);
  // Flag counters summed over lanes; thresholds only at the levels the rules compare with.
  EXPECT_EQ(slim.value("transceiver_flag_raised_total", {{"port", kE0}, {"flag", "data_path_state_changed"}}), 2);
  EXPECT_EQ(slim.find("transceiver_temperature_threshold_celsius").size(), 2u);
  EXPECT_TRUE(slim.find("transceiver_rx_power_threshold_watts").empty());
  EXPECT_EQ(slim.value("transceiver_pre_fec_ber_threshold_ratio", {{"port", kE0}, {"side", "media"}, {"level", "high_warning"}}), 1e-5);
  // What the rules and dashboards read of a healthy port is there in both.
  for (const Exposition* e : {&full, &slim}) {
    EXPECT_DOUBLE_EQ(e->value("transceiver_worst_lane_pre_fec_ber_ratio", {{"port", kE0}, {"side", "media"}}).value_or(0), 1.2e-6);
    EXPECT_EQ(e->value("transceiver_worst_lane", {{"port", kE0}, {"quantity", "pre_fec_ber"}, {"side", "media"}}), 8);
  }
  RecordProperty("fleet_series", static_cast<int>(fleet_series));
  RecordProperty("full_series", static_cast<int>(full_series));
  std::printf("a healthy 8-lane module: %zu series in the full profile, %zu in the fleet profile\n", full_series,
              fleet_series);
}

TEST(ExporterProfile, APortThatIsNotOkIsShownLaneByLaneUntilTheHoldHasPassed) {
  daemon::Snapshot s = with_profile(make_fleet(2), fleet(600));
  const std::string e8 = "spine1/Ethernet8";
  s.ports[1].flags = {testing::flag_history("rx_los", 3, 1, true)};
  SeriesPlanner planner;
  Exposition e = render(s, planner);
  EXPECT_EQ(lane_series(e, kE0), 0u);
  EXPECT_EQ(lane_series(e, e8), 81u);  // every lane (10 series each) as in the full profile, and the flag
  EXPECT_EQ(e.value("transceiver_flag", {{"port", e8}, {"lane", "3"}, {"flag", "rx_los"}}), 1);
  // Ok again: held for detail_hold, then served without lanes.
  s.ports[1].flags = {testing::flag_history("rx_los", 3, 1, false)};
  s.taken_unix += 599;
  EXPECT_EQ(lane_series(render(s, planner), e8), 80u);  // the flag has cleared
  s.taken_unix += 2;
  EXPECT_EQ(lane_series(render(s, planner), e8), 0u);
  // A counter keeps its identity whichever way the port is shown.
  EXPECT_EQ(render(s, planner).value("transceiver_flag_raised_total", {{"port", e8}, {"flag", "rx_los"}}), 1);
}

TEST(ExporterProfile, DetailPortsAreShownLaneByLaneAndTheFullProfileShowsEveryLane) {
  const daemon::Snapshot planned = with_profile(make_fleet(2), fleet(900, {"spine1/*0"}));
  const Exposition e = render(planned);
  EXPECT_EQ(lane_series(e, kE0), 80u);
  EXPECT_EQ(lane_series(e, "spine1/Ethernet8"), 0u);
  const Exposition full = render(with_profile(make_fleet(2), {}));
  EXPECT_EQ(lane_series(full, "spine1/Ethernet8"), lane_series(e, kE0));
}

TEST(ExporterProfile, AStalePortsFirstReadDoesNotHoldItsLanes) {
  daemon::Snapshot s = with_profile(make_fleet(1), fleet());
  s.ports[0].stale = true;  // values withheld: a verdict from no values
  SeriesPlanner planner;
  render(s, planner);
  s.ports[0].stale = false;
  EXPECT_EQ(lane_series(render(s, planner), kE0), 0u);
}

health::PortView view_of(const daemon::PortSnapshot& p) { return health::assess(p); }

TEST(ExporterProfile, WorstLanesLeaveOutLanesOutOfServiceDarkLasersAndTxFaults) {
  daemon::PortSnapshot p = testing::editable_port();
  cmis::ModuleReport& r = testing::report_of(p);
  // BER 1.5e-7 x lane: lane 8 is the worst, but out of service; lane 7 then.
  p.unused_lanes = {8};
  for (auto& o : r.vdm) {
    if (o.quantity() == "esnr" && o.lane == 4) o.value = 12;
    if (o.quantity() == "esnr" && o.lane == 8) o.value = 5;  // out of service
  }
  // Drift: lane 3 dark (bias 0), lane 5 in Tx fault, lane 6 the farthest from 1 of the rest.
  p.aging = {{3, 0.1, 0.1}, {5, 2.0, 0.5}, {6, 0.8, 0.9}, {7, 1.1, 1.0}};
  r.lanes[2].tx_bias_amperes = 0;
  p.flags = {testing::flag_history("tx_fault", 5, 1, true)};
  const health::PortView v = view_of(p);
  ASSERT_EQ(v.worst_lanes.size(), 3u);
  EXPECT_EQ(v.worst_lanes[0].quantity, health::WorstOf::PreFecBer);
  EXPECT_EQ(v.worst_lanes[0].side, "media");
  EXPECT_EQ(v.worst_lanes[0].lane, 7);
  EXPECT_DOUBLE_EQ(v.worst_lanes[0].value, 1.05e-6);
  EXPECT_EQ(v.worst_lanes[1].quantity, health::WorstOf::Esnr);
  EXPECT_EQ(v.worst_lanes[1].lane, 4);
  EXPECT_EQ(v.worst_lanes[1].value, 12);
  EXPECT_EQ(v.worst_lanes[2].quantity, health::WorstOf::TxBiasDrift);
  EXPECT_EQ(v.worst_lanes[2].lane, 6);
  EXPECT_EQ(v.worst_lanes[2].value, 0.8);
}

// A lane whose VDM measures nothing (its data path down, or no light) could be the worst: the
// port's worst BER and eSNR are not given while it does (a gap, as in that lane's own series).
TEST(ExporterProfile, NoWorstVdmLaneWhileAnInServiceLaneMeasuresNothing) {
  daemon::PortSnapshot p = testing::editable_port();
  testing::report_of(p).lanes[1].data_path_state = "DPDeactivated";
  const health::PortView v = view_of(p);
  ASSERT_EQ(v.worst_lanes.size(), 1u);
  EXPECT_EQ(v.worst_lanes[0].quantity, health::WorstOf::TxBiasDrift);
  p.unused_lanes = {2};  // out of service: it no longer counts
  EXPECT_EQ(view_of(p).worst_lanes.size(), 3u);
}

// A module with 8 host lanes and 4 media lanes (FR4, DR4): host-side VDM on lanes 5-8, which
// have no media lane report, still counts toward the host side's worst lane.
TEST(ExporterProfile, HostSideLanesWithoutAMediaLaneCount) {
  daemon::PortSnapshot p = testing::editable_port();
  cmis::ModuleReport& r = testing::report_of(p);
  r.lanes.resize(4);
  r.vdm.push_back(testing::vdm_observable(16, "pre_fec_ber_current_host", "pre_fec_ber", "host", 6, 3e-5, "ratio"));
  r.vdm.push_back(testing::vdm_observable(16, "pre_fec_ber_current_host", "pre_fec_ber", "host", 2, 1e-9, "ratio"));
  const health::PortView v = view_of(p);
  const auto host = std::find_if(v.worst_lanes.begin(), v.worst_lanes.end(), [](const health::WorstLane& w) {
    return w.quantity == health::WorstOf::PreFecBer && w.side == "host";
  });
  ASSERT_NE(host, v.worst_lanes.end());
  EXPECT_EQ(host->lane, 6);
  EXPECT_EQ(host->value, 3e-5);
}

TEST(ExporterProfile, NoWorstLanesWhileValuesAreWithheld) {
  daemon::PortSnapshot p = testing::editable_port();
  p.stale = true;
  EXPECT_TRUE(view_of(p).worst_lanes.empty());
}

// The threshold levels alerts.yml's expressions read are exactly those the fleet profile keeps
// for a port without lanes (kRuleThresholds): a rule that compared with another level would not
// fire on a healthy-looking port in the fleet profile. (Annotations may read any level: they are
// rendered for ports that alert. recording.yml's rx margin joins per-lane series, so it only
// ever needs ports shown lane by lane.)
TEST(ExporterProfile, TheFleetProfileKeepsTheThresholdLevelsTheAlertExpressionsRead) {
  const auto repo = std::filesystem::path(XCVR_TEST_DATA).parent_path().parent_path();
  std::ifstream in(repo / "config" / "prometheus" / "alerts.yml");
  ASSERT_TRUE(in);
  std::set<std::pair<std::string, std::string>> read;
  const std::regex selector(R"re((transceiver_\w+_threshold_\w+)\{[^}]*level="(\w+)")re");
  std::string line;
  std::size_t expr_indent = std::string::npos;  // of the `expr:` key whose block is being read
  while (std::getline(in, line)) {
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    if (expr_indent != std::string::npos && indent <= expr_indent) expr_indent = std::string::npos;
    if (line.compare(indent, 5, "expr:") == 0) expr_indent = indent;
    if (expr_indent == std::string::npos) continue;
    for (std::sregex_iterator m(line.begin(), line.end(), selector), end; m != end; ++m) read.insert({(*m)[1], (*m)[2]});
  }
  EXPECT_GE(read.size(), 2u);
  std::set<std::pair<std::string, std::string>> kept;
  for (const detail::RuleThreshold& t : detail::kRuleThresholds) {
    kept.insert({std::string(family_spec(t.family).name), std::string(cmis::level_name(t.level))});
  }
  EXPECT_EQ(read, kept);
}

}  // namespace
}  // namespace xcvr::exporters
