// /port/<name>: one module in detail — its verdict and reasons, identity, monitors (module
// state, fault cause, worst-lane rx margin), lanes (dBm and mW, margin), thresholds, raised
// flags per lane, coding findings, counters. Live values are left out while the module is stale.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "cmis/quantities.hpp"
#include "exporters/api_json.hpp"
#include "exporters/format.hpp"
#include "exporters/landing_page.hpp"
#include "exporters/recorder_svg.hpp"
#include "health/values.hpp"

namespace xcvr::exporters {

using health::health_name;
using health::lane_in_service;
using health::lanes_text;
using health::PortView;
using health::power_margin_db;
using health::vdm_measures;
using health::worst_vdm;
namespace {

using daemon::PortSnapshot;

std::string row(std::string_view key, std::string_view value_html) {
  return "<tr><th>" + html_escape(key) + "</th><td>" + std::string(value_html) + "</td></tr>";
}

std::string opt_text(const std::optional<std::string>& v) { return v ? html_escape(*v) : ""; }

std::string power_text(double watts) {  // "-3.01 dBm (0.500 mW)"; no light for 0 W
  return monitor_text("watts", watts) + " (" + fixed(watts * 1e3, 3) + " mW)";
}

std::string power_cell(const std::optional<double>& watts) {
  return watts ? power_text(*watts) : "\u2014";
}

std::string identity_table(const cmis::ModuleReport& r) {
  const auto& id = r.id;
  std::string t = "<h2>Identity</h2><table>";
  t += row("identifier", html_escape(id.identifier.name));
  t += row("spec", html_escape(std::string(cmis::spec_name(r.spec))) + " " + html_escape(r.spec_revision));
  t += row("vendor", html_escape(id.vendor_name));
  t += row("vendor OUI", html_escape(id.vendor_oui));
  t += row("part number", html_escape(id.part_number));
  t += row("revision", html_escape(id.revision));
  t += row("serial", html_escape(id.serial));
  t += row("date code", html_escape(id.date_code));
  t += row("firmware", opt_text(id.firmware));
  t += row("media type", r.media_type ? html_escape(r.media_type->name) : "");
  for (const auto& a : r.applications) {
    t += row("application " + std::to_string(a.index),
             html_escape(a.host_interface.name) + " / " + html_escape(a.media_interface.name) + " (" +
                 std::to_string(a.host_lane_count) + "\u00d7 host, " +
                 std::to_string(a.media_lane_count) + "\u00d7 media lanes)");
  }
  if (r.power_class) t += row("power class", std::to_string(*r.power_class));
  if (r.max_power_watts) t += row("max power", fixed(*r.max_power_watts, 2) + " W");
  return t + "</table>";
}

std::string monitors_table(const PortSnapshot& p, const PortView& v) {
  const auto& r = *p.report;
  std::string t = "<h2>Monitors</h2><table>";
  if (r.module_state) t += row("module state", html_escape(r.module_state->name));
  if (r.module_fault_cause) t += row("module fault cause", html_escape(r.module_fault_cause->name));
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (q.per_lane()) continue;
    if (const auto& value = r.*q.module_value) t += row(q.label, monitor_text(q.unit, *value));
    if (q.id != cmis::Quantity::Temperature) continue;
    if (const auto& h = v.temperature_headroom_celsius) t += row("headroom to high warning", monitor_text("celsius", *h));
  }
  if (const auto& m = v.worst_rx_margin) {
    t += row("worst-lane rx margin", fixed(m->margin_db, 2) + " dB to the rx-power low warning (lane " +
                                         std::to_string(m->lane) + ")");
  }
  return t + "</table>";
}

// One column per lane quantity (cmis/quantities.hpp), the rx margin beside rx power.
std::string lanes_table(const PortSnapshot& p) {
  const auto& r = *p.report;
  const auto th = r.thresholds.find(cmis::quantity(cmis::Quantity::RxPower).key);
  const double* low_warning = th != r.thresholds.end() && th->second.low_warning ? &*th->second.low_warning : nullptr;
  std::string t = "<h2>Lanes</h2><table><tr><th>lane</th>";
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (!q.per_lane()) continue;
    t += "<th>" + std::string(q.label) + "</th>";
    if (q.id == cmis::Quantity::RxPower) t += "<th>rx margin</th>";
  }
  t += "<th>data path</th><th>raised flags</th></tr>";
  for (const auto& l : r.lanes) {
    std::string flags;
    for (const auto& f : l.flags) flags += html_escape(f) + " ";
    if (!lane_in_service(p, l.lane)) flags = "<i>out of service</i> " + flags;
    std::string path = l.data_path_state ? html_escape(*l.data_path_state) : "";
    if (l.data_path) path += " (host port " + std::to_string(*l.data_path) + ")";
    t += "<tr><td class=\"num\">" + std::to_string(l.lane) + "</td>";
    for (const cmis::QuantitySpec& q : cmis::kQuantities) {
      if (!q.per_lane()) continue;
      const std::optional<double>& v = l.*q.lane_value;
      t += "<td class=\"num\">" + (q.unit == "watts" ? power_cell(v) : v ? monitor_text(q.unit, *v) : "\u2014") + "</td>";
      if (q.id != cmis::Quantity::RxPower) continue;
      std::string margin = "\u2014";
      if (v && low_warning) {
        if (const auto m = power_margin_db(*v, *low_warning, false)) margin = fixed(*m, 2) + " dB";
      }
      t += "<td class=\"num\">" + margin + "</td>";
    }
    t += "<td>" + path + "</td><td>" + flags + "</td></tr>";
  }
  return t + "</table>";
}

std::string threshold_value(const cmis::QuantitySpec* q, const std::optional<double>& v) {
  if (!v) return "\u2014";
  if (!q) return monitor_text("", *v);
  return q->unit == "watts" ? power_text(*v) : monitor_text(q->unit, *v);
}

std::string thresholds_table(const cmis::ModuleReport& r) {
  if (r.thresholds.empty()) return "";
  std::string t = "<h2>Thresholds</h2><table><tr><th>monitor</th><th>high alarm</th>"
                  "<th>high warning</th><th>low warning</th><th>low alarm</th></tr>";
  for (const auto& [key, th] : r.thresholds) {
    const cmis::QuantitySpec* q = cmis::quantity_by_key(key);
    t += "<tr><td>" + html_escape(q ? std::string(q->label) : key) + "</td>";
    for (const auto* v : {&th.high_alarm, &th.high_warning, &th.low_warning, &th.low_alarm}) {
      t += "<td class=\"num\">" + threshold_value(q, *v) + "</td>";
    }
    t += "</tr>";
  }
  return t + "</table>";
}

// VDM observables as the module describes them: real-time values, the statistics marked (they
// are not held by a freeze), each with its own threshold set and raised flags. The worst
// pre-FEC BER and eSNR lanes head the table; values of lanes that measure nothing (module not
// ready, data path down, LOS) show as "—", never as a clean 0.
std::string vdm_table(const cmis::ModuleReport& r) {
  if (r.vdm.empty()) return "";
  std::string t = "<h2>Signal integrity (VDM)</h2><table><tr><th>observable</th><th>lane</th><th>value</th>"
                  "<th>warning range</th><th>alarm range</th><th>raised</th></tr>";
  const auto num = [](const std::optional<double>& v) { return v ? significant(*v) : std::string("\u2013"); };
  const auto of = [](std::string_view quantity) {
    return [quantity](const cmis::VdmObservable& o) { return o.quantity() == quantity; };
  };
  // The highest pre-FEC BER and the lowest eSNR first, then the rest as the module lists them.
  const cmis::VdmObservable* const worst[] = {worst_vdm(r, true, of("pre_fec_ber")), worst_vdm(r, false, of("esnr"))};
  std::vector<const cmis::VdmObservable*> rows;
  for (const cmis::VdmObservable* w : worst) {
    if (w) rows.push_back(w);
  }
  const std::size_t worst_rows = rows.size();
  for (const cmis::VdmObservable& o : r.vdm) {
    if (&o != worst[0] && &o != worst[1]) rows.push_back(&o);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const cmis::VdmObservable& o = *rows[i];
    std::string value = vdm_measures(r, o.lane) ? significant(o.value) + " " + html_escape(o.unit()) : "\u2014";
    if (i < worst_rows) value = "<b>" + value + "</b> <i>(worst)</i>";
    if (o.statistic()) value += " <i>(statistic, not frozen)</i>";
    const cmis::Thresholds th = o.thresholds ? *o.thresholds : cmis::Thresholds{};
    std::string flags;
    for (const std::string_view f : o.flags) flags += "<b>" + html_escape(f) + "</b> ";
    t += "<tr><td>" + html_escape(o.name()) + "</td><td class=\"num\">" + std::to_string(o.lane) + "</td><td class=\"num\">" +
         value + "</td><td class=\"num\">" + num(th.low_warning) + " \u2026 " + num(th.high_warning) +
         "</td><td class=\"num\">" + num(th.low_alarm) + " \u2026 " + num(th.high_alarm) + "</td><td>" + flags + "</td></tr>";
  }
  return t + "</table>";
}

std::string flags_table(const PortSnapshot& p, const PortView& v) {
  std::string t = "<h2>Flags</h2>";
  const auto& raised = v.raised_flags;
  if (raised.empty()) {
    t += std::string("<p>Raised now: ") +
         (!p.in_service ? "not counted (port out of service)" : v.monitors_visible ? "none" : "unknown (values withheld)") +
         "</p>";
  } else {
    t += "<p>Raised now, per lane:</p><table class=\"raised\"><tr><th>lane</th><th>flags</th></tr>";
    for (std::size_t i = 0; i < raised.size();) {
      const int lane = raised[i].lane;
      std::string names;
      for (; i < raised.size() && raised[i].lane == lane; ++i) names += "<b>" + html_escape(raised[i].flag) + "</b> ";
      t += "<tr><td>" + (lane > 0 ? "lane " + std::to_string(lane) : std::string("module")) + "</td><td>" + names +
           "</td></tr>";
    }
    t += "</table>";
  }
  if (p.flags.empty()) return t;
  t += "<table><tr><th>flag</th><th>lane</th><th>times raised</th><th>raised since</th><th>last seen</th>"
       "<th>last cleared</th></tr>";
  for (const auto& h : p.flags) {
    t += "<tr><td>" + html_escape(h.flag) + "</td><td class=\"num\">" +
         (h.lane > 0 ? std::to_string(h.lane) : "module") + "</td><td class=\"num\">" +
         std::to_string(h.raised_total) + "</td><td>" + (h.raised ? utc_time(h.since_unix) : "\u2014") + "</td><td>" +
         utc_time(h.last_seen_unix) + "</td><td>" + utc_time(h.last_cleared_unix) + "</td></tr>";
  }
  return t + "</table>";
}

std::string coding_table(const PortSnapshot& p) {
  std::string t = "<h2>Coding checks</h2>";
  if (p.coding.empty()) return t + "<p>No findings.</p>";
  t += "<table><tr><th>check</th><th>severity</th><th>finding</th></tr>";
  for (const auto& c : p.coding) {
    t += "<tr><td>" + html_escape(c.check) + "</td><td>" + html_escape(coding::check_status_name(c.severity)) + "</td><td>" +
         html_escape(c.message) + "</td></tr>";
  }
  return t + "</table>";
}

std::string counters_table(const daemon::Snapshot& s, const PortSnapshot& p, const PortView& v) {
  std::string t = "<h2>Counters and budget</h2><table>";
  t += row("insertions", std::to_string(p.insertions_total));
  for (const auto& [kind, n] : p.read_errors_total) t += row("read errors: " + kind, std::to_string(n));
  for (const auto& g : p.groups) {
    for (const auto& b : s.budgets) {
      if (b.group != g) continue;
      t += row("power group " + g, fixed(b.allocated_watts, 1) + " W allocated of " +
                                       fixed(b.budget_watts, 1) + " W budget, " +
                                       fixed(b.per_port_allowance_watts, 1) + " W per port");
    }
  }
  if (!p.groups.empty()) t += row("over per-port allowance", p.over_power_allowance ? "yes" : "no");
  for (const auto& a : p.aging) {
    if (!v.monitors_visible) break;
    t += row("lane " + std::to_string(a.lane) + " drift (bias, power)",
             (a.tx_bias_ratio ? fixed(*a.tx_bias_ratio, 3) : "\u2014") + ", " +
                 (a.tx_power_ratio ? fixed(*a.tx_power_ratio, 3) : "\u2014"));
  }
  return t + "</table>";
}

// The codeword histogram as bars on a log scale (no JavaScript): one bar per bin, each with its
// count as a tooltip, the tail's bin in red.
std::string histogram_svg(const drivers::LinkFecHistogram& h) {
  constexpr int kBar = 14, kHeight = 60;
  double top = 1;
  for (const auto& b : h.bins) top = std::max(top, std::log10(1.0 + static_cast<double>(b.value)));
  const int width = kBar * static_cast<int>(h.bins.size());
  std::string svg = "<svg class=\"fec\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(kHeight + 14) +
                    "\" role=\"img\" aria-label=\"FEC codeword histogram of " + html_escape(h.link) + "\">";
  for (std::size_t i = 0; i < h.bins.size(); ++i) {
    const auto& b = h.bins[i];
    const int height = static_cast<int>(std::lround(kHeight * std::log10(1.0 + static_cast<double>(b.value)) / top));
    const bool tail = h.tail && b.high == *h.tail;
    std::array<char, 16> name;
    svg += "<rect x=\"" + std::to_string(static_cast<int>(i) * kBar + 1) + "\" y=\"" + std::to_string(kHeight - height) +
           "\" width=\"" + std::to_string(kBar - 2) + "\" height=\"" + std::to_string(height) + "\" fill=\"" +
           (tail ? "#c0392b" : "#4a7fb5") + "\"><title>" + std::string(drivers::fec_bin_name(b, name)) + " symbols: " + std::to_string(b.value) + " codewords</title></rect>";
    svg += "<text x=\"" + std::to_string(static_cast<int>(i) * kBar + kBar / 2) + "\" y=\"" + std::to_string(kHeight + 12) +
           "\" font-size=\"9\" text-anchor=\"middle\">" + std::to_string(b.low) + "</text>";
  }
  return svg + "</svg>";
}

std::string duration_text(double seconds) {
  if (seconds < 10) return fixed(seconds, 3) + " s";
  if (seconds < 7200) return fixed(seconds / 60, 1) + " min";
  if (seconds < 4 * 86400) return fixed(seconds / 3600, 1) + " h";
  return fixed(seconds / 86400, 1) + " days";
}

// The link beside the optic: carrier and flaps, the FEC tail against its limit with the
// histogram, the error counters, and the forecast of when the BER reaches the FEC limit.
std::string link_table(const PortSnapshot& p) {
  if (!p.link && !p.fec_forecast) return "";
  std::string t = "<h2>Link</h2><table>";
  if (p.link) {
    for (const drivers::LinkCarrier& c : p.link->carrier) {
      std::string last;
      if (c.last_down_unix) last = ", last loss began " + utc_time(*c.last_down_unix);
      if (c.last_down_seconds) last += " and lasted " + duration_text(*c.last_down_seconds);
      t += row("carrier " + c.link, std::string(c.up ? "up" : "<b>down</b>") + html_escape(last));
    }
    for (const drivers::LinkCounter& c : p.link->counters) {
      std::string name = std::string(drivers::link_counter_name(c.id)) + " " + c.link;
      if (c.lane > 0) name += " lane " + std::to_string(c.lane);
      t += row(name, std::to_string(c.value) + (c.saturated ? " (saturated)" : ""));
    }
    for (const drivers::LinkFecHistogram& h : p.link->fec_histograms) {
      std::string tail = h.tail ? std::to_string(*h.tail) : std::string("\u2014");
      if (h.correction_limit) tail += " of " + std::to_string(*h.correction_limit) + " symbols the FEC corrects";
      t += row("FEC tail " + h.link + " (last interval)", html_escape(tail));
      t += row("FEC codewords by symbols corrected", histogram_svg(h));
    }
  }
  if (const auto& f = p.fec_forecast) {
    t += row("FEC limit forecast",
             f->seconds_to_limit ? "reached in about " + duration_text(*f->seconds_to_limit) + " at " +
                                       fixed(f->slope_decades_per_hour, 3) + " decades/h (" +
                                       fixed(f->margin_decades, 2) + " decades of margin)"
                                 : "no estimate: " + html_escape(std::string(f->why_not)));
  }
  return t + "</table>";
}

std::string header(const PortSnapshot& p, const PortView& v, const LandingOptions& o) {
  std::string out = "<p><a href=\"/\">\u2190 port map</a></p><h1>" + html_escape(p.port) + "</h1>";
  out += "<p>health: " + badge(v.health) + " \u2014 poller state " + html_escape(daemon::port_state_name(p.state)) +
         ", last good read " + utc_time(p.last_good_read_unix);
  if (!p.node.empty()) out += ", node " + html_escape(p.node);
  if (!p.cage.empty()) out += ", cage " + html_escape(p.cage);
  if (!p.unused_lanes.empty()) out += ", " + lanes_text(p.unused_lanes) + " out of service";
  out += " \u2014 <a href=\"/api/v1/modules/" + html_escape(url_path_escape(p.port)) + "\">JSON</a></p>";
  if (!v.reasons.empty()) out += "<h2>Why " + std::string(health_name(v.health)) + "</h2>" + reasons_list(v);
  out += refresh_note(o, "/port/" + url_path_escape(p.port));
  if (p.report && !v.monitors_visible) {
    out += "<p class=\"banner\">Stale: no good read since " + utc_time(p.last_good_read_unix) +
           "; monitor values are withheld.</p>";
  }
  return out;
}

}  // namespace

std::optional<std::string> port_page_html(const health::FleetView& views, std::string_view name,
                                          const LandingOptions& o) {
  const daemon::Snapshot& s = views.snapshot();
  const PortSnapshot* p = find_port(s, name);
  if (!p) return std::nullopt;
  const PortView& verdict = views.of(*p);
  std::string body = header(*p, verdict, o);
  if (p->presence == daemon::PortPresence::Absent) {
    body += "<p>Empty cage.</p>";
  } else if (!p->report) {
    body += "<p>No module data yet.</p>";
  } else {
    body += identity_table(*p->report);
    if (verdict.monitors_visible) body += monitors_table(*p, verdict) + lanes_table(*p) + vdm_table(*p->report);
    body += thresholds_table(*p->report);
  }
  body += link_table(*p) + recorder_section(*p) + flags_table(*p, verdict) + coding_table(*p) + counters_table(s, *p, verdict);
  return html_page(p->port + " \u2014 transceiver-exporter", body, o.refresh_seconds);
}

}  // namespace xcvr::exporters
