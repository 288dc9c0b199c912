#include "daemon/aging_file.hpp"

#include <charconv>
#include <cmath>
#include <iterator>

#include <nlohmann/json.hpp>

#include "base/text_position.hpp"

namespace xcvr::daemon {
namespace {

using nlohmann::json;

// An input iterator that tells where the parser is: nlohmann's callbacks carry no position.
struct TrackedIter {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** pos = nullptr;
  reference operator*() const { return *p; }
  TrackedIter& operator++() {
    *pos = ++p;
    return *this;
  }
  TrackedIter operator++(int) {
    TrackedIter old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackedIter& o) const { return p == o.p; }
};

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
  base::TextPositions where(path, text);
  const char* pos = text.data();
  std::string top_key, serial, serial_at;
  bool modules_seen = false;
  std::size_t index = 0;
  std::map<std::string, bool> seen;
  // Each entry under "modules" is checked when complete and then discarded from the DOM, so
  // memory stays at one entry however large the file is.
  auto cb = [&](int depth, json::parse_event_t ev, json& parsed) -> bool {
    if (depth == 1 && ev == json::parse_event_t::key) {
      top_key = parsed.get<std::string>();
      return true;
    }
    if (top_key != "modules") return true;
    if (depth == 1 && ev == json::parse_event_t::object_start) modules_seen = true;
    if (depth == 1 && ev == json::parse_event_t::array_start) {
      throw std::runtime_error("\"modules\" is not an object");
    }
    if (depth != 2) return true;
    if (ev == json::parse_event_t::key) {
      serial = parsed.get<std::string>();
      const std::size_t end = static_cast<std::size_t>(pos - text.data());
      serial_at = where.at(end - std::min(end, json(serial).dump().size()));
      ++index;
      return true;
    }
    if (ev != json::parse_event_t::object_end && ev != json::parse_event_t::array_end &&
        ev != json::parse_event_t::value) {
      return true;
    }
    AgingBaseline b;
    std::string why = check_entry(serial, parsed, b);
    if (why.empty() && !seen.emplace(serial, true).second) why = "serial appears twice (the first is kept)";
    const std::string shown = json(serial).dump(-1, ' ', false, json::error_handler_t::replace);
    if (!why.empty()) {
      r.dropped.push_back(serial_at + ": modules entry " + std::to_string(index) + " (serial " + shown + "): " +
                          why + "; entry dropped");
    } else {
      r.entries.emplace_back(serial, std::move(b));
    }
    return false;
  };
  try {
    TrackedIter first{text.data(), &pos};
    TrackedIter last{text.data() + text.size(), &pos};
    const json top = json::parse(first, last, cb);
    if (!top.is_object()) r.fatal = where.at(0) + ": not a JSON object";
    else if (!modules_seen) r.fatal = where.at(0) + ": no \"modules\" object";
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points at the offending character.
    std::string what = e.what();
    if (const auto colon = what.find(": ", what.find("parse error")); colon != std::string::npos) what = what.substr(colon + 2);
    // The parser quotes what it last read: from a state file that is a link to another file
    // (/etc/shadow), that would put the other file's first bytes in the log. The position is enough.
    if (const auto quoted = what.find("; last read:"); quoted != std::string::npos) what.resize(quoted);
    r.fatal = where.at(e.byte > 0 ? e.byte - 1 : 0) + ": " + what;
  } catch (const std::exception& e) {
    r.fatal = where.at(static_cast<std::size_t>(pos - text.data())) + ": " + e.what();
  }
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
  out_ += json(serial).dump(-1, ' ', false, json::error_handler_t::replace) + ":" +
          e.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string AgingWriter::finish() {
  out_ += "\n}}\n";
  return std::move(out_);
}

}  // namespace xcvr::daemon
