// The one clock: the poll engine's schedule and timestamps, the InfiniBand MAD channel's timeouts,
// re-sends and rate limit, and the emulator (module state machine, thermal lag, noise, fault
// timelines; its bus "spends" each transaction's wire time here). A VirtualClock advances only
// when spent or told to (tests, benchmarks, fast demos); a SteadyClock sleeps for real.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace xcvr::base {

inline constexpr int64_t kMicrosecond = 1'000;
inline constexpr int64_t kMillisecond = 1'000'000;
inline constexpr int64_t kSecond = 1'000'000'000;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ns() const = 0;   // monotonic, arbitrary origin
  virtual int64_t wall_ns() const = 0;  // since the Unix epoch: the timestamps operators read
  double monotonic() const { return static_cast<double>(now_ns()) / kSecond; }  // seconds
  double wall() const { return static_cast<double>(wall_ns()) / kSecond; }
  // Lets `ns` of time pass for the caller: advances a virtual clock, sleeps on a real one.
  virtual void spend(int64_t ns) = 0;
  virtual bool is_virtual() const = 0;
};

class VirtualClock final : public Clock {
 public:
  // Its wall time is its monotonic time plus `wall_offset_ns`; the default (2026-02) is after
  // the emulated modules' date codes, which the date_code check rejects when in the future.
  explicit VirtualClock(int64_t start_ns = 0, int64_t wall_offset_ns = 1'770'000'000 * kSecond)
      : now_(start_ns), wall_offset_(wall_offset_ns) {}
  int64_t now_ns() const override { return now_.load(std::memory_order_acquire); }
  int64_t wall_ns() const override { return now_ns() + wall_offset_; }
  void spend(int64_t ns) override { advance(ns); }
  bool is_virtual() const override { return true; }
  void advance(int64_t ns) {
    if (ns > 0) now_.fetch_add(ns, std::memory_order_acq_rel);
  }

 private:
  std::atomic<int64_t> now_;
  int64_t wall_offset_;
};

class SteadyClock final : public Clock {
 public:
  explicit SteadyClock(bool sleep_for_bus_time = true)
      : origin_(std::chrono::steady_clock::now()), sleep_(sleep_for_bus_time) {}
  // Since construction: an emulated fleet's time (its modules' dynamics and noise) starts at 0
  // whatever the host's uptime, as a virtual fleet's does.
  int64_t now_ns() const override;
  int64_t wall_ns() const override;
  void spend(int64_t ns) override;
  bool is_virtual() const override { return false; }

 private:
  std::chrono::steady_clock::time_point origin_;
  bool sleep_;
};

}  // namespace xcvr::base
