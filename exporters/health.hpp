// What the renderers derive from a PortSnapshot: which flags are raised now, whether monitor
// values may be shown, and the one-word health of a cage for the landing page and the API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/snapshot.hpp"

namespace xcvr::exporters {

enum class Health { Ok, Hot, Alarm, Miscoded, Stale, Empty };

struct HealthOptions {
  double hot_headroom_celsius = 5.0;  // "hot" below this much headroom to the high warning
};

std::string_view health_name(Health h);   // "ok", "hot", "alarm", "miscoded", "stale", "empty"
std::string_view health_label(Health h);  // short text drawn in a cage: "OK", "HOT", ...

struct RaisedFlag {
  int lane = 0;  // 0 = module-level
  std::string flag;
  friend bool operator<(const RaisedFlag& a, const RaisedFlag& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.flag < b.flag;
  }
  friend bool operator==(const RaisedFlag&, const RaisedFlag&) = default;
};

// Flags raised now: the poller's latched history (raised) united with the flags in the last
// decoded report, deduplicated and sorted. Empty when the module's values are withheld.
std::vector<RaisedFlag> raised_flags(const daemon::PortSnapshot& port);

// True when the port has a report whose live values (monitors, states, flags) may be shown:
// present and not stale.
bool monitors_visible(const daemon::PortSnapshot& port);

// Headroom to the module's own high-warning temperature: the poller's value, else computed
// from the report. nullopt when unknown or withheld.
std::optional<double> temperature_headroom(const daemon::PortSnapshot& port);

bool is_alarm_flag(std::string_view flag);
Health classify(const daemon::PortSnapshot& port, const HealthOptions& options = {});

}  // namespace xcvr::exporters
