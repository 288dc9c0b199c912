#include "exporters/text_exposition.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

namespace xcvr::exporters {

using prometheus::ClientMetric;
using prometheus::MetricType;

// Sample values in the shortest form that reads back as the same double (std::to_chars without
// a precision): "0.0006907", not prometheus-cpp's "%.16g" "0.0006906999999999999", which is
// longer and, for some doubles, not even exact (a double needs up to 17 digits).
namespace {

constexpr std::size_t kValueChars = 32;  // the longest value write_sample_value writes, and more

// `n` bytes (kWidth <= n <= 2 * kWidth) as two fixed-width moves that overlap in the middle:
// each is a single load and store, and neither leaves [from, from + n) or [to, to + n).
template <std::size_t kWidth>
void copy_overlapping(char* to, const char* from, std::size_t n) {
  std::memcpy(to, from, kWidth);
  std::memcpy(to + n - kWidth, from + n - kWidth, kWidth);
}

// `s` at `p`; returns the end. A render writes four or five short pieces per line (a name, a
// label text, a label value): copied inline rather than by a libc call each, 3 % of a render.
// (`s` may be empty with a null data(): nothing is read then.)
char* put(char* p, std::string_view s) {
  const std::size_t n = s.size();
  const char* from = s.data();
  if (n >= 32 && n <= 64) {
    copy_overlapping<32>(p, from, n);
  } else if (n >= 16 && n < 32) {
    copy_overlapping<16>(p, from, n);
  } else if (n >= 8 && n < 16) {
    copy_overlapping<8>(p, from, n);
  } else if (n >= 4 && n < 8) {
    copy_overlapping<4>(p, from, n);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) p[i] = from[i];
  } else {
    std::memcpy(p, from, n);
  }
  return p + n;
}

// Writes the value at `p` (room for kValueChars); returns the end.
char* write_sample_value(char* p, double value) {
  if (std::isnan(value)) return put(p, "Nan");
  if (std::isinf(value)) return put(p, value < 0 ? "-Inf" : "+Inf");
  // Most samples are integers (states, flags, counts, info): below 1e15 the shortest form is
  // the integer in full, and integer formatting is cheaper.
  const bool integral = std::abs(value) < 1e15 && value == std::trunc(value);
  if (integral && !(value == 0 && std::signbit(value))) {
    return std::to_chars(p, p + kValueChars, static_cast<int64_t>(value)).ptr;
  }
  return std::to_chars(p, p + kValueChars, value).ptr;
}

}  // namespace

void append_sample_value(std::string& out, double value) {
  char buf[kValueChars];
  out.append(buf, write_sample_value(buf, value));
}

namespace {

void append_count(std::string& out, std::uint64_t value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

// Label value escaping: backslash, double quote and newline (as \n) get a backslash. By table:
// it runs on every byte of every label value.
constexpr std::array<bool, 256> kEscapeSpecial = [] {
  std::array<bool, 256> t{};
  t['\\'] = t['"'] = t['\n'] = true;
  return t;
}();
bool escape_special(char c) { return kEscapeSpecial[static_cast<unsigned char>(c)]; }

char* put_escaped(char* p, std::string_view value) {
  if (std::none_of(value.begin(), value.end(), escape_special)) return put(p, value);
  for (const char c : value) {
    if (escape_special(c)) *p++ = '\\';
    *p++ = c == '\n' ? 'n' : c;
  }
  return p;
}

// `name="`, after a comma unless it is the first label (then it clears `first`).
char* put_label_start(char* p, bool& first, std::string_view name) {
  if (!first) *p++ = ',';
  first = false;
  p = put(p, name);
  *p++ = '=';
  *p++ = '"';
  return p;
}

// The most bytes put_label_list() writes for `labels` (every value byte escaped).
template <typename LabelRange>
std::size_t label_list_bound(const LabelRange& labels) {
  std::size_t bound = 0;
  for (const auto& l : labels) bound += l.name.size() + 2 * l.value.size() + 4;  // ,name="value"
  return bound;
}

// name="escaped value" for each label: the one writer of a label list, for sample lines and
// histogram heads alike. Labels: ClientMetric::Label or LabelView.
template <typename LabelRange>
char* put_label_list(char* p, bool& first, const LabelRange& labels) {
  for (const auto& l : labels) {
    p = put_label_start(p, first, l.name);
    p = put_escaped(p, l.value);
    *p++ = '"';
  }
  return p;
}

// Appends what `write(char*) -> end` puts, given room for `bound` bytes.
template <typename Write>
void append_written(std::string& out, std::size_t bound, Write write) {
  const std::size_t at = out.size();
  out.resize(at + bound);
  out.resize(static_cast<std::size_t>(write(out.data() + at) - out.data()));
}

template <typename LabelRange>
void append_label_list(std::string& out, bool& first, const LabelRange& labels) {
  append_written(out, label_list_bound(labels), [&](char* p) { return put_label_list(p, first, labels); });
}

// "name_suffix{labels[,extra]} " — the line up to its value.
void append_head(std::string& out, std::string_view name, const std::vector<ClientMetric::Label>& labels,
                 std::string_view suffix = {}, std::string_view extra_name = {},
                 const double* extra_value = nullptr) {
  out += name;
  out += suffix;
  if (!labels.empty() || !extra_name.empty()) {
    out += '{';
    bool first = true;
    append_label_list(out, first, labels);
    if (!extra_name.empty()) {
      append_written(out, extra_name.size() + 3, [&](char* p) { return put_label_start(p, first, extra_name); });
      if (extra_value) append_sample_value(out, *extra_value);
      else out += "+Inf";
      out += '"';
    }
    out += '}';
  }
  out += ' ';
}

void append_tail(std::string& out, const ClientMetric& metric) {
  if (metric.timestamp_ms != 0) {
    out += ' ';
    out += std::to_string(metric.timestamp_ms);
  }
  out += '\n';
}

// name_count and name_sum lines, as histograms and summaries both begin.
void append_count_and_sum(std::string& out, std::string_view name, const ClientMetric& metric,
                          std::uint64_t count, double sum) {
  append_head(out, name, metric.label, "_count");
  append_count(out, count);
  append_tail(out, metric);
  append_head(out, name, metric.label, "_sum");
  append_sample_value(out, sum);
  append_tail(out, metric);
}

void append_histogram(std::string& out, std::string_view name, const ClientMetric& metric) {
  const auto& h = metric.histogram;
  append_count_and_sum(out, name, metric, h.sample_count, h.sample_sum);
  double last = -std::numeric_limits<double>::infinity();
  for (const auto& b : h.bucket) {
    append_head(out, name, metric.label, "_bucket", "le", &b.upper_bound);
    last = b.upper_bound;
    append_count(out, b.cumulative_count);
    append_tail(out, metric);
  }
  if (last != std::numeric_limits<double>::infinity()) {
    append_head(out, name, metric.label, "_bucket", "le", nullptr);
    append_count(out, h.sample_count);
    append_tail(out, metric);
  }
}

void append_summary(std::string& out, std::string_view name, const ClientMetric& metric) {
  const auto& s = metric.summary;
  append_count_and_sum(out, name, metric, s.sample_count, s.sample_sum);
  for (const auto& q : s.quantile) {
    append_head(out, name, metric.label, "", "quantile", &q.quantile);
    append_sample_value(out, q.value);
    append_tail(out, metric);
  }
}

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::Counter: return "counter";
    case MetricType::Gauge: return "gauge";
    case MetricType::Summary: return "summary";
    case MetricType::Histogram: return "histogram";
    case MetricType::Untyped: break;
  }
  return "untyped";
}

double simple_value(MetricType type, const ClientMetric& m) {
  return type == MetricType::Counter ? m.counter.value
         : type == MetricType::Gauge ? m.gauge.value
                                     : m.untyped.value;
}

}  // namespace

void append_family_header(std::string& out, std::string_view name, MetricType type, std::string_view help) {
  if (!help.empty()) {
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += '\n';
  }
  out += "# TYPE ";
  out += name;
  out += ' ';
  out += type_name(type);
  out += '\n';
}

void append_labels(TextBuffer& out, std::span<const LabelView> labels, bool after) {
  bool first = !after;
  out.commit(put_label_list(out.room(labels_bound(labels)), first, labels));
}

std::size_t labels_bound(std::span<const LabelView> labels) { return label_list_bound(labels); }

void TextBuffer::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return;
  auto owned = std::make_unique_for_overwrite<char[]>(capacity);
  std::copy_n(data_, size_, owned.get());
  owned_ = std::move(owned);
  data_ = owned_.get();
  capacity_ = capacity;
}

void TextBuffer::grow(std::size_t n) { reserve(std::max(size_ + n, 2 * capacity_)); }

void TextBuffer::append(std::string_view s) { commit(put(room(s.size()), s)); }

// The line is written where it ends up, in one pass: a std::string append per piece cost more
// than the bytes, and a line built aside and then appended is copied twice.
void append_sample(TextBuffer& out, std::string_view name, std::string_view rendered,
                   std::span<const LabelView> labels, double value) {
  const std::size_t bound = name.size() + rendered.size() + label_list_bound(labels) + 3 + kValueChars + 1;  // {} space value \n
  char* p = put(out.room(bound), name);
  if (!rendered.empty() || !labels.empty()) {
    *p++ = '{';
    p = put(p, rendered);
    bool first = rendered.empty();
    p = put_label_list(p, first, labels);
    *p++ = '}';
  }
  *p++ = ' ';
  p = write_sample_value(p, value);
  *p++ = '\n';
  out.commit(p);
}

void append_metric(std::string& out, std::string_view name, MetricType type, const ClientMetric& m) {
  if (type == MetricType::Histogram) {
    append_histogram(out, name, m);
  } else if (type == MetricType::Summary) {
    append_summary(out, name, m);
  } else {
    append_head(out, name, m.label);
    append_sample_value(out, simple_value(type, m));
    append_tail(out, m);
  }
}

}  // namespace xcvr::exporters
