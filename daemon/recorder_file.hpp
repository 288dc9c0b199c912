// A flight-recorder event as JSON — one form for recorder.json in the state directory, the
// /api/v1/events API and `xcvrctl events` — and recorder.json read event by event (one bad event
// drops that event only, with its file:line:col):
//
//   {"version":1,"events":[
//   {"port":"..","serial":"..","unix":T,"triggers":[{"kind":"link_down","detail":"..","unix":T}],
//    "more_triggers":0,"lanes":8,"trigger_sample":24,
//    "samples":{"unix":[..],"temperature_celsius":[..],"supply_voltage_volts":[..],
//               "pre_fec_ber":[..],"esnr_db":[..],"fec_corrected_per_second":[..],
//               "fec_uncorrectable_per_second":[..],"fec_tail_symbols":[..],"carrier_up":[..],
//               "module_state":[..],"flags":[[..],..],"alarm_lanes":[[..],..],
//               "active_lanes":[[..],..],"rx_power_watts":[[lane 1, ..],..],
//               "tx_power_watts":[[..],..],"tx_bias_amperes":[[..],..]}},
//   ...]}
//
// Columns, not rows: each key holds one value per sample (null where the sample has none), the
// per-lane ones one array of `lanes` values per sample. Values are in SI units, as everywhere
// in the product's JSON.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/flight_recorder.hpp"

namespace xcvr::daemon {

inline constexpr std::size_t kRecorderMaxSamples = 4096;  // per event, in a file
inline constexpr std::size_t kRecorderMaxText = 256;      // port, serial, trigger detail

// The flags a sample holds raised, by name ("vdm_high_alarm" for a VDM level: the sample keeps
// which level, not which observable).
std::vector<std::string> recorder_flag_labels(const RecorderSample& s);

nlohmann::json recorder_event_json(const RecorderEvent& e);
// "" and `out` filled, or why the JSON is not an event this product wrote.
std::string recorder_event_from_json(const nlohmann::json& j, RecorderEvent& out);

struct ParsedRecorder {
  RecorderEvents events;  // the valid ones, in file order
  // One line per dropped event: "path:line:col: event N (port "P"): why; event dropped".
  std::vector<std::string> dropped;
  std::string fatal;  // "path:line:col: why" when the file could not be read to its end
};
ParsedRecorder parse_recorder(const std::string& path, std::string_view text);

// The file text of `events`, one event per line (an error position points at its event).
std::string recorder_file_text(const RecorderEvents& events);

}  // namespace xcvr::daemon
