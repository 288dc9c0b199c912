#include "drivers/ib/mad_channel.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace xcvr::ib {

RateLimiter::RateLimiter(double per_second, double burst, base::Clock& clock)
    : rate_(per_second), burst_(std::max(1.0, burst)), clock_(clock), tokens_(std::max(1.0, burst)),
      last_ns_(clock.now_ns()) {}

void RateLimiter::acquire() {
  ++granted_;
  if (rate_ <= 0) return;
  int64_t wait_ns = 0;
  {
    std::lock_guard lock(mutex_);
    const int64_t now = clock_.now_ns();
    if (now > last_ns_) {
      tokens_ = std::min(burst_, tokens_ + static_cast<double>(now - last_ns_) * rate_ / 1e9);
      last_ns_ = now;
    }
    tokens_ -= 1.0;  // reserve: a negative balance is the queue ahead of us
    if (tokens_ < 0) wait_ns = static_cast<int64_t>(-tokens_ / rate_ * 1e9 + 0.5);
  }
  if (wait_ns > 0) {
    waited_ns_ += wait_ns;
    clock_.spend(wait_ns);
  }
}

MadChannel::MadChannel(std::unique_ptr<UmadDevice> device, base::Clock& clock,
                       std::shared_ptr<RateLimiter> limiter, MadPolicy policy, std::string name)
    : device_(std::move(device)), clock_(clock), limiter_(std::move(limiter)), policy_(policy), name_(std::move(name)) {
  // Start the TID space somewhere this process's other lanes are not (lanes are numbered by
  // their creation order; the kernel replaces the upper 32 bits with the agent id anyway).
  static std::atomic<uint32_t> lane_seed{1};
  tid_ = static_cast<uint64_t>(lane_seed.fetch_add(1)) << 20;
}

ChannelCounters MadChannel::counters() const {
  std::lock_guard lock(counters_mutex_);
  return counters_;
}

std::variant<Mad, drivers::Error> MadChannel::transact(Mad request, const MadAddress& to, const std::string& what) {
  Mad reply{};
  int64_t backoff = policy_.backoff_ns;
  const int attempts = 1 + std::max(0, policy_.retries);
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (attempt > 0) {
      clock_.spend(backoff);
      backoff = std::min(policy_.backoff_max_ns, backoff * 2);
    }
    if (limiter_) limiter_->acquire();
    tid_ = (tid_ & 0xFFFFFFFF00000000ULL) | static_cast<uint32_t>(tid_ + 1);
    put_be64(request, kOffTid, tid_);
    const int rc = device_->send(request, to, policy_.timeout_ms);
    if (rc < 0) {
      std::lock_guard lock(counters_mutex_);
      ++counters_.send_errors;
      const int err = -rc;
      // A send that fails is retried as busy unless the kernel refused us (permission).
      const drivers::ErrorKind kind = drivers::kind_of_errno(err, false) == drivers::ErrorKind::Permission
                                          ? drivers::ErrorKind::Permission
                                          : drivers::ErrorKind::Busy;
      return drivers::Error{kind, what + ": " + name_ + ": send failed: " + drivers::errno_text(err)};
    }
    {
      std::lock_guard lock(counters_mutex_);
      ++counters_.sent;
    }
    const int64_t deadline = clock_.now_ns() + static_cast<int64_t>(policy_.timeout_ms) * base::kMillisecond;
    bool timed_out = false;
    while (!timed_out) {
      const int64_t left_ns = deadline - clock_.now_ns();
      // A real umad device gets a little slack: the kernel reports the timeout itself.
      const int left_ms = static_cast<int>(std::max<int64_t>(0, (left_ns + base::kMillisecond - 1) / base::kMillisecond)) +
                          (clock_.is_virtual() ? 0 : 50);
      bool unanswered = false;
      const int n = device_->recv(reply, left_ms, unanswered);
      if (n == -ETIMEDOUT) break;
      if (n < 0) {
        std::lock_guard lock(counters_mutex_);
        ++counters_.send_errors;
        return drivers::Error{drivers::ErrorKind::Busy, what + ": " + name_ + ": receive failed: " + std::strerror(-n)};
      }
      const bool ours = static_cast<std::size_t>(n) >= kMadHeaderSize &&
                        static_cast<uint32_t>(be64(reply, kOffTid)) == static_cast<uint32_t>(tid_);
      if (ours && unanswered) {
        timed_out = true;  // the kernel gave our request back: no response in time
        break;
      }
      if (ours && (reply[kOffMethod] & kMethodResponseBit) != 0) {
        std::lock_guard lock(counters_mutex_);
        ++counters_.answered;
        if (static_cast<std::size_t>(n) < kMadSize) {
          return drivers::Error{drivers::ErrorKind::Corrupt,
                                what + ": " + name_ + ": truncated MAD: " + std::to_string(n) + " of 256 bytes"};
        }
        return reply;
      }
      std::lock_guard lock(counters_mutex_);
      ++counters_.stale;  // an earlier attempt's late response, or someone else's
      if (clock_.now_ns() >= deadline) break;
    }
    std::lock_guard lock(counters_mutex_);
    ++counters_.timeouts;
  }
  return drivers::Error{drivers::ErrorKind::Busy,
                        what + ": " + name_ + ": no response after " + std::to_string(attempts) + " attempt" +
                            (attempts == 1 ? "" : "s") + " of " + std::to_string(policy_.timeout_ms) + " ms"};
}

}  // namespace xcvr::ib
