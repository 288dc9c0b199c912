#include "base/clock.hpp"

#include <thread>

namespace xcvr::base {

int64_t SteadyClock::now_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count();
}

int64_t SteadyClock::wall_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void SteadyClock::spend(int64_t ns) {
  if (ns > 0 && sleep_) std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

}  // namespace xcvr::base
