// MadChannel: request/response over one UmadDevice (one lane), with the politeness every MAD
// obeys — the subnet's rate limit before each send, a response timeout, re-sends after a
// timeout with exponential backoff — and TID matching (stale replies of earlier attempts are
// dropped). Time is a base::Clock: SteadyClock sleeps for real, VirtualClock (tests) and
// DesClock (benchmarks) let time pass without waiting.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

#include "base/clock.hpp"
#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/umad_device.hpp"

namespace xcvr::ib {

struct MadPolicy {
  int timeout_ms = 100;                                      // response timeout per attempt
  int retries = 2;                                           // re-sends after a timeout
  int64_t backoff_ns = 20 * base::kMillisecond;              // before a re-send; doubles
  int64_t backoff_max_ns = 1000 * base::kMillisecond;
};

// A token bucket shared by every lane of one subnet: at most `per_second` MADs on average,
// bursts up to `burst`. Callers reserve a token and wait (on the clock) for their slot, so
// waiting is FIFO-fair and never holds a lock. per_second <= 0: unlimited.
class RateLimiter {
 public:
  RateLimiter(double per_second, double burst, base::Clock& clock);
  void acquire();
  double per_second() const { return rate_; }
  uint64_t granted() const { return granted_.load(); }
  int64_t waited_ns() const { return waited_ns_.load(); }

 private:
  double rate_;
  double burst_;
  base::Clock& clock_;
  std::mutex mutex_;
  double tokens_;
  int64_t last_ns_;
  std::atomic<uint64_t> granted_{0};
  std::atomic<int64_t> waited_ns_{0};
};

struct ChannelCounters {
  uint64_t sent = 0;       // MADs put on the wire (re-sends included)
  uint64_t answered = 0;   // transactions that got their response
  uint64_t timeouts = 0;   // attempts that got no response in time
  uint64_t stale = 0;      // responses dropped: not for the request in flight
  uint64_t send_errors = 0;
};

class MadChannel {
 public:
  MadChannel(std::unique_ptr<UmadDevice> device, base::Clock& clock, std::shared_ptr<RateLimiter> limiter,
             MadPolicy policy, std::string name);

  // Sends `request` (its TID replaced by a fresh one) and returns the response carrying that TID.
  // Timeouts are re-sent up to policy.retries times; the error is Busy ("no response after N
  // attempts"), or Permission/Busy for a send the device refused.
  std::variant<Mad, drivers::Error> transact(Mad request, const MadAddress& to, const std::string& what);
  // The TID the last transact() used (for parsers that re-check it).
  uint64_t last_tid() const { return tid_; }

  const std::string& name() const { return name_; }
  base::Clock& clock() const { return clock_; }
  const MadPolicy& policy() const { return policy_; }
  UmadDevice& device() { return *device_; }
  ChannelCounters counters() const;

 private:
  std::unique_ptr<UmadDevice> device_;
  base::Clock& clock_;
  std::shared_ptr<RateLimiter> limiter_;
  MadPolicy policy_;
  std::string name_;
  uint64_t tid_ = 0;
  mutable std::mutex counters_mutex_;
  ChannelCounters counters_;
};

}  // namespace xcvr::ib
