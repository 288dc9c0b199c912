// The view of one port: its verdict (one state and the reasons for it), the margins and headroom
// the verdict was judged on, and the flags raised now with their since-times. The health model
// (health/health.hpp) computes it once per snapshot (health/fleet_view.hpp); /metrics, the JSON
// API, the landing page, the port page, the verdict log and xcvrctl render it and never judge a
// port themselves (design invariant 4). See docs/architecture.md "Health model".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xcvr::health {

// Declared in urgency order (most urgent first): the order of the problems list, and the
// precedence among the states a module's data can give (down > alarm > hot > warning >
// miscoded > ok). unused, misconfigured, empty and stale are decided before the data is looked at.
enum class Health { Down, Alarm, Stale, Hot, Warning, Miscoded, Misconfigured, Ok, Empty, Unused };

inline constexpr Health kAllHealth[] = {Health::Down,    Health::Alarm,         Health::Stale, Health::Hot,
                                        Health::Warning, Health::Miscoded,      Health::Misconfigured,
                                        Health::Ok,      Health::Empty,         Health::Unused};

std::string_view health_name(Health h);   // "ok", "warning", ... (the transceiver_port_health label)
std::string_view health_label(Health h);  // short upper-case word drawn in a cage: "OK", "WARN", ...
bool is_problem(Health h);                // worth listing: everything but ok, empty and unused

// One cause of a non-ok state. Lane-level conditions are aggregated: one reason per
// condition with the list of lanes it is seen on.
struct Reason {
  Health state = Health::Ok;  // the state this reason alone gives
  std::string kind;  // flag | monitor | module_state | data_path | dark | headroom | coding | stale |
                     // misconfigured | empty | unused
  std::string name;  // flag or condition ("rx_power_low_warning"), module state, coding check id
  std::vector<int> lanes;  // 1-based, sorted; empty = the module as a whole
  bool flagged = false;    // kind flag: the module raised it (monitor: computed from values only)
  // Monitor conditions: the worst lane's value (SI unit) against the module's threshold, and
  // for optical power the margin in dB (positive = headroom, negative = past the threshold;
  // absent for 0 W, which is no light).
  std::optional<int> worst_lane;
  std::optional<double> value, threshold, margin_db;
  // VDM pre-FEC BER: the FEC's correction limit the value is judged against (value / fec_limit
  // is how close the link is to losing frames).
  std::optional<double> fec_limit;
  std::string unit;  // "watts", "amperes", "volts", "celsius", "seconds" (stale: last good read)
  std::string module_state, fault_cause;  // kind module_state
  std::string text;   // one line for people, e.g. "rx_power_low_warning on lanes 1-4: ..."
  std::string label;  // a few characters for a cage: "RX LO", "LOS", "LOWPWR", ...
};

struct LaneMargin {
  int lane = 0;
  double margin_db = 0;  // rx power over the module's rx-power low warning, in dB
};

// The quantities a port's worst lane is kept of (the fleet profile's per-port series, served in
// both profiles: docs/metrics.md "Profiles"). Rx power margin is the view's worst_rx_margin.
enum class WorstOf { PreFecBer, Esnr, TxBiasDrift };

// The worst in-service lane of one quantity (and VDM side): the highest pre-FEC BER, the lowest
// eSNR (lanes whose VDM measures, health/values.hpp), the bias drift ratio farthest from 1 (lanes
// whose laser is lit and not in Tx fault).
struct WorstLane {
  WorstOf quantity = WorstOf::PreFecBer;
  std::string_view side;  // VDM: "media" or "host"; "" for drift
  int lane = 0;
  double value = 0;
};

// A flag raised now. Its identity is (lane, flag); the times say what is known of it.
struct RaisedFlag {
  int lane = 0;  // 0 = module-level
  std::string flag;
  // The poller's latched history: first read of this raising, last read that found it raised.
  // A flag only the last report shows (xcvrctl's single read) has that read's time for both.
  double since_unix = 0;
  double last_seen_unix = 0;
  friend bool operator<(const RaisedFlag& a, const RaisedFlag& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.flag < b.flag;
  }
  friend bool operator==(const RaisedFlag& a, const RaisedFlag& b) { return a.lane == b.lane && a.flag == b.flag; }
};

struct PortView {
  Health health = Health::Ok;
  std::vector<Reason> reasons;  // most urgent first; empty exactly when health is ok
  // The in-service lane with the least rx-power margin to the low warning (lanes with light).
  std::optional<LaneMargin> worst_rx_margin;
  std::vector<WorstLane> worst_lanes;  // by quantity, then side; none while values are withheld
  // To the module's own high-warning temperature; none when unknown or withheld.
  std::optional<double> temperature_headroom_celsius;
  // Raised now: the poller's latched history united with the last report's flags, sorted by
  // (lane, flag); empty while values are withheld or the port is out of service, unused lanes
  // left out.
  std::vector<RaisedFlag> raised_flags;
  // The module's live values (monitors, states, flags) may be shown: present and fresh.
  bool monitors_visible = false;
};

}  // namespace xcvr::health
