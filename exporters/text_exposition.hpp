// Prometheus text exposition format 0.0.4 for prometheus-cpp metric families, byte for byte what
// prometheus::TextSerializer (1.0.1) writes, without its per-token std::ostream cost: that was
// 10 ms per 64-port render on these machines, twice the scrape latency budget. The
// equivalence test (exporter_text_exposition_test) holds the two outputs equal.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace xcvr::exporters {

std::string serialize_text(const std::vector<prometheus::MetricFamily>& families);

// The same format written series by series, for a renderer that never builds MetricFamily
// objects (FamilySet's text output): concatenating, per family, append_family_header() and its
// samples gives serialize_text()'s bytes.
struct LabelView {
  std::string_view name;
  std::string_view value;  // valid UTF-8 (FamilySet makes it so); escaped here
};
void append_family_header(std::string& out, std::string_view name, prometheus::MetricType type,
                          std::string_view help);
// Labels as the text between a sample's braces: name="escaped value",... (no braces).
void append_labels(std::string& out, std::span<const LabelView> labels);
// One line of a gauge, counter or untyped metric: name{rendered,labels} value. `rendered`: the
// leading labels already written by append_labels() (a port's, shared by all its series).
void append_sample(std::string& out, std::string_view name, std::string_view rendered,
                   std::span<const LabelView> labels, double value);
// Every line of one metric of any type (a histogram or summary writes several).
void append_metric(std::string& out, std::string_view name, prometheus::MetricType type,
                   const prometheus::ClientMetric& metric);

// One sample value as TextSerializer writes it ("%.16g"; "Nan", "+Inf", "-Inf"). The scrape
// benchmark's render floor formats values with it too, so the floor formats exactly as much.
void append_sample_value(std::string& out, double value);

}  // namespace xcvr::exporters
