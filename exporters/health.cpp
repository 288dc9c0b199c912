#include "exporters/health.hpp"

#include <algorithm>

namespace xcvr::exporters {

std::string_view health_name(Health h) {
  switch (h) {
    case Health::Ok: return "ok";
    case Health::Hot: return "hot";
    case Health::Alarm: return "alarm";
    case Health::Miscoded: return "miscoded";
    case Health::Stale: return "stale";
    case Health::Empty: return "empty";
  }
  return "unknown";
}

std::string_view health_label(Health h) {
  switch (h) {
    case Health::Ok: return "OK";
    case Health::Hot: return "HOT";
    case Health::Alarm: return "ALM";
    case Health::Miscoded: return "COD";
    case Health::Stale: return "STL";
    case Health::Empty: return "\u2014";
  }
  return "?";
}

bool monitors_visible(const daemon::PortSnapshot& port) {
  return port.presence == daemon::PortPresence::Present && !port.stale && port.report;
}

std::vector<RaisedFlag> raised_flags(const daemon::PortSnapshot& port) {
  std::vector<RaisedFlag> out;
  if (!monitors_visible(port)) return out;
  for (const auto& h : port.flags) {
    if (h.raised) out.push_back({h.lane, h.flag});
  }
  for (const auto& f : port.report->module_flags) out.push_back({0, f});
  for (const auto& lane : port.report->lanes) {
    for (const auto& f : lane.flags) out.push_back({lane.lane, f});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<double> temperature_headroom(const daemon::PortSnapshot& port) {
  if (!monitors_visible(port)) return std::nullopt;
  if (port.temperature_headroom_celsius) return port.temperature_headroom_celsius;
  const auto& r = *port.report;
  const auto t = r.thresholds.find("temperature_celsius");
  if (!r.temperature_celsius || t == r.thresholds.end() || !t->second.high_warning) {
    return std::nullopt;
  }
  return *t->second.high_warning - *r.temperature_celsius;
}

bool is_alarm_flag(std::string_view flag) {
  const bool alarm_level = flag.size() > 6 && flag.substr(flag.size() - 6) == "_alarm";
  return alarm_level || flag == "rx_los" || flag == "tx_los" || flag == "tx_fault" ||
         flag == "module_firmware_error" || flag == "datapath_firmware_error";
}

namespace {

bool module_fault(const cmis::ModuleReport& r) {
  return r.module_state && r.module_state->name == "ModuleFault";
}

bool has_failed_coding(const daemon::PortSnapshot& port) {
  return std::any_of(port.coding.begin(), port.coding.end(),
                     [](const auto& c) { return c.severity == "fail"; });
}

}  // namespace

// Most urgent first: no data beats everything, then alarms, heat, and miscoding.
Health classify(const daemon::PortSnapshot& port, const HealthOptions& options) {
  if (port.presence == daemon::PortPresence::Absent) return Health::Empty;
  if (!monitors_visible(port)) return Health::Stale;
  const auto flags = raised_flags(port);
  const bool alarm = module_fault(*port.report) ||
                     std::any_of(flags.begin(), flags.end(),
                                 [](const auto& f) { return is_alarm_flag(f.flag); });
  if (alarm) return Health::Alarm;
  const auto headroom = temperature_headroom(port);
  const bool warm = std::any_of(flags.begin(), flags.end(), [](const auto& f) {
    return f.flag == "temperature_high_warning";
  });
  if (warm || (headroom && *headroom < options.hot_headroom_celsius)) return Health::Hot;
  if (has_failed_coding(port)) return Health::Miscoded;
  return Health::Ok;
}

}  // namespace xcvr::exporters
