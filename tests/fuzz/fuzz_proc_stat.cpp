// libFuzzer target: /proc/self/stat lines (drivers/process_stats.cpp). Kernel text, but a parser
// of bytes from outside all the same. Fails on a crash, a sanitizer report, or figures that are
// negative or not finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "drivers/process_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto s = xcvr::drivers::parse_proc_stat(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!s) return 0;
  for (double v : {s->cpu_ticks, s->start_ticks, s->virtual_bytes, s->resident_pages}) {
    if (!std::isfinite(v) || v < 0) std::abort();
  }
  return 0;
}
