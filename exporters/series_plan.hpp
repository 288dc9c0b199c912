// What /metrics (and the textfile) says of each port of one snapshot, under the profile of the
// config's [metrics] table (daemon/metrics_config.hpp; docs/metrics.md "Profiles"): everything
// (full), or per port its values, verdict and worst lanes with lanes only where someone needs them
// (fleet).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "health/fleet_view.hpp"

namespace xcvr::exporters {

struct SeriesPlan {
  bool fleet = false;  // flag counters summed over lanes, thresholds only where the rules compare
  std::vector<bool> lanes;  // fleet: lanes[i] = port i is shown lane by lane
  bool shows_lanes(std::size_t port) const { return !fleet || (port < lanes.size() && lanes[port]); }
};

// Plans render after render. In the fleet profile a port is shown lane by lane while its live
// values give a verdict that is not ok, for detail_hold after they last did (a verdict that flickers keeps its lanes), or when
// detail_ports names it; when it was last not ok is remembered across the snapshots planned.
class SeriesPlanner {
 public:
  SeriesPlan plan(const health::FleetView& views);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, double> last_not_ok_;  // port -> snapshot time; within the hold only
};

}  // namespace xcvr::exporters
