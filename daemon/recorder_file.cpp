#include "daemon/recorder_file.hpp"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "cmis/codes.hpp"
#include "cmis/flags.hpp"
#include "daemon/recorder_units.hpp"
#include "daemon/state_json.hpp"

namespace xcvr::daemon {
namespace {

using nlohmann::json;
using S = RecorderSample;

constexpr std::string_view kTriggerKinds[] = {"link_down", "flag", "data_path", "fec_tail_jump"};

// The recorded flag's name: the flag table's, "vdm_<level>" for a VDM row (the sample keeps the
// level, not which observable).
std::string flag_label(int id) {
  const cmis::FlagRow& row = cmis::kFlags[static_cast<std::size_t>(id)];
  return row.scope == cmis::FlagScope::VdmInstance ? "vdm_" + std::string(row.name) : std::string(row.name);
}

std::optional<int> flag_id(std::string_view label) {
  for (int id = 0; id < static_cast<int>(cmis::FlagId::Count); ++id) {
    if (flag_label(id) == label) return id;
  }
  return std::nullopt;
}

// A float as its shortest decimal, so 2e-4 is written 0.0002, not 0.00019999999494757503.
json shortest(float f) { return std::isfinite(f) ? json(std::stod(fmt::format("{}", f))) : json(nullptr); }

json lanes_list(uint16_t bits) {
  json out = json::array();
  for (int lane = 1; lane <= kRecorderMaxLanes; ++lane) {
    if (bits & (1u << (lane - 1))) out.push_back(lane);
  }
  return out;
}

namespace units = recorder_units;

json unit_value(uint16_t raw, double per) {
  const auto v = units::si(raw, per);
  return v ? json(*v) : json(nullptr);
}

// One column's parsed values go through `put`; "" or why the column is unusable.
using Put = std::function<std::string(std::size_t sample, const json& v)>;

std::string column(const json& samples, const char* key, std::size_t n, const Put& put) {
  const auto it = samples.find(key);
  if (it == samples.end()) return std::string("samples: no \"") + key + "\"";
  if (!it->is_array() || it->size() != n) return std::string("samples: \"") + key + "\" is not an array of one value per sample";
  for (std::size_t i = 0; i < n; ++i) {
    if (std::string why = put(i, (*it)[i]); !why.empty()) {
      return std::string("samples: \"") + key + "\" sample " + std::to_string(i + 1) + ": " + why;
    }
  }
  return "";
}

// A number the field can hold (null: none), in `per` units per SI unit, into the sample.
Put in_units(uint16_t S::*field, double per, std::vector<S>& samples) {
  const double hi = units::max_si(per);
  return [=, &samples](std::size_t i, const json& v) -> std::string {
    if (v.is_null()) return "";
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= hi)) return "not a number within 0-" + fmt::format("{}", hi);
    samples[i].*field = static_cast<uint16_t>(std::lround(v.get<double>() * per));
    return "";
  };
}

Put floats(float S::*field, double hi, std::vector<S>& samples) {
  return [=, &samples](std::size_t i, const json& v) -> std::string {
    if (v.is_null()) return "";
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= hi)) return "not a number within 0-" + fmt::format("{}", hi);
    samples[i].*field = static_cast<float>(v.get<double>());
    return "";
  };
}

Put lane_set(uint16_t S::*field, std::vector<S>& samples) {
  return [=, &samples](std::size_t i, const json& v) -> std::string {
    if (!v.is_array() || v.size() > kRecorderMaxLanes) return "not a list of lanes";
    for (const json& lane : v) {
      if (!lane.is_number_integer() || lane.get<int>() < 1 || lane.get<int>() > kRecorderMaxLanes) return "not a lane 1-16";
      samples[i].*field |= static_cast<uint16_t>(1u << (lane.get<int>() - 1));
    }
    return "";
  };
}

Put per_lane(uint16_t RecorderLane::*field, double per, int lanes, std::vector<RecorderLane>& values) {
  const double hi = units::max_si(per);
  return [=, &values](std::size_t i, const json& v) -> std::string {
    if (!v.is_array() || v.size() != static_cast<std::size_t>(lanes)) return "not one value per lane";
    for (int l = 0; l < lanes; ++l) {
      const json& x = v[static_cast<std::size_t>(l)];
      if (x.is_null()) continue;
      if (!x.is_number() || !(x.get<double>() >= 0 && x.get<double>() <= hi)) return "lane " + std::to_string(l + 1) + " out of range";
      values[i * static_cast<std::size_t>(lanes) + static_cast<std::size_t>(l)].*field =
          static_cast<uint16_t>(std::lround(x.get<double>() * per));
    }
    return "";
  };
}

bool plausible_unix(const json& v) { return v.is_number() && v.get<double>() >= 0 && v.get<double>() < 4294967296.0; }

std::string text(const json& j, const char* key, std::string& out, bool may_be_empty) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::string("\"") + key + "\" missing or not a string";
  out = it->get<std::string>();
  if ((!may_be_empty && out.empty()) || out.size() > kRecorderMaxText) return std::string("\"") + key + "\" empty or too long";
  for (const char c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::string("\"") + key + "\" has control characters";
  }
  return "";
}

std::string check_triggers(const json& j, RecorderEvent& out) {
  const auto it = j.find("triggers");
  if (it == j.end() || !it->is_array() || it->empty() || it->size() > kRecorderMaxTriggers) {
    return "\"triggers\" is not a list of 1-" + std::to_string(kRecorderMaxTriggers) + " triggers";
  }
  for (const json& t : *it) {
    if (!t.is_object()) return "a trigger is not an object";
    RecorderTrigger trig;
    if (auto why = text(t, "kind", trig.kind, false); !why.empty()) return "trigger: " + why;
    if (std::find(std::begin(kTriggerKinds), std::end(kTriggerKinds), trig.kind) == std::end(kTriggerKinds)) {
      return "trigger: unknown kind \"" + trig.kind + "\"";
    }
    if (auto why = text(t, "detail", trig.detail, true); !why.empty()) return "trigger: " + why;
    if (!t.contains("unix") || !plausible_unix(t["unix"])) return "trigger: \"unix\" is not a plausible Unix time";
    trig.unix = t["unix"].get<double>();
    out.triggers.push_back(std::move(trig));
  }
  const auto more = j.find("more_triggers");
  if (more != j.end()) {
    if (!more->is_number_unsigned() || more->get<uint64_t>() > UINT32_MAX) return "\"more_triggers\" is not a count";
    out.more_triggers = more->get<uint32_t>();
  }
  return "";
}

std::string check_samples(const json& samples, RecorderEvent& out) {
  if (!samples.is_object()) return "\"samples\" is not an object";
  const auto unix = samples.find("unix");
  if (unix == samples.end() || !unix->is_array() || unix->empty() || unix->size() > kRecorderMaxSamples) {
    return "samples: \"unix\" is not a list of 1-" + std::to_string(kRecorderMaxSamples) + " times";
  }
  const std::size_t n = unix->size();
  std::vector<S>& s = out.samples;
  s.assign(n, S{});
  out.lane_values.assign(n * static_cast<std::size_t>(out.lanes), RecorderLane{});
  const std::pair<const char*, Put> columns[] = {
      {"unix", [&](std::size_t i, const json& v) -> std::string {
         if (!plausible_unix(v)) return "not a plausible Unix time";
         const double t = v.get<double>(), whole = std::floor(t);
         s[i].unix_s = static_cast<uint32_t>(whole);
         s[i].unix_ms = static_cast<uint16_t>(std::min(999.0, std::round((t - whole) * 1000)));
         return "";
       }},
      {"temperature_celsius", [&](std::size_t i, const json& v) -> std::string {
         if (v.is_null()) return "";
         if (!v.is_number() || !(std::abs(v.get<double>()) < 128)) return "not a temperature within +-128";
         s[i].temperature = static_cast<int16_t>(std::lround(v.get<double>() * units::kPerCelsius));
         return "";
       }},
      {"supply_voltage_volts", in_units(&S::supply_voltage, units::kPerVolt, s)},
      {"esnr_db", in_units(&S::esnr, units::kPerDecibel, s)},
      {"pre_fec_ber", floats(&S::pre_fec_ber, 1, s)},
      {"fec_corrected_per_second", floats(&S::fec_corrected_per_s, 1e15, s)},
      {"fec_uncorrectable_per_second", floats(&S::fec_uncorrectable_per_s, 1e15, s)},
      {"fec_tail_symbols", [&](std::size_t i, const json& v) -> std::string {
         if (v.is_null()) return "";
         if (!v.is_number_unsigned() || v.get<uint64_t>() > 254) return "not a symbol count 0-254";
         s[i].fec_tail = v.get<uint8_t>();
         return "";
       }},
      {"carrier_up", [&](std::size_t i, const json& v) -> std::string {
         if (v.is_null()) return "";
         if (!v.is_boolean()) return "not true, false or null";
         s[i].carrier = v.get<bool>() ? 1 : 0;
         return "";
       }},
      {"module_state", [&](std::size_t i, const json& v) -> std::string {
         if (v.is_null()) return "";
         for (uint8_t code = 0; v.is_string() && code < 16; ++code) {
           if (cmis::codes::module_state(code) == v.get<std::string>()) return s[i].module_state = code, "";
         }
         return "not a CMIS module state";
       }},
      {"flags", [&](std::size_t i, const json& v) -> std::string {
         if (!v.is_array()) return "not a list of flags";
         for (const json& f : v) {
           const auto id = f.is_string() ? flag_id(f.get<std::string>()) : std::nullopt;
           if (!id) return "unknown flag " + state_json_line(f);
           s[i].flags[static_cast<std::size_t>(*id / 32)] |= 1u << (*id % 32);
         }
         return "";
       }},
      {"alarm_lanes", lane_set(&S::alarm_lanes, s)},
      {"active_lanes", lane_set(&S::active_lanes, s)},
      {"rx_power_watts", per_lane(&RecorderLane::rx_power, units::kPerWatt, out.lanes, out.lane_values)},
      {"tx_power_watts", per_lane(&RecorderLane::tx_power, units::kPerWatt, out.lanes, out.lane_values)},
      {"tx_bias_amperes", per_lane(&RecorderLane::tx_bias, units::kPerAmpere, out.lanes, out.lane_values)},
  };
  for (const auto& [key, put] : columns) {
    if (std::string why = column(samples, key, n, put); !why.empty()) return why;
  }
  return "";
}

}  // namespace

std::vector<std::string> recorder_flag_labels(const RecorderSample& s) {
  std::vector<std::string> out;
  for (int id = 0; id < static_cast<int>(cmis::FlagId::Count); ++id) {
    if (s.flag(id)) out.push_back(flag_label(id));
  }
  return out;
}

json recorder_event_json(const RecorderEvent& e) {
  json triggers = json::array();
  for (const RecorderTrigger& t : e.triggers) triggers.push_back({{"kind", t.kind}, {"detail", t.detail}, {"unix", t.unix}});
  json unix = json::array(), temperature = json::array(), voltage = json::array(), ber = json::array(),
       esnr = json::array(), corrected = json::array(), uncorrectable = json::array(), tail = json::array(),
       carrier = json::array(), module_state = json::array(), flags = json::array(), alarm = json::array(),
       active = json::array(), rx = json::array(), tx = json::array(), bias = json::array();
  for (std::size_t i = 0; i < e.samples.size(); ++i) {
    const S& s = e.samples[i];
    unix.push_back(s.unix());
    temperature.push_back(s.temperature == S::kNoneI16 ? json(nullptr) : json(s.temperature / units::kPerCelsius));
    voltage.push_back(unit_value(s.supply_voltage, units::kPerVolt));
    esnr.push_back(unit_value(s.esnr, units::kPerDecibel));
    ber.push_back(shortest(s.pre_fec_ber));
    corrected.push_back(shortest(s.fec_corrected_per_s));
    uncorrectable.push_back(shortest(s.fec_uncorrectable_per_s));
    tail.push_back(s.fec_tail == S::kNone8 ? json(nullptr) : json(s.fec_tail));
    carrier.push_back(s.carrier == S::kNone8 ? json(nullptr) : json(s.carrier == 1));
    module_state.push_back(s.module_state == S::kNone8 ? json(nullptr) : json(cmis::codes::module_state(s.module_state)));
    flags.push_back(recorder_flag_labels(s));
    alarm.push_back(lanes_list(s.alarm_lanes));
    active.push_back(lanes_list(s.active_lanes));
    json r = json::array(), t = json::array(), b = json::array();
    for (int lane = 1; lane <= e.lanes; ++lane) {
      const RecorderLane& v = e.lane(i, lane);
      r.push_back(unit_value(v.rx_power, units::kPerWatt));
      t.push_back(unit_value(v.tx_power, units::kPerWatt));
      b.push_back(unit_value(v.tx_bias, units::kPerAmpere));
    }
    rx.push_back(std::move(r));
    tx.push_back(std::move(t));
    bias.push_back(std::move(b));
  }
  return {{"port", e.port}, {"serial", e.serial}, {"unix", e.unix()}, {"triggers", std::move(triggers)},
          {"more_triggers", e.more_triggers}, {"lanes", e.lanes}, {"trigger_sample", e.trigger_sample},
          {"samples",
           {{"unix", std::move(unix)}, {"temperature_celsius", std::move(temperature)},
            {"supply_voltage_volts", std::move(voltage)}, {"pre_fec_ber", std::move(ber)}, {"esnr_db", std::move(esnr)},
            {"fec_corrected_per_second", std::move(corrected)}, {"fec_uncorrectable_per_second", std::move(uncorrectable)},
            {"fec_tail_symbols", std::move(tail)}, {"carrier_up", std::move(carrier)},
            {"module_state", std::move(module_state)}, {"flags", std::move(flags)}, {"alarm_lanes", std::move(alarm)},
            {"active_lanes", std::move(active)}, {"rx_power_watts", std::move(rx)}, {"tx_power_watts", std::move(tx)},
            {"tx_bias_amperes", std::move(bias)}}}};
}

std::string recorder_event_from_json(const json& j, RecorderEvent& out) {
  if (!j.is_object()) return "not an object";
  if (auto why = text(j, "port", out.port, false); !why.empty()) return why;
  if (auto why = text(j, "serial", out.serial, true); !why.empty()) return why;
  if (auto why = check_triggers(j, out); !why.empty()) return why;
  const auto lanes = j.find("lanes");
  if (lanes == j.end() || !lanes->is_number_unsigned() || lanes->get<uint64_t>() > kRecorderMaxLanes) {
    return "\"lanes\" is not a lane count 0-" + std::to_string(kRecorderMaxLanes);
  }
  out.lanes = lanes->get<int>();
  const auto samples = j.find("samples");
  if (samples == j.end()) return "no \"samples\"";
  if (auto why = check_samples(*samples, out); !why.empty()) return why;
  const auto at = j.find("trigger_sample");
  if (at == j.end() || !at->is_number_unsigned() || at->get<uint64_t>() >= out.samples.size()) {
    return "\"trigger_sample\" is not the index of a sample";
  }
  out.trigger_sample = at->get<std::size_t>();
  return "";
}

ParsedRecorder parse_recorder(const std::string& path, std::string_view text) {
  ParsedRecorder r;
  r.fatal = read_state_entries(path, text, "events", StateCollection::Array, [&](const StateEntry& e) {
    auto event = std::make_shared<RecorderEvent>();
    const std::string why = recorder_event_from_json(e.value, *event);
    if (why.empty()) {
      r.events.push_back(std::move(event));
      return;
    }
    const auto port = e.value.is_object() ? e.value.find("port") : e.value.end();
    const std::string named = port != e.value.end() && port->is_string() && port->get_ref<const std::string&>().size() <= kRecorderMaxText ? " (port " + state_json_line(*port) + ")" : "";
    r.dropped.push_back(e.at + ": event " + std::to_string(e.index) + named + ": " + why + "; event dropped");
  });
  return r;
}

std::string recorder_file_text(const RecorderEvents& events) {
  std::string out = "{\"version\":1,\"events\":[";
  bool first = true;
  for (const auto& e : events) {
    out += first ? "\n" : ",\n";
    first = false;
    out += state_json_line(recorder_event_json(*e));
  }
  return out + "\n]}\n";
}

}  // namespace xcvr::daemon
