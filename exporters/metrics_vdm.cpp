// VDM series: one row per exported quantity. A decoded observable reaches /metrics by its type's
// quantity (cmis/codes.cpp) having a row here; statistics (min/max/avg) and types without a
// clear name and unit stay in the JSON API only.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "cmis/codes.hpp"
#include "exporters/metrics_internal.hpp"
#include "health/values.hpp"

namespace xcvr::exporters::detail {

using health::vdm_measures;
namespace {

struct VdmQuantity {
  std::string_view quantity;  // cmis::VdmObservable::quantity
  Fam value;
  Fam threshold;
  std::string_view label;     // what the observable's qualifier is called: "side", "rail" or ""
  bool per_lane;
};

constexpr std::array kQuantities{
    VdmQuantity{"laser_temperature", Fam::LaneLaserTemperature, Fam::LaserTemperatureThreshold, "", true},
    VdmQuantity{"esnr", Fam::LaneEsnr, Fam::EsnrThreshold, "side", true},
    VdmQuantity{"ltp", Fam::LaneLtp, Fam::LtpThreshold, "side", true},
    VdmQuantity{"pre_fec_ber", Fam::LanePreFecBer, Fam::PreFecBerThreshold, "side", true},
    VdmQuantity{"errored_frames", Fam::LaneErroredFrames, Fam::ErroredFramesThreshold, "side", true},
    VdmQuantity{"laser_age", Fam::LaneLaserAge, Fam::LaserAgeThreshold, "", true},
    VdmQuantity{"tec_current", Fam::LaneTecCurrent, Fam::TecCurrentThreshold, "", true},
    VdmQuantity{"laser_frequency_error", Fam::LaneLaserFrequencyError, Fam::LaserFrequencyErrorThreshold, "", true},
    VdmQuantity{"supply_rail_voltage", Fam::SupplyRailVoltage, Fam::SupplyRailVoltageThreshold, "rail", false},
};

const VdmQuantity* quantity_of(std::string_view quantity) {
  for (const VdmQuantity& q : kQuantities) {
    if (q.quantity == quantity) return &q;
  }
  return nullptr;
}

// quantity_of() remembered by the text's address within one report (whose texts do not change
// while it is rendered): a module's observables name the decoder's few static quantity texts,
// so the name comparisons run once per quantity instead of once per observable.
class QuantityMemo {
 public:
  const VdmQuantity* operator()(std::string_view quantity) {
    for (std::size_t i = 0; i < n_; ++i) {
      if (known_[i].data() == quantity.data() && known_[i].size() == quantity.size()) return found_[i];
    }
    const VdmQuantity* q = quantity_of(quantity);
    if (n_ < known_.size()) {
      known_[n_] = quantity;
      found_[n_++] = q;
    }
    return q;
  }

 private:
  std::array<std::string_view, 12> known_;
  std::array<const VdmQuantity*, 12> found_{};
  std::size_t n_ = 0;
};

}  // namespace

void add_vdm_series(FamilySet& out, LiveLabels& labels, const daemon::PortSnapshot& p) {
  const cmis::ModuleReport& r = *p.report;
  // Keys compare the lane before the qualifier: most observables differ in lane, and an int
  // compares cheaper than a string.
  SeenSet<std::tuple<Fam, int, std::string_view>, 8192> seen;  // never a duplicate series
  SeenSet<std::pair<Fam, std::string_view>> levels_seen;
  std::array<std::optional<bool>, 17> measures;  // vdm_measures() by lane (0: the module)
  const auto measured = [&](int lane) {
    if (lane < 0 || lane >= static_cast<int>(measures.size())) return vdm_measures(r, lane);
    auto& m = measures[static_cast<std::size_t>(lane)];
    if (!m) m = vdm_measures(r, lane);
    return *m;
  };
  QuantityMemo quantity_of;
  for (const cmis::VdmObservable& o : r.vdm) {
    const VdmQuantity* q = o.statistic ? nullptr : quantity_of(o.quantity);
    if (q == nullptr) continue;
    const int lane = q->per_lane ? o.lane : 0;
    if (!seen.first({q->value, lane, o.qualifier})) continue;
    if (!measured(lane)) continue;
    const auto qualify = [&](const Labels& l) { return q->label.empty() ? l : plus(l, q->label, o.qualifier); };
    const Labels& l = q->per_lane ? labels.lane(lane) : labels.base();
    if (q->label.empty()) out.gauge(q->value, l, o.value);
    else out.gauge(q->value, l, {q->label, o.qualifier}, o.value);
    // The levels of the first instance of a quantity (and side) that names a set: modules give
    // every lane of one observable type the same set.
    if (o.thresholds && levels_seen.first({q->threshold, o.qualifier})) {
      add_levels(out, q->threshold, qualify(labels.base()), *o.thresholds);
    }
  }
}

}  // namespace xcvr::exporters::detail
