#include "health/text.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace xcvr::health {

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "\u2014";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string significant(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}

std::optional<double> watts_to_dbm(double watts) {
  if (!std::isfinite(watts) || watts <= 0) return std::nullopt;
  return 10.0 * std::log10(watts * 1000.0);
}

std::string monitor_text(std::string_view unit, double value) {
  if (unit == "watts") {
    const auto dbm = watts_to_dbm(value);
    return dbm ? fixed(*dbm, 2) + " dBm" : std::string("no light");
  }
  if (unit == "amperes") return fixed(value * 1e3, 3) + " mA";
  if (unit == "volts") return fixed(value, 3) + " V";
  if (unit == "celsius") return fixed(value, 2) + " \u00b0C";
  if (unit == "decibels") return fixed(value, 2) + " dB";
  if (unit == "ratio") return significant(value);
  return fixed(value, 4);
}

std::string utc_time(double unix_seconds) {
  if (!(unix_seconds > 0) || !std::isfinite(unix_seconds)) return "never";
  const auto t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace xcvr::health
