// /metrics rendering from hand-built snapshots: series, labels and values per family; stale
// withholding; sparse flags and coding findings; zero power; label hygiene; the series budget.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>

#include "daemon/build_info.hpp"
#include "exporters/families.hpp"
#include "health/health.hpp"
#include "exporters/metrics.hpp"
#include "tests/support/metric_families.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using namespace xcvr::health;  // the health model (health/)

using testing::Exposition;
using testing::make_fleet;
using testing::make_rich_snapshot;
using testing::parse_exposition;

Exposition render(const daemon::Snapshot& s) { return parse_exposition(render_text(health::FleetView(s))); }

const std::string kE0 = "spine1/Ethernet0";

TEST(ExporterMetrics, HealthyModuleSeriesAndValues) {
  const Exposition e = render(make_fleet(1));
  EXPECT_EQ(e.value("transceiver_module_present", {{"port", kE0}}), 1.0);
  EXPECT_EQ(e.value("transceiver_module_stale", {{"port", kE0}}), 0.0);
  EXPECT_EQ(e.value("transceiver_temperature_celsius", {{"port", kE0}}), 40.0);
  EXPECT_EQ(e.value("transceiver_supply_voltage_volts", {{"port", kE0}}), 3.3);
  EXPECT_EQ(e.value("transceiver_module_state", {{"port", kE0}, {"state", "ready"}}), 1.0);
  EXPECT_EQ(e.find("transceiver_lane_rx_power_watts", {{"port", kE0}}).size(), 8u);
  EXPECT_DOUBLE_EQ(*e.value("transceiver_lane_rx_power_watts", {{"port", kE0}, {"lane", "1"}}), 0.00051);
  EXPECT_DOUBLE_EQ(*e.value("transceiver_lane_tx_bias_amperes", {{"port", kE0}, {"lane", "8"}}), 0.0408);
  EXPECT_EQ(e.value("transceiver_lane_data_path_state", {{"port", kE0}, {"lane", "2"}, {"state", "activated"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_temperature_threshold_celsius", {{"port", kE0}, {"level", "high_warning"}}), 70.0);
  EXPECT_EQ(e.value("transceiver_rx_power_threshold_watts", {{"port", kE0}, {"level", "low_alarm"}}), 0.00002);
  EXPECT_EQ(e.find("transceiver_tx_bias_threshold_amperes", {{"port", kE0}}).size(), 4u);
  EXPECT_EQ(e.value("transceiver_temperature_headroom_celsius", {{"port", kE0}}), 30.0);
  EXPECT_EQ(e.value("transceiver_max_power_watts", {{"port", kE0}}), 4.5);
  EXPECT_EQ(e.value("transceiver_last_read_timestamp_seconds", {{"port", kE0}}), testing::kNow - 2);
  EXPECT_EQ(e.value("transceiver_insertions_total", {{"port", kE0}}), 1.0);
  EXPECT_EQ(e.value("transceiver_read_errors_total", {{"port", kE0}, {"kind", "timeout"}}), 0.0);
  EXPECT_DOUBLE_EQ(*e.value("transceiver_lane_tx_bias_drift_ratio", {{"port", kE0}, {"lane", "3"}}), 1.01);
  // Healthy steady state: no flag, counter-of-flags or coding series at all.
  EXPECT_TRUE(e.find("transceiver_flag").empty());
  EXPECT_TRUE(e.find("transceiver_flag_raised_total").empty());
  EXPECT_TRUE(e.find("transceiver_coding_check_failed").empty());
}

TEST(ExporterMetrics, InfoCarriesIdentityAndOnlyInfoCarriesVendorStrings) {
  const Exposition e = render(make_fleet(1));
  const auto info = e.find("transceiver_module_info", {{"port", kE0}});
  ASSERT_EQ(info.size(), 1u);
  const auto& l = info[0].labels;
  EXPECT_EQ(l.at("vendor"), "ACME OPTICS");
  EXPECT_EQ(l.at("part_number"), "OSFP-800G-DR8");
  EXPECT_EQ(l.at("serial"), "AC000000");
  EXPECT_EQ(l.at("spec"), "CMIS");
  EXPECT_EQ(l.at("spec_revision"), "5.0");
  EXPECT_EQ(l.at("vendor_oui"), "00:11:22");
  EXPECT_EQ(l.at("media_interface"), "800G-DR8");
  EXPECT_EQ(l.at("host_interface"), "800GAUI-8 C2M");
  EXPECT_EQ(l.at("firmware"), "1.4");
  for (const auto& s : e.samples) {
    if (s.name == "transceiver_module_info") continue;
    for (const auto& [k, v] : s.labels) {
      EXPECT_NE(v, "ACME OPTICS") << s.name;
      EXPECT_NE(k, "serial") << s.name;
    }
  }
}

TEST(ExporterMetrics, StaleModuleKeepsIdentityAndCountersButWithholdsLiveValues) {
  const Exposition e = render(make_rich_snapshot());
  const std::map<std::string, std::string> p{{"port", "spine1/Ethernet32"}};
  EXPECT_EQ(e.value("transceiver_module_present", p), 1.0);
  EXPECT_EQ(e.value("transceiver_module_stale", p), 1.0);
  EXPECT_EQ(e.find("transceiver_module_info", p).size(), 1u);
  EXPECT_EQ(e.value("transceiver_last_read_timestamp_seconds", p), testing::kNow - 600);
  EXPECT_EQ(e.value("transceiver_read_errors_total", {{"port", "spine1/Ethernet32"}, {"kind", "timeout"}}), 12.0);
  EXPECT_EQ(e.value("transceiver_flag_raised_total", {{"port", "spine1/Ethernet32"}, {"flag", "rx_los"}}), 2.0);
  for (const char* withheld :
       {"transceiver_temperature_celsius", "transceiver_supply_voltage_volts", "transceiver_lane_rx_power_watts",
        "transceiver_lane_tx_power_watts", "transceiver_lane_tx_bias_amperes", "transceiver_temperature_threshold_celsius",
        "transceiver_rx_power_threshold_watts", "transceiver_module_state", "transceiver_flag",
        "transceiver_temperature_headroom_celsius", "transceiver_lane_tx_bias_drift_ratio",
        "transceiver_lane_data_path_state"}) {
    EXPECT_TRUE(e.find(withheld, p).empty()) << withheld;
  }
}

TEST(ExporterMetrics, EmptyAndUnknownCages) {
  const Exposition e = render(make_rich_snapshot());
  const std::map<std::string, std::string> empty{{"port", "spine1/Ethernet40"}};
  EXPECT_EQ(e.value("transceiver_module_present", empty), 0.0);
  EXPECT_EQ(e.value("transceiver_insertions_total", empty), 2.0);
  EXPECT_TRUE(e.find("transceiver_module_info", empty).empty());
  EXPECT_TRUE(e.find("transceiver_module_stale", empty).empty());
  const std::map<std::string, std::string> unknown{{"port", "spine1/Ethernet56"}};
  EXPECT_TRUE(e.find("transceiver_module_present", unknown).empty());  // neither 0 nor 1
  EXPECT_EQ(e.value("transceiver_read_errors_total", {{"port", "spine1/Ethernet56"}, {"kind", "busy"}}), 7.0);
  EXPECT_EQ(e.value("transceiver_port_lifecycle_state", {{"port", "spine1/Ethernet56"}, {"state", "failing"}}), 1.0);
}

TEST(ExporterMetrics, FlagsAreSparseWithLaneLabelsAndCounters) {
  const Exposition e = render(make_rich_snapshot());
  // Raised now: lane flags carry lane, module flags do not.
  EXPECT_EQ(e.value("transceiver_flag", {{"port", "spine1/Ethernet16"}, {"lane", "3"}, {"flag", "rx_los"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_flag", {{"port", "spine1/Ethernet16"}, {"lane", "3"}, {"flag", "rx_power_low_alarm"}}), 1.0);
  const auto warm = e.find("transceiver_flag", {{"port", "spine1/Ethernet8"}, {"flag", "temperature_high_warning"}});
  ASSERT_EQ(warm.size(), 1u);  // history and report agree: one series, not two
  EXPECT_EQ(warm[0].labels.count("lane"), 0u);
  // A flag that rose and fell keeps its counter but has no gauge.
  EXPECT_EQ(e.value("transceiver_flag_raised_total", {{"port", "spine1/Ethernet16"}, {"lane", "5"}, {"flag", "tx_power_low_warning"}}), 1.0);
  EXPECT_TRUE(e.find("transceiver_flag", {{"port", "spine1/Ethernet16"}, {"flag", "tx_power_low_warning"}}).empty());
  for (const auto& s : e.find("transceiver_flag")) EXPECT_EQ(s.value, 1.0);
}

TEST(ExporterMetrics, PortHealthIsOneSeriesPerPortWithTheVerdict) {
  const auto snapshot = make_rich_snapshot();
  const Exposition e = render(snapshot);
  const auto all = e.find("transceiver_port_health");
  ASSERT_EQ(all.size(), snapshot.ports.size());
  for (const auto& p : snapshot.ports) {
    const auto series = e.find("transceiver_port_health", {{"port", p.port}});
    ASSERT_EQ(series.size(), 1u) << p.port;
    EXPECT_EQ(series[0].labels.at("health"), health_name(assess(p).health)) << p.port;
    EXPECT_EQ(series[0].value, 1.0);
  }
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "spine1/Ethernet24"}, {"health", "down"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "spine1/Ethernet40"}, {"health", "empty"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "spine1/Ethernet56"}, {"health", "stale"}}), 1.0);
  // Fabric ports carry node.
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "quantum7/p1"}, {"node", "quantum7"}, {"health", "ok"}}),
            1.0);
}

TEST(ExporterMetrics, FlagsOfOutOfServicePortsAndLanesAreNotExported) {
  auto s = make_rich_snapshot();
  s.ports[2].unused_lanes = {3};    // Ethernet16: its LOS lane is out of service
  s.ports[3].in_service = false;    // Ethernet24: the faulted module's port is out of service
  const Exposition e = render(s);
  EXPECT_TRUE(e.find("transceiver_flag", {{"port", "spine1/Ethernet16"}}).empty());
  EXPECT_TRUE(e.find("transceiver_flag", {{"port", "spine1/Ethernet24"}}).empty());
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "spine1/Ethernet16"}, {"health", "ok"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_port_health", {{"port", "spine1/Ethernet24"}, {"health", "unused"}}), 1.0);
  EXPECT_FALSE(e.find("transceiver_flag", {{"port", "spine1/Ethernet8"}}).empty());  // others unchanged
}

TEST(ExporterMetrics, FaultStateCodingAndBudget) {
  const Exposition e = render(make_rich_snapshot());
  EXPECT_EQ(e.value("transceiver_module_state", {{"port", "spine1/Ethernet24"}, {"state", "fault"}}), 1.0);
  EXPECT_EQ(e.find("transceiver_module_state", {{"port", "spine1/Ethernet24"}}).size(), 1u);
  EXPECT_EQ(e.value("transceiver_lane_data_path_state", {{"port", "spine1/Ethernet24"}, {"lane", "1"}, {"state", "deactivated"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_coding_check_failed", {{"port", "spine1/Ethernet48"}, {"check", "checksum_00h"}}), 1.0);
  EXPECT_EQ(e.value("transceiver_coding_check_warning", {{"port", "spine1/Ethernet48"}, {"check", "oui_vendor_mismatch"}}), 1.0);
  EXPECT_EQ(e.find("transceiver_coding_check_failed").size(), 1u);
  EXPECT_EQ(e.value("transceiver_power_budget_watts", {{"group", "spine1"}}), 40.0);
  EXPECT_EQ(e.value("transceiver_power_allocated_watts", {{"group", "spine1"}}), 330.0);
  EXPECT_EQ(e.value("transceiver_power_port_allowance_watts", {{"group", "spine1"}}), 5.0);
  EXPECT_EQ(e.value("transceiver_power_group_cages", {{"group", "spine1"}}), 8.0);
  EXPECT_EQ(e.value("transceiver_power_over_allowance", {{"port", kE0}}), 1.0);
  EXPECT_EQ(e.value("transceiver_power_over_allowance", {{"port", "spine1/Ethernet8"}}), 0.0);
  EXPECT_EQ(e.value("transceiver_laser_temperature_celsius", {{"port", kE0}}), 42.5);
}

TEST(ExporterMetrics, ZeroOpticalPowerIsZeroNeverInfOrNan) {
  const std::string text = render_text(health::FleetView(make_rich_snapshot()));
  const Exposition e = parse_exposition(text);
  EXPECT_EQ(e.value("transceiver_lane_rx_power_watts", {{"port", "spine1/Ethernet16"}, {"lane", "3"}}), 0.0);
  for (const auto& s : e.samples) {
    EXPECT_TRUE(std::isfinite(s.value)) << s.name << " " << s.raw_value;
  }
  EXPECT_EQ(text.find("Inf\n"), std::string::npos);
  EXPECT_EQ(text.find("Nan"), std::string::npos);
}

TEST(ExporterMetrics, NonFiniteValuesAreDroppedAndCounted) {
  daemon::Snapshot s = make_fleet(1);
  auto r = std::make_shared<cmis::ModuleReport>(*s.ports[0].report);
  r->temperature_celsius = std::nan("");
  r->lanes[0].rx_power_watts = -INFINITY;
  s.ports[0].report = r;
  const Exposition e = render(s);
  EXPECT_TRUE(e.find("transceiver_temperature_celsius").empty());
  EXPECT_TRUE(e.find("transceiver_lane_rx_power_watts", {{"lane", "1"}}).empty());
  EXPECT_EQ(e.value("transceiver_exporter_render_errors_total"), 2.0);
}

TEST(ExporterMetrics, FabricPortsCarryNode) {
  const Exposition e = render(make_rich_snapshot());
  const auto temp = e.find("transceiver_temperature_celsius", {{"port", "quantum7/p1"}});
  ASSERT_EQ(temp.size(), 1u);
  EXPECT_EQ(temp[0].labels.at("node"), "quantum7");
  for (const auto& s : e.samples) {
    const auto port = s.labels.find("port");
    if (port == s.labels.end()) continue;
    EXPECT_EQ(s.labels.count("node"), port->second == "quantum7/p1" ? 1u : 0u) << s.name;
  }
}

TEST(ExporterMetrics, HostileStringsStayInsideTheirLabel) {
  const std::string text = render_text(health::FleetView(make_rich_snapshot()));
  const Exposition e = parse_exposition(text);  // throws if a label broke the line
  const auto info = e.find("transceiver_module_info", {{"port", "spine1/Ethernet48"}});
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0].labels.at("vendor"), "<script>alert(\"x\")</script>&'");
  EXPECT_EQ(info[0].labels.at("part_number"), "PN\"} evil{x=\"1?");  // 0xFF is not UTF-8
  EXPECT_TRUE(e.find("transceiver_module_info", {{"x", "1"}}).empty());
}

TEST(ExporterMetrics, DuplicatePortNamesRenderOnce) {
  daemon::Snapshot s = make_fleet(2);
  s.ports[1].port = s.ports[0].port;
  const Exposition e = render(s);
  EXPECT_EQ(e.find("transceiver_module_present").size(), 1u);
  EXPECT_EQ(e.value("transceiver_exporter_render_errors_total"), 1.0);
}

TEST(ExporterMetrics, SelfMetrics) {
  const Exposition e = render(make_rich_snapshot());
  EXPECT_EQ(e.value("transceiver_exporter_build_info",
                    {{"version", "0.1.0-test"},
                     {"revision", std::string(daemon::build_info::revision())},
                     {"build_date", std::string(daemon::build_info::date())}}),
            1.0);
  EXPECT_TRUE(std::regex_match(std::string(daemon::build_info::revision()), std::regex("unknown|[0-9a-f]{12}(-dirty)?")));
  EXPECT_TRUE(std::regex_match(std::string(daemon::build_info::date()), std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}")));
  EXPECT_EQ(e.type.at("transceiver_exporter_poll_cycle_duration_seconds"), "histogram");
  EXPECT_EQ(e.value("transceiver_exporter_poll_cycle_duration_seconds_bucket", {{"domain", "i2c-0"}, {"le", "0.025"}}), 90.0);
  EXPECT_EQ(e.value("transceiver_exporter_poll_cycle_duration_seconds_bucket", {{"domain", "i2c-0"}, {"le", "+Inf"}}), 100.0);
  EXPECT_EQ(e.value("transceiver_exporter_poll_cycle_duration_seconds_count", {{"domain", "i2c-0"}}), 100.0);
  EXPECT_EQ(e.value("transceiver_exporter_poll_cycle_duration_seconds_sum", {{"domain", "i2c-0"}}), 2.0);
  EXPECT_EQ(e.value("transceiver_exporter_bus_bytes_total", {{"domain", "i2c-0"}}), 80000.0);
  EXPECT_EQ(e.value("transceiver_exporter_bus_transactions_total", {{"domain", "i2c-0"}}), 1600.0);
  EXPECT_EQ(e.value("transceiver_exporter_config_reloads_total"), 3.0);
  EXPECT_EQ(e.value("transceiver_exporter_config_reload_failures_total"), 1.0);
  EXPECT_EQ(e.value("transceiver_exporter_config_last_reload_successful"), 0.0);
  EXPECT_EQ(e.value("transceiver_exporter_snapshot_timestamp_seconds"), testing::kNow);
}

TEST(ExporterMetrics, EachFamilyOnceWithOneLineHelpAndType) {
  const std::string text = render_text(health::FleetView(make_rich_snapshot()));
  const Exposition e = parse_exposition(text);  // rejects a second HELP/TYPE
  for (const auto& [family, help] : e.help) {
    EXPECT_FALSE(help.empty()) << family;
    EXPECT_EQ(help.find('\\'), std::string::npos) << family;
  }
  for (const auto& spec : family_specs()) EXPECT_EQ(spec.help.find('\n'), std::string_view::npos);
  EXPECT_NE(text.find("# TYPE transceiver_module_present gauge"), std::string::npos);
  EXPECT_NE(text.find("# TYPE transceiver_flag_raised_total counter"), std::string::npos);
}

TEST(ExporterMetrics, CollectorRendersOncePerSnapshotAndTimesItself) {
  daemon::SnapshotStore store;
  store.publish(std::make_shared<const daemon::Snapshot>(make_fleet(2)));
  SnapshotCollector collector(store);
  const auto first = collector.render();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(parse_exposition(first->text).find("transceiver_exporter_scrape_duration_seconds").size(), 0u);
  EXPECT_EQ(collector.render(), first);  // same snapshot: the same rendered bytes
  ASSERT_FALSE(first->gzip.empty());
  store.publish(std::make_shared<const daemon::Snapshot>(make_fleet(3)));
  const auto second = collector.render();
  ASSERT_NE(second, first);
  const Exposition e = parse_exposition(second->text);
  EXPECT_EQ(e.find("transceiver_exporter_scrape_duration_seconds").size(), 1u);  // the first render's time
  EXPECT_EQ(e.find("transceiver_module_present").size(), 3u);
  // + scrape duration and the six process_* families of this process
  EXPECT_EQ(collect_families(collector, store).size(), build_families(health::FleetView(*store.current())).size() + 1 + 6);
  EXPECT_EQ(e.find("process_resident_memory_bytes").size(), 1u);
}

TEST(ExporterMetrics, SeriesBudgetPerPresentEightLaneModule) {
  // Steady state of one busy-but-healthy module: every monitor, threshold, aging ratio and
  // error kind, a few flag counters. Design budget of the full profile: <= 160 series (150 before
  // the worst-lane series the rules read in both profiles; the fleet profile: exporter_profile_test).
  daemon::Snapshot s = make_fleet(1);
  auto& p = s.ports[0];
  p.flags = {testing::flag_history("rx_los", 1, 1, false), testing::flag_history("tx_fault", 2, 1, false)};
  p.coding = {{"oui_vendor_mismatch", coding::CheckStatus::Warn, "x"}};
  const Exposition e = render(s);
  const std::size_t series = e.count_with_label("port", kE0);
  EXPECT_LE(series, 160u);
  EXPECT_GE(series, 60u);  // and the count is not trivially small because something is missing
  RecordProperty("series_per_module", static_cast<int>(series));
  std::printf("series per present 8-lane module: %zu\n", series);
}

TEST(ExporterMetrics, SeriesBudgetOfAnIbAttachedModuleWithItsLinkHealth) {
  // The same 8-lane VDM module in a twin-port Quantum-2 cage, healthy (no flag counters, no
  // read errors): its series plus the link health of its two IB ports (6 PMA counters and the
  // raw and effective PPCNT BER each, one timestamp) stay within the 160-series budget.
  daemon::Snapshot s = make_fleet(1);
  auto& p = s.ports[0];
  p.read_errors_total.clear();
  auto link = std::make_shared<drivers::LinkHealth>();
  for (const char* ib_port : {"1", "2"}) {
    for (int id = static_cast<int>(drivers::LinkCounterId::SymbolErrors);
         id <= static_cast<int>(drivers::LinkCounterId::ExcessiveBufferOverrunErrors); ++id) {
      link->counters.push_back({static_cast<drivers::LinkCounterId>(id), ib_port, 0, 0, false});
    }
    link->ber.push_back({drivers::LinkBerId::Raw, ib_port, 1e-8, 3600});
    link->ber.push_back({drivers::LinkBerId::Effective, ib_port, 1.5e-254, 3600});
  }
  const std::size_t without_link = render(s).count_with_label("port", kE0);
  p.link = link;
  p.link_read_unix = p.last_good_read_unix;
  const std::size_t series = render(s).count_with_label("port", kE0);
  EXPECT_EQ(series - without_link, 17u) << "a twin-port cage: 12 PMA counters, 4 BER figures, 1 timestamp";
  EXPECT_LE(series, 160u);
  RecordProperty("series_per_ib_attached_module", static_cast<int>(series));
  std::printf("series per present 8-lane module with IB link health: %zu\n", series);
}

}  // namespace
}  // namespace xcvr::exporters
