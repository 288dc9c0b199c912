// docs/metrics.md documents exactly the families the exporter renders, with the right types and
// labels: the table is compared, in both directions, with a render of a snapshot in which every
// family appears. (tests/e2e/prometheus_scrape.py compares it with the daemon's demo-fleet scrape.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <cctype>
#include <map>
#include <set>
#include <regex>
#include <sstream>

#include "exporters/families.hpp"
#include "exporters/metrics.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

namespace fs = std::filesystem;

// family -> type from the rows "| `name` | type | ..." of docs/metrics.md.
std::map<std::string, std::string> documented() {
  const fs::path doc = fs::path(XCVR_TEST_DATA).parent_path().parent_path() / "docs" / "metrics.md";
  std::ifstream in(doc);
  EXPECT_TRUE(in.good()) << doc;
  const std::regex row(R"(^\| `([a-z0-9_:]+)` \| ([a-z]+) \|.*\|$)");
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, row)) {
      EXPECT_TRUE(out.emplace(m[1], m[2]).second) << "listed twice: " << m[1];
    }
  }
  return out;
}

// family -> labels column ("port, [lane], flag"; optional labels in brackets) of docs/metrics.md.
std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> documented_labels() {
  const fs::path doc = fs::path(XCVR_TEST_DATA).parent_path().parent_path() / "docs" / "metrics.md";
  std::ifstream in(doc);
  const std::regex row(R"(^\| `([a-z0-9_:]+)` \| [a-z]+ \|([^|]*)\|.*$)");
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> out;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    auto& [required, optional] = out[m[1]];
    std::stringstream cols(m[2].str());
    for (std::string part; std::getline(cols, part, ',');) {
      part.erase(0, part.find_first_not_of(' '));
      part.erase(part.find_last_not_of(' ') + 1);
      if (part.size() > 2 && part.front() == '[' && part.back() == ']') optional.insert(part.substr(1, part.size() - 2));
      else if (!part.empty()) required.insert(part);
    }
    if (required.count("port") != 0) optional.insert("node");  // fabric ports (Conventions)
  }
  return out;
}

std::string rendered_text() {
  SelfStats self;
  self.last_scrape_seconds = 0.001;  // the scrape-duration family needs a previous scrape
  self.process = drivers::read_process_stats();  // process_* families: this test's own process
  EXPECT_TRUE(self.process);
  return render_text(health::FleetView(testing::make_rich_snapshot()), self);
}

std::map<std::string, std::string> rendered() { return testing::parse_exposition(rendered_text()).type; }

TEST(ExporterDocs, EveryRenderedFamilyIsDocumentedWithItsType) {
  const auto docs = documented();
  for (const auto& [name, type] : rendered()) {
    const auto it = docs.find(name);
    ASSERT_NE(it, docs.end()) << name << " is rendered but not in docs/metrics.md";
    EXPECT_EQ(it->second, type) << name;
  }
}

TEST(ExporterDocs, EveryRenderedSampleHasTheDocumentedLabels) {
  const auto docs = documented_labels();
  const auto e = testing::parse_exposition(rendered_text());
  std::set<std::string> checked;
  for (const auto& sample : e.samples) {
    std::string family = sample.name;
    if (e.type.count(family) == 0) {
      for (const char* suffix : {"_bucket", "_sum", "_count"}) {
        const std::string sfx(suffix);
        if (family.size() > sfx.size() && family.compare(family.size() - sfx.size(), sfx.size(), sfx) == 0) {
          family.resize(family.size() - sfx.size());
          break;
        }
      }
    }
    const auto it = docs.find(family);
    ASSERT_NE(it, docs.end()) << sample.name;
    const auto& [required, optional] = it->second;
    for (const auto& r : required) EXPECT_EQ(sample.labels.count(r), 1u) << sample.name << " lacks " << r;
    for (const auto& [label, value] : sample.labels) {
      if (label == "le") continue;
      EXPECT_TRUE(required.count(label) + optional.count(label) > 0) << sample.name << " has undocumented " << label;
    }
    checked.insert(family);
  }
  EXPECT_EQ(checked.size(), docs.size());
}

TEST(ExporterDocs, EveryDocumentedFamilyIsRendered) {
  const auto out = rendered();
  for (const auto& [name, type] : documented()) {
    EXPECT_EQ(out.count(name), 1u) << name << " is documented but not rendered";
  }
}

TEST(ExporterDocs, RichSnapshotCoversTheWholeFamilyTable) {
  const auto out = rendered();
  for (const auto& spec : family_specs()) {
    EXPECT_EQ(out.count(std::string(spec.name)), 1u) << spec.name;
  }
  EXPECT_EQ(documented().size(), family_specs().size());
}

// Metric names used by the shipped rules and dashboard: "transceiver_..." not preceded by a
// name character or ':' (recording-rule names like "instance:transceiver_x:max" are skipped).
std::set<std::string> referenced_metrics(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  EXPECT_FALSE(text.empty()) << file;
  std::set<std::string> out;
  for (auto pos = text.find("transceiver_"); pos != std::string::npos; pos = text.find("transceiver_", pos + 1)) {
    const char before = pos > 0 ? text[pos - 1] : ' ';
    if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == ':') continue;
    std::size_t end = pos;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    if (end < text.size() && text[end] == ':') continue;  // a recording rule's own name part
    std::string name = text.substr(pos, end - pos);
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string sfx(suffix);
      if (name.size() > sfx.size() && name.compare(name.size() - sfx.size(), sfx.size(), sfx) == 0 &&
          name.find("_seconds") != std::string::npos) {
        name.resize(name.size() - sfx.size());
      }
    }
    out.insert(name);
  }
  return out;
}

TEST(ExporterDocs, RulesAndDashboardUseOnlyDocumentedMetrics) {
  const auto docs = documented();
  const fs::path repo = fs::path(XCVR_TEST_DATA).parent_path().parent_path();
  for (const fs::path& file : {repo / "config" / "prometheus" / "alerts.yml", repo / "config" / "prometheus" / "recording.yml",
                              repo / "config" / "grafana" / "transceivers.json"}) {
    const auto used = referenced_metrics(file);
    EXPECT_GE(used.size(), 5u) << file;
    for (const auto& name : used) EXPECT_EQ(docs.count(name), 1u) << file.filename() << " uses undocumented " << name;
  }
}

}  // namespace
}  // namespace xcvr::exporters
