// What a port's values mean, for the health model and for the renderers that show the values
// themselves (per lane, per VDM observable): whether a value may be shown or measures anything,
// which lanes count, optical margins, lane lists. The verdict itself is the PortView's
// (health/port_view.hpp); renderers never compute it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cmis/report.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::health {

// True when the port has a report whose live values (monitors, states, flags) may be shown:
// present and not stale.
bool monitors_visible(const daemon::PortSnapshot& port);

// True unless the lane is configured out of service.
bool lane_in_service(const daemon::PortSnapshot& port, int lane);

// True when a VDM value of this lane (0: the module) means something: the module is ready, the
// lane's data path is up and it has light. A LowPwr module or a lane in LOS reads 0 (or its last
// value), which must not look like a clean link: /metrics withholds it, the pages show "—".
bool vdm_measures(const cmis::ModuleReport& report, int lane);

// True unless a CMIS module reports a state other than ModuleReady (SFF-8636 and SFF-8472 have
// no module state: their "not ready" is the data_not_ready flag).
bool module_ready(const cmis::ModuleReport& report);

// The observable `keep` selects whose value is worst (the highest when `highest`, else the
// lowest) among the real-time ones of lanes that measure (vdm_measures); nullptr when none.
template <typename Keep>
const cmis::VdmObservable* worst_vdm(const cmis::ModuleReport& report, bool highest, Keep&& keep) {
  const cmis::VdmObservable* worst = nullptr;
  for (const cmis::VdmObservable& o : report.vdm) {
    if (o.statistic() || !keep(o) || !vdm_measures(report, o.lane)) continue;
    if (!worst || (highest ? o.value > worst->value : o.value < worst->value)) worst = &o;
  }
  return worst;
}

// Optical power margin in dB to a threshold: positive = headroom, negative = past it (for a low
// threshold value/threshold, for a high one threshold/value). nullopt for no light (0 W).
std::optional<double> power_margin_db(double watts, double threshold_watts, bool high);

// "lane 3", "lanes 1-4", "lanes 1, 3, 5-8".
std::string lanes_text(const std::vector<int>& lanes);

}  // namespace xcvr::health
