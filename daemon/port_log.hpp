// Per-port rate-limited logging: a module that fails every poll must not flood the journal, and
// one noisy port must not silence the others. Each (port, message kind) has its own token bucket;
// when a bucket refills after dropping lines, the next line says how many were dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

namespace xcvr::daemon {

struct LogLimit {
  double burst = 5;                 // lines a kind may log back to back
  double refill_per_second = 1.0 / 60;  // then one line a minute
};

class PortLog {
 public:
  // The sink receives finished lines; by default spdlog's default logger (stderr/journal).
  using Sink = std::function<void(spdlog::level::level_enum, const std::string&)>;

  explicit PortLog(std::string port, LogLimit limit = {}, Sink sink = {});

  // Logs "port <port>: <message>" unless the bucket of `kind` is empty at `now` (monotonic
  // seconds, the poller's clock). Returns whether the line went out.
  bool log(spdlog::level::level_enum level, std::string_view kind, double now, std::string_view message);

  uint64_t suppressed_total() const { return suppressed_total_; }

 private:
  struct Bucket {
    double tokens = 0;
    double refilled_at = 0;
    uint64_t suppressed = 0;  // dropped since the last line of this kind
  };
  std::string port_;
  LogLimit limit_;
  Sink sink_;
  std::map<std::string, Bucket, std::less<>> buckets_;
  uint64_t suppressed_total_ = 0;
};

}  // namespace xcvr::daemon
