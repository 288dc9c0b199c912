// Small text helpers shared by the renderers: escaping, number and unit formatting, names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "health/text.hpp"

namespace xcvr::exporters {

// Values as people read them: the health model's text helpers (health/text.hpp).
using health::fixed;
using health::monitor_text;
using health::significant;
using health::utc_time;
using health::watts_to_dbm;

// Valid UTF-8 without control characters: each offending byte becomes '?'. Module strings
// are arbitrary bytes.
std::string valid_utf8(std::string_view text);

// Escapes & < > " ' for HTML text and attribute values (after valid_utf8()).
std::string html_escape(std::string_view text);

// Percent-encodes everything but unreserved characters and '/', for links to /port/<name>; a name
// with a "." or ".." segment has its '/' encoded too (one segment: a browser would resolve it).
std::string url_path_escape(std::string_view text);

// Natural order for port names: "Ethernet2" < "Ethernet10".
bool natural_less(std::string_view a, std::string_view b);

// CMIS state names as label values: "ModuleLowPwr" -> "low_power", "DPActivated" ->
// "activated"; anything unknown becomes lower snake case.
std::string module_state_label(std::string_view cmis_name);
std::string data_path_state_label(std::string_view cmis_name);
// CMIS module fault cause as a label value: "tec_runaway", "data_memory_corrupted", "custom", ...
std::string module_fault_cause_label(std::string_view cause);

// Captions for the cages of one device (port names in map order): the part after the device,
// less the prefix and suffix every port of the device shares, never splitting a number
// ("swp1".."swp64" -> "1".."64", "mlx5_0" -> "0", "ens1f0np0"/"ens2f0np0" -> "1"/"2"). A
// device with one port keeps its whole name ("gpu0/ens1f0np0" -> "ens1f0np0").
std::vector<std::string> cage_labels(const std::vector<std::string_view>& ports);

// The device part of a port name ("spine1/Ethernet0" -> "spine1"), "" without a '/'.
std::string_view device_of(std::string_view port);

}  // namespace xcvr::exporters
