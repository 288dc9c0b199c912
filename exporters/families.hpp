// The metric families this exporter can emit: one descriptor row per family (name, type, unit,
// labels, help), the fixed ones in exporters/families.cpp, the monitored quantities' from
// cmis::kQuantities and the VDM quantities' from cmis::kVdmQuantities; the Fam slots of the
// latter two are numbered from those tables, and families.cpp checks at compile time that every
// slot has exactly one row, in order, with a valid name, unit suffix, label list and HELP. Every
// series is added through FamilySet, so a family that is not in this table cannot be rendered; a
// debug build refuses a series whose labels are not its family's, and docs/metrics.md is checked
// against the table and against what is rendered (exporter_docs_test).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>

#include "cmis/quantities.hpp"
#include "cmis/vdm_types.hpp"
#include "exporters/text_exposition.hpp"

namespace xcvr::exporters {

enum class Fam : std::size_t {
  // per module
  ModulePresent,
  ModuleInfo,
  ModuleState,
  ModuleStale,
  PortLifecycleState,
  PortMisconfigured,
  PortHealth,
  Quantity_,  // one family per cmis::kQuantities row, in row order: quantity_family()
  ModuleFaultCause = Quantity_ + cmis::kQuantities.size(),
  ModuleLowPower,
  LaneDataPathState,
  QuantityThreshold_,  // one per row with thresholds, in row order: quantity_threshold_family()
  TemperatureHeadroom = QuantityThreshold_ + cmis::kThresholdQuantityCount,
  LaneTxBiasDrift,
  LaneTxPowerDrift,
  // each port's worst lane (health::WorstLane), in both profiles: one contiguous block
  WorstLaneRxPowerMargin,
  WorstLanePreFecBer,
  WorstLaneEsnr,
  WorstLaneTxBiasDrift,
  WorstLane,
  VdmQuantity_,  // one per exported cmis::kVdmQuantities row, in row order: vdm_family()
  VdmThreshold_ = VdmQuantity_ + cmis::kVdmExportedCount,  // and its thresholds': vdm_threshold_family()
  Flag = VdmThreshold_ + cmis::kVdmExportedCount,
  FlagRaisedTotal,
  MaxPower,
  PowerOverAllowance,
  CodingCheckFailed,
  CodingCheckWarning,
  InsertionsTotal,
  ReadErrorsTotal,
  LastReadTimestamp,
  // link health beside the optic (issue 18): one contiguous block
  LinkFecCorrectedBlocks,
  LinkFecUncorrectableBlocks,
  LinkFecCorrectedBits,
  LinkSymbolErrors,
  LinkErrorRecovery,
  LinkDowned,
  LinkRcvErrors,
  LinkLocalIntegrityErrors,
  LinkBufferOverrunErrors,
  FecLimitForecast,
  LinkFecCodewords,
  LinkFecTail,
  LinkFecCorrectionLimit,
  LinkCarrierDown,
  LinkCarrierUp,
  LinkLastDownDuration,
  LinkLastDownTimestamp,
  LinkRawBer,
  LinkEffectiveBer,
  LinkCounterSaturated,
  LinkReadErrorsTotal,
  LinkLastReadTimestamp,
  // per power/port group
  PowerBudget,
  PowerAllocated,
  PowerProjected,
  PowerPortAllowance,
  PowerGroupCages,
  PowerGroupModules,
  // the exporter itself
  BuildInfo,
  PollCycleDuration,
  PollCycleLastDuration,
  BusBytesTotal,
  BusTransactionsTotal,
  ConfigReloadsTotal,
  ConfigReloadFailuresTotal,
  ConfigLastReloadSuccessful,
  ConfigLastReloadTimestamp,
  SnapshotTimestamp,
  ScrapeDuration,
  RenderErrorsTotal,
  StateWriteFailuresTotal,
  RecorderEventsTotal,
  // the exporter's process, under the names every Prometheus client library uses
  ProcessCpuSeconds,
  ProcessResidentMemory,
  ProcessVirtualMemory,
  ProcessStartTime,
  ProcessOpenFds,
  ProcessMaxFds,
  Count_,  // number of families, not a family
};

// The rule prometheus::CheckLabelName applies ([a-zA-Z_][a-zA-Z0-9_]*, no "__" prefix), inline
// and by table: it runs for every label of every series (the library call was 5 % of a 2048-port
// render), and at compile time for every family row's labels.
namespace label_chars {
enum : unsigned char { kNotInName = 0, kDigit = 1, kLetter = 2 };
inline constexpr std::array<unsigned char, 256> kTable = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') t[c] = kLetter;
    if (c >= '0' && c <= '9') t[c] = kDigit;
  }
  return t;
}();
}  // namespace label_chars
constexpr bool label_name_valid(std::string_view name) {
  using namespace label_chars;
  if (name.empty() || name.starts_with("__") || kTable[static_cast<unsigned char>(name[0])] != kLetter) return false;
  return std::all_of(name.begin() + 1, name.end(), [](char c) { return kTable[static_cast<unsigned char>(c)] != kNotInName; });
}

// A family's label names, written as docs/metrics.md writes them: "port, lane, [data_path]", a
// name in brackets carried by only some series. Parsed at compile time (ok() is false for a list
// that breaks the label-name rule or names a label twice); `node` may join any family with a
// `port` (ports read over an InfiniBand fabric), and histograms add `le`.
class FamilyLabels {
 public:
  static constexpr std::size_t kMax = 16;  // transceiver_module_info has 15
  struct Name {
    std::string_view name;
    bool optional = false;
  };

  constexpr FamilyLabels() = default;
  constexpr FamilyLabels(const char* list) { add(list); }  // NOLINT: rows write the list as text
  // These labels and then those of `list`.
  constexpr FamilyLabels plus(std::string_view list) const {
    FamilyLabels out = *this;
    out.add(list);
    return out;
  }
  constexpr const Name* begin() const { return names_.data(); }
  constexpr const Name* end() const { return names_.data() + count_; }
  constexpr std::size_t size() const { return count_; }
  constexpr bool ok() const { return ok_; }
  // The label `name`, or nullptr when the family has none of that name.
  constexpr const Name* find(std::string_view name) const {
    for (const Name& n : *this) {
      if (n.name == name) return &n;
    }
    return nullptr;
  }
  // Whether a series of the family may carry `name`: a listed label, or `node` beside `port`.
  constexpr bool allows(std::string_view name) const {
    return find(name) != nullptr || (name == "node" && find("port") != nullptr);
  }

 private:
  constexpr void add(std::string_view list) {
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      std::string_view item = list.substr(0, comma);
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      while (item.starts_with(' ')) item.remove_prefix(1);
      while (item.ends_with(' ')) item.remove_suffix(1);
      Name n{item};
      if (item.size() > 2 && item.front() == '[' && item.back() == ']') n = {item.substr(1, item.size() - 2), true};
      if (count_ == kMax || !label_name_valid(n.name) || find(n.name) != nullptr) {
        ok_ = false;
        return;
      }
      names_[count_++] = n;
    }
  }
  std::array<Name, kMax> names_{};
  std::size_t count_ = 0;
  bool ok_ = true;
};

struct FamilySpec {
  Fam id;
  std::string_view name;
  prometheus::MetricType type;
  std::string_view unit;  // the name's unit suffix ("watts", "seconds", ...); "" for a count or a 0/1
  FamilyLabels labels;
  std::string_view help;  // one line, no backslash (prometheus-cpp writes HELP raw)
};

constexpr Fam quantity_family(cmis::Quantity q) {
  return static_cast<Fam>(static_cast<std::size_t>(Fam::Quantity_) + static_cast<std::size_t>(q));
}
// Only for a row that has_thresholds().
constexpr Fam quantity_threshold_family(cmis::Quantity q) {
  return static_cast<Fam>(static_cast<std::size_t>(Fam::QuantityThreshold_) + cmis::threshold_index(q));
}

// Only for an exported row (index < cmis::kVdmExportedCount).
constexpr Fam vdm_family(std::size_t row) {
  return static_cast<Fam>(static_cast<std::size_t>(Fam::VdmQuantity_) + row);
}
constexpr Fam vdm_threshold_family(std::size_t row) {
  return static_cast<Fam>(static_cast<std::size_t>(Fam::VdmThreshold_) + row);
}

// All families, in output order: the slot of each Fam, checked at compile time
// (exporters/families.cpp).
std::span<const FamilySpec> family_specs();
const FamilySpec& family_spec(Fam id);

// The labels of one series, by view and without allocating: FamilySet copies or writes them
// during the call that adds the series, so the strings they name need only outlive that call.
class Labels {
 public:
  static constexpr std::size_t kMax = 20;  // transceiver_module_info has 16
  Labels() {}  // NOLINT: leaves items_ unwritten (zeroing 640 bytes per Labels showed in profiles)
  Labels(std::initializer_list<LabelView> labels) {
    for (const LabelView& l : labels) push_back(l);
  }
  Labels(const Labels& other) { *this = other; }
  Labels& operator=(const Labels& other) {
    n_ = other.n_;
    std::copy_n(other.items_, n_, items_);
    rendered_ = other.rendered_;
    rendered_count_ = other.rendered_count_;
    rendered_valid_ = other.rendered_valid_;
    return *this;
  }
  void push_back(LabelView label);  // throws std::length_error beyond kMax
  const LabelView* begin() const { return items_; }
  const LabelView* end() const { return items_ + n_; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }

 private:
  friend class FamilySet;
  union {  // LabelView is trivially copyable and destructible: only the first n_ are written
    LabelView items_[kMax];
  };
  std::size_t n_ = 0;
  // FamilySet::with_rendered(): the first rendered_count_ labels as exposition text, validated
  // once (rendered_valid_) instead of once per series.
  std::string_view rendered_;
  std::size_t rendered_count_ = 0;
  bool rendered_valid_ = true;
};

// Where a FamilySet's samples go instead of exposition text: tests/support/metric_families.hpp
// builds prometheus-cpp families of them (the Collectable path, which the equivalence tests
// hold the text to). The product writes text only.
class FamilySink {
 public:
  // One sample of `spec`'s family: its labels (all of them, valid) and its value, or the
  // histogram it is.
  virtual void sample(const FamilySpec& spec, std::span<const LabelView> labels,
                      prometheus::ClientMetric* histogram, double value) = 0;

 protected:
  ~FamilySink() = default;
};

// Collects the series of one render written straight as exposition text (the /metrics body: no
// MetricFamily, no label strings, one pass), or hands them to a FamilySink.
// Families come out in table order, each once, with its samples contiguous; families without
// samples are dropped; names are validated with prometheus::CheckMetricName and the label-name
// rule; label values are made valid UTF-8; non-finite values are never emitted.
class FamilySet {
 public:
  // `family_bytes`: each family's text size in a previous render. Each family then writes
  // into a window of the body sized for it, and take_text() only closes the gaps between them:
  // building families apart and concatenating them copied the whole body once more.
  explicit FamilySet(const std::vector<std::size_t>* family_bytes = nullptr);
  explicit FamilySet(FamilySink& sink);

  void gauge(Fam id, const Labels& labels, double value);
  void counter(Fam id, const Labels& labels, double value);
  // `labels` and then `last`, without copying `labels` (most series add one label to a port's
  // or a lane's).
  void gauge(Fam id, const Labels& labels, LabelView last, double value);
  void counter(Fam id, const Labels& labels, LabelView last, double value);
  void histogram(Fam id, const Labels& labels, prometheus::ClientMetric::Histogram histogram);

  // `labels` with their exposition text written once, for labels that begin many series (a
  // port's): the text output then copies it instead of validating and escaping them per series.
  // The text lives until take_text(). With a sink it returns `labels` as they are.
  Labels with_rendered(const Labels& labels);

  // Samples refused so far for a non-finite or negative-counter value (label-name and
  // family-name refusals are counted by take_text()).
  std::size_t dropped() const { return dropped_; }
  // The body. `family_bytes`: set to each family's text size, for the next render.
  TextBuffer take_text(std::vector<std::size_t>* family_bytes = nullptr);

 private:
  void add_value(Fam id, const Labels& labels, const LabelView* last, double value, bool counter);
  void add(Fam id, const Labels& labels, const LabelView* last, prometheus::ClientMetric* histogram, double value);
  [[gnu::noinline]] void add_made_valid(std::size_t i, const Labels& labels, const LabelView* first,
                                        const LabelView* last, prometheus::ClientMetric* histogram, double value);
  void add_valid(std::size_t i, const Labels& labels, std::span<const LabelView> valid,
                 prometheus::ClientMetric* histogram, double value);

  FamilySink* sink_ = nullptr;
  void begin_family_text(std::size_t i);
  static void check_labels(const FamilySpec& spec, const Labels& labels, const LabelView* last);
  TextBuffer body_;                                 // Text: the body, each family in a window of it
  std::vector<TextBuffer> text_;                    // Text: each family's header and sample lines
  std::vector<std::size_t> text_samples_;           // Text: samples per family
  std::deque<TextBuffer> rendered_;                 // Text: with_rendered()'s texts, in chunks never regrown
  std::size_t dropped_ = 0;
  std::size_t refused_labels_ = 0;  // Text: refused at add(), counted by take_text()
};

}  // namespace xcvr::exporters
