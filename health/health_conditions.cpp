// Flag and monitor conditions of the health model: each raised flag, and each monitor value
// past one of the module's own thresholds (whether or not the module raised the flag), becomes
// one reason per condition with its lanes, the worst lane's value, the threshold and, for
// optical power, the margin in dB.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "cmis/codes.hpp"
#include "cmis/flags.hpp"
#include "cmis/quantities.hpp"
#include "cmis/vdm.hpp"
#include "health/text.hpp"
#include "health/health_internal.hpp"

namespace xcvr::health::detail {
namespace {

using daemon::PortSnapshot;

using Monitor = cmis::QuantitySpec;  // a monitored quantity judged against the module's thresholds

// Threshold levels, in the order a value is checked against them (alarm before warning).
using Level = cmis::ThresholdLevel;
constexpr std::array kLevels = {Level::HighAlarm, Level::HighWarning, Level::LowAlarm, Level::LowWarning};
using cmis::is_high;

const std::optional<double>& level_value(const cmis::Thresholds& t, Level l) {
  switch (l) {
    case Level::HighAlarm: return t.high_alarm;
    case Level::HighWarning: return t.high_warning;
    case Level::LowAlarm: return t.low_alarm;
    case Level::LowWarning: return t.low_warning;
  }
  return t.high_alarm;
}

// "rx_power_low_warning": the condition of a monitor past a level, named as its flag.
std::string condition_name(const Monitor& m, Level level) {
  return std::string(m.stem) + "_" + std::string(cmis::level_name(level));
}

// Thresholds usable for judging values: in order, and each low below its high (passive copper
// reports all zeros; a miscoded module may report them out of order: its flags still count).
bool usable(const cmis::Thresholds& t) {
  std::optional<double> previous;  // the levels given, in ascending order, must not descend
  for (const auto* x : {&t.low_alarm, &t.low_warning, &t.high_warning, &t.high_alarm}) {
    if (!*x) continue;
    if (previous && **x < *previous) return false;
    previous = *x;
  }
  if (t.low_alarm && t.high_alarm && *t.low_alarm >= *t.high_alarm) return false;
  return !(t.low_warning && t.high_warning && *t.low_warning >= *t.high_warning);
}

std::optional<Level> crossing(double v, const cmis::Thresholds& t) {
  for (Level l : kLevels) {
    const auto& th = level_value(t, l);
    if (th && (is_high(l) ? v > *th : v < *th)) return l;
  }
  return std::nullopt;
}

struct MonitorLevel {
  const Monitor* monitor;
  Level level;
};

// The monitor and level of a threshold condition, from its flag table row.
std::optional<MonitorLevel> monitor_level(std::string_view condition) {
  const cmis::FlagRow* row = cmis::find_flag(condition);
  if (row == nullptr || !row->monitor || !row->level) return std::nullopt;
  return MonitorLevel{&cmis::quantity(*row->monitor), *row->level};
}

struct Condition {
  std::set<int> lanes;  // 0 = module-level
  bool flagged = false;
};

// A VDM flag ("vdm_<type>_<level>"): the observable's value on the worst flagged lane whose value
// means something, against the module's own threshold of that level; pre-FEC BER also against
// the FEC's limit. False when `r` names no VDM flag.
bool add_vdm_numbers(const PortSnapshot& p, const Condition& c, Reason& r) {
  constexpr std::string_view kPrefix = "vdm_";
  if (!r.name.starts_with(kPrefix)) return false;
  const cmis::FlagRow* row = cmis::find_flag(r.name);
  if (row == nullptr || row->scope != cmis::FlagScope::VdmInstance || !row->level) return true;
  const Level level = *row->level;
  const std::string_view type =  // "vdm_<type>_<level>"
      std::string_view(r.name).substr(kPrefix.size(), r.name.size() - kPrefix.size() - row->name.size() - 1);
  const bool high = is_high(level);
  const cmis::VdmObservable* worst =
      worst_vdm(*p.report, high, [&](const cmis::VdmObservable& o) { return o.name() == type && c.lanes.contains(o.lane); });
  if (!worst) return true;
  r.value = worst->value;
  r.unit = std::string(worst->unit());
  r.worst_lane = worst->lane;
  if (worst->thresholds) r.threshold = level_value(*worst->thresholds, level);
  r.text += ": " + monitor_text(r.unit, *r.value);
  if (r.lanes.size() > 1) r.text += " (lane " + std::to_string(worst->lane) + ")";
  if (r.threshold) {
    std::string level_text(cmis::level_name(level));
    std::replace(level_text.begin(), level_text.end(), '_', ' ');
    r.text += " against the " + level_text + " " + monitor_text(r.unit, *r.threshold);
    if (r.unit == "decibels") {
      r.margin_db = high ? *r.threshold - *r.value : *r.value - *r.threshold;
      r.text += ", margin " + fixed(*r.margin_db, 2) + " dB";
    } else if (*r.threshold > 0 && *r.value > 0) {
      r.text += " (" + fixed(*r.value / *r.threshold, 1) + "\u00d7 the threshold)";
    }
  }
  if (worst->quantity() == "pre_fec_ber") {
    r.fec_limit = cmis::kKp4PreFecBerLimit;
    const double limit = *r.fec_limit;
    r.text += *r.value < limit ? "; " + fixed(limit / std::max(*r.value, 1e-300), 1) + "\u00d7 below the FEC limit "
                               : "; past the FEC limit ";
    r.text += significant(limit);
  }
  return true;
}

Reason make_reason(const PortSnapshot& p, const std::string& name, const Condition& c) {
  Reason r;
  r.name = name;
  r.state = flag_state(name);
  const auto ml = monitor_level(name);
  r.kind = c.flagged || !ml ? "flag" : "monitor";
  r.flagged = c.flagged;
  for (int lane : c.lanes) {
    if (lane > 0) r.lanes.push_back(lane);
  }
  r.label = cmis::cage_label(name);
  r.text = name;
  if (!c.flagged) r.text += " (by value; flag not raised)";
  if (!r.lanes.empty()) r.text += " on " + lanes_text(r.lanes);
  if (add_vdm_numbers(p, c, r) || !ml) return r;
  const Monitor& m = *ml->monitor;
  r.unit = std::string(m.unit);
  const auto t = p.report->thresholds.find(m.key);
  if (t != p.report->thresholds.end()) r.threshold = level_value(t->second, ml->level);
  const bool high = is_high(ml->level);
  for (int lane : c.lanes) {  // the worst lane: highest for a high condition, lowest for a low one
    const auto v = cmis::value_of(m, *p.report, lane);
    if (v && (!r.value || (high ? *v > *r.value : *v < *r.value))) {
      r.value = v;
      r.worst_lane = lane > 0 ? std::optional<int>(lane) : std::nullopt;
    }
  }
  if (!r.value || !r.threshold) return r;
  if (m.unit == "watts") r.margin_db = power_margin_db(*r.value, *r.threshold, high);
  r.text += ": " + monitor_text(m.unit, *r.value);
  if (r.worst_lane && r.lanes.size() > 1) r.text += " (lane " + std::to_string(*r.worst_lane) + ")";
  std::string level(cmis::level_name(ml->level));
  std::replace(level.begin(), level.end(), '_', ' ');
  r.text += " against the " + level + " " + monitor_text(m.unit, *r.threshold);
  if (r.margin_db) r.text += ", margin " + fixed(*r.margin_db, 2) + " dB";
  return r;
}

}  // namespace

bool lane_live(const cmis::ModuleReport& r, const cmis::LaneReport& l) {
  if (!module_ready(r)) return false;
  return !l.data_path_state || *l.data_path_state == "DPActivated";
}

Health flag_state(std::string_view f) {
  const cmis::FlagRow* row = cmis::find_flag(f);
  if (row == nullptr) return Health::Warning;  // a name no row gives: never ok
  switch (row->severity) {
    case cmis::Severity::Alarm: return Health::Alarm;
    case cmis::Severity::Warning: return Health::Warning;
    case cmis::Severity::Hot: return Health::Hot;
    case cmis::Severity::NotReady: return Health::Down;
    case cmis::Severity::Event: return Health::Ok;
  }
  return Health::Warning;
}

void add_condition_reasons(const PortSnapshot& p, const std::vector<RaisedFlag>& flags,
                           std::vector<Reason>& out) {
  std::map<std::string, Condition> conditions;
  for (const auto& f : flags) {
    if (flag_state(f.flag) == Health::Ok) continue;  // change notifications
    auto& c = conditions[f.flag];
    c.lanes.insert(f.lane);
    c.flagged = true;
  }
  const cmis::ModuleReport& r = *p.report;
  std::vector<int> live_lanes;  // in service and live
  for (const auto& l : r.lanes) {
    if (l.lane > 0 && lane_in_service(p, l.lane) && lane_live(r, l)) live_lanes.push_back(l.lane);
  }
  static const std::vector<int> kModule{0};
  for (const Monitor& m : cmis::kQuantities) {
    const auto t = r.thresholds.find(m.key);
    if (t == r.thresholds.end() || !usable(t->second)) continue;
    for (int lane : m.per_lane() ? live_lanes : kModule) {
      const auto v = cmis::value_of(m, r, lane);
      const auto level = v ? crossing(*v, t->second) : std::nullopt;
      if (level) conditions[condition_name(m, *level)].lanes.insert(lane);
    }
  }
  if (conditions.empty()) return;  // the common case: nothing below builds a name for nothing
  // The alarm of a direction covers its warning on the same lanes.
  for (const Monitor& m : cmis::kQuantities) {
    for (auto [alarm, warning] : {std::pair{Level::HighAlarm, Level::HighWarning}, std::pair{Level::LowAlarm, Level::LowWarning}}) {
      const auto a = conditions.find(condition_name(m, alarm));
      const auto w = conditions.find(condition_name(m, warning));
      if (a == conditions.end() || w == conditions.end()) continue;
      for (int lane : a->second.lanes) w->second.lanes.erase(lane);
      if (w->second.lanes.empty()) conditions.erase(w);
    }
  }
  // Within a state, the most telling cause first: the flag table's cause ranks, then by name.
  std::vector<std::pair<int, const std::string*>> order;
  for (const auto& [name, c] : conditions) {
    const cmis::FlagRow* row = cmis::find_flag(name);
    order.push_back({row != nullptr ? row->cause_rank : cmis::kUnrankedCause, &name});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [rank, name] : order) out.push_back(make_reason(p, *name, conditions.at(*name)));
}

}  // namespace xcvr::health::detail
