// Real module dumps (tests/data/*/raw.txt) through the parser and decoder into a snapshot:
// /metrics, the JSON API and the pages render them, and the metrics agree with the report.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cmis/decode.hpp"
#include "dumpfile/dump_parser.hpp"
#include "exporters/api_json.hpp"
#include "exporters/landing_page.hpp"
#include "exporters/metrics.hpp"
#include "health/health.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

namespace fs = std::filesystem;

// One port per dump that parses, named after its directory.
daemon::Snapshot snapshot_of_dumps(std::vector<std::string>& failures) {
  daemon::Snapshot s;
  s.taken_unix = testing::kNow;
  for (const auto& entry : fs::directory_iterator(XCVR_TEST_DATA)) {
    const fs::path raw = entry.path() / "raw.txt";
    if (!fs::exists(raw)) continue;
    std::ifstream in(raw, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto parsed = dumpfile::parse(bytes);
    if (auto* err = std::get_if<dumpfile::ParseError>(&parsed)) {
      failures.push_back(entry.path().filename().string() + ": " + err->message);
      continue;
    }
    daemon::PortSnapshot p;
    p.port = "dumps/" + entry.path().filename().string();
    p.presence = daemon::PortPresence::Present;
    p.state = daemon::PortState::Ok;
    p.source = "file";
    p.last_good_read_unix = testing::kNow;
    p.report = std::make_shared<cmis::ModuleReport>(cmis::decode(std::get<dumpfile::ParsedDump>(parsed).image));
    s.ports.push_back(std::move(p));
  }
  return s;
}

TEST(ExporterDumps, RealDumpsRenderEverywhere) {
  std::vector<std::string> failures;
  const daemon::Snapshot s = snapshot_of_dumps(failures);
  for (const auto& f : failures) ADD_FAILURE() << "dump did not parse: " << f;
  ASSERT_GE(s.ports.size(), 10u);
  const auto e = testing::parse_exposition(render_text(health::FleetView(s)));
  for (const auto& p : s.ports) {
    const auto& r = *p.report;
    const std::map<std::string, std::string> port{{"port", p.port}};
    const auto info = e.find("transceiver_module_info", port);
    ASSERT_EQ(info.size(), 1u) << p.port;
    EXPECT_EQ(info[0].labels.at("part_number"), r.id.part_number) << p.port;
    if (r.temperature_celsius) {
      EXPECT_DOUBLE_EQ(*e.value("transceiver_temperature_celsius", port), *r.temperature_celsius) << p.port;
    } else {
      EXPECT_TRUE(e.find("transceiver_temperature_celsius", port).empty()) << p.port;
    }
    std::size_t lanes_with_rx = 0;
    for (const auto& l : r.lanes) lanes_with_rx += l.rx_power_watts ? 1 : 0;
    EXPECT_EQ(e.find("transceiver_lane_rx_power_watts", port).size(), lanes_with_rx) << p.port;
    for (const auto& sample : e.find("transceiver_lane_rx_power_watts", port)) {
      EXPECT_TRUE(std::isfinite(sample.value) && sample.value >= 0) << p.port;
    }
    EXPECT_TRUE(port_page_html(health::FleetView(s), p.port, {}).has_value());
    EXPECT_NO_THROW((void)port_json(s, p, health::assess(p)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  EXPECT_NO_THROW((void)landing_page_html(health::FleetView(s), {}));
}

}  // namespace
}  // namespace xcvr::exporters
