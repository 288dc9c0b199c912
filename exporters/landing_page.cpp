#include "exporters/landing_page.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "exporters/format.hpp"

namespace xcvr::exporters {
namespace {

constexpr std::string_view kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem;color:#1c1c1c;background:#fafafa}
h1{font-size:1.5rem;margin:0 0 .3rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
nav a{margin-right:1rem}table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid #ccd;padding:.2rem .55rem;text-align:left;font-size:.9rem}
th{background:#eef}td.num{text-align:right;font-variant-numeric:tabular-nums}
.legend span{display:inline-block;margin-right:1rem}.sw{display:inline-block;width:1em;height:1em;
vertical-align:middle;margin-right:.3em;border:1px solid #555}
.h-ok{background:#2e7d32}.h-hot{background:#ef6c00}.h-alarm{background:#c62828}
.h-miscoded{background:#6a1b9a}.h-stale{background:#757575}.h-empty{background:#eceff1}
.badge{color:#fff;padding:0 .4em;border-radius:3px;font-size:.85rem}.badge.h-empty{color:#333}
.banner{background:#fff3e0;border:1px solid #ef6c00;padding:.5rem;margin:.6rem 0}
svg text{font-family:system-ui,sans-serif}.muted{color:#666}
)css";

struct HealthStyle {
  Health health;
  const char* fill;
  const char* text;
  const char* meaning;
};

constexpr HealthStyle kHealthStyles[] = {
    {Health::Ok, "#2e7d32", "#fff", "ok"},
    {Health::Hot, "#ef6c00", "#fff", "hot: little headroom to the high-warning temperature"},
    {Health::Alarm, "#c62828", "#fff", "alarm: alarm flag, LOS, Tx fault or module fault"},
    {Health::Miscoded, "#6a1b9a", "#fff", "miscoded: a coding check failed"},
    {Health::Stale, "#757575", "#fff", "stale: no recent good read (values withheld)"},
    {Health::Empty, "#eceff1", "#333", "empty cage"},
};

const HealthStyle& style_of(Health h) {
  for (const auto& s : kHealthStyles) {
    if (s.health == h) return s;
  }
  return kHealthStyles[0];
}

std::string badge(Health h) {
  std::string name(health_name(h));
  return "<span class=\"badge h-" + name + "\">" + name + "</span>";
}

std::string port_link(std::string_view port) {
  return "<a href=\"/port/" + html_escape(url_path_escape(port)) + "\">" + html_escape(port) +
         "</a>";
}

// Trailing digits of a port name ("Ethernet120" -> "120"), for the caption inside a cage.
std::string short_name(std::string_view port) {
  std::size_t i = port.size();
  while (i > 0 && port[i - 1] >= '0' && port[i - 1] <= '9') --i;
  if (i < port.size()) return std::string(port.substr(i));
  const auto slash = port.rfind('/');
  std::string_view tail = slash == std::string_view::npos ? port : port.substr(slash + 1);
  return std::string(tail.substr(0, 4));
}

std::string legend() {
  std::string out = "<p class=\"legend\">";
  for (const auto& s : kHealthStyles) {
    const std::string name(health_name(s.health));
    out += "<span><span class=\"sw h-" + name + "\"></span><b>" +
           std::string(health_label(s.health)) + "</b> " + html_escape(s.meaning) + "</span>";
  }
  return out + "</p>";
}

using Device = std::vector<const daemon::PortSnapshot*>;

std::map<std::string, Device, std::less<>> devices_of(const daemon::Snapshot& s) {
  std::map<std::string, Device, std::less<>> out;
  for (const auto& p : s.ports) out[std::string(device_of(p.port))].push_back(&p);
  for (auto& [name, ports] : out) {
    std::stable_sort(ports.begin(), ports.end(),
                     [](const auto* a, const auto* b) { return natural_less(a->port, b->port); });
  }
  return out;
}

// A faceplate: cages in two-row blocks (odd ports on top as on most switches), at most 32
// columns per block. Each cage links to its detail page and carries a text label.
std::string port_map_svg(const Device& ports, const HealthOptions& opts) {
  constexpr int kW = 34, kH = 40, kGap = 5, kMaxCols = 32;
  const int n = static_cast<int>(ports.size());
  const int cols = std::max(1, std::min(kMaxCols, (n + 1) / 2));
  const int per_block = 2 * cols;
  const int rows = n <= 1 ? 1 : 2 * ((n + per_block - 1) / per_block);
  const int width = cols * (kW + kGap) + kGap, height = rows * (kH + kGap) + kGap;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" role=\"img\" aria-label=\"port map\">"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#263238\" rx=\"4\"/>";
  for (int i = 0; i < n; ++i) {
    const auto& p = *ports[static_cast<std::size_t>(i)];
    const Health h = classify(p, opts);
    const HealthStyle& st = style_of(h);
    const int block = i / per_block, in_block = i % per_block;
    const int x = kGap + (in_block / 2) * (kW + kGap);
    const int y = kGap + (block * 2 + (n <= 1 ? 0 : in_block % 2)) * (kH + kGap);
    svg << "<a href=\"/port/" << html_escape(url_path_escape(p.port)) << "\"><title>"
        << html_escape(p.port) << ": " << health_name(h) << "</title><rect x=\"" << x << "\" y=\""
        << y << "\" width=\"" << kW << "\" height=\"" << kH << "\" rx=\"3\" fill=\"" << st.fill
        << "\" stroke=\"#b0bec5\"/><text x=\"" << x + kW / 2 << "\" y=\"" << y + 15
        << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"" << st.text << "\">"
        << html_escape(short_name(p.port)) << "</text><text x=\"" << x + kW / 2 << "\" y=\""
        << y + 31 << "\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\""
        << st.text << "\">" << health_label(h) << "</text></a>";
  }
  svg << "</svg>";
  return svg.str();
}

std::string summary(const daemon::Snapshot& s, const HealthOptions& opts) {
  std::map<Health, int> counts;
  for (const auto& p : s.ports) ++counts[classify(p, opts)];
  std::string out = "<p>" + std::to_string(s.ports.size()) + " ports: ";
  bool first = true;
  for (const auto& st : kHealthStyles) {
    if (counts[st.health] == 0) continue;
    out += (first ? "" : ", ") + std::to_string(counts[st.health]) + " " +
           std::string(health_name(st.health));
    first = false;
  }
  return out + ". Snapshot taken " + utc_time(s.taken_unix) + ".</p>";
}

std::string ports_table(const Device& ports, const HealthOptions& opts) {
  std::string out =
      "<table><tr><th>port</th><th>health</th><th>vendor</th><th>part number</th>"
      "<th>temperature</th><th>headroom</th></tr>";
  for (const auto* p : ports) {
    const Health h = classify(*p, opts);
    const bool visible = monitors_visible(*p);
    std::string vendor, pn, temp = "\u2014", headroom = "\u2014";
    if (p->report) {
      vendor = p->report->id.vendor_name;
      pn = p->report->id.part_number;
      if (visible && p->report->temperature_celsius) temp = fixed(*p->report->temperature_celsius, 1) + " \u00b0C";
    }
    if (const auto hr = temperature_headroom(*p)) headroom = fixed(*hr, 1) + " \u00b0C";
    out += "<tr><td>" + port_link(p->port) + "</td><td>" + badge(h) + "</td><td>" +
           html_escape(vendor) + "</td><td>" + html_escape(pn) + "</td><td class=\"num\">" + temp +
           "</td><td class=\"num\">" + headroom + "</td></tr>";
  }
  return out + "</table>";
}

}  // namespace

std::string html_page(std::string_view title, std::string_view body_html) {
  std::string out = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>";
  out += html_escape(title);
  out += "</title><style>";
  out += kStyle;
  out += "</style></head><body>";
  out += body_html;
  out += "</body></html>\n";
  return out;
}

std::string landing_page_html(const daemon::Snapshot& s, const LandingOptions& o) {
  const std::string version = s.version.empty() ? o.version : s.version;
  std::string body = "<h1>transceiver-exporter</h1><p class=\"muted\">version " +
                     html_escape(version) +
                     " \u2014 pluggable optics (CMIS, SFF-8636, SFF-8472) for Prometheus</p><nav>"
                     "<a href=\"" + html_escape(o.metrics_path) + "\">metrics</a>"
                     "<a href=\"/api/v1/modules\">/api/v1/modules</a>"
                     "<a href=\"/healthz\">/healthz</a></nav>";
  body += "<h2>Port map</h2>" + summary(s, o.health) + legend();
  const auto devices = devices_of(s);
  for (const auto& [name, ports] : devices) {
    body += "<h2>" + html_escape(name.empty() ? std::string("host") : name) + "</h2>";
    body += port_map_svg(ports, o.health);
  }
  body += "<h2>All ports</h2>";
  for (const auto& [name, ports] : devices) {
    if (devices.size() > 1) body += "<h3>" + html_escape(name.empty() ? std::string("host") : name) + "</h3>";
    body += ports_table(ports, o.health);
  }
  return html_page("transceiver-exporter", body);
}

std::string not_found_html(std::string_view what) {
  return html_page("not found", "<h1>Not found</h1><p>" + html_escape(what) +
                                    "</p><p><a href=\"/\">back to the port map</a></p>");
}

}  // namespace xcvr::exporters
