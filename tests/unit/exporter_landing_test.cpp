// Landing page and port detail pages: content, links to every port, health text labels,
// no scripts or external assets, and HTML escaping of every module-supplied string.
#include <gtest/gtest.h>

#include <regex>

#include "exporters/format.hpp"
#include "exporters/health.hpp"
#include "exporters/landing_page.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

LandingOptions options() {
  LandingOptions o;
  o.version = "9.9.9";
  return o;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("javascript:"), std::string::npos);
}

TEST(ExporterLanding, NameVersionAndLinks) {
  const std::string html = landing_page_html(testing::make_rich_snapshot(), options());
  EXPECT_NE(html.find("transceiver-exporter"), std::string::npos);
  EXPECT_NE(html.find("0.1.0-test"), std::string::npos);  // the snapshot's version wins
  EXPECT_NE(html.find("href=\"/metrics\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/api/v1/modules\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/healthz\""), std::string::npos);
  expect_self_contained(html);
}

TEST(ExporterLanding, EveryPortIsLinkedFromMapAndTable) {
  const auto s = testing::make_rich_snapshot();
  const std::string html = landing_page_html(s, options());
  for (const auto& p : s.ports) {
    const std::string href = "href=\"/port/" + url_path_escape(p.port) + "\"";
    EXPECT_EQ(count(html, href), 2u) << p.port;  // the cage and the table row
  }
  EXPECT_NE(html.find("<h2>spine1</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>quantum7</h2>"), std::string::npos);
}

TEST(ExporterLanding, CagesCarryTextLabelsAndALegend) {
  const auto s = testing::make_rich_snapshot();
  const std::string html = landing_page_html(s, options());
  EXPECT_NE(html.find("<title>spine1/Ethernet16: alarm</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>spine1/Ethernet8: hot</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>spine1/Ethernet32: stale</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>spine1/Ethernet40: empty</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>spine1/Ethernet48: miscoded</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>spine1/Ethernet0: ok</title>"), std::string::npos);
  for (const char* label : {">OK<", ">HOT<", ">ALM<", ">STL<", ">COD<"}) {
    EXPECT_NE(html.find(label), std::string::npos) << label;
  }
  for (const char* meaning : {"hot:", "alarm:", "miscoded:", "stale:", "empty cage"}) {
    EXPECT_NE(html.find(meaning), std::string::npos) << meaning;
  }
}

TEST(ExporterLanding, SixtyFourCageSwitchIsOneFaceplate) {
  const std::string html = landing_page_html(testing::make_fleet(64), options());
  EXPECT_EQ(count(html, "<svg"), 1u);
  EXPECT_EQ(count(html, "<rect x="), 64u);
  EXPECT_NE(html.find("width=\"1253\""), std::string::npos);  // 32 columns x 2 rows
  // Natural order: Ethernet8 is listed before Ethernet16 and Ethernet504 last.
  EXPECT_LT(html.find(">spine1/Ethernet8<"), html.find(">spine1/Ethernet16<"));
  EXPECT_LT(html.find(">spine1/Ethernet496<"), html.find(">spine1/Ethernet504<"));
}

TEST(ExporterLanding, HostileStringsAreEscaped) {
  auto s = testing::make_rich_snapshot();
  s.ports[6].port = "spine1/<img onerror=x>";
  s.ports[6].coding[0].message = "<b>bold</b>";
  const std::string html = landing_page_html(s, options());
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("PN&quot;} evil{x=&quot;1?"), std::string::npos);  // 0xFF is not UTF-8
  EXPECT_EQ(html.find('\xff'), std::string::npos);
  const auto page = port_page_html(s, "spine1/<img onerror=x>", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->find("<img"), std::string::npos);
  EXPECT_EQ(page->find("<b>bold"), std::string::npos);
  EXPECT_EQ(page->find("<script>"), std::string::npos);
  EXPECT_NE(page->find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(page->find("href=\"/api/v1/modules/spine1/%3Cimg%20onerror%3Dx%3E\""), std::string::npos);
}

TEST(ExporterLanding, PortDetailShowsMonitorsInDbmAndMilliwatts) {
  const auto s = testing::make_rich_snapshot();
  const auto page = port_page_html(s, "spine1/Ethernet16", options());
  ASSERT_TRUE(page.has_value());
  expect_self_contained(*page);
  // 0.51 mW on lane 1, no light on lane 3 (0 W is never -inf).
  EXPECT_NE(page->find("-2.92 dBm (0.510 mW)"), std::string::npos);
  EXPECT_NE(page->find("no light (0.000 mW)"), std::string::npos);
  EXPECT_EQ(page->find("inf"), std::string::npos);
  EXPECT_NE(page->find("40.300 mA"), std::string::npos);
  EXPECT_NE(page->find("<h2>Thresholds</h2>"), std::string::npos);
  EXPECT_NE(page->find("<b>rx_los</b> (lane 3)"), std::string::npos);
  EXPECT_NE(page->find("OSFP-800G-DR8"), std::string::npos);
  EXPECT_NE(page->find(">alarm</span>"), std::string::npos);
  EXPECT_NE(page->find("href=\"/\""), std::string::npos);
}

TEST(ExporterLanding, StaleDetailWithholdsMonitors) {
  const auto page = port_page_html(testing::make_rich_snapshot(), "spine1/Ethernet32", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_NE(page->find("class=\"banner\""), std::string::npos);
  EXPECT_EQ(page->find("<h2>Monitors</h2>"), std::string::npos);
  EXPECT_EQ(page->find("<h2>Lanes</h2>"), std::string::npos);
  EXPECT_NE(page->find("<h2>Identity</h2>"), std::string::npos);
  EXPECT_NE(page->find("read errors: timeout"), std::string::npos);
}

TEST(ExporterLanding, UnknownPortIsNotFound) {
  EXPECT_FALSE(port_page_html(testing::make_rich_snapshot(), "nope", options()).has_value());
  EXPECT_NE(not_found_html("<x>").find("&lt;x&gt;"), std::string::npos);
}

TEST(ExporterLanding, HealthClassification) {
  const auto s = testing::make_rich_snapshot();
  const Health expected[] = {Health::Ok,    Health::Hot,   Health::Alarm,    Health::Alarm, Health::Stale,
                             Health::Empty, Health::Miscoded, Health::Stale, Health::Ok};
  for (std::size_t i = 0; i < s.ports.size(); ++i) {
    EXPECT_EQ(classify(s.ports[i]), expected[i]) << s.ports[i].port;
  }
  // Hot by headroom alone, with the threshold taken from options.
  auto warm = s.ports[0];
  warm.temperature_headroom_celsius = 4.0;
  EXPECT_EQ(classify(warm), Health::Hot);
  EXPECT_EQ(classify(warm, HealthOptions{3.0}), Health::Ok);
}

TEST(ExporterFormat, Helpers) {
  EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(url_path_escape("spine1/Ethernet 0?"), "spine1/Ethernet%200%3F");
  EXPECT_FALSE(watts_to_dbm(0).has_value());
  EXPECT_NEAR(*watts_to_dbm(0.001), 0.0, 1e-12);
  EXPECT_TRUE(natural_less("Ethernet2", "Ethernet10"));
  EXPECT_FALSE(natural_less("Ethernet10", "Ethernet2"));
  EXPECT_TRUE(natural_less("a", "ab"));
  EXPECT_EQ(module_state_label("ModuleLowPwr"), "low_power");
  EXPECT_EQ(module_state_label("Reserved (6)"), "reserved_6");
  EXPECT_EQ(data_path_state_label("DPTxTurnOn"), "tx_turn_on");
  EXPECT_EQ(device_of("spine1/Ethernet0"), "spine1");
  EXPECT_EQ(device_of("Ethernet0"), "");
  EXPECT_EQ(utc_time(0), "never");
  EXPECT_EQ(utc_time(1796000000), "2026-11-30T00:53:20Z");
}

}  // namespace
}  // namespace xcvr::exporters
