#include "daemon/port_log.hpp"

#include <algorithm>

namespace xcvr::daemon {

PortLog::PortLog(std::string port, LogLimit limit, Sink sink)
    : port_(std::move(port)), limit_(limit), sink_(std::move(sink)) {}

bool PortLog::log(spdlog::level::level_enum level, std::string_view kind, double now, std::string_view message) {
  // Lines below the logger's level cost nothing and spend no tokens.
  if (!sink_ && !spdlog::default_logger_raw()->should_log(level)) return false;
  auto it = buckets_.find(kind);
  if (it == buckets_.end()) it = buckets_.emplace(std::string(kind), Bucket{limit_.burst, now, 0}).first;
  Bucket& b = it->second;
  b.tokens = std::min(limit_.burst, b.tokens + std::max(0.0, now - b.refilled_at) * limit_.refill_per_second);
  b.refilled_at = now;
  if (b.tokens < 1) {
    ++b.suppressed;
    ++suppressed_total_;
    return false;
  }
  b.tokens -= 1;
  std::string line = "port " + port_ + ": " + std::string(message);
  if (b.suppressed > 0) {
    line += " (" + std::to_string(b.suppressed) + " similar messages suppressed)";
    b.suppressed = 0;
  }
  if (sink_) sink_(level, line);
  else spdlog::log(level, "{}", line);
  return true;
}

}  // namespace xcvr::daemon
