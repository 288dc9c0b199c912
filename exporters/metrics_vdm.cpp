// VDM series: one family (and its thresholds') per exported row of cmis::kVdmQuantities
// (cmis/vdm_types.hpp), found by the observable's type code; statistics (min/max/avg) and the
// other JSON-only rows stay in the JSON API.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <tuple>

#include "cmis/vdm_types.hpp"
#include "exporters/metrics_internal.hpp"
#include "health/values.hpp"

namespace xcvr::exporters::detail {

using health::vdm_measures;

void add_vdm_series(FamilySet& out, LiveLabels& labels, const daemon::PortSnapshot& p, bool lanes) {
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
  for (const cmis::VdmObservable& o : r.vdm) {
    const cmis::VdmQuantitySpec* q = cmis::vdm_quantity_of(o.type_id);
    if (q == nullptr || !q->exported() || o.statistic()) continue;
    const auto row = static_cast<std::size_t>(q - cmis::kVdmQuantities.data());
    const Fam value = vdm_family(row), threshold = vdm_threshold_family(row);
    const std::string_view label = q->qualifier_label;
    const int lane = q->per_lane ? o.lane : 0;
    const std::string_view qualifier = o.qualifier();
    if (!seen.first({value, lane, qualifier})) continue;
    if (!measured(lane)) continue;
    const auto qualify = [&](const Labels& l) { return label.empty() ? l : plus(l, label, qualifier); };
    if (lanes || !q->per_lane) {
      const Labels& l = q->per_lane ? labels.lane(lane) : labels.base();
      if (label.empty()) out.gauge(value, l, o.value);
      else out.gauge(value, l, {label, qualifier}, o.value);
    }
    // The levels of the first instance of a quantity (and side) that names a set: modules give
    // every lane of one observable type the same set.
    if (o.thresholds && levels_seen.first({threshold, qualifier})) {
      add_levels(out, threshold, qualify(labels.base()), *o.thresholds, lanes);
    }
  }
}

}  // namespace xcvr::exporters::detail
