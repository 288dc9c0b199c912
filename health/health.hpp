// The one health model (design invariant 4): a pure function from a port's snapshot to its
// verdict — one state and the reasons for it — rendered by the port map, the port page, the
// JSON API and /metrics (transceiver_port_health). See docs/architecture.md "Health model".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/snapshot.hpp"

namespace xcvr::health {

// Declared in urgency order (most urgent first): the order of the problems list, and the
// precedence among the states a module's data can give (down > alarm > hot > warning >
// miscoded > ok). unused, misconfigured, empty and stale are decided before the data is looked at.
enum class Health { Down, Alarm, Stale, Hot, Warning, Miscoded, Misconfigured, Ok, Empty, Unused };

inline constexpr Health kAllHealth[] = {Health::Down,    Health::Alarm,         Health::Stale, Health::Hot,
                                        Health::Warning, Health::Miscoded,      Health::Misconfigured,
                                        Health::Ok,      Health::Empty,         Health::Unused};

struct HealthOptions {
  double hot_headroom_celsius = 5.0;  // "hot" below this much headroom to the high warning
};

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

struct Verdict {
  Health health = Health::Ok;
  std::vector<Reason> reasons;  // most urgent first; empty exactly when health is ok
  // The in-service lane with the least rx-power margin to the low warning (lanes with light).
  std::optional<LaneMargin> worst_rx_margin;
};

// The verdict. unused when the port is out of service (nothing else counts); empty when no
// module is seated; stale when its values are withheld or were never read; otherwise the most
// urgent state among its reasons, or ok. Flags and monitors of unused lanes never count.
Verdict assess(const daemon::PortSnapshot& port, const HealthOptions& options = {});

struct RaisedFlag {
  int lane = 0;  // 0 = module-level
  std::string flag;
  friend bool operator<(const RaisedFlag& a, const RaisedFlag& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.flag < b.flag;
  }
  friend bool operator==(const RaisedFlag&, const RaisedFlag&) = default;
};

// Flags raised now: the poller's latched history (raised) united with the flags in the last
// decoded report, deduplicated and sorted. Empty when the module's values are withheld or the
// port is out of service; flags of unused lanes are left out.
std::vector<RaisedFlag> raised_flags(const daemon::PortSnapshot& port);

// True when the port has a report whose live values (monitors, states, flags) may be shown:
// present and not stale.
bool monitors_visible(const daemon::PortSnapshot& port);

// True when a VDM value of this lane (0: the module) means something: the module is ready, the
// lane's data path is up and it has light. A LowPwr module or a lane in LOS reads 0 (or its last
// value), which must not look like a clean link: /metrics withholds it, the pages show "—".
bool vdm_measures(const cmis::ModuleReport& report, int lane);

// The observable `keep` selects whose value is worst (the highest when `highest`, else the
// lowest) among the real-time ones of lanes that measure (vdm_measures); nullptr when none.
template <typename Keep>
const cmis::VdmObservable* worst_vdm(const cmis::ModuleReport& report, bool highest, Keep&& keep) {
  const cmis::VdmObservable* worst = nullptr;
  for (const cmis::VdmObservable& o : report.vdm) {
    if (o.statistic || !keep(o) || !vdm_measures(report, o.lane)) continue;
    if (!worst || (highest ? o.value > worst->value : o.value < worst->value)) worst = &o;
  }
  return worst;
}

// True unless the lane is configured out of service.
bool lane_in_service(const daemon::PortSnapshot& port, int lane);

// Headroom to the module's own high-warning temperature: the poller's value, else computed
// from the report. nullopt when unknown or withheld.
std::optional<double> temperature_headroom(const daemon::PortSnapshot& port);

// Optical power margin in dB to a threshold: positive = headroom, negative = past it (for a low
// threshold value/threshold, for a high one threshold/value). nullopt for no light (0 W).
std::optional<double> power_margin_db(double watts, double threshold_watts, bool high);

// "lane 3", "lanes 1-4", "lanes 1, 3, 5-8".
std::string lanes_text(const std::vector<int>& lanes);

}  // namespace xcvr::health
