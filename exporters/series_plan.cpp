#include "exporters/series_plan.hpp"

#include <algorithm>

#include "daemon/config.hpp"  // glob_match

namespace xcvr::exporters {

SeriesPlan SeriesPlanner::plan(const health::FleetView& views) {
  const daemon::Snapshot& s = views.snapshot();
  static const daemon::MetricsConfig kDefaults;
  const daemon::MetricsConfig& config = s.metrics ? *s.metrics : kDefaults;
  std::lock_guard lock(mutex_);
  if (config.profile != daemon::MetricsProfile::Fleet) {
    last_not_ok_.clear();
    return {};
  }
  SeriesPlan plan{.fleet = true, .lanes = std::vector<bool>(s.ports.size())};
  const double now = s.taken_unix;
  for (std::size_t i = 0; i < s.ports.size(); ++i) {
    const std::string& port = s.ports[i].port;
    const health::PortView& view = views.port(i);
    // Stale, empty, unused and misconfigured ports have no lane values to show: a port's first
    // read (stale until then) must not hold its lanes.
    if (view.monitors_visible && health::is_problem(view.health)) last_not_ok_[port] = now;
    const auto held = last_not_ok_.find(port);
    plan.lanes[i] = (held != last_not_ok_.end() && now - held->second <= config.detail_hold_s) ||
                    std::any_of(config.detail_ports.begin(), config.detail_ports.end(),
                                [&](const std::string& glob) { return daemon::glob_match(glob, port); });
  }
  std::erase_if(last_not_ok_, [&](const auto& entry) { return now - entry.second > config.detail_hold_s; });
  return plan;
}

}  // namespace xcvr::exporters
