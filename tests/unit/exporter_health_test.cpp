// The health model's table of cases: each state x each cause, for CMIS, SFF-8636 and SFF-8472
// modules, with unused lanes and out-of-service ports; the precedence between states; and the
// invariant that no raised flag of any memory map leaves a module "ok".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "cmis/cmis_map.hpp"
#include "cmis/flags.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "health/health.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using namespace xcvr::health;  // the health model (health/)

using daemon::PortSnapshot;

cmis::ModuleReport& report(PortSnapshot& p) { return testing::report_of(p); }

PortSnapshot cmis_port() { return testing::editable_port(); }

// A module of an older memory map as its decoder reports it: `lanes` lanes, thresholds, no
// module or data-path state.
PortSnapshot legacy_port(cmis::Spec spec, const char* revision, std::size_t lanes) {
  PortSnapshot p = cmis_port();
  auto& r = report(p);
  r.spec = spec;
  r.spec_revision = revision;
  r.module_state.reset();
  r.lanes.resize(lanes);
  for (auto& l : r.lanes) l.data_path_state.reset();
  p.aging.resize(lanes);
  return p;
}

// A QSFP28 100G-LR4 (SFF-8636, 4 lanes); an SFP28 (SFF-8472, one lane, Tx fault / LOS / not
// ready as status flags).
PortSnapshot sff8636_port() { return legacy_port(cmis::Spec::Sff8636, "SFF-8636 rev 2.8-2.10", 4); }
PortSnapshot sff8472_port() { return legacy_port(cmis::Spec::Sff8472, "SFF-8472 rev 12.3", 1); }

void flag(PortSnapshot& p, int lane, const std::string& name) {
  auto& r = report(p);
  if (lane == 0) {
    r.module_flags.push_back(name);
    return;
  }
  for (auto& l : r.lanes) {
    if (l.lane == lane) l.flags.push_back(name);
  }
}

void each_lane(PortSnapshot& p, int first, int last, const std::function<void(cmis::LaneReport&)>& f) {
  for (auto& l : report(p).lanes) {
    if (l.lane >= first && l.lane <= last) f(l);
  }
}

double dbm_to_watts(double dbm) { return std::pow(10.0, dbm / 10.0) / 1000.0; }

// The dirty fiber of the issue: -7.1 dBm against a -5.9 dBm low warning on lanes 1-4.
void dirty_fiber(PortSnapshot& p, bool with_flags) {
  auto& r = report(p);
  r.thresholds["rx_power_watts"] = {dbm_to_watts(4.0), dbm_to_watts(3.0), dbm_to_watts(-5.9), dbm_to_watts(-9.9)};
  each_lane(p, 1, 4, [&](cmis::LaneReport& l) {
    l.rx_power_watts = dbm_to_watts(l.lane == 2 ? -7.1 : -6.8);
    if (with_flags) l.flags.push_back("rx_power_low_warning");
  });
}

struct Case {
  const char* name;
  PortSnapshot (*base)();
  std::function<void(PortSnapshot&)> mutate;
  Health want;
  const char* reason;  // name of the most urgent reason ("" when ok)
  std::vector<int> lanes = {};  // its lanes
};

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      // ok
      {"cmis_healthy", cmis_port, [](PortSnapshot&) {}, Health::Ok, ""},
      {"sff8636_healthy", sff8636_port, [](PortSnapshot&) {}, Health::Ok, ""},
      {"sff8472_healthy", sff8472_port, [](PortSnapshot&) {}, Health::Ok, ""},
      {"cmis_state_change_notification", cmis_port,
       [](PortSnapshot& p) { flag(p, 0, "module_state_changed"); flag(p, 1, "data_path_state_changed"); },
       Health::Ok, ""},
      {"cmis_unused_lanes_dark_and_flagged", cmis_port,
       [](PortSnapshot& p) {
         p.unused_lanes = {5, 6, 7, 8};
         each_lane(p, 5, 8, [](cmis::LaneReport& l) {
           l.rx_power_watts = 0.0;
           l.tx_bias_amperes = 0.0;
           l.flags = {"rx_los", "rx_power_low_alarm", "tx_fault"};
           l.data_path_state = "DPDeactivated";
         });
         p.flags = {testing::flag_history("rx_los", 6, 3, true)};
       },
       Health::Ok, ""},
      {"coding_warning_only", cmis_port,
       [](PortSnapshot& p) { p.coding = {{"oui_unregistered", coding::CheckStatus::Warn, "OUI not registered"}}; }, Health::Ok, ""},
      // warning
      {"cmis_dirty_fiber_flagged", cmis_port, [](PortSnapshot& p) { dirty_fiber(p, true); }, Health::Warning,
       "rx_power_low_warning", {1, 2, 3, 4}},
      {"cmis_rx_low_by_value_only", cmis_port, [](PortSnapshot& p) { dirty_fiber(p, false); }, Health::Warning,
       "rx_power_low_warning", {1, 2, 3, 4}},
      {"cmis_latched_flag_from_history", cmis_port,
       [](PortSnapshot& p) { p.flags = {testing::flag_history("rx_power_high_warning", 2, 1, true)}; },
       Health::Warning, "rx_power_high_warning", {2}},
      {"cmis_supply_voltage_high_warning", cmis_port,
       [](PortSnapshot& p) { flag(p, 0, "supply_voltage_high_warning"); }, Health::Warning,
       "supply_voltage_high_warning"},
      {"cmis_tx_bias_high_by_value", cmis_port,
       [](PortSnapshot& p) { each_lane(p, 7, 7, [](cmis::LaneReport& l) { l.tx_bias_amperes = 0.095; }); },
       Health::Warning, "tx_bias_high_warning", {7}},
      {"cmis_unknown_flag_is_never_ok", cmis_port, [](PortSnapshot& p) { flag(p, 3, "vendor_mystery_bit"); },
       Health::Warning, "vendor_mystery_bit", {3}},
      {"sff8636_tx_power_low_warning", sff8636_port, [](PortSnapshot& p) { flag(p, 2, "tx_power_low_warning"); },
       Health::Warning, "tx_power_low_warning", {2}},
      {"sff8472_supply_voltage_low_warning", sff8472_port,
       [](PortSnapshot& p) { flag(p, 0, "supply_voltage_low_warning"); }, Health::Warning,
       "supply_voltage_low_warning"},
      // alarm
      {"cmis_rx_los_one_lane", cmis_port, [](PortSnapshot& p) { flag(p, 3, "rx_los"); }, Health::Alarm, "rx_los", {3}},
      {"cmis_tx_fault", cmis_port, [](PortSnapshot& p) { flag(p, 1, "tx_fault"); }, Health::Alarm, "tx_fault", {1}},
      {"cmis_los_comes_before_lock_and_thresholds", cmis_port,
       [](PortSnapshot& p) {
         flag(p, 2, "rx_cdr_lol");
         flag(p, 2, "rx_los");
         flag(p, 2, "rx_power_low_alarm");
       },
       Health::Alarm, "rx_los", {2}},
      {"cmis_rx_cdr_lol", cmis_port, [](PortSnapshot& p) { flag(p, 2, "rx_cdr_lol"); }, Health::Alarm,
       "rx_cdr_lol", {2}},
      {"cmis_tx_power_low_alarm_by_value", cmis_port,
       [](PortSnapshot& p) { each_lane(p, 2, 2, [](cmis::LaneReport& l) { l.tx_power_watts = 0.00001; }); },
       Health::Alarm, "tx_power_low_alarm", {2}},
      {"cmis_temperature_high_alarm", cmis_port,
       [](PortSnapshot& p) {
         report(p).temperature_celsius = 76.0;
         flag(p, 0, "temperature_high_alarm");
         flag(p, 0, "temperature_high_warning");
       },
       Health::Alarm, "temperature_high_alarm"},
      {"cmis_firmware_error", cmis_port, [](PortSnapshot& p) { flag(p, 0, "module_firmware_error"); },
       Health::Alarm, "module_firmware_error"},
      {"sff8636_rx_los_one_lane", sff8636_port, [](PortSnapshot& p) { flag(p, 2, "rx_los"); }, Health::Alarm,
       "rx_los", {2}},
      {"sff8472_tx_fault", sff8472_port, [](PortSnapshot& p) { flag(p, 1, "tx_fault"); }, Health::Alarm,
       "tx_fault", {1}},
      // down
      {"cmis_low_power", cmis_port,
       [](PortSnapshot& p) {
         report(p).module_state = cmis::Coded{1, "ModuleLowPwr"};
         each_lane(p, 1, 8, [](cmis::LaneReport& l) {
           l.data_path_state = "DPDeactivated";
           l.rx_power_watts = 0.0;
           l.flags = {"rx_los"};
         });
       },
       Health::Down, "ModuleLowPwr"},
      {"cmis_module_fault", cmis_port,
       [](PortSnapshot& p) {
         report(p).module_state = cmis::Coded{5, "ModuleFault"};
         report(p).module_fault_cause = cmis::Coded{1, "TEC runaway"};
       },
       Health::Down, "ModuleFault"},
      {"cmis_power_up_not_ready", cmis_port,
       [](PortSnapshot& p) { report(p).module_state = cmis::Coded{2, "ModulePwrUp"}; }, Health::Down,
       "ModulePwrUp"},
      {"cmis_data_path_not_activated", cmis_port,
       [](PortSnapshot& p) { each_lane(p, 1, 4, [](cmis::LaneReport& l) { l.data_path_state = "DPDeactivated"; }); },
       Health::Down, "data_path", {1, 2, 3, 4}},
      {"cmis_all_lanes_dark", cmis_port,
       [](PortSnapshot& p) { each_lane(p, 1, 8, [](cmis::LaneReport& l) { l.flags = {"rx_los"}; }); },
       Health::Down, "dark", {1, 2, 3, 4, 5, 6, 7, 8}},
      {"cmis_in_service_lanes_dark", cmis_port,
       [](PortSnapshot& p) {
         p.unused_lanes = {5, 6, 7, 8};
         each_lane(p, 1, 4, [](cmis::LaneReport& l) { l.rx_power_watts = 0.0; });
       },
       Health::Down, "dark", {1, 2, 3, 4}},
      {"sff8636_data_not_ready", sff8636_port, [](PortSnapshot& p) { flag(p, 0, "data_not_ready"); },
       Health::Down, "data_not_ready"},
      {"sff8472_los_is_dark", sff8472_port, [](PortSnapshot& p) { flag(p, 1, "rx_los"); }, Health::Down, "dark",
       {1}},
      // hot
      {"cmis_temperature_high_warning_flag", cmis_port,
       [](PortSnapshot& p) { flag(p, 0, "temperature_high_warning"); }, Health::Hot, "temperature_high_warning"},
      {"cmis_little_headroom", cmis_port, [](PortSnapshot& p) { report(p).temperature_celsius = 67.0; },
       Health::Hot, "headroom"},
      {"cmis_past_high_warning_by_value", cmis_port,
       [](PortSnapshot& p) {
         report(p).temperature_celsius = 71.0;
       },
       Health::Hot, "temperature_high_warning"},
      {"sff8636_temperature_high_warning", sff8636_port,
       [](PortSnapshot& p) { flag(p, 0, "temperature_high_warning"); }, Health::Hot, "temperature_high_warning"},
      // miscoded
      {"cmis_coding_failed", cmis_port,
       [](PortSnapshot& p) { p.coding = {{"checksum_00h", coding::CheckStatus::Fail, "page 00h sum 0x12, stored 0x34"}}; },
       Health::Miscoded, "checksum_00h"},
      {"sff8472_coding_failed", sff8472_port,
       [](PortSnapshot& p) { p.coding = {{"checksum_cc_base", coding::CheckStatus::Fail, "CC_BASE"}}; }, Health::Miscoded,
       "checksum_cc_base"},
      // stale
      {"stale_withholds_flags", cmis_port,
       [](PortSnapshot& p) {
         p.stale = true;
         flag(p, 1, "rx_los");
       },
       Health::Stale, "stale"},
      {"never_read", cmis_port,
       [](PortSnapshot& p) {
         p.presence = daemon::PortPresence::Unknown;
         p.report = nullptr;
         p.last_good_read_unix = 0;
       },
       Health::Stale, "stale"},
      {"settling", cmis_port,
       [](PortSnapshot& p) {
         p.state = daemon::PortState::Settling;
         p.report = nullptr;
       },
       Health::Stale, "stale"},
      // empty
      {"empty_cage", cmis_port,
       [](PortSnapshot& p) {
         p.presence = daemon::PortPresence::Absent;
         p.report = nullptr;
       },
       Health::Empty, "empty"},
      // misconfigured: the config names what the host lacks; nothing of a module is claimed
      {"misconfigured_netdev", cmis_port,
       [](PortSnapshot& p) {
         p.presence = daemon::PortPresence::Unknown;
         p.report = nullptr;
         p.state = daemon::PortState::Misconfigured;
         p.misconfiguration = "netdev ens9np0 does not exist";
       },
       Health::Misconfigured, "misconfigured"},
      // unused
      {"unused_port_with_faults", cmis_port,
       [](PortSnapshot& p) {
         p.in_service = false;
         report(p).module_state = cmis::Coded{5, "ModuleFault"};
         flag(p, 1, "rx_los");
       },
       Health::Unused, "unused"},
      {"unused_empty_cage", cmis_port,
       [](PortSnapshot& p) {
         p.in_service = false;
         p.presence = daemon::PortPresence::Absent;
         p.report = nullptr;
       },
       Health::Unused, "unused"},
      // precedence
      {"down_beats_hot_and_miscoded", cmis_port,
       [](PortSnapshot& p) {
         report(p).module_state = cmis::Coded{1, "ModuleLowPwr"};
         flag(p, 0, "temperature_high_warning");
         p.coding = {{"checksum_00h", coding::CheckStatus::Fail, "x"}};
       },
       Health::Down, "ModuleLowPwr"},
      {"alarm_beats_warning_and_miscoded", cmis_port,
       [](PortSnapshot& p) {
         dirty_fiber(p, true);
         flag(p, 6, "tx_fault");
         p.coding = {{"checksum_00h", coding::CheckStatus::Fail, "x"}};
       },
       Health::Alarm, "tx_fault", {6}},
      {"hot_beats_warning", cmis_port,
       [](PortSnapshot& p) {
         dirty_fiber(p, true);
         flag(p, 0, "temperature_high_warning");
       },
       Health::Hot, "temperature_high_warning"},
      {"warning_beats_miscoded", cmis_port,
       [](PortSnapshot& p) {
         dirty_fiber(p, true);
         p.coding = {{"checksum_00h", coding::CheckStatus::Fail, "x"}};
       },
       Health::Warning, "rx_power_low_warning", {1, 2, 3, 4}},
  };
  return kCases;
}

class HealthTable : public ::testing::TestWithParam<std::size_t> {};

TEST_P(HealthTable, StateAndMostUrgentReason) {
  const Case& c = cases()[GetParam()];
  PortSnapshot p = c.base();
  c.mutate(p);
  const PortView v = assess(p);
  EXPECT_EQ(health_name(v.health), health_name(c.want));
  EXPECT_EQ(v.reasons.empty(), c.want == Health::Ok);
  if (v.reasons.empty()) return;
  const Reason& top = v.reasons.front();
  EXPECT_EQ(top.state, v.health);
  EXPECT_EQ(top.name, c.reason);
  EXPECT_EQ(top.lanes, c.lanes);
  EXPECT_FALSE(top.text.empty());
  EXPECT_FALSE(top.label.empty());
  for (std::size_t i = 1; i < v.reasons.size(); ++i) {
    EXPECT_LE(v.reasons[i - 1].state, v.reasons[i].state) << "reasons most urgent first";
  }
  for (const Reason& r : v.reasons) {
    for (int lane : r.lanes) EXPECT_TRUE(lane_in_service(p, lane)) << r.text;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, HealthTable, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const auto& param_info) { return std::string(cases()[param_info.param].name); });

TEST(ExporterHealth, EveryStateIsCovered) {
  std::set<Health> seen;
  for (const Case& c : cases()) seen.insert(c.want);
  for (Health h : kAllHealth) EXPECT_TRUE(seen.count(h)) << health_name(h);
}

TEST(ExporterHealth, DirtyFiberReasonCarriesValueThresholdAndMargin) {
  PortSnapshot p = cmis_port();
  dirty_fiber(p, true);
  const PortView v = assess(p);
  ASSERT_EQ(v.reasons.size(), 1u);
  const Reason& r = v.reasons[0];
  EXPECT_EQ(r.kind, "flag");
  EXPECT_TRUE(r.flagged);
  EXPECT_EQ(r.worst_lane, 2);
  EXPECT_EQ(r.unit, "watts");
  EXPECT_NEAR(*r.value, dbm_to_watts(-7.1), 1e-12);
  EXPECT_NEAR(*r.threshold, dbm_to_watts(-5.9), 1e-12);
  EXPECT_NEAR(*r.margin_db, -1.2, 1e-9);
  EXPECT_EQ(r.text,
            "rx_power_low_warning on lanes 1-4: -7.10 dBm (lane 2) against the low warning -5.90 dBm, "
            "margin -1.20 dB");
  EXPECT_EQ(r.label, "RX LO");
  ASSERT_TRUE(v.worst_rx_margin.has_value());
  EXPECT_EQ(v.worst_rx_margin->lane, 2);
  EXPECT_NEAR(v.worst_rx_margin->margin_db, -1.2, 1e-9);
}

TEST(ExporterHealth, ValueOnlyConditionSaysTheFlagIsNotRaised) {
  PortSnapshot p = cmis_port();
  dirty_fiber(p, false);
  const Reason r = assess(p).reasons.at(0);
  EXPECT_EQ(r.kind, "monitor");
  EXPECT_FALSE(r.flagged);
  EXPECT_NE(r.text.find("flag not raised"), std::string::npos);
}

TEST(ExporterHealth, AlarmCoversItsWarningOnTheSameLanes) {
  PortSnapshot p = cmis_port();
  each_lane(p, 1, 8, [](cmis::LaneReport& l) { l.rx_power_watts = l.lane <= 2 ? 0.00001 : 0.00004; });
  const PortView v = assess(p);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0].name, "rx_power_low_alarm");
  EXPECT_EQ(v.reasons[0].lanes, (std::vector<int>{1, 2}));
  EXPECT_EQ(v.reasons[1].name, "rx_power_low_warning");
  EXPECT_EQ(v.reasons[1].lanes, (std::vector<int>{3, 4, 5, 6, 7, 8}));
}

TEST(ExporterHealth, NoLightHasNoMarginAndNoInfinity) {
  PortSnapshot p = cmis_port();
  flag(p, 3, "rx_los");
  each_lane(p, 3, 3, [](cmis::LaneReport& l) { l.rx_power_watts = 0.0; });
  const PortView v = assess(p);
  for (const Reason& r : v.reasons) {
    EXPECT_FALSE(r.margin_db.has_value()) << r.text;
    EXPECT_EQ(r.text.find("inf"), std::string::npos) << r.text;
  }
  const auto it = std::find_if(v.reasons.begin(), v.reasons.end(),
                               [](const Reason& r) { return r.name == "rx_power_low_alarm"; });
  ASSERT_NE(it, v.reasons.end());
  EXPECT_NE(it->text.find("no light"), std::string::npos);
  ASSERT_TRUE(v.worst_rx_margin.has_value());  // the lit lanes still have one
  EXPECT_NE(v.worst_rx_margin->lane, 3);
}

TEST(ExporterHealth, ModuleFaultNamesItsCause) {
  PortSnapshot p = cmis_port();
  report(p).module_state = cmis::Coded{5, "ModuleFault"};
  report(p).module_fault_cause = cmis::Coded{1, "TEC runaway"};
  each_lane(p, 1, 8, [](cmis::LaneReport& l) { l.data_path_state = "DPDeactivated"; });
  const PortView v = assess(p);
  ASSERT_EQ(v.reasons.size(), 1u);  // the idle data paths follow from the fault: no second cause
  EXPECT_EQ(v.reasons[0].module_state, "ModuleFault");
  EXPECT_EQ(v.reasons[0].fault_cause, "TEC runaway");
  EXPECT_NE(v.reasons[0].text.find("TEC runaway"), std::string::npos);
}

// Lasers off by design are no second cause: a module in low power, or a lane whose data path
// is off, gives only its down reason, not low tx power, bias and rx power by value.
TEST(ExporterHealth, NotReadyModuleAndIdleLanesAreNotJudgedByValue) {
  auto dark = [](cmis::LaneReport& l) {
    l.rx_power_watts = 0.0;
    l.tx_power_watts = 0.0;
    l.tx_bias_amperes = 0.0;
  };
  PortSnapshot low = cmis_port();
  report(low).module_state = cmis::Coded{1, "ModuleLowPwr"};
  each_lane(low, 1, 8, dark);
  const PortView v = assess(low);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0].name, "ModuleLowPwr");
  EXPECT_FALSE(v.worst_rx_margin.has_value());

  PortSnapshot idle = cmis_port();
  each_lane(idle, 5, 8, [&](cmis::LaneReport& l) {
    dark(l);
    l.data_path_state = "DPDeactivated";
  });
  const PortView w = assess(idle);
  ASSERT_EQ(w.reasons.size(), 1u);
  EXPECT_EQ(w.reasons[0].kind, "data_path");
  EXPECT_EQ(w.reasons[0].lanes, (std::vector<int>{5, 6, 7, 8}));
  EXPECT_EQ(w.reasons[0].text, "data path not activated on lanes 5-8 (DPDeactivated)");
}

TEST(ExporterHealth, DegenerateThresholdsJudgeNothingByValue) {
  PortSnapshot p = cmis_port();  // passive copper reports all-zero thresholds
  report(p).thresholds["tx_bias_amperes"] = {0.0, 0.0, 0.0, 0.0};
  report(p).thresholds["rx_power_watts"] = {0.00001, 0.002, 0.003, 0.0025};  // out of order
  EXPECT_EQ(assess(p).health, Health::Ok);
}

TEST(ExporterHealth, HeadroomThresholdComesFromOptions) {
  PortSnapshot p = cmis_port();
  report(p).temperature_celsius = 66.0;  // 4 °C under the 70 °C high warning
  EXPECT_EQ(assess(p).health, Health::Hot);
  EXPECT_EQ(assess(p, HealthOptions{3.0}).health, Health::Ok);
}

TEST(ExporterHealth, RaisedFlagsLeaveOutUnusedLanesAndPorts) {
  PortSnapshot p = cmis_port();
  flag(p, 0, "temperature_high_warning");
  flag(p, 2, "rx_los");
  flag(p, 6, "rx_los");
  p.unused_lanes = {5, 6, 7, 8};
  EXPECT_EQ(raised_flags(p), (std::vector<RaisedFlag>{{0, "temperature_high_warning"}, {2, "rx_los"}}));
  p.in_service = false;
  EXPECT_TRUE(raised_flags(p).empty());
}

// Design invariant 4 for every flag the decoders can report: raised alone on a healthy module
// it never leaves the verdict "ok" (only state-change notifications do).
TEST(ExporterHealth, NoRaisedFlagOfAnyMemoryMapIsOk) {
  int checked = 0;
  for (auto table : {cmis::cmis_fields(), cmis::sff8636_fields(), cmis::sff8472_fields()}) {
    for (const cmis::Field& f : table) {
      const bool flag_bit = (f.role == cmis::Role::Flag || f.role == cmis::Role::Status) &&
                            f.type == cmis::Type::Bits && f.width == 1;
      if (!flag_bit) continue;
      PortSnapshot p = cmis_port();
      flag(p, f.lanes.count == 0 ? 0 : 1, std::string(f.name));
      const Health h = assess(p).health;
      ++checked;
      if (f.name == "module_state_changed" || f.name == "data_path_state_changed") {
        EXPECT_EQ(h, Health::Ok) << f.name;
      } else {
        EXPECT_NE(h, Health::Ok) << f.name;
      }
    }
  }
  EXPECT_GT(checked, 60);
}

// The verdict of a raised flag is its flag table row's severity (cmis/flags.hpp), never a suffix
// of its name: every row raised alone on a healthy module, VDM rows under an observable's name.
TEST(ExporterHealth, EveryFlagTableRowGivesTheVerdictOfItsSeverity) {
  const auto verdict = [](cmis::Severity s) {
    switch (s) {
      case cmis::Severity::Alarm: return Health::Alarm;
      case cmis::Severity::Warning: return Health::Warning;
      case cmis::Severity::Hot: return Health::Hot;
      case cmis::Severity::NotReady: return Health::Down;
      case cmis::Severity::Event: return Health::Ok;
    }
    return Health::Empty;
  };
  for (const cmis::FlagRow& row : cmis::kFlags) {
    const bool vdm = row.scope == cmis::FlagScope::VdmInstance;
    const std::string name = vdm ? "vdm_laser_temperature_" + std::string(row.name) : std::string(row.name);
    PortSnapshot p = cmis_port();
    flag(p, row.scope == cmis::FlagScope::Module ? 0 : 1, name);
    EXPECT_EQ(assess(p).health, verdict(row.severity)) << name;
  }
  EXPECT_EQ(verdict(cmis::flag_row(cmis::FlagId::VdmLowAlarm).severity), Health::Alarm);
  EXPECT_EQ(verdict(cmis::flag_row(cmis::FlagId::RxCdrLol).severity), Health::Alarm);
  PortSnapshot p = cmis_port();
  flag(p, 1, "some_unknown_alarm");  // no row: a warning (never ok), whatever its suffix
  EXPECT_EQ(assess(p).health, Health::Warning);
}

TEST(ExporterHealth, Names) {
  EXPECT_EQ(lanes_text({3}), "lane 3");
  EXPECT_EQ(lanes_text({1, 2, 3, 4}), "lanes 1-4");
  EXPECT_EQ(lanes_text({1, 3, 5, 6, 7, 8}), "lanes 1, 3, 5-8");
  EXPECT_EQ(lanes_text({1, 2}), "lanes 1, 2");
  std::set<std::string_view> names;
  for (Health h : kAllHealth) names.insert(health_name(h));
  EXPECT_EQ(names, (std::set<std::string_view>{"ok", "warning", "alarm", "down", "hot", "miscoded",
                                                "misconfigured", "stale", "empty", "unused"}));
  EXPECT_FALSE(is_problem(Health::Ok));
  EXPECT_FALSE(is_problem(Health::Empty));
  EXPECT_FALSE(is_problem(Health::Unused));
  EXPECT_TRUE(is_problem(Health::Warning));
}

}  // namespace
}  // namespace xcvr::exporters
