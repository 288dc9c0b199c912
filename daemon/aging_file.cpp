#include "daemon/aging_file.hpp"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "daemon/state_json.hpp"

namespace xcvr::daemon {
namespace {

using nlohmann::json;

bool plausible_time(double t) { return std::isfinite(t) && t >= 0 && t < 1e11; }

std::string check_text(const json& j, const char* key, std::string& out) {
  if (!j.contains(key)) return std::string("no \"") + key + "\"";
  if (!j[key].is_string()) return std::string("\"") + key + "\" is not a string";
  out = j[key].get<std::string>();
  if (out != aging_text(out)) return std::string("\"") + key + "\" has control, non-ASCII or too many characters";
  return "";
}

// "" and `out` filled, or why the entry cannot be used.
std::string check_entry(const std::string& serial, const json& e, AgingBaseline& out) {
  if (serial.empty() || serial != aging_text(serial)) return "serial empty, too long or not printable ASCII";
  if (!e.is_object()) return "not an object";
  if (auto err = check_text(e, "vendor", out.vendor); !err.empty()) return err;
  if (auto err = check_text(e, "part_number", out.part_number); !err.empty()) return err;
  const auto first = e.find("first_seen_unix");
  if (first == e.end() || !first->is_number() || !plausible_time(first->get<double>())) {
    return "\"first_seen_unix\" missing or not a plausible Unix time";
  }
  out.first_seen_unix = out.last_seen_unix = first->get<double>();
  if (const auto last = e.find("last_seen_unix"); last != e.end()) {
    if (!last->is_number() || !plausible_time(last->get<double>())) return "\"last_seen_unix\" is not a plausible Unix time";
    out.last_seen_unix = last->get<double>();
  }
  const auto lanes = e.find("lanes");
  if (lanes == e.end() || !lanes->is_object()) return "\"lanes\" missing or not an object";
  if (lanes->size() > static_cast<std::size_t>(kAgingMaxLanes)) return "more than " + std::to_string(kAgingMaxLanes) + " lanes";
  for (const auto& [key, l] : lanes->items()) {
    int lane = 0;
    const auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), lane);
    if (ec != std::errc() || ptr != key.data() + key.size() || lane < 1 || lane > kAgingMaxLanes) {
      return "lane \"" + key + "\" is not a lane number 1-" + std::to_string(kAgingMaxLanes);
    }
    if (!l.is_object()) return "lane " + key + " is not an object";
    AgingLaneBaseline& lb = out.lanes[lane];
    for (const auto& [name, value] : l.items()) {
      const bool bias = name == "tx_bias_amperes";
      if (!bias && name != "tx_power_watts") return "lane " + key + ": unknown key \"" + name + "\"";
      const double v = value.is_number() ? value.get<double>() : std::nan("");
      if (bias ? !plausible_baseline_bias(v) : !plausible_baseline_power(v)) {
        return "lane " + key + ": \"" + name + "\" is not a plausible baseline (" + value.dump() + ")";
      }
      (bias ? lb.tx_bias : lb.tx_power) = v;
    }
  }
  return "";
}

}  // namespace

bool plausible_baseline_bias(double amperes) { return std::isfinite(amperes) && amperes > 0 && amperes <= 1; }
bool plausible_baseline_power(double watts) { return std::isfinite(watts) && watts > 0 && watts <= 1; }

std::string aging_text(std::string_view s) {
  std::string out(s.substr(0, kAgingMaxText));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return out;
}

ParsedAging parse_aging(const std::string& path, std::string_view text) {
  ParsedAging r;
  std::map<std::string, bool> seen;
  r.fatal = read_state_entries(path, text, "modules", StateCollection::Keyed, [&](const StateEntry& e) {
    AgingBaseline b;
    std::string why = check_entry(e.key, e.value, b);
    if (why.empty() && !seen.emplace(e.key, true).second) why = "serial appears twice (the first is kept)";
    if (!why.empty()) {
      r.dropped.push_back(e.at + ": modules entry " + std::to_string(e.index) + " (serial " + state_json_line(json(e.key)) +
                          "): " + why + "; entry dropped");
    } else {
      r.entries.emplace_back(e.key, std::move(b));
    }
  });
  return r;
}

void AgingWriter::add(const std::string& serial, const AgingBaseline& b) {
  json lanes = json::object();
  for (const auto& [lane, lb] : b.lanes) {
    json l = json::object();
    if (lb.tx_bias) l["tx_bias_amperes"] = *lb.tx_bias;
    if (lb.tx_power) l["tx_power_watts"] = *lb.tx_power;
    lanes[std::to_string(lane)] = std::move(l);
  }
  const json e = {{"vendor", b.vendor}, {"part_number", b.part_number}, {"first_seen_unix", b.first_seen_unix},
                  {"last_seen_unix", b.last_seen_unix}, {"lanes", std::move(lanes)}};
  out_ += first_ ? "\n" : ",\n";
  first_ = false;
  // One entry per line, so an error position points at its entry.
  out_ += state_json_line(json(serial)) + ":" + state_json_line(e);
}

std::string AgingWriter::finish() {
  out_ += "\n}}\n";
  return std::move(out_);
}

}  // namespace xcvr::daemon
