// Prometheus text exposition format 0.0.4 for prometheus-cpp metric families: what
// prometheus::TextSerializer (1.0.1) writes, line for line, without its per-token std::ostream
// cost (10 ms per 64-port render on these machines, twice the scrape latency budget), except
// that sample values are written in their shortest exact form rather than "%.16g". The
// equivalence test (exporter_text_exposition_test) holds the two outputs equal but for that.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace xcvr::exporters {

// Written series by series, for a renderer that never builds MetricFamily objects (FamilySet):
// per family, append_family_header() and its samples (serialize_text() of the families, in
// tests/support/metric_families.hpp, writes the same bytes).
struct LabelView {
  std::string_view name;
  std::string_view value;  // valid UTF-8 (FamilySet makes it so); escaped here
};

// A growing text that hands out room to write into without filling it first (std::string's
// resize zero-fills, and resize_and_overwrite is C++23): a render writes each sample line
// straight into its family's text, once. A window writes into memory its caller keeps (a
// family's place in the body) until it outgrows it; its text then moves to memory of its own.
class TextBuffer {
 public:
  TextBuffer() = default;
  static TextBuffer window(char* at, std::size_t capacity) {
    TextBuffer t;
    t.data_ = at;
    t.capacity_ = capacity;
    return t;
  }
  void reserve(std::size_t capacity);
  // At least `n` writable bytes at the end; write into them, then commit() the end written.
  char* room(std::size_t n) {
    if (capacity_ - size_ < n) grow(n);
    return data_ + size_;
  }
  void commit(const char* end) { size_ = static_cast<std::size_t>(end - data_); }
  void append(std::string_view s);
  std::string_view view() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool in_window() const { return data_ != nullptr && owned_ == nullptr; }

 private:
  void grow(std::size_t n);
  std::unique_ptr<char[]> owned_;  // null for a window (and before the first byte)
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

void append_family_header(std::string& out, std::string_view name, prometheus::MetricType type,
                          std::string_view help);
// Labels as the text between a sample's braces: name="escaped value",... (no braces), after a
// comma when `after` (the text continues labels already written).
void append_labels(TextBuffer& out, std::span<const LabelView> labels, bool after = false);
// The most bytes append_labels() writes for `labels`.
std::size_t labels_bound(std::span<const LabelView> labels);
// One line of a gauge, counter or untyped metric: name{rendered,labels} value. `rendered`: the
// leading labels already written by append_labels() (a port's, shared by all its series).
void append_sample(TextBuffer& out, std::string_view name, std::string_view rendered,
                   std::span<const LabelView> labels, double value);
// Every line of one metric of any type (a histogram or summary writes several).
void append_metric(std::string& out, std::string_view name, prometheus::MetricType type,
                   const prometheus::ClientMetric& metric);

// One sample value: the shortest text that reads back as the same double ("0.0006907"; "Nan",
// "+Inf", "-Inf" as TextSerializer). The scrape benchmark's render floor formats values with it
// too, so the floor formats exactly as much.
void append_sample_value(std::string& out, double value);

}  // namespace xcvr::exporters
