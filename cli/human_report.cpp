#include "cli/human_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "cmis/quantities.hpp"

namespace xcvr::cli {
namespace {

using cmis::ModuleReport;

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string coded(const cmis::Coded& c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%02x", c.code);
  return std::string(buf) + " (" + std::string(c.name) + ")";
}

std::string temperature(double c) {
  return fmt("%.2f degrees C", c) + " / " + fmt("%.2f degrees F", c * 9 / 5 + 32);
}

// A value in its unit as `ethtool -m` writes it.
std::string ethtool_text(std::string_view unit, double v) {
  if (unit == "celsius") return temperature(v);
  if (unit == "volts") return fmt("%.4f V", v);
  if (unit == "amperes") return fmt("%.3f mA", v * 1e3);
  if (unit == "watts") return format_power(v);
  if (unit == "ratio") return fmt("%.2f %%", v * 100);
  return fmt("%g", v);
}

class Writer {
 public:
  void line(const std::string& label, const std::string& value) {
    out_ << '\t' << label;
    for (std::size_t i = label.size(); i < 42; ++i) out_ << ' ';
    out_ << ": " << value << '\n';
  }
  template <typename T, typename Fmt>
  void opt(const std::string& label, const std::optional<T>& v, Fmt&& render) {
    if (v) line(label, render(*v));
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

const char* kThresholdLevels[][2] = {{"high alarm", "high_alarm"}, {"low alarm", "low_alarm"},
                                     {"high warning", "high_warning"}, {"low warning", "low_warning"}};

std::optional<double> level(const cmis::Thresholds& t, const std::string& key) {
  if (key == "high_alarm") return t.high_alarm;
  if (key == "low_alarm") return t.low_alarm;
  if (key == "high_warning") return t.high_warning;
  return t.low_warning;
}

void thresholds(Writer& w, const ModuleReport& r) {
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    const auto it = r.thresholds.find(q.key);
    if (it == r.thresholds.end()) continue;
    for (const auto& lv : kThresholdLevels) {
      if (auto v = level(it->second, lv[1])) {
        w.line(std::string(q.ethtool_label) + " " + lv[0] + " threshold", ethtool_text(q.unit, *v));
      }
    }
  }
}

}  // namespace

std::string format_power(double watts) {
  const double mw = watts * 1e3;
  const std::string dbm = mw > 0 ? fmt("%.2f dBm", 10 * std::log10(mw)) : "-inf dBm";
  return fmt("%.4f mW", mw) + " / " + dbm;
}

std::string render_human(const ModuleReport& r) {
  Writer w;
  w.line("Identifier", coded(r.id.identifier));
  // SFF revision names carry the spec's name already ("SFF-8636 rev 2.5-2.7"); CMIS's is a number.
  const std::string_view spec = cmis::spec_name(r.spec);
  w.line("Management interface", r.spec_revision.starts_with(spec) ? r.spec_revision : std::string(spec) + " " + r.spec_revision);
  w.opt("Module State", r.module_state, coded);
  w.opt("Module Fault Cause", r.module_fault_cause, coded);
  w.line("Memory model", r.flat_memory ? "flat" : "paged");
  w.opt("Media type", r.media_type, coded);
  w.opt("Connector", r.connector, coded);
  w.opt("Media interface technology", r.media_interface_technology, coded);
  w.opt("Extended compliance", r.extended_compliance, coded);
  for (const cmis::Application& a : r.applications) {
    char lanes[64];
    std::snprintf(lanes, sizeof lanes, " (host lanes %d, media lanes %d, host lane mask 0x%02x)",
                  a.host_lane_count, a.media_lane_count, a.host_lane_assignment);
    w.line("Application " + std::to_string(a.index),
           std::string(a.host_interface.name) + " -> " + std::string(a.media_interface.name) + lanes);
  }
  w.opt("Cable assembly length", r.cable_length_meters, [](double m) { return fmt("%.1f m", m); });
  for (const auto& [fiber, m] : r.lengths_meters) w.line("Length (" + fiber + ")", fmt("%.0f m", m));
  w.opt("Laser wavelength", r.wavelength_meters, [](double m) { return fmt("%.2f nm", m * 1e9); });
  w.line("Vendor name", r.id.vendor_name);
  w.line("Vendor OUI", r.id.vendor_oui);
  w.line("Vendor PN", r.id.part_number);
  w.line("Vendor rev", r.id.revision);
  w.line("Vendor SN", r.id.serial);
  w.line("Date code", r.id.date_code);
  w.opt("CLEI code", r.id.clei, [](const std::string& s) { return s; });
  w.opt("Active firmware version", r.id.firmware, [](const std::string& s) { return s; });
  w.opt("Inactive firmware version", r.id.inactive_firmware, [](const std::string& s) { return s; });
  w.opt("Hardware revision", r.id.hardware_revision, [](const std::string& s) { return s; });
  w.opt("Power class", r.power_class, [](int c) { return std::to_string(c); });
  w.opt("Max power", r.max_power_watts, [](double p) { return fmt("%.2f W", p); });
  w.opt("Low power mode", r.low_power, [](bool on) { return std::string(on ? "on" : "off"); });
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    if (!q.per_lane()) w.opt(std::string(q.ethtool_label), r.*q.module_value, [&](double v) { return ethtool_text(q.unit, v); });
  }
  w.opt("Tx bias multiplier", r.tx_bias_multiplier, [](int m) { return "x" + std::to_string(m); });
  const std::string rx_kind = r.rx_power_type.value_or("average") == "oma" ? "OMA" : "avg";
  for (const cmis::LaneReport& l : r.lanes) {
    const std::string ch = " (Channel " + std::to_string(l.lane) + ")";
    w.opt("Data path state" + ch, l.data_path_state, [](std::string_view s) { return std::string(s); });
    w.opt("Laser tx bias current" + ch, l.tx_bias_amperes, [](double a) { return fmt("%.3f mA", a * 1e3); });
    w.opt("Transmit avg optical power" + ch, l.tx_power_watts, format_power);
    w.opt("Rcvr signal " + rx_kind + " optical power" + ch, l.rx_power_watts, format_power);
    for (const std::string& flag : l.flags) w.line("Flag" + ch, flag);
  }
  for (const std::string& flag : r.module_flags) w.line("Module flag", flag);
  thresholds(w, r);
  for (const cmis::VdmObservable& o : r.vdm) {
    std::string text = fmt("%g ", o.value).append(o.unit());
    if (o.statistic()) text += " (statistic, not frozen)";
    if (o.thresholds) {
      const cmis::Thresholds& t = *o.thresholds;
      text += " [warning " + fmt("%g", t.low_warning.value_or(0)) + ".." + fmt("%g", t.high_warning.value_or(0)) +
              ", alarm " + fmt("%g", t.low_alarm.value_or(0)) + ".." + fmt("%g", t.high_alarm.value_or(0)) + "]";
    }
    for (const std::string_view flag : o.flags) text += " " + std::string(flag);
    w.line("VDM " + std::string(o.name()) + " (lane " + std::to_string(o.lane) + ")", text);
  }
  for (const cmis::Checksum& c : r.checksums) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%02x stored, 0x%02x computed (%s)", c.stored, c.computed,
                  c.ok() ? "ok" : "MISMATCH");
    w.line("Checksum " + c.page + " [" + c.range + "]", buf);
  }
  for (const std::string& p : r.missing_pages) w.line("Page not read", p);
  for (const std::string& p : r.problems) w.line("Problem", p);
  return w.str();
}

}  // namespace xcvr::cli
