#include "exporters/landing_page.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "exporters/format.hpp"

namespace xcvr::exporters {

using health::Health;
using health::kAllHealth;
using health::health_name;
using health::health_label;
using health::is_problem;
using health::PortView;
namespace {

constexpr std::string_view kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem;color:#1c1c1c;background:#fafafa}
h1{font-size:1.5rem;margin:0 0 .3rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
nav a{margin-right:1rem}table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid #ccd;padding:.2rem .55rem;text-align:left;font-size:.9rem;vertical-align:top}
th{background:#eef}td.num{text-align:right;font-variant-numeric:tabular-nums}
ul.reasons{margin:0;padding-left:1.1rem}td a{white-space:nowrap}
.legend span{display:inline-block;margin:0 1rem .2rem 0}.sw{display:inline-block;width:1em;height:1em;
vertical-align:middle;margin-right:.3em;border:1px solid #555}
.h-ok{background:#2e7d32;color:#fff}.h-warning{background:#f9a825;color:#000}
.h-alarm{background:#c62828;color:#fff}.h-down{background:#000;color:#ff8a80;border-color:#ff5252!important}
.h-hot{background:#ef6c00;color:#fff}.h-miscoded{background:#6a1b9a;color:#fff}
.h-misconfigured{background:#fff;color:#6a1b9a;border-color:#6a1b9a!important}
.h-stale{background:#757575;color:#fff}.h-empty{background:#eceff1;color:#333}
.h-unused{background:#37474f;color:#b0bec5;border-style:dashed!important}
.badge{padding:0 .4em;border-radius:3px;font-size:.85rem;border:1px solid transparent;white-space:nowrap}
.banner{background:#fff3e0;border:1px solid #ef6c00;padding:.5rem;margin:.6rem 0}
.faceplate{display:inline-block;background:#263238;padding:5px;border-radius:4px}
.block{display:grid;grid-auto-flow:column;grid-template-rows:repeat(2,auto);gap:5px;justify-content:start}
.block+.block{margin-top:12px}
.cage{display:flex;flex-direction:column;align-items:center;justify-content:center;min-width:46px;
height:50px;padding:0 3px;box-sizing:border-box;border:2px solid #b0bec5;border-radius:3px;font-size:10px;
line-height:1.3;text-decoration:none;white-space:nowrap}
.cage b{font-size:11px}.muted{color:#666}
)css";

constexpr int kMaxColumns = 16;  // cages per row of a faceplate block (two rows per block)

std::string_view meaning(Health h) {
  switch (h) {
    case Health::Down: return "module present but not usable: low power, fault, not ready, data path off or no light";
    case Health::Alarm: return "alarm flag or alarm threshold crossed, LOS, Tx fault, CDR loss of lock";
    case Health::Stale: return "no recent good read (values withheld)";
    case Health::Hot: return "temperature high warning, or little headroom to it";
    case Health::Warning: return "warning flag or warning threshold crossed (e.g. rx power low)";
    case Health::Miscoded: return "a coding check failed";
    case Health::Misconfigured: return "the config names what this host lacks";
    case Health::Ok: return "ok";
    case Health::Empty: return "empty cage";
    case Health::Unused: return "configured out of service";
  }
  return "";
}

std::string port_link(std::string_view port) {
  return "<a href=\"/port/" + html_escape(url_path_escape(port)) + "\">" + html_escape(port) +
         "</a>";
}

std::string legend() {
  std::string out = "<p class=\"legend\">";
  for (Health h : kAllHealth) {
    out += "<span><span class=\"sw h-" + std::string(health_name(h)) + "\"></span><b>" +
           std::string(health_label(h)) + "</b> " + html_escape(meaning(h)) + "</span>";
  }
  return out + "</p>";
}

struct Row {
  const daemon::PortSnapshot* port;
  const PortView* verdict;
};
using Device = std::vector<Row>;

std::map<std::string, Device, std::less<>> devices_of(const health::FleetView& views) {
  std::map<std::string, Device, std::less<>> out;
  for (const auto& p : views.snapshot().ports) out[std::string(device_of(p.port))].push_back({&p, &views.of(p)});
  for (auto& [name, rows] : out) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return natural_less(a.port->port, b.port->port); });
  }
  return out;
}

std::string device_title(std::string_view name) {
  return html_escape(name.empty() ? std::string_view("host") : name);
}

// The tooltip of a cage: port, state, then one reason per line.
std::string cage_title(const Row& r) {
  std::string t = html_escape(r.port->port) + ": " + std::string(health_name(r.verdict->health));
  for (const auto& reason : r.verdict->reasons) t += "&#10;" + html_escape(reason.text);
  return t;
}

// A faceplate: cages in two-row blocks (odd ports on top, as on most switches), at most
// kMaxColumns columns per block. Each cage links to its port page and says in text what it is:
// its caption, its state and the short label of its most urgent reason.
std::string port_map(const Device& rows) {
  std::vector<std::string_view> names;
  for (const auto& r : rows) names.push_back(r.port->port);
  const auto captions = cage_labels(names);
  std::string out = "<div class=\"faceplate\" role=\"list\" aria-label=\"port map\">";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i % (2 * kMaxColumns) == 0) out += (i ? "</div>" : "") + std::string("<div class=\"block\">");
    const Row& r = rows[i];
    const std::string state(health_name(r.verdict->health));
    const std::string_view label = health_label(r.verdict->health);
    const bool detailed = is_problem(r.verdict->health) && r.verdict->reasons.front().label != label;
    const std::string detail = detailed ? html_escape(r.verdict->reasons.front().label) : "\u00a0";
    out += "<a class=\"cage h-" + state + "\" role=\"listitem\" href=\"/port/" +
           html_escape(url_path_escape(r.port->port)) + "\" title=\"" + cage_title(r) + "\"><b>" +
           html_escape(captions[i]) + "</b><span>" + std::string(label) +
           "</span><span>" + detail + "</span></a>";
  }
  return out + (rows.empty() ? "" : "</div>") + "</div>";
}

std::string summary(const daemon::Snapshot& s, const std::map<std::string, Device, std::less<>>& devices) {
  std::map<Health, int> counts;
  for (const auto& [name, rows] : devices) {
    for (const auto& r : rows) ++counts[r.verdict->health];
  }
  std::string out = "<p>" + std::to_string(s.ports.size()) + " ports: ";
  bool first = true;
  for (Health h : kAllHealth) {
    if (counts[h] == 0) continue;
    out += (first ? "" : ", ") + std::to_string(counts[h]) + " " + std::string(health_name(h));
    first = false;
  }
  out += ". Snapshot taken " + utc_time(s.taken_unix) + ".</p>";
  if (s.ports.empty()) {  // a host where nothing was configured or found: say what was looked at
    if (s.source_notes.empty()) {
      out += "<p>No port to watch. The config names no source.</p>";
    } else {
      out += "<p>No port to watch. </p><ul class=\"notes\">";
      for (const std::string& n : s.source_notes) out += "<li>" + html_escape(n) + "</li>";
      out += "</ul>";
    }
    out += "<p>Add sources for this platform to the config file (switch cages: <code>i2c</code>, "
           "<code>optoe</code>; InfiniBand: <code>ib</code>; NICs: <code>netlink</code>), check it with "
           "<code>transceiver_exporter --check-config</code> and reload; every key is in "
           "<code>/usr/share/doc/transceiver-exporter/configuration.md</code>.</p>";
  }
  return out;
}

// Every port with a problem, worst first (then in port order), with all its reasons.
std::string problems(const std::map<std::string, Device, std::less<>>& devices) {
  std::vector<const Row*> rows;
  for (const auto& [name, device] : devices) {
    for (const auto& r : device) {
      if (is_problem(r.verdict->health)) rows.push_back(&r);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row* a, const Row* b) {
    if (a->verdict->health != b->verdict->health) return a->verdict->health < b->verdict->health;
    return natural_less(a->port->port, b->port->port);
  });
  std::string out = "<h2 id=\"problems\">Problems</h2>";
  if (rows.empty()) return out + "<p>None: every module in service is ok.</p>";
  out += "<table class=\"problems\"><tr><th>health</th><th>port</th><th>reasons</th></tr>";
  for (const Row* r : rows) {
    out += "<tr><td>" + badge(r->verdict->health) + "</td><td>" + port_link(r->port->port) + "</td><td>" +
           reasons_list(*r->verdict) + "</td></tr>";
  }
  return out + "</table>";
}

std::string ports_table(const Device& rows) {
  std::string out =
      "<table><tr><th>port</th><th>health</th><th>reason</th><th>vendor</th><th>part number</th>"
      "<th>temperature</th><th>headroom</th><th>worst rx margin</th></tr>";
  for (const auto& r : rows) {
    const auto* p = r.port;
    std::string vendor, pn, temp = "\u2014", headroom = "\u2014", margin = "\u2014";
    if (p->report) {
      vendor = p->report->id.vendor_name;
      pn = p->report->id.part_number;
      if (r.verdict->monitors_visible && p->report->temperature_celsius) {
        temp = monitor_text("celsius", *p->report->temperature_celsius);
      }
    }
    if (const auto& hr = r.verdict->temperature_headroom_celsius) headroom = monitor_text("celsius", *hr);
    if (const auto& m = r.verdict->worst_rx_margin) {
      margin = fixed(m->margin_db, 2) + " dB (lane " + std::to_string(m->lane) + ")";
    }
    std::string reason = r.verdict->reasons.empty() ? "" : html_escape(r.verdict->reasons.front().text);
    if (r.verdict->reasons.size() > 1) {
      reason += " <span class=\"muted\">(+" + std::to_string(r.verdict->reasons.size() - 1) + " more)</span>";
    }
    out += "<tr><td>" + port_link(p->port) + "</td><td>" + badge(r.verdict->health) + "</td><td>" + reason +
           "</td><td>" + html_escape(vendor) + "</td><td>" + html_escape(pn) + "</td><td class=\"num\">" +
           temp + "</td><td class=\"num\">" + headroom + "</td><td class=\"num\">" + margin + "</td></tr>";
  }
  return out + "</table>";
}

}  // namespace

std::string badge(Health h) {
  const std::string name(health_name(h));
  return "<span class=\"badge h-" + name + "\">" + name + "</span>";
}

std::string reasons_list(const PortView& v) {
  std::string out = "<ul class=\"reasons\">";
  for (const auto& r : v.reasons) out += "<li>" + html_escape(r.text) + "</li>";
  return out + "</ul>";
}

std::string html_page(std::string_view title, std::string_view body_html, int refresh_seconds) {
  std::string out = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">";
  if (refresh_seconds > 0) {
    out += "<meta http-equiv=\"refresh\" content=\"" + std::to_string(refresh_seconds) + "\">";
  }
  out += "<title>" + html_escape(title) + "</title><style>";
  out += kStyle;
  out += "</style></head><body>";
  out += body_html;
  out += "</body></html>\n";
  return out;
}

std::string refresh_note(const LandingOptions& o, std::string_view self_href) {
  std::string out = "<p class=\"muted\">";
  if (o.refresh_seconds > 0) out += "This page reloads every " + std::to_string(o.refresh_seconds) + " s. ";
  return out + "<a href=\"" + html_escape(self_href) + "\">Refresh now</a>.</p>";
}

std::string landing_page_html(const health::FleetView& views, const LandingOptions& o) {
  const daemon::Snapshot& s = views.snapshot();
  const std::string version = s.version.empty() ? o.version : s.version;
  const auto devices = devices_of(views);
  std::string body = "<h1>transceiver-exporter</h1><p class=\"muted\">version " +
                     html_escape(version) +
                     " \u2014 pluggable optics (CMIS, SFF-8636, SFF-8472) for Prometheus</p><nav>"
                     "<a href=\"" + html_escape(o.metrics_path) + "\">metrics</a>"
                     "<a href=\"/api/v1/modules\">/api/v1/modules</a>"
                     "<a href=\"/api/v1/events\">/api/v1/events</a>"
                     "<a href=\"/healthz\">/healthz</a></nav>";
  body += summary(s, devices) + refresh_note(o, "/");
  body += problems(devices);
  body += "<h2>Port map</h2>" + legend();
  for (const auto& [name, rows] : devices) {
    body += "<h2>" + device_title(name) + "</h2>" + port_map(rows);
  }
  body += "<h2>All ports</h2>";
  for (const auto& [name, rows] : devices) {
    if (devices.size() > 1) body += "<h3>" + device_title(name) + "</h3>";
    body += ports_table(rows);
  }
  return html_page("transceiver-exporter", body, o.refresh_seconds);
}

std::string not_found_html(std::string_view what) {
  return html_page("not found", "<h1>Not found</h1><p>" + html_escape(what) +
                                    "</p><p><a href=\"/\">back to the port map</a></p>");
}

}  // namespace xcvr::exporters
