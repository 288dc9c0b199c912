// Landing page and port detail pages: content, links to every port, health text labels,
// no scripts or external assets, and HTML escaping of every module-supplied string.
#include <gtest/gtest.h>

#include <iterator>

#include "exporters/format.hpp"
#include "health/health.hpp"
#include "exporters/landing_page.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using namespace xcvr::health;  // the health model (health/)

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
  const std::string html = landing_page_html(health::FleetView(testing::make_rich_snapshot()), options());
  EXPECT_NE(html.find("transceiver-exporter"), std::string::npos);
  EXPECT_NE(html.find("0.1.0-test"), std::string::npos);  // the snapshot's version wins
  EXPECT_NE(html.find("href=\"/metrics\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/api/v1/modules\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/healthz\""), std::string::npos);
  expect_self_contained(html);
}

TEST(ExporterLanding, AHostWithNothingToWatchSaysWhatWasLookedAt) {
  daemon::Snapshot s;
  s.version = "0.1.0-test";
  s.source_notes = {"config.toml:88:1: netlink discovery: no netdev with a module interface; "
                    "physical netdevs looked at: 1; skipped: eth0: <EOPNOTSUPP>"};
  const std::string html = landing_page_html(health::FleetView(s), options());
  EXPECT_NE(html.find("No port to watch."), std::string::npos);
  EXPECT_NE(html.find("netlink discovery: no netdev with a module interface"), std::string::npos);
  EXPECT_NE(html.find("&lt;EOPNOTSUPP&gt;"), std::string::npos) << "notes are escaped";
  EXPECT_NE(html.find("--check-config"), std::string::npos) << "and how to configure";
  s.source_notes.clear();
  EXPECT_NE(landing_page_html(health::FleetView(s), options()).find("The config names no source."), std::string::npos);
  expect_self_contained(html);
}

TEST(ExporterLanding, EveryPortIsLinkedFromMapAndTableProblemsAlsoFromTheList) {
  const auto s = testing::make_rich_snapshot();
  const std::string html = landing_page_html(health::FleetView(s), options());
  for (const auto& p : s.ports) {
    const std::string href = "href=\"/port/" + url_path_escape(p.port) + "\"";
    // The cage and the table row, and the problems list for a port with a problem.
    EXPECT_EQ(count(html, href), is_problem(assess(p).health) ? 3u : 2u) << p.port;
  }
  EXPECT_NE(html.find("<h2>spine1</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>quantum7</h2>"), std::string::npos);
}

// The rich snapshot plus a dirty fiber (warning), a module stuck in low power (down) and a port
// configured out of service (unused).
daemon::Snapshot every_state_snapshot() {
  auto s = testing::make_rich_snapshot();
  auto dirty = testing::make_port("spine1/Ethernet64", 64, "spine1");
  auto r = std::make_shared<cmis::ModuleReport>(*dirty.report);
  for (int lane = 1; lane <= 4; ++lane) {
    r->lanes[static_cast<std::size_t>(lane - 1)].rx_power_watts = 0.00004;
    r->lanes[static_cast<std::size_t>(lane - 1)].flags = {"rx_power_low_warning"};
  }
  dirty.report = r;
  s.ports.push_back(dirty);
  auto lowpwr = testing::make_port("spine1/Ethernet72", 72, "spine1");
  auto l = std::make_shared<cmis::ModuleReport>(*lowpwr.report);
  l->module_state = cmis::Coded{1, "ModuleLowPwr"};
  for (auto& lane : l->lanes) lane.data_path_state = "DPDeactivated";
  lowpwr.report = l;
  s.ports.push_back(lowpwr);
  auto unused = testing::make_port("spine1/Ethernet80", 80, "spine1");
  unused.in_service = false;
  s.ports.push_back(unused);
  return s;
}

TEST(ExporterLanding, CagesCarryClassReasonsAndShortLabels) {
  const std::string html = landing_page_html(health::FleetView(every_state_snapshot()), options());
  auto cage = [&](const std::string& port) {  // the <a> of one cage
    const auto at = html.find("<a class=\"cage ");
    for (auto pos = at; pos != std::string::npos; pos = html.find("<a class=\"cage ", pos + 1)) {
      const auto end = html.find("</a>", pos);
      const std::string a = html.substr(pos, end - pos);
      if (a.find("href=\"/port/" + url_path_escape(port) + "\"") != std::string::npos) return a;
    }
    return std::string();
  };
  const std::string dirty = cage("spine1/Ethernet64");
  EXPECT_NE(dirty.find("class=\"cage h-warning\""), std::string::npos) << dirty;
  EXPECT_NE(dirty.find("title=\"spine1/Ethernet64: warning&#10;rx_power_low_warning on lanes 1-4: -13.98 dBm"),
            std::string::npos) << dirty;
  EXPECT_NE(dirty.find("<span>WARN</span><span>RX LO</span>"), std::string::npos) << dirty;
  const std::string lowpwr = cage("spine1/Ethernet72");
  EXPECT_NE(lowpwr.find("class=\"cage h-down\""), std::string::npos) << lowpwr;
  EXPECT_NE(lowpwr.find("ModuleLowPwr"), std::string::npos) << lowpwr;
  EXPECT_NE(lowpwr.find("<span>DOWN</span><span>LOWPWR</span>"), std::string::npos) << lowpwr;
  EXPECT_NE(cage("spine1/Ethernet24").find("<span>DOWN</span><span>FAULT</span>"), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet16").find("<span>ALARM</span><span>RX LOS</span>"), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet16").find("rx_los on lane 3"), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet8").find("class=\"cage h-hot\""), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet32").find("class=\"cage h-stale\""), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet40").find("class=\"cage h-empty\""), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet48").find("<span>CODING</span><span>\u00a0</span>"), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet80").find("class=\"cage h-unused\""), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet0").find("title=\"spine1/Ethernet0: ok\""), std::string::npos);
  EXPECT_NE(cage("spine1/Ethernet0").find("<b>0</b><span>OK</span>"), std::string::npos);
  for (Health h : kAllHealth) {
    EXPECT_NE(html.find("<span class=\"sw h-" + std::string(health_name(h)) + "\"></span>"), std::string::npos)
        << "legend: " << health_name(h);
  }
}

TEST(ExporterLanding, ProblemsComeFirstWorstFirst) {
  const std::string html = landing_page_html(health::FleetView(every_state_snapshot()), options());
  const auto problems = html.find("<h2 id=\"problems\">Problems</h2>");
  const auto map = html.find("<h2>Port map</h2>");
  ASSERT_NE(problems, std::string::npos);
  ASSERT_LT(problems, map);
  const std::string list = html.substr(problems, map - problems);
  // down (fault, low power), alarm, stale (two), hot, warning, miscoded; no ok, empty or unused.
  const char* order[] = {"spine1/Ethernet24", "spine1/Ethernet72", "spine1/Ethernet16", "spine1/Ethernet32",
                         "spine1/Ethernet56", "spine1/Ethernet8",  "spine1/Ethernet64", "spine1/Ethernet48"};
  std::size_t last = 0;
  for (const char* port : order) {
    const auto at = list.find(">" + std::string(port) + "<");
    ASSERT_NE(at, std::string::npos) << port;
    EXPECT_GT(at, last) << port;
    last = at;
  }
  for (const char* quiet : {"spine1/Ethernet0<", "spine1/Ethernet40<", "spine1/Ethernet80<", "quantum7/p1<"}) {
    EXPECT_EQ(list.find(quiet), std::string::npos) << quiet;
  }
  EXPECT_NE(list.find("module held in low power (ModuleLowPwr)"), std::string::npos);
  const std::string none = landing_page_html(health::FleetView(testing::make_fleet(4)), options());
  EXPECT_NE(none.find("None: every module in service is ok."), std::string::npos);
}

TEST(ExporterLanding, PagesRefreshThemselvesAndLinkARefresh) {
  const auto s = testing::make_rich_snapshot();
  const std::string html = landing_page_html(health::FleetView(s), options());
  EXPECT_NE(html.find("<meta http-equiv=\"refresh\" content=\"10\">"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"/\">Refresh now</a>"), std::string::npos);
  const auto page = port_page_html(health::FleetView(s), "spine1/Ethernet16", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_NE(page->find("<meta http-equiv=\"refresh\" content=\"10\">"), std::string::npos);
  EXPECT_NE(page->find("<a href=\"/port/spine1/Ethernet16\">Refresh now</a>"), std::string::npos);
  auto o = options();
  o.refresh_seconds = 0;
  EXPECT_EQ(landing_page_html(health::FleetView(s), o).find("http-equiv"), std::string::npos);
}

TEST(ExporterLanding, SixtyFourCageSwitchIsOneFaceplateOfTwoBlocks) {
  const std::string html = landing_page_html(health::FleetView(testing::make_fleet(64)), options());
  EXPECT_EQ(count(html, "class=\"faceplate\""), 1u);
  EXPECT_EQ(count(html, "<a class=\"cage h-ok\""), 64u);
  EXPECT_EQ(count(html, "<div class=\"block\">"), 2u);  // 16 columns x 2 rows each
  // Natural order: Ethernet8 is listed before Ethernet16 and Ethernet504 last.
  EXPECT_LT(html.find(">spine1/Ethernet8<"), html.find(">spine1/Ethernet16<"));
  EXPECT_LT(html.find(">spine1/Ethernet496<"), html.find(">spine1/Ethernet504<"));
  EXPECT_LT(html.find("<b>8</b>"), html.find("<b>16</b>"));
}

TEST(ExporterLanding, HostileStringsAreEscaped) {
  auto s = testing::make_rich_snapshot();
  s.ports[6].port = "spine1/<img onerror=x>";
  s.ports[6].coding[0].message = "<b>bold</b>";
  const std::string html = landing_page_html(health::FleetView(s), options());
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("PN&quot;} evil{x=&quot;1?"), std::string::npos);  // 0xFF is not UTF-8
  EXPECT_EQ(html.find('\xff'), std::string::npos);
  const auto page = port_page_html(health::FleetView(s), "spine1/<img onerror=x>", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->find("<img"), std::string::npos);
  EXPECT_EQ(page->find("<b>bold"), std::string::npos);
  EXPECT_EQ(page->find("<script>"), std::string::npos);
  EXPECT_NE(page->find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(page->find("href=\"/api/v1/modules/spine1/%3Cimg%20onerror%3Dx%3E\""), std::string::npos);
}

TEST(ExporterLanding, PortDetailShowsMonitorsInDbmAndMilliwatts) {
  const auto s = testing::make_rich_snapshot();
  const auto page = port_page_html(health::FleetView(s), "spine1/Ethernet16", options());
  ASSERT_TRUE(page.has_value());
  expect_self_contained(*page);
  // 0.51 mW on lane 1, no light on lane 3 (0 W is never -inf).
  EXPECT_NE(page->find("-2.92 dBm (0.510 mW)"), std::string::npos);
  EXPECT_NE(page->find("no light (0.000 mW)"), std::string::npos);
  EXPECT_EQ(page->find("inf"), std::string::npos);
  EXPECT_NE(page->find("40.300 mA"), std::string::npos);
  EXPECT_NE(page->find("<h2>Thresholds</h2>"), std::string::npos);
  EXPECT_NE(page->find("<tr><td>lane 3</td><td><b>rx_los</b> <b>rx_power_low_alarm</b> </td></tr>"),
            std::string::npos);
  EXPECT_NE(page->find("OSFP-800G-DR8"), std::string::npos);
  EXPECT_NE(page->find(">alarm</span>"), std::string::npos);
  EXPECT_NE(page->find("<h2>Why alarm</h2><ul class=\"reasons\"><li>rx_los on lane 3</li>"), std::string::npos);
  EXPECT_NE(page->find("rx_power_low_alarm on lane 3: no light against the low alarm -16.99 dBm"),
            std::string::npos);
  // Worst-lane margin over the lit lanes: lane 1, 0.51 mW against the 0.05 mW low warning.
  EXPECT_NE(page->find("<th>worst-lane rx margin</th><td>10.09 dB to the rx-power low warning (lane 1)</td>"),
            std::string::npos);
  EXPECT_NE(page->find("href=\"/\""), std::string::npos);
}

TEST(ExporterLanding, PortDetailShowsTheLinkBesideTheOptic) {
  const auto s = testing::make_rich_snapshot();
  const auto page = port_page_html(health::FleetView(s), "spine1/Ethernet0", options());
  ASSERT_TRUE(page.has_value());
  expect_self_contained(*page);
  EXPECT_NE(page->find("<h2>Link</h2>"), std::string::npos);
  EXPECT_NE(page->find("<th>carrier eth0</th><td>up, last loss began"), std::string::npos);
  EXPECT_NE(page->find("and lasted 0.050 s</td>"), std::string::npos);
  EXPECT_NE(page->find("<th>carrier_down eth0</th><td>4</td>"), std::string::npos);
  EXPECT_NE(page->find("<th>FEC tail eth0 (last interval)</th><td>5 of 15 symbols the FEC corrects</td>"),
            std::string::npos);
  // The histogram as an inline SVG: 16 bars, the tail's bin marked, each with its count.
  EXPECT_NE(page->find("<svg class=\"fec\" width=\"224\""), std::string::npos);
  EXPECT_NE(page->find("fill=\"#c0392b\"><title>5 symbols: 30517 codewords</title>"), std::string::npos);
  EXPECT_NE(page->find("<title>15 symbols: 0 codewords</title>"), std::string::npos);
  EXPECT_NE(page->find("<th>FEC limit forecast</th><td>reached in about 72.0 h at 0.020 decades/h (1.40 decades of margin)"),
            std::string::npos);
  // A port without a link has no such section.
  const auto other = port_page_html(health::FleetView(s), "spine1/Ethernet16", options());
  EXPECT_EQ(other->find("<h2>Link</h2>"), std::string::npos);
}

TEST(ExporterLanding, PortDetailShowsModuleStateAndFaultCause) {
  auto s = testing::make_rich_snapshot();
  auto fault = std::make_shared<cmis::ModuleReport>(*s.ports[3].report);
  fault->module_fault_cause = cmis::Coded{1, "TEC runaway"};
  s.ports[3].report = fault;
  const auto page = port_page_html(health::FleetView(s), "spine1/Ethernet24", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_NE(page->find(">down</span>"), std::string::npos);
  EXPECT_NE(page->find("<th>module state</th><td>ModuleFault</td>"), std::string::npos);
  EXPECT_NE(page->find("<th>module fault cause</th><td>TEC runaway</td>"), std::string::npos);
  EXPECT_NE(page->find("<li>module fault (ModuleFault): TEC runaway</li>"), std::string::npos);
  EXPECT_NE(page->find("<tr><td>lane 1</td><td><b>tx_fault</b> </td></tr>"), std::string::npos);
}

TEST(ExporterLanding, PortDetailMarksUnusedLanes) {
  auto s = testing::make_rich_snapshot();
  s.ports[2].unused_lanes = {3, 4};  // the LOS lane is out of service: nothing is raised now
  const auto page = port_page_html(health::FleetView(s), "spine1/Ethernet16", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_NE(page->find(">ok</span>"), std::string::npos);
  EXPECT_NE(page->find("lanes 3, 4 out of service"), std::string::npos);
  EXPECT_NE(page->find("<i>out of service</i> rx_los"), std::string::npos);
  EXPECT_NE(page->find("Raised now: none"), std::string::npos);
}

TEST(ExporterLanding, StaleDetailWithholdsMonitors) {
  const auto page = port_page_html(health::FleetView(testing::make_rich_snapshot()), "spine1/Ethernet32", options());
  ASSERT_TRUE(page.has_value());
  EXPECT_NE(page->find("class=\"banner\""), std::string::npos);
  EXPECT_EQ(page->find("<h2>Monitors</h2>"), std::string::npos);
  EXPECT_EQ(page->find("<h2>Lanes</h2>"), std::string::npos);
  EXPECT_NE(page->find("<h2>Identity</h2>"), std::string::npos);
  EXPECT_NE(page->find("read errors: timeout"), std::string::npos);
}

TEST(ExporterLanding, UnknownPortIsNotFound) {
  EXPECT_FALSE(port_page_html(health::FleetView(testing::make_rich_snapshot()), "nope", options()).has_value());
  EXPECT_NE(not_found_html("<x>").find("&lt;x&gt;"), std::string::npos);
}

TEST(ExporterLanding, RichSnapshotVerdicts) {
  const auto s = testing::make_rich_snapshot();
  const Health expected[] = {Health::Ok,    Health::Hot,      Health::Alarm, Health::Down, Health::Stale,
                             Health::Empty, Health::Miscoded, Health::Stale, Health::Ok, Health::Misconfigured};
  ASSERT_EQ(s.ports.size(), std::size(expected));
  for (std::size_t i = 0; i < s.ports.size(); ++i) {
    EXPECT_EQ(health_name(assess(s.ports[i]).health), health_name(expected[i])) << s.ports[i].port;
  }
}

TEST(ExporterFormat, Helpers) {
  EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(url_path_escape("spine1/Ethernet 0?"), "spine1/Ethernet%200%3F");
  // A dot segment (a fabric node described as ".."): one segment, so no browser resolves it away.
  EXPECT_EQ(url_path_escape("../1"), "..%2F1");
  EXPECT_EQ(url_path_escape("sw/./x.y"), "sw%2F.%2Fx.y");
  EXPECT_EQ(url_path_escape("sw/..x/1"), "sw/..x/1");
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
  EXPECT_EQ(monitor_text("watts", 0), "no light");
  EXPECT_EQ(monitor_text("watts", 0.001), "0.00 dBm");
  EXPECT_EQ(monitor_text("celsius", 68), "68.00 \u00b0C");
}

TEST(ExporterFormat, CageLabels) {
  using V = std::vector<std::string>;
  auto labels = [](std::vector<std::string_view> ports) { return cage_labels(ports); };
  EXPECT_EQ(labels({"spine-01/swp1", "spine-01/swp2", "spine-01/swp64"}), (V{"1", "2", "64"}));
  EXPECT_EQ(labels({"s/Ethernet120", "s/Ethernet128"}), (V{"120", "128"}));  // no split number
  EXPECT_EQ(labels({"gpu-node-01/mlx5_0", "gpu-node-01/mlx5_7"}), (V{"0", "7"}));
  EXPECT_EQ(labels({"ens1f0np0", "ens2f0np0"}), (V{"1", "2"}));
  EXPECT_EQ(labels({"ens1f0np0", "ens1f1np1"}), (V{"0np0", "1np1"}));
  EXPECT_EQ(labels({"gpu0/ens1f0np0"}), (V{"ens1f0np0"}));  // alone: the whole name
  EXPECT_EQ(labels({"quantum7/p1", "quantum7/p2"}), (V{"1", "2"}));
  EXPECT_EQ(labels({"ib0", "ens1f0np0"}), (V{"ib0", "ens1f0np0"}));  // nothing shared
  EXPECT_EQ(labels({"h/Ethernet0", "h/Ethernet0/1"}), (V{"0", "0/1"}));
}

}  // namespace
}  // namespace xcvr::exporters
