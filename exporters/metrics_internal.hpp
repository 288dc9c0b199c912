// Pieces of add_all_series(), split by subject. Internal to exporters/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <set>
#include <string>
#include <type_traits>

#include "daemon/snapshot.hpp"
#include "cmis/flags.hpp"
#include "exporters/families.hpp"
#include "exporters/metrics.hpp"
#include "health/port_view.hpp"

namespace xcvr::exporters::detail {

// Labels of one series grown by one label (views: see Labels).
Labels plus(const Labels& base, std::string_view name, std::string_view value);
// A live per-lane series' labels: lane, and data_path (CMIS: the lane's data path, i.e. host
// port, in the module's active configuration) when the decoder knows it. Counters do not carry
// data_path: their identity must survive the module being pulled.
Labels live_lane_labels(const Labels& base, int lane, const std::optional<int>& data_path);
// The data path of a lane of the report (nullptr or an unknown lane: none).
std::optional<int> data_path_of(const cmis::ModuleReport* report, int lane);
// Keys seen so far within one port's series, to never write a duplicate series. The nodes live
// in a buffer on the stack: a render inserts a few hundred keys per port, each a heap node before.
template <typename Key, std::size_t kBytes = 4096>
class SeenSet {
 public:
  SeenSet() = default;
  SeenSet(const SeenSet&) = delete;
  SeenSet& operator=(const SeenSet&) = delete;
  bool first(const Key& key) { return seen_.insert(key).second; }

 private:
  std::array<std::byte, kBytes> buffer_;
  std::pmr::monotonic_buffer_resource memory_{buffer_.data(), buffer_.size()};
  std::pmr::set<Key> seen_{&memory_};
};

// Lane numbers seen so far within one port's series: a bit per lane below 64 (every module
// today has at most 16), a SeenSet for any other number.
class SeenLanes {
 public:
  bool first(int lane) {
    if (lane < 0 || lane >= 64) return others_.first(lane);
    const std::uint64_t bit = std::uint64_t{1} << lane;
    const bool fresh = (bits_ & bit) == 0;
    bits_ |= bit;
    return fresh;
  }

 private:
  std::uint64_t bits_ = 0;
  SeenSet<int, 256> others_;
};

// A present module's port labels and its live lanes' labels (live_lane_labels), each lane's
// written as exposition text once per render rather than once per series: most of a module's
// series are per lane.
class LiveLabels {
 public:
  LiveLabels(FamilySet& out, const Labels& base, const cmis::ModuleReport& report)
      : out_(out), base_(base), report_(report) {}  // NOLINT: lanes_ written as lanes are asked for
  const Labels& base() const { return base_; }
  // Valid until the next call for a lane above kCached (none on today's modules).
  const Labels& lane(int lane);

 private:
  static constexpr int kCached = 16;  // OSFP-XD: 16 lanes
  FamilySet& out_;
  const Labels& base_;
  const cmis::ModuleReport& report_;
  static_assert(std::is_trivially_destructible_v<Labels>, "lanes_ is never destroyed");
  std::uint32_t cached_ = 0;  // bit n: lanes_[n] holds lane n's labels
  union {  // Labels is trivially destructible; unwritten until cached (zeroing 12 kB per port showed)
    Labels lanes_[kCached + 1];  // by lane number
  };
  Labels other_;
};

// The threshold levels the shipped alert and recording rules compare values with
// (config/prometheus/): all the fleet profile serves of the thresholds of a port it shows
// without lanes. exporter_profile_test holds this list to the rules.
struct RuleThreshold {
  Fam family;
  cmis::ThresholdLevel level;
};
// The exported cmis::kVdmQuantities row of `key` (kVdmExportedCount: none).
constexpr std::size_t vdm_row(std::string_view key) {
  std::size_t row = 0;
  while (row < cmis::kVdmExportedCount && cmis::kVdmQuantities[row].key != key) ++row;
  return row;
}
static_assert(vdm_row("pre_fec_ber") < cmis::kVdmExportedCount && vdm_row("esnr") < cmis::kVdmExportedCount);
inline constexpr RuleThreshold kRuleThresholds[] = {
    {quantity_threshold_family(cmis::Quantity::Temperature), cmis::ThresholdLevel::HighAlarm},
    {quantity_threshold_family(cmis::Quantity::Temperature), cmis::ThresholdLevel::HighWarning},
    {vdm_threshold_family(vdm_row("pre_fec_ber")), cmis::ThresholdLevel::HighWarning},
    {vdm_threshold_family(vdm_row("esnr")), cmis::ThresholdLevel::LowWarning},
};

// How much of a port goes out (SeriesPlan, per port): its lanes, or only what the fleet
// profile keeps of them.
struct PortDetail {
  bool fleet = false;  // flag counters summed over lanes
  bool lanes = true;   // per-lane series, every threshold level
};

// The four levels of a threshold family (those the module gives); without `all`, only the
// levels kRuleThresholds names.
void add_levels(FamilySet& out, Fam fam, const Labels& base, const cmis::Thresholds& thresholds, bool all = true);

// VDM observables of a present, fresh module (exporters/metrics_vdm.cpp); without `lanes`, no
// per-lane values and only the threshold levels kRuleThresholds names.
void add_vdm_series(FamilySet& out, LiveLabels& labels, const daemon::PortSnapshot& port, bool lanes = true);

// Every series of one port (presence, identity, monitors, thresholds, flags, counters); its
// health, headroom, worst lanes and raised flags are its view's.
void add_port_series(FamilySet& out, const daemon::PortSnapshot& port, const health::PortView& view,
                     PortDetail detail = {});

// Power budget per group.
void add_budget_series(FamilySet& out, const daemon::Snapshot& snapshot);

// Build info, poll domains, config reloads, snapshot time, scrape duration.
void add_self_series(FamilySet& out, const daemon::Snapshot& snapshot, const SelfStats& self);

}  // namespace xcvr::exporters::detail
