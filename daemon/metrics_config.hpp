// The [metrics] table (docs/configuration.md "[metrics]"): how much /metrics and the textfile
// say per port. Every default in this one place; the poll engine hands it to each snapshot, so a
// reload changes the next render.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace xcvr::daemon {

enum class MetricsProfile {
  Full,   // every lane of every port (the default)
  Fleet,  // per port the worst lane of each judged quantity; lanes only where they are needed
};

inline constexpr std::string_view metrics_profile_name(MetricsProfile p) {
  return p == MetricsProfile::Fleet ? "fleet" : "full";
}

struct MetricsConfig {
  MetricsProfile profile = MetricsProfile::Full;
  // Fleet profile: ports (globs over port names, as [[budget]]'s) always shown lane by lane.
  std::vector<std::string> detail_ports;
  // Fleet profile: a port that was not ok keeps its per-lane series this long after it is ok
  // again, so a verdict that flickers does not make its lane series come and go.
  double detail_hold_s = 900;
  bool operator==(const MetricsConfig&) const = default;
};

}  // namespace xcvr::daemon
