// libFuzzer target: bytes as the state directory's recorder.json (daemon/recorder_file.cpp), the
// flight recorder's events as the daemon saves them and loads them at start, and as
// `xcvrctl events` reads them.
//
// Fails on a crash or sanitizer report, a message without "recorder.json:line:col: ", an event
// kept with an impossible shape (no samples, too many, a trigger sample that is not one, lane
// values that do not match its lane count), or kept events that do not survive being written
// and read back unchanged (what the store saves must load).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "daemon/recorder_file.hpp"
#include "tests/fuzz/position.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace xcvr::daemon;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ParsedRecorder p = parse_recorder("recorder.json", text);
  if (!p.fatal.empty() && !xcvr::fuzz::has_position(p.fatal, "recorder.json")) std::abort();
  for (const std::string& d : p.dropped) {
    if (!xcvr::fuzz::has_position(d, "recorder.json")) std::abort();
  }
  for (const auto& e : p.events) {
    if (e->samples.empty() || e->samples.size() > kRecorderMaxSamples || e->trigger_sample >= e->samples.size() ||
        e->lanes < 0 || e->lanes > kRecorderMaxLanes || e->triggers.empty() ||
        e->lane_values.size() != e->samples.size() * static_cast<std::size_t>(e->lanes)) {
      std::abort();
    }
  }
  const ParsedRecorder back = parse_recorder("recorder.json", recorder_file_text(p.events));
  if (!back.fatal.empty() || !back.dropped.empty() || back.events.size() != p.events.size()) std::abort();
  for (std::size_t i = 0; i < p.events.size(); ++i) {
    if (recorder_event_json(*back.events[i]) != recorder_event_json(*p.events[i])) std::abort();
  }
  return 0;
}
