// docs/metrics.md documents exactly the families the exporter renders, with the right types:
// the table is compared, in both directions, with a render of a snapshot in which every family
// appears.
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
  const std::regex row(R"(^\| `([a-z_:]+)` \| ([a-z]+) \|.*\|$)");
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

std::map<std::string, std::string> rendered() {
  SelfStats self;
  self.last_scrape_seconds = 0.001;  // the scrape-duration family needs a previous scrape
  const auto e = testing::parse_exposition(render_text(testing::make_rich_snapshot(), self));
  return e.type;
}

TEST(ExporterDocs, EveryRenderedFamilyIsDocumentedWithItsType) {
  const auto docs = documented();
  for (const auto& [name, type] : rendered()) {
    const auto it = docs.find(name);
    ASSERT_NE(it, docs.end()) << name << " is rendered but not in docs/metrics.md";
    EXPECT_EQ(it->second, type) << name;
  }
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
