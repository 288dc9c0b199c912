// Pieces of assess() (health/health.cpp), split by subject. Internal to health/.
#pragma once

#include <string_view>
#include <vector>

#include "health/health.hpp"

namespace xcvr::health::detail {

// The state a raised flag gives, from its flag table row's severity (cmis/flags.hpp): alarm,
// warning, hot, down (not ready) or ok (events); warning for a name no row gives (never ok).
Health flag_state(std::string_view flag);

// Lane values mean something only on a lane that carries traffic: a CMIS module that is not
// ModuleReady, or a data path that is not activated, has its lasers off by design, and its down
// reason already says so (its flags still count).
bool lane_live(const cmis::ModuleReport& report, const cmis::LaneReport& lane);

// One reason per raised flag or monitor past one of the module's thresholds, lanes
// aggregated; a warning is left out on lanes whose alarm of the same direction is raised.
// `flags` are raised_flags(port); unused lanes never count.
void add_condition_reasons(const daemon::PortSnapshot& port, const std::vector<RaisedFlag>& flags,
                           std::vector<Reason>& out);

// The worst in-service lane of each WorstOf quantity (health/worst_lanes.cpp). `flags`:
// raised_flags(port).
std::vector<WorstLane> worst_lanes(const daemon::PortSnapshot& port, const std::vector<RaisedFlag>& flags);

}  // namespace xcvr::health::detail
