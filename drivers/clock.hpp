// Time for transports that wait: the InfiniBand MAD channel's timeouts, re-sends and rate
// limit, and the emulator (module state machine, thermal lag, noise, fault timelines; its bus
// "spends" each transaction's wire time here). A VirtualClock advances only when spent or told
// to (tests, benchmarks, fast demos); a SteadyClock sleeps for real.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace xcvr::drivers {

inline constexpr int64_t kMicrosecond = 1'000;
inline constexpr int64_t kMillisecond = 1'000'000;
inline constexpr int64_t kSecond = 1'000'000'000;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ns() const = 0;
  // Lets `ns` of time pass for the caller: advances a virtual clock, sleeps on a real one.
  virtual void spend(int64_t ns) = 0;
  virtual bool is_virtual() const = 0;
};

class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(int64_t start_ns = 0) : now_(start_ns) {}
  int64_t now_ns() const override { return now_.load(std::memory_order_acquire); }
  void spend(int64_t ns) override { advance(ns); }
  bool is_virtual() const override { return true; }
  void advance(int64_t ns) {
    if (ns > 0) now_.fetch_add(ns, std::memory_order_acq_rel);
  }

 private:
  std::atomic<int64_t> now_;
};

class SteadyClock final : public Clock {
 public:
  explicit SteadyClock(bool sleep_for_bus_time = true)
      : origin_(std::chrono::steady_clock::now()), sleep_(sleep_for_bus_time) {}
  int64_t now_ns() const override;
  void spend(int64_t ns) override;
  bool is_virtual() const override { return false; }

 private:
  std::chrono::steady_clock::time_point origin_;
  bool sleep_;
};

}  // namespace xcvr::drivers
