// aging.json: parsing entry by entry (one bad entry drops that entry only, with its
// file:line:col) and writing. The store's policy (caps, eviction, moving bad files aside) is in
// daemon/aging.cpp; this file knows only the format:
//
//   {"version":2,"modules":{
//   "<serial>":{"vendor":"..","part_number":"..","first_seen_unix":T,"last_seen_unix":T,
//               "lanes":{"1":{"tx_bias_amperes":A,"tx_power_watts":W},...}},
//   ...}}
//
// Files of version 1 (no "version", no "last_seen_unix") load too: last seen = first seen.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xcvr::daemon {

struct AgingLaneBaseline {
  std::optional<double> tx_bias, tx_power;
};

struct AgingBaseline {
  std::string vendor, part_number;
  double first_seen_unix = 0;
  double last_seen_unix = 0;
  std::map<int, AgingLaneBaseline> lanes;
};

// The one rule for what the file may hold, used when recording and when loading.
inline constexpr std::size_t kAgingMaxText = 64;  // serial, vendor, part number
inline constexpr int kAgingMaxLanes = 32;
bool plausible_baseline_bias(double amperes);   // finite, > 0, <= 1 A
bool plausible_baseline_power(double watts);    // finite, > 0, <= 1 W
// Serial, vendor and part number as stored: control and non-ASCII bytes become '?', cut at
// kAgingMaxText bytes. A module's strings are stored (and looked up) in this form.
std::string aging_text(std::string_view s);

struct ParsedAging {
  std::vector<std::pair<std::string, AgingBaseline>> entries;  // the valid ones, in file order
  // One line per dropped entry: "path:line:col: modules entry N (serial "S"): why; entry dropped".
  std::vector<std::string> dropped;
  // "path:line:col: why" when the file could not be read to its end (syntax error, wrong
  // shape); entries before that point are still in `entries`.
  std::string fatal;
};

ParsedAging parse_aging(const std::string& path, std::string_view text);

// Builds the file text one serial at a time.
class AgingWriter {
 public:
  void add(const std::string& serial, const AgingBaseline& b);
  std::string finish();

 private:
  std::string out_ = "{\"version\":2,\"modules\":{";
  bool first_ = true;
};

}  // namespace xcvr::daemon
