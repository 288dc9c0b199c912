// /api/v1/modules JSON: per-port shape, the cmis::to_json contract under "module", monitor
// withholding for stale modules, budgets, and hostile strings.
#include <gtest/gtest.h>

#include "cmis/report_json.hpp"
#include "exporters/api_json.hpp"
#include "health/health.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using nlohmann::json;

// The /api/v1/modules body as a document.
json modules_json(const health::FleetView& views) { return json::parse(modules_body(views)); }

const json* module_of(const json& all, const std::string& port) {
  for (const json& m : all.at("modules")) {
    if (m.at("port") == port) return &m;
  }
  return nullptr;
}

TEST(ExporterApi, TopLevelShape) {
  const json j = modules_json(health::FleetView(testing::make_rich_snapshot()));
  EXPECT_EQ(j.at("version"), "0.1.0-test");
  EXPECT_EQ(j.at("taken_unix"), testing::kNow);
  EXPECT_TRUE(j.at("taken").is_string());
  EXPECT_EQ(j.at("modules").size(), 10u);
  ASSERT_EQ(j.at("budgets").size(), 1u);
  EXPECT_EQ(j.at("budgets")[0].at("group"), "spine1");
  EXPECT_EQ(j.at("budgets")[0].at("over_budget"), true);
}

TEST(ExporterApi, HealthyPortCarriesTheDecodeContractAndDaemonState) {
  const auto s = testing::make_fleet(1);
  const json p = port_json(s, s.ports[0], health::assess(s.ports[0]));
  for (const char* key : {"port", "presence", "stale", "state", "health", "domain", "source", "cage", "groups",
                          "last_good_read_unix", "last_good_read", "insertions_total", "read_errors_total", "flags",
                          "raised_flags", "coding", "aging", "budget", "monitors_withheld", "module",
                          "temperature_headroom_celsius", "reasons", "in_service", "unused_lanes",
                          "worst_rx_margin", "link"}) {
    EXPECT_TRUE(p.contains(key)) << key;
  }
  EXPECT_EQ(p.at("presence"), "present");
  EXPECT_EQ(p.at("health"), "ok");
  EXPECT_TRUE(p.at("reasons").empty());
  EXPECT_EQ(p.at("worst_rx_margin").at("lane"), 1);
  EXPECT_EQ(p.at("monitors_withheld"), false);
  EXPECT_EQ(p.at("module"), cmis::to_json(*s.ports[0].report));  // the contract, unchanged
  EXPECT_EQ(p.at("read_errors_total").at("timeout"), 0);
  EXPECT_EQ(p.at("aging").size(), 8u);
  EXPECT_EQ(p.at("budget").at("groups")[0].at("per_port_allowance_watts"), 5.0);
  EXPECT_EQ(p.at("budget").at("max_power_watts"), 4.5);
  EXPECT_FALSE(p.contains("node"));
}

TEST(ExporterApi, StaleModuleWithholdsMonitorValues) {
  const json all = modules_json(health::FleetView(testing::make_rich_snapshot()));
  const json* p = module_of(all, "spine1/Ethernet32");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->at("stale"), true);
  EXPECT_EQ(p->at("health"), "stale");
  EXPECT_EQ(p->at("reasons")[0].at("kind"), "stale");
  EXPECT_EQ(p->at("reasons")[0].at("value"), testing::kNow - 600);  // the last good read
  EXPECT_EQ(p->at("monitors_withheld"), true);
  const json& m = p->at("module");
  EXPECT_EQ(m.at("vendor").at("part_number"), "OSFP-800G-DR8");  // identity stays
  EXPECT_FALSE(m.at("module").contains("temperature_celsius"));
  EXPECT_FALSE(m.at("module").contains("supply_voltage_volts"));
  EXPECT_FALSE(m.at("module").contains("state"));
  EXPECT_TRUE(m.at("module").at("flags").empty());
  for (const json& lane : m.at("lanes")) {
    EXPECT_FALSE(lane.contains("rx_power_watts"));
    EXPECT_FALSE(lane.contains("tx_bias_amperes"));
    EXPECT_TRUE(lane.contains("lane"));
  }
  EXPECT_TRUE(p->at("raised_flags").empty());
  EXPECT_TRUE(p->at("aging").empty());
  EXPECT_FALSE(p->contains("temperature_headroom_celsius"));
  // Counters and history are still there.
  EXPECT_EQ(p->at("read_errors_total").at("timeout"), 12);
  EXPECT_EQ(p->at("flags")[0].at("raised_total"), 2);
  EXPECT_EQ(p->at("last_good_read_unix"), testing::kNow - 600);
}

TEST(ExporterApi, EmptyUnknownFaultAndFabricPorts) {
  const json all = modules_json(health::FleetView(testing::make_rich_snapshot()));
  const json* empty = module_of(all, "spine1/Ethernet40");
  EXPECT_EQ(empty->at("presence"), "absent");
  EXPECT_TRUE(empty->at("module").is_null());
  EXPECT_EQ(empty->at("health"), "empty");
  EXPECT_EQ(module_of(all, "spine1/Ethernet56")->at("presence"), "unknown");
  const json* fault = module_of(all, "spine1/Ethernet24");
  EXPECT_EQ(fault->at("health"), "down");
  EXPECT_EQ(fault->at("reasons")[0].at("kind"), "module_state");
  EXPECT_EQ(fault->at("reasons")[0].at("module_state"), "ModuleFault");
  EXPECT_EQ(fault->at("reasons")[0].at("fault_cause"), "TEC runaway");
  daemon::Snapshot no_cause = testing::make_rich_snapshot();
  auto report = std::make_shared<cmis::ModuleReport>(*no_cause.ports[3].report);
  report->module_fault_cause.reset();
  no_cause.ports[3].report = report;
  EXPECT_EQ(module_of(modules_json(health::FleetView(no_cause)), "spine1/Ethernet24")->at("reasons")[0].at("fault_cause"),
            "cause not reported");
  EXPECT_EQ(fault->at("reasons")[1].at("name"), "tx_fault");
  EXPECT_EQ(fault->at("reasons")[1].at("state"), "alarm");
  EXPECT_EQ(fault->at("reasons")[1].at("lanes"), json::array({1}));
  EXPECT_EQ(fault->at("module").at("module").at("state"), "ModuleFault");
  EXPECT_EQ(fault->at("raised_flags")[0].at("flag"), "tx_fault");
  EXPECT_EQ(module_of(all, "quantum7/p1")->at("node"), "quantum7");
  const json* bad = module_of(all, "spine1/Ethernet48");
  EXPECT_EQ(bad->at("health"), "miscoded");
  EXPECT_EQ(bad->at("coding")[0].at("check"), "checksum_00h");
  EXPECT_EQ(bad->at("coding")[0].at("severity"), "fail");
}

TEST(ExporterApi, ReasonsCarryValueThresholdAndMargin) {
  auto s = testing::make_fleet(1);
  auto r = std::make_shared<cmis::ModuleReport>(*s.ports[0].report);
  for (auto& lane : r->lanes) {
    if (lane.lane > 4) continue;
    lane.flags = {"rx_power_low_warning"};
    lane.rx_power_watts = 0.00004;
  }
  s.ports[0].report = r;
  s.ports[0].unused_lanes = {7, 8};
  const json p = port_json(s, s.ports[0], health::assess(s.ports[0]));
  EXPECT_EQ(p.at("health"), "warning");
  EXPECT_EQ(p.at("unused_lanes"), json::array({7, 8}));
  ASSERT_EQ(p.at("reasons").size(), 1u);
  const json& reason = p.at("reasons")[0];
  EXPECT_EQ(reason.at("state"), "warning");
  EXPECT_EQ(reason.at("kind"), "flag");
  EXPECT_EQ(reason.at("name"), "rx_power_low_warning");
  EXPECT_EQ(reason.at("lanes"), json::array({1, 2, 3, 4}));
  EXPECT_EQ(reason.at("flagged"), true);
  EXPECT_EQ(reason.at("unit"), "watts");
  EXPECT_DOUBLE_EQ(reason.at("value").get<double>(), 0.00004);
  EXPECT_DOUBLE_EQ(reason.at("threshold").get<double>(), 0.00005);
  EXPECT_NEAR(reason.at("margin_db").get<double>(), -0.969, 1e-3);
  EXPECT_EQ(reason.at("worst_lane"), 1);
  EXPECT_EQ(reason.at("label"), "RX LO");
  EXPECT_NE(reason.at("text").get<std::string>().find("lanes 1-4"), std::string::npos);
}

// The body is written port by port, never as one document (#39): it must still be, byte for byte,
// the text json_text() writes of the object it parses to, each port exactly its port_json().
TEST(ExporterApi, ModulesBodyWrittenPortByPortIsTheTextOfOneDocument) {
  for (const daemon::Snapshot& s : {testing::make_rich_snapshot(), testing::make_fleet(64), daemon::Snapshot{}}) {
    const health::FleetView views(s);
    const std::string body = modules_body(views, 1000);
    const json doc = json::parse(body);
    EXPECT_EQ(body, json_text(doc));
    std::vector<std::string> keys;
    for (const auto& [key, value] : doc.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"budgets", "modules", "taken", "taken_unix", "version"}));
    ASSERT_EQ(doc.at("modules").size(), s.ports.size());
    for (std::size_t i = 0; i < s.ports.size(); ++i) {
      EXPECT_EQ(doc.at("modules")[i], json::parse(json_text(port_json(s, s.ports[i], views.port(i))))) << i;
    }
  }
}

TEST(ExporterApi, InvalidUtf8IsReplacedWhenDumped) {
  const json back = modules_json(health::FleetView(testing::make_rich_snapshot()));
  const json* bad = module_of(back, "spine1/Ethernet48");
  EXPECT_EQ(bad->at("module").at("vendor").at("name"), "<script>alert(\"x\")</script>&'");
  EXPECT_EQ(bad->at("module").at("vendor").at("part_number"), "PN\"} evil{x=\"1\xEF\xBF\xBD");
}

TEST(ExporterApi, FindPort) {
  const auto s = testing::make_rich_snapshot();
  EXPECT_NE(find_port(s, "quantum7/p1"), nullptr);
  EXPECT_EQ(find_port(s, "nope"), nullptr);
}

TEST(ExporterApi, LinkHealthBesideTheModule) {
  const auto s = testing::make_rich_snapshot();
  const json ib = port_json(s, *find_port(s, "quantum7/p1"), health::assess(*find_port(s, "quantum7/p1")));
  ASSERT_TRUE(ib.at("link").at("counters").is_array());
  EXPECT_EQ(ib.at("link").at("counters").size(), 12u);
  const json& first = ib.at("link").at("counters")[0];
  EXPECT_EQ(first.at("counter"), "symbol_errors");
  EXPECT_EQ(first.at("link"), "1");
  EXPECT_EQ(first.at("value"), 0xFFFF);
  EXPECT_EQ(first.at("saturated"), true);
  EXPECT_FALSE(first.contains("lane"));
  EXPECT_EQ(ib.at("link").at("read_errors_total").at("busy"), 1);
  const json eth = port_json(s, s.ports[0], health::assess(s.ports[0]));
  EXPECT_EQ(eth.at("link").at("counters")[1].at("lane"), 1);
  EXPECT_TRUE(port_json(s, s.ports[1], health::assess(s.ports[1])).at("link").at("counters").is_null()) << "no counters: null, never zeros";
}

}  // namespace
}  // namespace xcvr::exporters
