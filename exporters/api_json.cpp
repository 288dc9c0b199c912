#include "exporters/api_json.hpp"

#include <algorithm>

#include "cmis/quantities.hpp"
#include "cmis/report_json.hpp"
#include "daemon/recorder_file.hpp"
#include "exporters/format.hpp"
#include "health/values.hpp"

namespace xcvr::exporters {

using health::health_name;
using health::PortView;
using health::RaisedFlag;
using health::Reason;
using health::vdm_measures;
namespace {

using nlohmann::json;

std::string_view presence_name(daemon::PortPresence p) {
  switch (p) {
    case daemon::PortPresence::Present: return "present";
    case daemon::PortPresence::Absent: return "absent";
    case daemon::PortPresence::Unknown: return "unknown";
  }
  return "unknown";
}

// Strings from modules may hold any byte; nlohmann::json::dump() throws on invalid UTF-8, so
// dumps use error_handler_t::replace (see exporters/http/server.cpp) and nothing here can throw.
json time_json(double unix_seconds) {
  return unix_seconds > 0 ? json(unix_seconds) : json(nullptr);
}

// Removes live values (monitors, states, raised flags, VDM) from a to_json() module object.
void withhold_monitors(json& module) {
  static const char* kModuleStates[] = {"state", "fault_cause", "low_power"};
  if (auto m = module.find("module"); m != module.end() && m->is_object()) {
    for (const cmis::QuantitySpec& q : cmis::kQuantities) {
      if (!q.per_lane()) m->erase(std::string(q.key));
    }
    for (const char* k : kModuleStates) m->erase(k);
    (*m)["flags"] = json::array();
  }
  if (auto lanes = module.find("lanes"); lanes != module.end() && lanes->is_array()) {
    for (json& lane : *lanes) {
      for (const cmis::QuantitySpec& q : cmis::kQuantities) {
        if (q.per_lane()) lane.erase(std::string(q.key));
      }
      lane.erase("data_path_state");
      lane["flags"] = json::array();
    }
  }
  module["vdm"] = json::array();
}

// VDM values of lanes that measure nothing (module not ready, data path down, LOS) are null, as
// /metrics withholds them: a LowPwr module's zeros must not read as a clean link.
void null_idle_vdm(json& module, const cmis::ModuleReport& r) {
  const auto vdm = module.find("vdm");
  if (vdm == module.end() || !vdm->is_array() || vdm->size() != r.vdm.size()) return;
  for (std::size_t i = 0; i < r.vdm.size(); ++i) {
    if (!vdm_measures(r, r.vdm[i].lane)) (*vdm)[i]["value"] = nullptr;
  }
}

json flags_json(const daemon::PortSnapshot& p) {
  json out = json::array();
  for (const auto& h : p.flags) {
    out.push_back({{"flag", h.flag},
                   {"lane", h.lane},
                   {"raised", h.raised},
                   {"raised_total", h.raised_total},
                   {"since_unix", h.raised ? time_json(h.since_unix) : json(nullptr)},
                   {"last_seen_unix", time_json(h.last_seen_unix)},
                   {"last_cleared_unix", time_json(h.last_cleared_unix)}});
  }
  return out;
}

json raised_json(const PortView& v) {
  json out = json::array();
  for (const RaisedFlag& f : v.raised_flags) {
    out.push_back({{"flag", f.flag}, {"lane", f.lane}, {"since_unix", time_json(f.since_unix)},
                   {"last_seen_unix", time_json(f.last_seen_unix)}});
  }
  return out;
}

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The verdict's reasons, most urgent first (see health/port_view.hpp Reason).
json reasons_json(const PortView& v) {
  json out = json::array();
  for (const Reason& r : v.reasons) {
    json j{{"state", health_name(r.state)}, {"kind", r.kind},     {"name", r.name},
           {"lanes", r.lanes},              {"flagged", r.flagged}, {"text", r.text},
           {"label", r.label}};
    if (r.value) {
      j["value"] = *r.value;
      j["unit"] = r.unit;
      j["threshold"] = opt_json(r.threshold);
      j["margin_db"] = opt_json(r.margin_db);
      j["worst_lane"] = r.worst_lane ? json(*r.worst_lane) : json(nullptr);
      if (r.fec_limit) j["fec_limit"] = *r.fec_limit;
    }
    if (!r.module_state.empty()) j["module_state"] = r.module_state;
    if (!r.fault_cause.empty()) j["fault_cause"] = r.fault_cause;
    out.push_back(std::move(j));
  }
  return out;
}

json coding_json(const daemon::PortSnapshot& p) {
  json out = json::array();
  for (const auto& c : p.coding) {
    out.push_back({{"check", c.check}, {"severity", coding::check_status_name(c.severity)}, {"message", c.message}});
  }
  return out;
}

json aging_json(const daemon::PortSnapshot& p) {
  json out = json::array();
  for (const auto& a : p.aging) {
    json j{{"lane", a.lane}};
    if (a.tx_bias_ratio) j["tx_bias_ratio"] = *a.tx_bias_ratio;
    if (a.tx_power_ratio) j["tx_power_ratio"] = *a.tx_power_ratio;
    out.push_back(std::move(j));
  }
  return out;
}

json budget_json(const daemon::BudgetSnapshot& b) {
  return {{"group", b.group},
          {"budget_watts", b.budget_watts},
          {"per_port_allowance_watts", b.per_port_allowance_watts},
          {"allocated_watts", b.allocated_watts},
          {"projected_watts", b.projected_watts},
          {"ports", b.ports},
          {"present", b.present},
          {"over_allowance_ports", b.over_allowance_ports},
          {"over_budget", b.allocated_watts > b.budget_watts}};
}

json port_budget_json(const daemon::Snapshot& s, const daemon::PortSnapshot& p) {
  json groups = json::array();
  for (const auto& g : p.groups) {
    const auto it = std::find_if(s.budgets.begin(), s.budgets.end(),
                                 [&](const auto& b) { return b.group == g; });
    if (it != s.budgets.end()) groups.push_back(budget_json(*it));
  }
  json j{{"over_allowance", p.over_power_allowance}, {"groups", std::move(groups)}};
  if (p.report && p.report->max_power_watts) j["max_power_watts"] = *p.report->max_power_watts;
  return j;
}

// Link health beside the optic: the counters of the link(s) the module carries, or null.
json link_json(const daemon::PortSnapshot& p) {
  json j{{"read_errors_total", p.link_read_errors_total}};
  if (!p.link) {
    j["counters"] = nullptr;
    return j;
  }
  json counters = json::array();
  for (const drivers::LinkCounter& c : p.link->counters) {
    json one{{"counter", std::string(drivers::link_counter_name(c.id))}, {"link", c.link}, {"value", c.value},
             {"saturated", c.saturated}};
    if (c.lane > 0) one["lane"] = c.lane;
    counters.push_back(std::move(one));
  }
  j["counters"] = std::move(counters);
  json ber = json::array();
  for (const drivers::LinkBer& b : p.link->ber) {
    ber.push_back({{"ber", std::string(drivers::link_ber_name(b.id))}, {"link", b.link}, {"value", b.value},
                   {"window_s", b.window_s}});
  }
  j["ber"] = std::move(ber);
  if (!p.link->fec_histograms.empty()) {
    json histograms = json::array();
    for (const drivers::LinkFecHistogram& h : p.link->fec_histograms) {
      json bins = json::array();
      for (const drivers::LinkFecBin& b : h.bins) bins.push_back({{"low", b.low}, {"high", b.high}, {"codewords", b.value}});
      histograms.push_back({{"link", h.link},
                            {"bins", std::move(bins)},
                            {"tail", h.tail ? json(*h.tail) : json(nullptr)},
                            {"correction_limit", h.correction_limit ? json(*h.correction_limit) : json(nullptr)}});
    }
    j["fec_histograms"] = std::move(histograms);
  }
  if (!p.link->carrier.empty()) {
    json carrier = json::array();
    for (const drivers::LinkCarrier& c : p.link->carrier) {
      carrier.push_back({{"link", c.link},
                         {"up", c.up},
                         {"last_down_s", c.last_down_seconds ? json(*c.last_down_seconds) : json(nullptr)},
                         {"last_down_unix", c.last_down_unix ? time_json(*c.last_down_unix) : json(nullptr)}});
    }
    j["carrier"] = std::move(carrier);
  }
  if (!p.link->ib_ports.empty()) {
    json ib_ports = json::object();
    for (const drivers::LinkIbPort& l : p.link->ib_ports) ib_ports[l.link] = l.ib_port;
    j["ib_ports"] = std::move(ib_ports);
  }
  j["read_unix"] = time_json(p.link_read_unix);
  return j;
}

}  // namespace

json port_json(const daemon::Snapshot& s, const daemon::PortSnapshot& p, const PortView& view) {
  const bool visible = view.monitors_visible;
  json j{{"port", p.port},
         {"presence", presence_name(p.presence)},
         {"stale", p.stale},
         {"state", daemon::port_state_name(p.state)},
         {"health", health_name(view.health)},
         {"reasons", reasons_json(view)},
         {"in_service", p.in_service},
         {"unused_lanes", p.unused_lanes},
         {"domain", p.domain},
         {"source", p.source},
         {"cage", p.cage},
         {"groups", p.groups},
         {"last_good_read_unix", time_json(p.last_good_read_unix)},
         {"last_good_read", p.last_good_read_unix > 0 ? json(utc_time(p.last_good_read_unix)) : json(nullptr)},
         {"insertions_total", p.insertions_total},
         {"read_errors_total", p.read_errors_total},
         {"flags", flags_json(p)},
         {"raised_flags", raised_json(view)},
         {"coding", coding_json(p)},
         {"budget", port_budget_json(s, p)},
         {"monitors_withheld", p.report != nullptr && !visible},
         {"link", link_json(p)}};
  if (!p.node.empty()) j["node"] = p.node;
  if (visible) {
    j["aging"] = aging_json(p);
    if (const auto& h = view.temperature_headroom_celsius) j["temperature_headroom_celsius"] = *h;
    if (const auto& m = view.worst_rx_margin) {
      j["worst_rx_margin"] = {{"lane", m->lane}, {"margin_db", m->margin_db}};
    }
    if (const auto& f = p.fec_forecast) {
      j["fec_forecast"] = {{"seconds_to_limit", f->seconds_to_limit ? json(*f->seconds_to_limit) : json(nullptr)},
                           {"slope_decades_per_hour", f->slope_decades_per_hour},
                           {"margin_decades", f->margin_decades},
                           {"why_not", f->why_not.empty() ? json(nullptr) : json(std::string(f->why_not))}};
    }
  } else {
    j["aging"] = json::array();
  }
  if (p.report) {
    json module = cmis::to_json(*p.report);
    if (!visible) withhold_monitors(module);
    else null_idle_vdm(module, *p.report);
    j["module"] = std::move(module);
  } else {
    j["module"] = nullptr;
  }
  return j;
}

namespace {
std::string compact(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
}  // namespace

std::string json_text(const json& j) { return compact(j) + "\n"; }

std::string modules_body(const health::FleetView& views, std::size_t size_hint) {
  const daemon::Snapshot& s = views.snapshot();
  json budgets = json::array();
  for (const auto& b : s.budgets) budgets.push_back(budget_json(b));
  std::string out;
  out.reserve(size_hint + size_hint / 16);
  const auto put = [&](const json& j) { out += compact(j); };
  // The keys in the order json_text() writes an object's (nlohmann's objects are sorted maps).
  out += "{\"budgets\":";
  put(budgets);
  out += ",\"modules\":[";
  for (std::size_t i = 0; i < s.ports.size(); ++i) {
    if (i != 0) out += ',';
    put(port_json(s, s.ports[i], views.port(i)));
  }
  out += "],\"taken\":";
  put(s.taken_unix > 0 ? json(utc_time(s.taken_unix)) : json(nullptr));
  out += ",\"taken_unix\":";
  put(time_json(s.taken_unix));
  out += ",\"version\":";
  put(json(s.version));
  out += "}\n";
  return out;
}

const daemon::PortSnapshot* find_port(const daemon::Snapshot& s, std::string_view name) {
  const auto it = std::find_if(s.ports.begin(), s.ports.end(),
                               [&](const auto& p) { return p.port == name; });
  return it == s.ports.end() ? nullptr : &*it;
}

std::string events_body(const daemon::Snapshot& snapshot, const daemon::PortSnapshot* only) {
  std::vector<const daemon::RecorderEvent*> events;
  for (const daemon::PortSnapshot& p : snapshot.ports) {
    if ((only != nullptr && &p != only) || !p.events) continue;
    for (const auto& e : *p.events) events.push_back(e.get());
  }
  std::stable_sort(events.begin(), events.end(), [](const auto* a, const auto* b) { return a->unix() < b->unix(); });
  std::string out = "{\"events\":[";
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ',';
    out += compact(daemon::recorder_event_json(*events[i]));
  }
  return out + "]}\n";
}

}  // namespace xcvr::exporters
