// serialize_text against prometheus::TextSerializer: the same output line for line (values in
// their shortest exact form, where TextSerializer writes "%.16g") for the exporter's own
// families (a healthy fleet and the snapshot that exercises every family), for every metric type
// and label escape, and for doubles drawn from every bit pattern class (subnormal, -0, huge,
// NaN, infinities).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <limits>
#include <random>
#include <stdexcept>

#include <prometheus/text_serializer.h>

#include "exporters/families.hpp"
#include "exporters/metrics.hpp"
#include "exporters/text_exposition.hpp"
#include "tests/support/metric_families.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

// The value of a sample line: after the last space ("name{labels} value"; label values never
// hold a raw space-free tail that matters, since the value is the line's last token).
std::pair<std::string_view, std::string_view> split_value(std::string_view line) {
  const std::size_t space = line.rfind(' ');
  return {line.substr(0, space + 1), line.substr(space + 1)};
}

double parse(std::string_view v) {
  if (v == "Nan") return std::numeric_limits<double>::quiet_NaN();
  if (v == "+Inf") return std::numeric_limits<double>::infinity();
  if (v == "-Inf") return -std::numeric_limits<double>::infinity();
  return std::strtod(std::string(v).c_str(), nullptr);
}

// Our text and TextSerializer's agree line for line; sample values may differ only in form: ours
// is the shortest text of the same double (exact), theirs "%.16g" (16 digits: within 1e-15
// relative, and not always exact).
void expect_same(const std::vector<MetricFamily>& families) {
  const std::string theirs = prometheus::TextSerializer{}.Serialize(families);
  const std::string ours = serialize_text(families);
  std::size_t a = 0, b = 0, lines = 0;
  while (a < ours.size() && b < theirs.size()) {
    const std::size_t ea = ours.find('\n', a), eb = theirs.find('\n', b);
    ASSERT_NE(ea, std::string::npos);
    ASSERT_NE(eb, std::string::npos);
    const std::string_view lo(ours.data() + a, ea - a), lt(theirs.data() + b, eb - b);
    a = ea + 1;
    b = eb + 1;
    ++lines;
    if (lo.starts_with('#')) {
      ASSERT_EQ(lo, lt);
      continue;
    }
    const auto [head_o, value_o] = split_value(lo);
    const auto [head_t, value_t] = split_value(lt);
    ASSERT_EQ(head_o, head_t) << "line " << lines;
    const double vo = parse(value_o), vt = parse(value_t);
    if (std::isnan(vt)) {
      EXPECT_TRUE(std::isnan(vo)) << lo;
      continue;
    }
    if (std::isinf(vt) && !value_t.ends_with("Inf")) {  // "%.16g" of the largest double overflows
      EXPECT_EQ(std::abs(vo), std::numeric_limits<double>::max()) << lo;
    } else if (std::isinf(vt)) {
      EXPECT_EQ(vo, vt) << lo;
    }
    else EXPECT_LE(std::abs(vo - vt), 1e-15 * std::abs(vt)) << lo << " vs " << lt;
    EXPECT_EQ(std::signbit(vo), std::signbit(vt)) << lo << " vs " << lt;
  }
  EXPECT_EQ(a, ours.size());
  EXPECT_EQ(b, theirs.size());
}

TEST(ExporterTextExposition, SameLinesForAHealthyFleet) {
  expect_same(build_families(health::FleetView(testing::make_fleet(64))));
}

TEST(ExporterTextExposition, SameLinesForEveryFamilyAndHealthState) {
  expect_same(build_families(health::FleetView(testing::make_rich_snapshot())));
}

// render_text writes the body series by series (FamilySet's text output) without building the
// families: it must give exactly what the families serialize to, through the hostile label
// values too (invalid UTF-8, quotes, backslashes, newlines, a repeated port, non-finite values).
void expect_render_matches(const daemon::Snapshot& snapshot) {
  SelfStats self;
  self.last_scrape_seconds = 0.0123;
  self.render_errors = 2;
  const std::string rendered = render_text(health::FleetView(snapshot), self);
  const std::string serialized = serialize_text(build_families(health::FleetView(snapshot), self));
  ASSERT_EQ(rendered.size(), serialized.size());
  EXPECT_EQ(rendered, serialized);
}

TEST(ExporterTextExposition, RenderedBodyIsTheSerializedFamilies) {
  expect_render_matches(testing::make_fleet(64));
  expect_render_matches(testing::make_rich_snapshot());
  daemon::Snapshot hostile = testing::make_rich_snapshot();
  ASSERT_FALSE(hostile.ports.empty());
  hostile.ports.push_back(hostile.ports.front());  // a repeated port: dropped and counted
  daemon::PortSnapshot& p = hostile.ports.front();
  p.port = "bad\xff\xfe\"port\\\n";
  p.node = "n\xc3\x28ode";
  p.misconfiguration = "reason with \"quotes\" and \\ and \nnewline \xe2\x82";
  if (p.report) {
    auto report = std::make_shared<cmis::ModuleReport>(*p.report);
    report->id.vendor_name = "VENDOR\x80\x81";
    report->id.serial = "SER\\IAL\"";
    report->temperature_celsius = std::numeric_limits<double>::infinity();  // dropped, counted
    p.report = report;
  }
  expect_render_matches(hostile);
}

ClientMetric with_labels(std::vector<ClientMetric::Label> labels) {
  ClientMetric m;
  m.label = std::move(labels);
  return m;
}

TEST(ExporterTextExposition, SameLinesForEveryTypeEscapeAndTimestamp) {
  std::vector<MetricFamily> f(5);
  f[0] = {"c_total", "a counter", MetricType::Counter, {}};
  f[0].metric.push_back(with_labels({{"path", "C:\\dir \"x\"\nnext"}, {"empty", ""}}));
  f[0].metric.back().counter.value = 12345678901234.0;
  f[0].metric.push_back(with_labels({}));
  f[0].metric.back().counter.value = 0.1;
  f[0].metric.back().timestamp_ms = 1796000000123;
  f[1] = {"g", "", MetricType::Gauge, {}};  // no HELP line
  f[1].metric.push_back(with_labels({{"a", "1"}}));
  f[1].metric.back().gauge.value = -0.0;
  f[2] = {"u", "untyped", MetricType::Untyped, {}};
  f[2].metric.push_back(with_labels({}));
  f[2].metric.back().untyped.value = std::numeric_limits<double>::quiet_NaN();
  f[3] = {"h_seconds", "histogram", MetricType::Histogram, {}};
  ClientMetric h = with_labels({{"domain", "i2c-3"}});
  h.histogram.sample_count = 7;
  h.histogram.sample_sum = 0.123456789012345678;
  h.histogram.bucket = {{1, 0.005}, {3, 0.1}, {7, 2.5}};
  f[3].metric.push_back(h);
  h.histogram.bucket.push_back({7, std::numeric_limits<double>::infinity()});  // no second +Inf
  h.label = {};
  f[3].metric.push_back(h);
  f[4] = {"s", "summary", MetricType::Summary, {}};
  ClientMetric s = with_labels({{"x", "y"}});
  s.summary.sample_count = 3;
  s.summary.sample_sum = 1e300;
  s.summary.quantile = {{0.5, 1.5}, {0.99, -std::numeric_limits<double>::infinity()}};
  f[4].metric.push_back(s);
  expect_same(f);
}

// Render after render with the sizes kept (as SnapshotCollector does), each family writes into
// its window of the body and the gaps are closed in place. Snapshots that grow past the windows
// (all of them, or a few families while the rest fit), shrink and come back must still give
// exactly the serialized families.
TEST(ExporterTextExposition, BodyRenderedInWindowsIsTheSerializedFamilies) {
  daemon::Snapshot grown = testing::make_fleet(64);
  grown.ports.front().port += std::string(300, 'x');  // a few small families outgrow their windows
  const std::vector<daemon::Snapshot> renders = {
      testing::make_fleet(64), testing::make_fleet(64), grown,   testing::make_fleet(64),
      testing::make_fleet(80), testing::make_fleet(16), testing::make_rich_snapshot(), testing::make_fleet(64)};
  std::vector<std::size_t> family_bytes;
  for (const daemon::Snapshot& snapshot : renders) {
    const TextBuffer body = render_body(health::FleetView(snapshot), {}, &family_bytes);
    const std::string serialized = serialize_text(build_families(health::FleetView(snapshot)));
    ASSERT_EQ(body.size(), serialized.size());
    EXPECT_EQ(body.view(), serialized);
  }
}

// Every length of a name and value from empty to past 128 bytes, escaped or not, through both
// writers: the short-piece copies have a branch per width, and one wrong offset shows here.
TEST(ExporterTextExposition, SameLinesForLabelsOfEveryLength) {
#ifndef NDEBUG
  GTEST_SKIP() << "writes synthetic label names to a real family, which a debug build refuses (the release build runs it)";
#endif
  std::vector<std::string> values;
  for (std::size_t n = 0; n <= 140; ++n) {
    std::string v;
    for (std::size_t i = 0; i < n; ++i) v += static_cast<char>('a' + (i * 7 + n) % 26);
    values.push_back(v);
    if (n > 0) values.push_back(v.substr(0, n - 1) + '"');  // escaped at the end
  }
  MetricFamily f{"g", "help", MetricType::Gauge, {}};
  FamilySet text;
  FamilyCollector collected;
  FamilySet families(collected);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string name = "l" + std::string(i % 140, 'x');
    f.metric.push_back(with_labels({{name, values[i]}}));
    f.metric.back().gauge.value = static_cast<double>(i);
    const Labels rendered_base = text.with_rendered({{"port", values[i]}});
    text.gauge(Fam::ModulePresent, rendered_base, {name, values[i]}, static_cast<double>(i));
    families.gauge(Fam::ModulePresent, {{"port", values[i]}}, {name, values[i]}, static_cast<double>(i));
  }
  expect_same({f});
  EXPECT_EQ(text.take_text().view(), serialize_text(collected.take()));
}

TEST(ExporterTextExposition, SameLinesForDoublesOfEveryBitPattern) {
  std::mt19937_64 rng(20261130);
  MetricFamily f{"v", "values", MetricType::Gauge, {}};
  auto push = [&](double v) {
    f.metric.push_back(with_labels({}));
    f.metric.back().gauge.value = v;
  };
  for (double v : {0.0, -0.0, 1.0, 0.1, 1e16, 1e17, 123456789012345680.0, 5e-324, 2.2250738585072014e-308,
                   std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 0.0005200000000000001,
                   1e-5, 0.0001, 1e15, 999999999999999.9}) {
    push(v);
  }
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    push(v);  // uniform over bit patterns: every exponent, NaN payloads, infinities
    push(static_cast<double>(rng() % 100000000) / 1e6);  // values shaped like sensor readings
    // integers, which the serializer formats as integers: small, and either side of 1e15-1e16
    push(static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000));
    push(static_cast<double>(static_cast<std::int64_t>(rng() % 40000000000000000ull) - 20000000000000000ll));
  }
  for (double v : {999999999999999.0, 1e15 - 1, 1e15 + 1, -1e15 + 1, 9999999999999998.0, -42.0, 4294967295.0}) push(v);
  // The fast "%.16g": exact ties at the 17th digit (round half to even), carries into the next
  // power of ten, both ends of its range and the switch to scientific notation.
  for (double v : {1234567890123456.5, 1234567890123457.5, -1234567890123456.5, 1000000000000000.5,
                   9999999999999999.0, 9999999999999998.5, 0.99999999999999994, 9.9999999999999995e-05,
                   0.0001, 0.00009999999999999999, 1e-17, 9.99999999999999e-18, 1.0000000000000002e-17,
                   1e16 - 2, 123.456, 96610.93, 8e-05, 7.3e-11, 0.1 + 0.2, 1.0 / 3, 2.0 / 3,
                   9.5367431640625e-07, 1.52587890625e-05}) {
    push(v);
    push(-v);
  }
  for (int i = 0; i < 20000; ++i) {  // every decade of the fast path's range, random mantissas
    const double mantissa = 1.0 + static_cast<double>(rng() >> 11) * 0x1p-53 * 9.0;
    push(mantissa * std::pow(10.0, static_cast<int>(rng() % 34) - 17));
  }
  expect_same({f});
  // Ours is exact: every finite value reads back as the same double.
  for (const ClientMetric& m : f.metric) {
    const double v = m.gauge.value;
    if (!std::isfinite(v)) continue;
    std::string text;
    append_sample_value(text, v);
    const double back = parse(text);
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << text;
  }
  std::string text;
  append_sample_value(text, 0.0006907);  // the example: "%.16g" wrote 0.0006906999999999999
  EXPECT_EQ(text, "0.0006907");
}

// A debug build refuses a series whose labels are not its family row's (exporters/families.cpp):
// one it lacks, one it does not list; `node` may join any family with a `port`.
TEST(ExporterTextExposition, DebugBuildRefusesLabelsTheFamilyRowDoesNotList) {
#ifdef NDEBUG
  GTEST_SKIP() << "the label check is a debug build's (the release render does not pay for it)";
#else
  FamilySet text;
  EXPECT_THROW(text.gauge(Fam::ModuleState, {{"port", "p1"}}, 1), std::logic_error);  // lacks state
  EXPECT_THROW(text.gauge(Fam::ModulePresent, {{"port", "p1"}}, {"lane", "1"}, 1), std::logic_error);
  EXPECT_NO_THROW(text.gauge(Fam::ModulePresent, {{"port", "p1"}}, {"node", "sw1"}, 1));
  EXPECT_NO_THROW(text.gauge(Fam::Flag, {{"port", "p1"}, {"flag", "rx_los"}}, 1));  // lane, data_path optional
  EXPECT_THROW(text.gauge(Fam::PowerBudget, {{"group", "g"}}, {"node", "sw1"}, 1), std::logic_error);  // no port
#endif
}

}  // namespace
}  // namespace xcvr::exporters
