// promtool (Debian package prometheus, installed by scripts/setup.sh) lints rendered metrics
// and checks and unit-tests the shipped rules. A missing promtool fails these tests.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "exporters/metrics.hpp"
#include "tests/e2e/http_test_support.hpp"

namespace xcvr::exporters {
namespace {

namespace fs = std::filesystem;
const fs::path kRepo = fs::path(XCVR_TEST_DATA).parent_path().parent_path();

std::string lint(const daemon::Snapshot& s) {
  const fs::path file = fs::temp_directory_path() / ("xcvr-lint-" + std::to_string(::getpid()) + ".prom");
  std::ofstream(file) << render_text(health::FleetView(s));
  const auto r = testing::run_shell("promtool check metrics < " + file.string());
  fs::remove(file);
  return std::to_string(r.status) + ":" + r.output;
}

TEST(ExporterPromtool, Present) {
  ASSERT_TRUE(testing::have_command("promtool")) << "promtool missing: run scripts/setup.sh";
}

TEST(ExporterPromtool, CheckMetricsRichSnapshot) {
  ASSERT_TRUE(testing::have_command("promtool"));
  EXPECT_EQ(lint(testing::make_rich_snapshot()), "0:");
}

TEST(ExporterPromtool, CheckMetricsFleet) {
  ASSERT_TRUE(testing::have_command("promtool"));
  EXPECT_EQ(lint(testing::make_fleet(64)), "0:");
}

TEST(ExporterPromtool, CheckAndTestRules) {
  ASSERT_TRUE(testing::have_command("promtool"));
  const fs::path rules = kRepo / "config" / "prometheus";
  auto r = testing::run_shell("promtool check rules " + (rules / "alerts.yml").string() + " " +
                              (rules / "recording.yml").string() + " " + (rules / "global.yml").string() + " " +
                              (rules / "runbook.yml").string());
  EXPECT_EQ(r.status, 0) << r.output;
  r = testing::run_shell("cd " + (kRepo / "tests" / "e2e").string() + " && promtool test rules rules_test.yml");
  EXPECT_EQ(r.status, 0) << r.output;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every alert (the site rules and the fleet-level ones) has a runbook section, a runbook_url to
// it, and a firing and a not-firing case.
TEST(ExporterPromtool, EveryAlertIsTestedAndHasARunbookSection) {
  const std::string alerts = slurp(kRepo / "config" / "prometheus" / "alerts.yml") +
                             slurp(kRepo / "config" / "prometheus" / "global.yml");
  const std::string tests = slurp(kRepo / "tests" / "e2e" / "rules_test.yml");
  const std::string runbook = slurp(kRepo / "docs" / "runbook.md");
  const std::regex alert_re(R"(- alert: (\w+))");
  int n = 0;
  for (auto it = std::sregex_iterator(alerts.begin(), alerts.end(), alert_re); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    ++n;
    std::string lower = name;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_NE(runbook.find("\n## " + name + "\n"), std::string::npos) << name;
    // runbook_url: the recorded base (transceiver:runbook:info) + "#" + the section's anchor.
    EXPECT_NE(alerts.find(R"(runbook_url: '{{ with query "transceiver:runbook:info" }}{{ . | first | label "url" }}{{ end }}#)" +
                          lower + "'\n"),
              std::string::npos)
        << name;
    const std::regex quiet("alertname: " + name + "\\n\\s+exp_alerts: \\[\\]");
    const std::regex fires("alertname: " + name + "\\n\\s+exp_alerts:\\n\\s+- exp_labels");
    EXPECT_TRUE(std::regex_search(tests, quiet)) << name << " has no not-firing case";
    EXPECT_TRUE(std::regex_search(tests, fires)) << name << " has no firing case";
  }
  EXPECT_GE(n, 15);
}

}  // namespace
}  // namespace xcvr::exporters
