#include "health/health.hpp"

#include "cmis/flags.hpp"
#include "cmis/quantities.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "cmis/codes.hpp"
#include "health/text.hpp"
#include "health/health_internal.hpp"

namespace xcvr::health {

std::string_view health_name(Health h) {
  switch (h) {
    case Health::Ok: return "ok";
    case Health::Warning: return "warning";
    case Health::Alarm: return "alarm";
    case Health::Down: return "down";
    case Health::Hot: return "hot";
    case Health::Miscoded: return "miscoded";
    case Health::Misconfigured: return "misconfigured";
    case Health::Stale: return "stale";
    case Health::Empty: return "empty";
    case Health::Unused: return "unused";
  }
  return "unknown";
}

std::string_view health_label(Health h) {
  switch (h) {
    case Health::Ok: return "OK";
    case Health::Warning: return "WARN";
    case Health::Alarm: return "ALARM";
    case Health::Down: return "DOWN";
    case Health::Hot: return "HOT";
    case Health::Miscoded: return "CODING";
    case Health::Misconfigured: return "CONFIG";
    case Health::Stale: return "STALE";
    case Health::Empty: return "EMPTY";
    case Health::Unused: return "UNUSED";
  }
  return "?";
}

bool is_problem(Health h) { return h != Health::Ok && h != Health::Empty && h != Health::Unused; }

bool monitors_visible(const daemon::PortSnapshot& port) {
  return port.presence == daemon::PortPresence::Present && !port.stale && port.report;
}

bool lane_in_service(const daemon::PortSnapshot& port, int lane) {
  return lane <= 0 || !std::binary_search(port.unused_lanes.begin(), port.unused_lanes.end(), lane);
}

bool vdm_measures(const cmis::ModuleReport& r, int lane) {
  for (const cmis::LaneReport& l : r.lanes) {
    if (l.lane != lane) continue;
    if (!detail::lane_live(r, l)) return false;
    return std::find(l.flags.begin(), l.flags.end(), cmis::flag_name(cmis::FlagId::RxLos)) == l.flags.end();
  }
  return module_ready(r);
}

bool module_ready(const cmis::ModuleReport& r) {
  return !r.module_state || r.module_state->code == cmis::codes::code_of(cmis::codes::ModuleState::Ready);
}

std::vector<RaisedFlag> raised_flags(const daemon::PortSnapshot& port) {
  std::vector<RaisedFlag> out;
  if (!port.in_service || !monitors_visible(port)) return out;
  for (const auto& h : port.flags) {
    if (h.raised) out.push_back({h.lane, std::string(h.flag), h.since_unix, h.last_seen_unix});
  }
  const double read = port.last_good_read_unix;  // a flag only the report shows: seen at this read
  for (const auto& f : port.report->module_flags) out.push_back({0, f, read, read});
  for (const auto& lane : port.report->lanes) {
    for (const auto& f : lane.flags) out.push_back({lane.lane, f, read, read});
  }
  std::erase_if(out, [&](const RaisedFlag& f) { return !lane_in_service(port, f.lane); });
  std::stable_sort(out.begin(), out.end());  // the history's entry, with its times, first of equals
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<double> power_margin_db(double watts, double threshold_watts, bool high) {
  if (!(watts > 0) || !(threshold_watts > 0)) return std::nullopt;
  return 10.0 * std::log10(high ? threshold_watts / watts : watts / threshold_watts);
}

std::string lanes_text(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(lanes[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(lanes[j]);
    i = j + 1;
  }
  return (lanes.size() == 1 ? "lane " : "lanes ") + out;
}

namespace {

using daemon::PortSnapshot;

Reason simple(Health state, std::string kind, std::string text, std::string label) {
  Reason r;
  r.state = state;
  r.name = kind;
  r.kind = std::move(kind);
  r.text = std::move(text);
  r.label = std::move(label);
  return r;
}

std::string read_errors_text(const PortSnapshot& p) {
  std::string out;
  for (const auto& [kind, n] : p.read_errors_total) {
    if (n > 0) out += (out.empty() ? "" : ", ") + kind + " \u00d7" + std::to_string(n);
  }
  return out.empty() ? "" : " (read errors: " + out + ")";
}

Reason stale_reason(const PortSnapshot& p) {
  if (p.state == daemon::PortState::Settling) {
    return simple(Health::Stale, "stale", "module inserted, settling before its first read", "SETTLE");
  }
  if (!p.report || p.last_good_read_unix <= 0) {
    return simple(Health::Stale, "stale", "no good read yet" + read_errors_text(p), "NO READ");
  }
  Reason r = simple(Health::Stale, "stale",
                    "no good read since " + utc_time(p.last_good_read_unix) +
                        "; values withheld" + read_errors_text(p),
                    "STALE");
  r.value = p.last_good_read_unix;
  r.unit = "seconds";
  return r;
}

std::vector<int> in_service_lanes(const PortSnapshot& p) {
  std::vector<int> lanes;
  for (const auto& l : p.report->lanes) {
    if (l.lane > 0 && lane_in_service(p, l.lane)) lanes.push_back(l.lane);
  }
  std::sort(lanes.begin(), lanes.end());
  lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
  return lanes;
}

// A CMIS module that is not ModuleReady cannot carry traffic (SFF-8636 and SFF-8472 have no
// module state; their "not ready" is the data_not_ready flag).
std::optional<Reason> module_state_reason(const cmis::ModuleReport& r) {
  if (module_ready(r)) return std::nullopt;
  const std::string state(r.module_state->name);
  Reason out;
  out.state = Health::Down;
  out.kind = "module_state";
  out.name = state;
  out.module_state = state;
  if (state == "ModuleFault") {
    out.fault_cause = r.module_fault_cause ? r.module_fault_cause->name : "cause not reported";
    out.text = "module fault (ModuleFault): " + out.fault_cause;
    out.label = "FAULT";
  } else if (state == "ModuleLowPwr") {
    out.text = "module held in low power (ModuleLowPwr): data paths off, not usable";
    out.label = "LOWPWR";
  } else {
    out.text = "module in " + state + ", not ready";
    out.label = "NOT RDY";
  }
  return out;
}

// In-service lanes whose data path is not activated (CMIS only).
std::optional<Reason> data_path_reason(const PortSnapshot& p, const std::vector<int>& lanes) {
  std::vector<int> off;
  std::set<std::string> states;
  for (const auto& l : p.report->lanes) {
    if (!l.data_path_state || *l.data_path_state == "DPActivated") continue;
    if (!std::binary_search(lanes.begin(), lanes.end(), l.lane)) continue;
    off.push_back(l.lane);
    states.emplace(*l.data_path_state);
  }
  if (off.empty()) return std::nullopt;
  std::sort(off.begin(), off.end());
  std::string names;
  for (const auto& s : states) names += (names.empty() ? "" : ", ") + s;
  Reason r = simple(Health::Down, "data_path",
                    "data path not activated on " + lanes_text(off) + " (" + names + ")", "DP OFF");
  r.lanes = std::move(off);
  return r;
}

// Every live in-service lane without light: LOS raised, or 0 W received (lanes whose data
// path is off are the data-path reason's).
std::optional<Reason> dark_reason(const PortSnapshot& p, const std::vector<int>& lanes,
                                  const std::vector<RaisedFlag>& flags) {
  std::vector<int> dark;
  const std::string rx_los(cmis::flag_name(cmis::FlagId::RxLos));
  for (const auto& l : p.report->lanes) {
    if (!std::binary_search(lanes.begin(), lanes.end(), l.lane) || !detail::lane_live(*p.report, l)) continue;
    const bool los = std::find(flags.begin(), flags.end(), RaisedFlag{l.lane, rx_los}) != flags.end();
    if (!los && !(l.rx_power_watts && *l.rx_power_watts <= 0)) return std::nullopt;
    dark.push_back(l.lane);
  }
  if (dark.empty()) return std::nullopt;
  std::sort(dark.begin(), dark.end());
  dark.erase(std::unique(dark.begin(), dark.end()), dark.end());
  Reason r = simple(Health::Down, "dark", "no light on any in-service lane (" + lanes_text(dark) + ")", "DARK");
  r.lanes = std::move(dark);
  return r;
}

std::optional<Reason> headroom_reason(const std::optional<double>& headroom, const HealthOptions& o) {
  if (!headroom || *headroom >= o.hot_headroom_celsius) return std::nullopt;
  Reason r = simple(Health::Hot, "headroom",
                    "temperature headroom " + fixed(*headroom, 1) + " \u00b0C to the high warning, below " +
                        fixed(o.hot_headroom_celsius, 1) + " \u00b0C",
                    fixed(*headroom, 1) + "\u00b0C");
  r.value = *headroom;
  r.threshold = o.hot_headroom_celsius;
  r.unit = "celsius";
  return r;
}

std::optional<LaneMargin> worst_rx_margin(const PortSnapshot& p, const std::vector<int>& lanes) {
  const auto t = p.report->thresholds.find("rx_power_watts");
  if (t == p.report->thresholds.end() || !t->second.low_warning) {
    return std::nullopt;
  }
  std::optional<LaneMargin> worst;
  for (const auto& l : p.report->lanes) {
    if (!l.rx_power_watts || !detail::lane_live(*p.report, l)) continue;
    if (!std::binary_search(lanes.begin(), lanes.end(), l.lane)) continue;
    const auto m = power_margin_db(*l.rx_power_watts, *t->second.low_warning, false);  // none: no light
    if (m && (!worst || *m < worst->margin_db)) worst = LaneMargin{l.lane, *m};
  }
  return worst;
}

}  // namespace

PortView assess(const PortSnapshot& p, const HealthOptions& options) {
  PortView v;
  v.monitors_visible = monitors_visible(p);
  if (const auto h = v.monitors_visible ? cmis::temperature_headroom(*p.report) : std::nullopt; h && std::isfinite(*h)) {
    v.temperature_headroom_celsius = h;  // a temperature that is not a number gives no headroom
  }
  v.raised_flags = raised_flags(p);
  auto& reasons = v.reasons;
  if (!p.in_service) {
    reasons.push_back(simple(Health::Unused, "unused", "configured out of service", "UNUSED"));
  } else if (!p.misconfiguration.empty()) {
    reasons.push_back(simple(Health::Misconfigured, "misconfigured", p.misconfiguration, "CONFIG"));
  } else if (p.presence == daemon::PortPresence::Absent) {
    reasons.push_back(simple(Health::Empty, "empty", "no module in the cage", "EMPTY"));
  } else if (!v.monitors_visible) {
    reasons.push_back(stale_reason(p));
  } else {
    const auto lanes = in_service_lanes(p);
    const auto& flags = v.raised_flags;
    // A module that is not ready explains its dark lanes and idle data paths: no second cause.
    if (auto r = module_state_reason(*p.report)) {
      reasons.push_back(std::move(*r));
    } else {
      if (auto dp = data_path_reason(p, lanes)) reasons.push_back(std::move(*dp));
      if (auto dark = dark_reason(p, lanes, flags)) reasons.push_back(std::move(*dark));
    }
    detail::add_condition_reasons(p, flags, reasons);
    const bool warm = std::any_of(reasons.begin(), reasons.end(), [](const Reason& r) {
      return r.name == cmis::flag_name(cmis::FlagId::TempHighWarning) || r.name == cmis::flag_name(cmis::FlagId::TempHighAlarm);
    });
    if (!warm) {
      if (auto r = headroom_reason(v.temperature_headroom_celsius, options)) reasons.push_back(std::move(*r));
    }
    for (const auto& c : p.coding) {
      if (c.severity != coding::CheckStatus::Fail) continue;
      Reason r = simple(Health::Miscoded, "coding", "coding check " + c.check + " failed: " + c.message,
                        "CODING");
      r.name = c.check;
      reasons.push_back(std::move(r));
    }
    v.worst_rx_margin = worst_rx_margin(p, lanes);
    v.worst_lanes = detail::worst_lanes(p, flags);
  }
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const Reason& a, const Reason& b) { return a.state < b.state; });
  v.health = reasons.empty() ? Health::Ok : reasons.front().state;
  return v;
}

}  // namespace xcvr::health
