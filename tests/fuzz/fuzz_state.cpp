// libFuzzer target: bytes as the state directory's aging.json (daemon/aging_file.cpp), the one
// file the daemon writes and reads back, and so the one a disk fault or an operator's edit damages.
//
// Fails on a crash or sanitizer report, a message without "aging.json:line:col: ", an entry
// kept with an implausible value, or kept entries that do not survive being written and read
// back unchanged (what the store saves must load).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "daemon/aging_file.hpp"
#include "tests/fuzz/position.hpp"

namespace {

using xcvr::daemon::AgingBaseline;
using xcvr::daemon::ParsedAging;

bool same(const AgingBaseline& a, const AgingBaseline& b) {
  if (a.vendor != b.vendor || a.part_number != b.part_number || a.first_seen_unix != b.first_seen_unix ||
      a.last_seen_unix != b.last_seen_unix || a.lanes.size() != b.lanes.size()) {
    return false;
  }
  for (const auto& [lane, l] : a.lanes) {
    const auto it = b.lanes.find(lane);
    if (it == b.lanes.end() || it->second.tx_bias != l.tx_bias || it->second.tx_power != l.tx_power) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ParsedAging p = xcvr::daemon::parse_aging("aging.json", text);
  if (!p.fatal.empty() && !xcvr::fuzz::has_position(p.fatal, "aging.json")) std::abort();
  for (const std::string& d : p.dropped) {
    if (!xcvr::fuzz::has_position(d, "aging.json")) std::abort();
  }
  xcvr::daemon::AgingWriter w;
  for (const auto& [serial, b] : p.entries) {
    for (const auto& [lane, l] : b.lanes) {
      if (l.tx_bias && !xcvr::daemon::plausible_baseline_bias(*l.tx_bias)) std::abort();
      if (l.tx_power && !xcvr::daemon::plausible_baseline_power(*l.tx_power)) std::abort();
    }
    w.add(serial, b);
  }
  const ParsedAging back = xcvr::daemon::parse_aging("aging.json", w.finish());
  if (!back.fatal.empty() || !back.dropped.empty() || back.entries.size() != p.entries.size()) std::abort();
  for (std::size_t i = 0; i < p.entries.size(); ++i) {
    if (back.entries[i].first != p.entries[i].first || !same(back.entries[i].second, p.entries[i].second)) std::abort();
  }
  return 0;
}
