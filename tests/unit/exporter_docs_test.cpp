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

// One row "| `name` | type | labels | unit | meaning |" of docs/metrics.md: labels as
// "port, [lane], flag" (optional ones in brackets), the unit as a symbol ("W", "°C", "1").
struct DocRow {
  std::string type;
  std::set<std::string> required, optional;
  std::string unit;
};

std::map<std::string, DocRow> documented_rows() {
  const fs::path doc = fs::path(XCVR_TEST_DATA).parent_path().parent_path() / "docs" / "metrics.md";
  std::ifstream in(doc);
  EXPECT_TRUE(in.good()) << doc;
  const std::regex row(R"(^\| `([a-z0-9_:]+)` \| ([a-z]+) \|([^|]*)\|([^|]*)\|.*$)");
  std::map<std::string, DocRow> out;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    DocRow r;
    r.type = m[2];
    std::stringstream cols(m[3].str());
    for (std::string part; std::getline(cols, part, ',');) {
      part.erase(0, part.find_first_not_of(' '));
      part.erase(part.find_last_not_of(' ') + 1);
      if (part.size() > 2 && part.front() == '[' && part.back() == ']') r.optional.insert(part.substr(1, part.size() - 2));
      else if (!part.empty()) r.required.insert(part);
    }
    r.unit = m[4].str();
    r.unit.erase(0, r.unit.find_first_not_of(' '));
    r.unit.erase(r.unit.find_last_not_of(' ') + 1);
    EXPECT_TRUE(out.emplace(m[1], std::move(r)).second) << "listed twice: " << m[1];
  }
  return out;
}

// family -> type, as documented.
std::map<std::string, std::string> documented() {
  std::map<std::string, std::string> out;
  for (const auto& [name, row] : documented_rows()) out.emplace(name, row.type);
  return out;
}

// The symbol docs/metrics.md writes for a family table unit (the table writes the name's suffix).
std::string unit_symbol(std::string_view unit) {
  static const std::map<std::string_view, std::string> symbols = {
      {"", "1"},           {"amperes", "A"}, {"bytes", "bytes"},    {"celsius", "°C"},
      {"decibels", "dB"},  {"hertz", "Hz"},  {"radians_per_second", "rad/s"}, {"ratio", "ratio"},
      {"seconds", "s"},    {"seconds_per_meter", "s/m"}, {"seconds_squared", "s²"}, {"volts", "V"},
      {"watts", "W"}};
  const auto it = symbols.find(unit);
  return it == symbols.end() ? "unknown unit " + std::string(unit) : it->second;
}

std::string type_name(prometheus::MetricType t) {
  switch (t) {
    case prometheus::MetricType::Counter: return "counter";
    case prometheus::MetricType::Gauge: return "gauge";
    case prometheus::MetricType::Histogram: return "histogram";
    default: return "other";
  }
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

// docs/metrics.md writes each family's row as the family table has it: type, labels, unit.
TEST(ExporterDocs, EveryFamilyRowIsDocumentedAsTheTableHasIt) {
  const auto docs = documented_rows();
  for (const FamilySpec& spec : family_specs()) {
    const auto it = docs.find(std::string(spec.name));
    ASSERT_NE(it, docs.end()) << spec.name << " is in the family table but not in docs/metrics.md";
    const DocRow& doc = it->second;
    std::set<std::string> required, optional;
    for (const FamilyLabels::Name& n : spec.labels) (n.optional ? optional : required).insert(std::string(n.name));
    EXPECT_EQ(doc.type, type_name(spec.type)) << spec.name;
    EXPECT_EQ(doc.required, required) << spec.name << ": labels";
    EXPECT_EQ(doc.optional, optional) << spec.name << ": labels in brackets";
    EXPECT_EQ(doc.unit, unit_symbol(spec.unit)) << spec.name << ": unit";
  }
  EXPECT_EQ(docs.size(), family_specs().size());
}

// Every rendered sample carries its family row's labels: each required one, no unlisted one
// (`node` beside `port`, `le` on histogram buckets). A debug build checks this at every render;
// this holds the release build to it on the snapshot where every family appears.
TEST(ExporterDocs, EveryRenderedSampleHasItsFamilyRowLabels) {
  std::map<std::string, const FamilySpec*> specs;
  for (const FamilySpec& spec : family_specs()) specs.emplace(spec.name, &spec);
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
    const auto it = specs.find(family);
    ASSERT_NE(it, specs.end()) << sample.name;
    const FamilyLabels& labels = it->second->labels;
    for (const FamilyLabels::Name& n : labels) {
      if (n.optional) continue;
      EXPECT_EQ(sample.labels.count(std::string(n.name)), 1u) << sample.name << " lacks " << n.name;
    }
    for (const auto& [label, value] : sample.labels) {
      if (label == "le") continue;
      EXPECT_TRUE(labels.allows(label)) << sample.name << " has unlisted " << label;
    }
    checked.insert(family);
  }
  EXPECT_EQ(checked.size(), specs.size());
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
