#include "exporters/recorder_svg.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cmath>
#include <optional>
#include <vector>

#include "daemon/recorder_units.hpp"
#include "exporters/format.hpp"

namespace xcvr::exporters {
namespace {

using daemon::RecorderEvent;
using daemon::RecorderLane;
using daemon::RecorderSample;
using Series = std::vector<std::optional<double>>;

constexpr int kWidth = 520, kHeight = 92, kLeft = 56, kRight = 8, kTop = 18, kBottom = 16;
// Lanes 1-16 in colours told apart on a white page.
constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
                                    "#8c6d31", "#843c39", "#7b4173", "#3182bd"};

std::string num(double v) { return fixed(v, 1); }

struct Plot {
  std::string title, unit;
  std::vector<std::pair<std::string, Series>> lines;  // label, one value per sample
  bool log = false;
};

// One plot: a polyline per series over the event's time axis, the trigger as a red rule.
std::string plot_svg(const Plot& p, const std::vector<double>& t, double trigger_t) {
  double lo = INFINITY, hi = -INFINITY;
  const auto y_of = [&](double v) { return p.log ? std::log10(v) : v; };
  for (const auto& [label, s] : p.lines) {
    for (const auto& v : s) {
      if (!v || (p.log && *v <= 0)) continue;
      lo = std::min(lo, y_of(*v));
      hi = std::max(hi, y_of(*v));
    }
  }
  // The title, then each series' label in its colour (the legend).
  std::string svg = "<svg class=\"rec\" width=\"" + std::to_string(kWidth) + "\" height=\"" + std::to_string(kHeight) +
                    "\" role=\"img\" aria-label=\"" + html_escape(p.title) + "\"><text x=\"2\" y=\"12\" font-size=\"10\">" +
                    "<tspan font-weight=\"bold\">" + html_escape(p.title) + "</tspan>";
  for (std::size_t k = 0; k < p.lines.size() && p.lines.size() > 1; ++k) {
    svg += "<tspan fill=\"" + std::string(kColours[k % std::size(kColours)]) + "\"> " + html_escape(p.lines[k].first) + "</tspan>";
  }
  svg += "</text>";
  if (!std::isfinite(lo)) return svg + "<text x=\"" + std::to_string(kLeft) + "\" y=\"44\" font-size=\"10\">no values</text></svg>";
  if (hi - lo < 1e-9) lo -= 0.5, hi += 0.5;
  const double t0 = t.front(), t1 = std::max(t.back(), t0 + 1e-3);
  const auto x = [&](double v) { return kLeft + (v - t0) / (t1 - t0) * (kWidth - kLeft - kRight); };
  const auto y = [&](double v) { return kTop + (hi - y_of(v)) / (hi - lo) * (kHeight - kTop - kBottom); };
  const auto axis = [&](double v) { return significant(p.log ? std::pow(10.0, v) : v); };
  svg += "<text x=\"2\" y=\"" + std::to_string(kTop + 8) + "\" font-size=\"9\">" + axis(hi) + "</text><text x=\"2\" y=\"" +
         std::to_string(kHeight - kBottom) + "\" font-size=\"9\">" + axis(lo) + "</text><text x=\"2\" y=\"" +
         std::to_string(kTop + 24) + "\" font-size=\"9\">" + html_escape(p.unit) + "</text>";
  svg += "<line x1=\"" + num(x(trigger_t)) + "\" x2=\"" + num(x(trigger_t)) + "\" y1=\"" + std::to_string(kTop) + "\" y2=\"" +
         std::to_string(kHeight - kBottom) + "\" stroke=\"#c0392b\" stroke-dasharray=\"3,2\"/>";
  svg += "<text x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kHeight - 3) + "\" font-size=\"9\">" +
         num(t0 - trigger_t) + " s</text><text x=\"" + std::to_string(kWidth - kRight) + "\" y=\"" +
         std::to_string(kHeight - 3) + "\" font-size=\"9\" text-anchor=\"end\">+" + num(t1 - trigger_t) + " s</text>";
  for (std::size_t k = 0; k < p.lines.size(); ++k) {
    const auto& [label, s] = p.lines[k];
    std::string points, dots;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!s[i] || (p.log && *s[i] <= 0)) continue;
      points += num(x(t[i])) + "," + num(y(*s[i])) + " ";
      dots += "<circle cx=\"" + num(x(t[i])) + "\" cy=\"" + num(y(*s[i])) + "\" r=\"1.6\" fill=\"" +
              kColours[k % std::size(kColours)] + "\"><title>" + html_escape(p.title + (p.lines.size() > 1 ? " " + label : std::string())) + ", " + num(t[i] - trigger_t) +
              " s: " + html_escape(significant(*s[i])) + " " + html_escape(p.unit) + "</title></circle>";
    }
    svg += "<polyline fill=\"none\" stroke-width=\"1.2\" stroke=\"" + std::string(kColours[k % std::size(kColours)]) +
           "\" points=\"" + points + "\"/>" + dots;
  }
  return svg + "</svg>";
}

namespace units = daemon::recorder_units;

// A lane's values in SI units times `scale`, or (dbm) optical power in dBm, nothing for no light.
Series lane_series(const RecorderEvent& e, int lane, uint16_t RecorderLane::*field, double per, double scale, bool dbm) {
  Series s;
  for (std::size_t i = 0; i < e.samples.size(); ++i) {
    const std::optional<double> v = units::si(e.lane(i, lane).*field, per);
    if (!v) s.emplace_back();
    else s.push_back(dbm ? watts_to_dbm(*v) : std::optional<double>(*v * scale));
  }
  return s;
}

template <typename F>
Series sample_series(const RecorderEvent& e, F&& value) {
  Series s;
  for (const RecorderSample& x : e.samples) s.push_back(value(x));
  return s;
}

std::string event_html(const RecorderEvent& e) {
  std::vector<double> t;
  for (const RecorderSample& s : e.samples) t.push_back(s.unix());
  const double trigger_t = t[std::min(e.trigger_sample, t.size() - 1)];
  std::string out = "<h3>" + html_escape(utc_time(e.unix())) + "</h3><ul>";
  for (const auto& trig : e.triggers) {
    out += "<li>" + html_escape(trig.kind) + ": " + html_escape(trig.detail) + " (" + num(trig.unix - trigger_t) + " s)</li>";
  }
  if (e.more_triggers > 0) out += "<li>" + std::to_string(e.more_triggers) + " more</li>";
  out += "</ul><p>" + std::to_string(e.samples.size()) + " samples, " + num(trigger_t - t.front()) +
         " s before the trigger and " + num(t.back() - trigger_t) + " s after; serial " + html_escape(e.serial) + "</p>";
  Plot rx{"rx power by lane", "dBm", {}}, bias{"tx bias by lane", "mA", {}};
  for (int lane = 1; lane <= e.lanes; ++lane) {
    rx.lines.emplace_back(std::to_string(lane), lane_series(e, lane, &RecorderLane::rx_power, units::kPerWatt, 1, true));
    bias.lines.emplace_back(std::to_string(lane), lane_series(e, lane, &RecorderLane::tx_bias, units::kPerAmpere, 1e3, false));
  }
  const auto finite = [](float v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; };
  Plot ber{"worst media pre-FEC BER", "ratio", {{"pre-FEC BER", sample_series(e, [&](const RecorderSample& s) { return finite(s.pre_fec_ber); })}}, true};
  Plot fec{"FEC codewords", "per second",
           {{"corrected", sample_series(e, [&](const RecorderSample& s) { return finite(s.fec_corrected_per_s); })},
            {"uncorrectable", sample_series(e, [&](const RecorderSample& s) { return finite(s.fec_uncorrectable_per_s); })}}};
  Plot tail{"FEC tail", "symbols", {{"tail", sample_series(e, [](const RecorderSample& s) {
               return s.fec_tail == RecorderSample::kNone8 ? std::nullopt : std::optional<double>(s.fec_tail);
             })}}};
  Plot state{"carrier up / lanes in alarm", "",
             {{"carrier up", sample_series(e, [](const RecorderSample& s) {
                 return s.carrier == RecorderSample::kNone8 ? std::nullopt : std::optional<double>(s.carrier);
               })},
              {"lanes in alarm", sample_series(e, [](const RecorderSample& s) {
                 return std::optional<double>(std::popcount(s.alarm_lanes));
               })}}};
  for (const Plot* p : {&rx, &bias, &ber, &fec, &tail, &state}) {
    if (!p->lines.empty()) out += plot_svg(*p, t, trigger_t) + "<br>";
  }
  return out;
}

}  // namespace

std::string recorder_section(const daemon::PortSnapshot& port) {
  if (!port.events || port.events->empty()) return "";
  std::string out = "<h2 id=\"recorder\">Flight recorder</h2><p>The samples around each event this port recorded, newest first "
                    "(the dashed line is the trigger); <a href=\"/api/v1/events/" +
                    html_escape(url_path_escape(port.port)) + "\">JSON</a>.</p>";
  for (auto it = port.events->rbegin(); it != port.events->rend(); ++it) out += event_html(**it);
  return out;
}

}  // namespace xcvr::exporters
