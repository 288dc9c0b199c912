// Small text helpers shared by the renderers: escaping, number and unit formatting, names.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xcvr::exporters {

// Valid UTF-8 without control characters: each offending byte becomes '?'. Module strings
// are arbitrary bytes.
std::string valid_utf8(std::string_view text);

// Escapes & < > " ' for HTML text and attribute values (after valid_utf8()).
std::string html_escape(std::string_view text);

// Percent-encodes everything but unreserved characters and '/', for links to /port/<name>.
std::string url_path_escape(std::string_view text);

// Fixed-point with `decimals` digits; "—" for a non-finite value.
std::string fixed(double value, int decimals);

// Optical power for people: dBm (nullopt for no light, i.e. <= 0 W; never -Inf).
std::optional<double> watts_to_dbm(double watts);

// RFC 3339 UTC ("2026-11-30T03:17:00Z"); "never" for 0.
std::string utc_time(double unix_seconds);

// Natural order for port names: "Ethernet2" < "Ethernet10".
bool natural_less(std::string_view a, std::string_view b);

// CMIS state names as label values: "ModuleLowPwr" -> "low_power", "DPActivated" ->
// "activated"; anything unknown becomes lower snake case.
std::string module_state_label(std::string_view cmis_name);
std::string data_path_state_label(std::string_view cmis_name);

// The device part of a port name ("spine1/Ethernet0" -> "spine1"), "" without a '/'.
std::string_view device_of(std::string_view port);

}  // namespace xcvr::exporters
