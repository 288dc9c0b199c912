// Numbers and units as people read them: in the verdict's reasons (health/) and in every
// renderer (exporters/format.hpp brings them in), so a value reads the same everywhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xcvr::health {

// Fixed-point with `decimals` digits; "—" for a non-finite value.
std::string fixed(double value, int decimals);
// Three significant digits, exponent where it needs one: "2.35e-07", "19.1", "0.5".
std::string significant(double value);

// Optical power for people: dBm (nullopt for no light, i.e. <= 0 W; never -Inf).
std::optional<double> watts_to_dbm(double watts);

// A monitor value for people, by its SI unit ("watts", "amperes", "volts", "celsius"):
// "-7.10 dBm" ("no light" for 0 W), "40.300 mA", "3.300 V", "68.00 °C".
std::string monitor_text(std::string_view unit, double value);

// RFC 3339 UTC ("2026-11-30T03:17:00Z"); "never" for 0.
std::string utc_time(double unix_seconds);

}  // namespace xcvr::health
