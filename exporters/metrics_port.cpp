// Series of one port. Labels: port on everything, node for fabric-sourced ports, lane (1-based)
// on per-lane series. Vendor strings only in transceiver_module_info.
#include <algorithm>
#include <array>
#include <cstddef>
#include <memory_resource>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "cmis/field.hpp"
#include "exporters/format.hpp"
#include "health/port_view.hpp"
#include "exporters/metrics_internal.hpp"

namespace xcvr::exporters::detail {

using health::health_name;
using health::PortView;
using health::RaisedFlag;

using daemon::PortPresence;
using daemon::PortSnapshot;

Labels plus(const Labels& base, std::string_view name, std::string_view value) {
  Labels l = base;
  l.push_back({name, value});
  return l;
}

// Lane and data-path numbers as label text without a to_string per series. The strings live as
// long as the process: Labels only views them.
std::string_view lane_name(int lane) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (int i = 0; i <= 64; ++i) v.push_back(std::to_string(i));
    return v;
  }();
  if (lane >= 0 && lane <= 64) return kNames[static_cast<std::size_t>(lane)];
  static thread_local std::map<int, std::string> other;  // map: references stay valid
  return other.try_emplace(lane, std::to_string(lane)).first->second;
}

Labels lane_labels(const Labels& base, int lane) { return plus(base, "lane", lane_name(lane)); }

Labels live_lane_labels(const Labels& base, int lane, const std::optional<int>& data_path) {
  Labels l = lane_labels(base, lane);
  if (data_path) l.push_back({"data_path", lane_name(*data_path)});
  return l;
}

const Labels& LiveLabels::lane(int lane) {
  const bool cacheable = lane >= 0 && lane <= kCached;
  const std::uint32_t bit = cacheable ? std::uint32_t{1} << lane : 0;
  if ((cached_ & bit) != 0) return lanes_[lane];
  const Labels rendered = out_.with_rendered(live_lane_labels(base_, lane, data_path_of(&report_, lane)));
  if (!cacheable) return other_ = rendered;
  cached_ |= bit;
  return *std::construct_at(&lanes_[lane], rendered);
}

std::optional<int> data_path_of(const cmis::ModuleReport* r, int lane) {
  if (r == nullptr) return std::nullopt;
  for (const cmis::LaneReport& x : r->lanes) {
    if (x.lane == lane) return x.data_path;
  }
  return std::nullopt;
}

void add_levels(FamilySet& out, Fam fam, const Labels& base, const cmis::Thresholds& t, bool all) {
  using L = cmis::ThresholdLevel;
  const auto level = [&](L l, const std::optional<double>& v) {
    const auto ruled = [&](const RuleThreshold& r) { return r.level == l && r.family == fam; };
    if (!v || (!all && std::none_of(std::begin(kRuleThresholds), std::end(kRuleThresholds), ruled))) return;
    out.gauge(fam, base, {"level", cmis::level_name(l)}, *v);
  };
  level(L::HighAlarm, t.high_alarm);
  level(L::HighWarning, t.high_warning);
  level(L::LowWarning, t.low_warning);
  level(L::LowAlarm, t.low_alarm);
}

namespace {

Labels port_labels(const PortSnapshot& p) {
  Labels l{{"port", p.port}};
  if (!p.node.empty()) l.push_back({"node", p.node});
  return l;
}


void gauge_if(FamilySet& out, Fam id, const Labels& labels, const std::optional<double>& v) {
  if (v) out.gauge(id, labels, *v);
}

// The application in use (CMIS Active Control Set), else the first advertised.
const cmis::Application* shown_application(const cmis::ModuleReport& r) {
  if (r.active_application) {
    for (const cmis::Application& a : r.applications) {
      if (a.index == *r.active_application) return &a;
    }
  }
  return r.applications.empty() ? nullptr : &r.applications.front();
}

// An optional text as a label value ("" when absent), by view.
std::string_view or_empty(const std::optional<std::string>& s) { return s ? std::string_view(*s) : std::string_view(); }

void add_info(FamilySet& out, const Labels& base, const cmis::ModuleReport& r) {
  const cmis::Application* app = shown_application(r);
  Labels l = base;
  l.push_back({"identifier", r.id.identifier.name});
  l.push_back({"spec", cmis::spec_name(r.spec)});
  l.push_back({"spec_revision", r.spec_revision});
  l.push_back({"vendor", r.id.vendor_name});
  l.push_back({"vendor_oui", r.id.vendor_oui});
  l.push_back({"part_number", r.id.part_number});
  l.push_back({"revision", r.id.revision});
  l.push_back({"serial", r.id.serial});
  l.push_back({"date_code", r.id.date_code});
  l.push_back({"media_type", r.media_type ? std::string_view(r.media_type->name) : std::string_view()});
  l.push_back({"media_interface", app ? std::string_view(app->media_interface.name) : std::string_view()});
  l.push_back({"host_interface", app ? std::string_view(app->host_interface.name) : std::string_view()});
  l.push_back({"firmware", or_empty(r.id.firmware)});
  l.push_back({"inactive_firmware", or_empty(r.id.inactive_firmware)});
  out.gauge(Fam::ModuleInfo, std::move(l), 1);
}

// The quantity row a thresholds key names: by address first, since set_thresholds() stores the
// row's own key, then by text.
const cmis::QuantitySpec* threshold_row(std::string_view key) {
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (q.key.data() == key.data() && q.key.size() == key.size()) return &q;
  }
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (q.key == key) return &q;
  }
  return nullptr;
}

// In the map's order, not the rows': each quantity's levels go to a family of their own, so the
// order does not change the body, and a walk is cheaper than a find per row.
void add_thresholds(FamilySet& out, const Labels& base, const cmis::ModuleReport& r, bool all) {
  for (const auto& [key, thresholds] : r.thresholds) {
    const cmis::QuantitySpec* q = threshold_row(key);
    if (q != nullptr && q->has_thresholds()) add_levels(out, quantity_threshold_family(q->id), base, thresholds, all);
  }
}

void add_lanes(FamilySet& out, LiveLabels& labels, const cmis::ModuleReport& r) {
  SeenLanes seen;
  for (const cmis::LaneReport& lane : r.lanes) {
    if (lane.lane <= 0 || !seen.first(lane.lane)) continue;  // never a duplicate series
    const Labels& l = labels.lane(lane.lane);
    for (const cmis::QuantitySpec& q : cmis::kQuantities) {
      if (q.per_lane()) gauge_if(out, quantity_family(q.id), l, lane.*q.lane_value);
    }
    if (lane.data_path_state) {
      out.gauge(Fam::LaneDataPathState, l, {"state", data_path_state_label(*lane.data_path_state)}, 1);
    }
  }
}

void add_aging(FamilySet& out, LiveLabels& labels, const PortSnapshot& p) {
  SeenLanes seen;
  for (const daemon::LaneAging& a : p.aging) {
    if (a.lane <= 0 || !seen.first(a.lane)) continue;
    const Labels& l = labels.lane(a.lane);
    gauge_if(out, Fam::LaneTxBiasDrift, l, a.tx_bias_ratio);
    gauge_if(out, Fam::LaneTxPowerDrift, l, a.tx_power_ratio);
  }
}

// Flag counters: module-level ones carry no lane, lane ones no data path (see live_lane_labels).
Labels flag_labels(const Labels& base, int lane, std::string_view flag) {
  return lane > 0 ? plus(lane_labels(base, lane), "flag", flag) : plus(base, "flag", flag);
}

// Each port's worst lanes (health::WorstLane), the `quantity` label naming the series.
void add_worst_lanes(FamilySet& out, const Labels& base, const PortView& view) {
  if (const auto& m = view.worst_rx_margin) {
    out.gauge(Fam::WorstLaneRxPowerMargin, base, m->margin_db);
    out.gauge(Fam::WorstLane, base, {"quantity", "rx_power_margin"}, m->lane);
  }
  struct Row {
    Fam family;
    std::string_view quantity;
  };
  static constexpr Row kRows[] = {  // by health::WorstOf
      {Fam::WorstLanePreFecBer, "pre_fec_ber"}, {Fam::WorstLaneEsnr, "esnr"}, {Fam::WorstLaneTxBiasDrift, "tx_bias_drift"}};
  for (const health::WorstLane& w : view.worst_lanes) {
    const Row& row = kRows[static_cast<std::size_t>(w.quantity)];
    if (w.side.empty()) {
      out.gauge(row.family, base, w.value);
      out.gauge(Fam::WorstLane, base, {"quantity", row.quantity}, w.lane);
    } else {
      out.gauge(row.family, base, {"side", w.side}, w.value);
      out.gauge(Fam::WorstLane, plus(base, "quantity", row.quantity), {"side", w.side}, w.lane);
    }
  }
}

// Live values: only while the module is present and its last read is recent.
void add_live(FamilySet& out, const Labels& base, const PortSnapshot& p, const PortView& view, bool lanes) {
  const cmis::ModuleReport& r = *p.report;
  if (r.module_state) {
    out.gauge(Fam::ModuleState, base, {"state", module_state_label(r.module_state->name)}, 1);
  }
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (!q.per_lane()) gauge_if(out, quantity_family(q.id), base, r.*q.module_value);
  }
  if (r.module_fault_cause && r.module_fault_cause->code != 0) {
    out.gauge(Fam::ModuleFaultCause, base, {"cause", module_fault_cause_label(r.module_fault_cause->name)}, 1);
  }
  if (r.low_power) out.gauge(Fam::ModuleLowPower, base, *r.low_power ? 1 : 0);
  LiveLabels labels(out, base, r);
  if (lanes) add_lanes(out, labels, r);
  add_thresholds(out, base, r, lanes);
  gauge_if(out, Fam::TemperatureHeadroom, base, view.temperature_headroom_celsius);
  if (lanes) add_aging(out, labels, p);
  add_worst_lanes(out, base, view);
  add_vdm_series(out, labels, p, lanes);
  for (const RaisedFlag& f : view.raised_flags) {  // live gauges: with the lane's data path
    out.gauge(Fam::Flag, f.lane > 0 ? labels.lane(f.lane) : base, {"flag", f.flag}, 1);
  }
}

// Identity and coding verdicts: static for a seated module, kept while stale.
void add_identity(FamilySet& out, const Labels& base, const PortSnapshot& p) {
  const cmis::ModuleReport& r = *p.report;
  add_info(out, base, r);
  gauge_if(out, Fam::MaxPower, base, r.max_power_watts);
  if (!p.groups.empty()) out.gauge(Fam::PowerOverAllowance, base, p.over_power_allowance ? 1 : 0);
  SeenSet<std::pair<coding::CheckStatus, std::string_view>> seen;
  for (const daemon::CodingFinding& c : p.coding) {
    if (!seen.first({c.severity, c.check})) continue;
    if (c.severity == coding::CheckStatus::Fail) out.gauge(Fam::CodingCheckFailed, base, {"check", c.check}, 1);
    if (c.severity == coding::CheckStatus::Warn) out.gauge(Fam::CodingCheckWarning, base, {"check", c.check}, 1);
  }
}

// `by_lane` false (the fleet profile): flag counters summed over the port's lanes, so a
// counter keeps its identity whether or not the port is shown lane by lane.
void add_counters(FamilySet& out, const Labels& base, const PortSnapshot& p, bool by_lane) {
  out.counter(Fam::InsertionsTotal, base, static_cast<double>(p.insertions_total));
  for (const auto& [kind, n] : p.read_errors_total) {
    out.counter(Fam::ReadErrorsTotal, base, {"kind", kind}, static_cast<double>(n));
  }
  SeenSet<std::pair<int, std::string_view>> seen;
  std::array<std::byte, 1024> sums_buffer;  // a port raises a few kinds of flag: no heap node per render
  std::pmr::monotonic_buffer_resource sums_memory{sums_buffer.data(), sums_buffer.size()};
  std::pmr::map<std::string_view, uint64_t> per_port{&sums_memory};
  for (const daemon::FlagHistory& h : p.flags) {
    if (h.raised_total == 0 || !seen.first({h.lane, h.flag})) continue;  // sparse
    if (!by_lane) {
      per_port[h.flag] += h.raised_total;
      continue;
    }
    out.counter(Fam::FlagRaisedTotal, flag_labels(base, h.lane, h.flag),
                static_cast<double>(h.raised_total));
  }
  for (const auto& [flag, n] : per_port) out.counter(Fam::FlagRaisedTotal, base, {"flag", flag}, static_cast<double>(n));
}

// Link health beside the optic: the port's link counters, labelled by `link` (IB port number
// or netdev) and `lane` where the device counts per lane.
// `bins`: the FEC codeword histogram's bins too (full profile or a detail port); the tail and
// the correction limit always.
void add_link(FamilySet& out, const Labels& base, const PortSnapshot& p, bool bins) {
  for (const auto& [kind, n] : p.link_read_errors_total) {
    out.counter(Fam::LinkReadErrorsTotal, base, {"kind", kind}, static_cast<double>(n));
  }
  if (!p.link) return;
  out.gauge(Fam::LinkLastReadTimestamp, base, p.link_read_unix);
  static constexpr Fam kFamily[drivers::kLinkCounterIds] = {
      Fam::LinkFecCorrectedBlocks, Fam::LinkFecUncorrectableBlocks, Fam::LinkFecCorrectedBits,
      Fam::LinkSymbolErrors,       Fam::LinkErrorRecovery,          Fam::LinkDowned,
      Fam::LinkRcvErrors,          Fam::LinkLocalIntegrityErrors,   Fam::LinkBufferOverrunErrors,
      Fam::LinkCarrierDown};
  static constexpr Fam kBerFamily[drivers::kLinkBerIds] = {Fam::LinkRawBer, Fam::LinkEffectiveBer};
  for (const drivers::LinkCounter& c : p.link->counters) {
    Labels l = plus(base, "link", c.link);
    if (c.lane > 0) l = plus(l, "lane", lane_name(c.lane));
    out.counter(kFamily[static_cast<std::size_t>(c.id)], l, static_cast<double>(c.value));
    if (c.saturated) {
      out.gauge(Fam::LinkCounterSaturated, l, {"counter", family_spec(kFamily[static_cast<std::size_t>(c.id)]).name}, 1);
    }
  }
  for (const drivers::LinkBer& b : p.link->ber) {
    out.gauge(kBerFamily[static_cast<std::size_t>(b.id)], base, {"link", b.link}, b.value);
  }
  for (const drivers::LinkFecHistogram& h : p.link->fec_histograms) {
    const Labels l = plus(base, "link", h.link);
    if (h.tail) out.gauge(Fam::LinkFecTail, l, *h.tail);
    if (h.correction_limit) out.gauge(Fam::LinkFecCorrectionLimit, l, *h.correction_limit);
    if (!bins) continue;
    std::array<char, 16> name;
    for (const drivers::LinkFecBin& b : h.bins) {
      out.counter(Fam::LinkFecCodewords, l, {"symbols", drivers::fec_bin_name(b, name)}, static_cast<double>(b.value));
    }
  }
  for (const drivers::LinkCarrier& c : p.link->carrier) {
    const Labels l = plus(base, "link", c.link);
    out.gauge(Fam::LinkCarrierUp, l, c.up ? 1 : 0);
    if (c.last_down_seconds) out.gauge(Fam::LinkLastDownDuration, l, *c.last_down_seconds);
    if (c.last_down_unix) out.gauge(Fam::LinkLastDownTimestamp, l, *c.last_down_unix);
  }
}

}  // namespace

void add_port_series(FamilySet& out, const PortSnapshot& p, const PortView& view, PortDetail detail) {
  const Labels base = out.with_rendered(port_labels(p));  // every series of the port begins so
  if (p.presence != PortPresence::Unknown) {
    out.gauge(Fam::ModulePresent, base, p.presence == PortPresence::Present ? 1 : 0);
  }
  if (p.state != daemon::PortState::Unknown) {
    out.gauge(Fam::PortLifecycleState, base, {"state", daemon::port_state_name(p.state)}, 1);
  }
  if (!p.misconfiguration.empty()) out.gauge(Fam::PortMisconfigured, base, {"reason", p.misconfiguration}, 1);
  out.gauge(Fam::PortHealth, base, {"health", health_name(view.health)}, 1);
  add_counters(out, base, p, !detail.fleet);
  add_link(out, base, p, detail.lanes);
  if (p.fec_forecast && p.fec_forecast->seconds_to_limit) {
    out.gauge(Fam::FecLimitForecast, base, *p.fec_forecast->seconds_to_limit);
  }
  if (p.presence != PortPresence::Present) return;
  out.gauge(Fam::ModuleStale, base, p.stale ? 1 : 0);
  if (p.last_good_read_unix > 0) out.gauge(Fam::LastReadTimestamp, base, p.last_good_read_unix);
  if (!p.report) return;
  add_identity(out, base, p);
  if (view.monitors_visible) add_live(out, base, p, view, detail.lanes);
}

}  // namespace xcvr::exporters::detail
