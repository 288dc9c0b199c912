// VDM in the verdict and on the pages: a VDM flag's reason carries the value, the module's
// threshold, the margin and, for pre-FEC BER, the distance to the FEC limit; values of a module
// that is not ready are not valid ("—" on the port page, null in the JSON API), never 0; the worst
// pre-FEC BER and eSNR lanes head the port page's VDM table.
#include <gtest/gtest.h>

#include <string>

#include "cmis/vdm.hpp"
#include "exporters/api_json.hpp"
#include "health/health.hpp"
#include "exporters/landing_page.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using namespace xcvr::health;  // the health model (health/)

using daemon::PortSnapshot;

cmis::ModuleReport& report(PortSnapshot& p) { return testing::report_of(p); }

PortSnapshot port() { return testing::editable_port(); }

// The port page's VDM table (from its heading on) for a snapshot of the one port.
std::string vdm_table_of(const PortSnapshot& p) {
  daemon::Snapshot s;
  s.ports.push_back(p);
  const auto page = port_page_html(health::FleetView(s), p.port, {});
  EXPECT_TRUE(page);
  if (!page) return "";
  const auto table = page->find("Signal integrity (VDM)");
  EXPECT_NE(table, std::string::npos);
  return table == std::string::npos ? "" : page->substr(table);
}

cmis::VdmObservable& vdm(PortSnapshot& p, std::string_view name, int lane) {
  for (cmis::VdmObservable& o : report(p).vdm) {
    if (o.name() == name && o.lane == lane) return o;
  }
  throw std::runtime_error("no observable");
}

void raise(PortSnapshot& p, int lane, const std::string& flag) {
  for (cmis::LaneReport& l : report(p).lanes) {
    if (l.lane == lane) l.flags.push_back(flag);
  }
}

const Reason* reason(const PortView& v, std::string_view name) {
  for (const Reason& r : v.reasons) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// Lane 3's pre-FEC BER at 3e-5 past the module's 1e-5 warning, lane 5's at 2e-5.
PortSnapshot failing_optic() {
  PortSnapshot p = port();
  for (int lane : {3, 5}) {
    cmis::VdmObservable& ber = vdm(p, "pre_fec_ber_current_media", lane);
    ber.value = lane == 3 ? 3e-5 : 2e-5;
    ber.thresholds = std::make_shared<const cmis::Thresholds>(cmis::Thresholds{2.4e-4, 1e-5, 0, 0});
    raise(p, lane, "vdm_pre_fec_ber_current_media_high_warning");
  }
  return p;
}

TEST(ExporterVdmReasons, PreFecBerReasonHasValueThresholdAndDistanceToTheFecLimit) {
  const PortView v = assess(failing_optic());
  EXPECT_EQ(health_name(v.health), "warning");
  const Reason* r = reason(v, "vdm_pre_fec_ber_current_media_high_warning");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->lanes, (std::vector<int>{3, 5}));
  ASSERT_TRUE(r->value && r->threshold && r->fec_limit);
  EXPECT_DOUBLE_EQ(*r->value, 3e-5);  // the worst lane
  EXPECT_EQ(r->worst_lane, 3);
  EXPECT_DOUBLE_EQ(*r->threshold, 1e-5);
  EXPECT_DOUBLE_EQ(*r->fec_limit, cmis::kKp4PreFecBerLimit);
  EXPECT_EQ(r->unit, "ratio");
  EXPECT_NE(r->text.find("against the high warning 1e-05"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("(3.0\u00d7 the threshold)"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("8.0\u00d7 below the FEC limit 0.00024"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("(lane 3)"), std::string::npos) << r->text;

  const nlohmann::json j = port_json(daemon::Snapshot{}, failing_optic(), assess(failing_optic()));
  bool found = false;
  for (const auto& rj : j["reasons"]) {
    if (rj["name"] != "vdm_pre_fec_ber_current_media_high_warning") continue;
    found = true;
    EXPECT_DOUBLE_EQ(rj["value"].get<double>(), 3e-5);
    EXPECT_DOUBLE_EQ(rj["threshold"].get<double>(), 1e-5);
    EXPECT_DOUBLE_EQ(rj["fec_limit"].get<double>(), 2.4e-4);
  }
  EXPECT_TRUE(found) << j["reasons"].dump();
}

TEST(ExporterVdmReasons, PastTheFecLimitSaysSo) {
  PortSnapshot p = failing_optic();
  vdm(p, "pre_fec_ber_current_media", 5).value = 3e-4;
  raise(p, 5, "vdm_pre_fec_ber_current_media_high_alarm");
  const PortView v = assess(p);
  const Reason* r = reason(v, "vdm_pre_fec_ber_current_media_high_alarm");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(health_name(r->state), "alarm");
  EXPECT_NE(r->text.find("past the FEC limit 0.00024"), std::string::npos) << r->text;
  EXPECT_NE(r->text.find("against the high alarm 0.00024"), std::string::npos) << r->text;
}

TEST(ExporterVdmReasons, EsnrReasonHasAMarginInDecibels) {
  PortSnapshot p = port();
  cmis::VdmObservable& esnr = vdm(p, "esnr_media_input", 2);
  esnr.value = 14.0;
  esnr.thresholds = std::make_shared<const cmis::Thresholds>(cmis::Thresholds{30, 28, 15, 13});
  raise(p, 2, "vdm_esnr_media_input_low_warning");
  const PortView v = assess(p);
  const Reason* r = reason(v, "vdm_esnr_media_input_low_warning");
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->margin_db);
  EXPECT_NEAR(*r->margin_db, -1.0, 1e-9);
  EXPECT_FALSE(r->fec_limit);
  EXPECT_NE(r->text.find("14.00 dB against the low warning 15.00 dB, margin -1.00 dB"), std::string::npos) << r->text;
}

// A module held in LowPwr reads 0 for its VDM values: not valid, never a clean link.
TEST(ExporterVdmReasons, ANotReadyModulesVdmValuesAreNotValid) {
  PortSnapshot p = port();
  report(p).module_state = cmis::Coded{1, "ModuleLowPwr"};
  for (cmis::VdmObservable& o : report(p).vdm) o.value = 0;
  for (int lane = 1; lane <= 8; ++lane) EXPECT_FALSE(vdm_measures(*p.report, lane));
  const nlohmann::json j = port_json(daemon::Snapshot{}, p, assess(p));
  ASSERT_FALSE(j["module"]["vdm"].empty());
  for (const auto& o : j["module"]["vdm"]) EXPECT_TRUE(o["value"].is_null()) << o.dump();

  const std::string table = vdm_table_of(p);
  EXPECT_EQ(table.find("<td class=\"num\">0 ratio</td>"), std::string::npos);
  EXPECT_NE(table.find("<td class=\"num\">\u2014</td>"), std::string::npos);

  // Ready again: the values are shown (and count in the JSON).
  report(p).module_state = cmis::Coded{3, "ModuleReady"};
  EXPECT_TRUE(vdm_measures(*p.report, 1));
  EXPECT_FALSE(port_json(daemon::Snapshot{}, p, assess(p))["module"]["vdm"][0]["value"].is_null());
}

TEST(ExporterVdmReasons, WorstBerAndEsnrLanesHeadTheVdmTable) {
  PortSnapshot p = failing_optic();
  vdm(p, "esnr_media_input", 6).value = 16.5;  // the lowest eSNR
  const std::string table = vdm_table_of(p);
  const auto first_row = table.find("<tr><td>");
  const auto second_row = table.find("<tr><td>", first_row + 1);
  const auto third_row = table.find("<tr><td>", second_row + 1);
  const std::string first = table.substr(first_row, second_row - first_row);
  const std::string second = table.substr(second_row, third_row - second_row);
  EXPECT_NE(first.find("pre_fec_ber_current_media</td><td class=\"num\">3<"), std::string::npos) << first;
  EXPECT_NE(first.find("(worst)"), std::string::npos) << first;
  EXPECT_NE(second.find("esnr_media_input</td><td class=\"num\">6<"), std::string::npos) << second;
  // Each observable appears once: the worst rows are not repeated below.
  std::size_t ber3 = 0;
  for (auto at = table.find("pre_fec_ber_current_media</td><td class=\"num\">3<"); at != std::string::npos;
       at = table.find("pre_fec_ber_current_media</td><td class=\"num\">3<", at + 1)) {
    ++ber3;
  }
  EXPECT_EQ(ber3, 1u);
}

}  // namespace
}  // namespace xcvr::exporters
