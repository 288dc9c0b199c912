// Time as the poll engine sees it: a monotonic clock for scheduling and a wall clock for the
// timestamps operators read. Tests drive a ManualClock; the daemon uses SystemClock.
#pragma once

#include <chrono>

namespace xcvr::daemon {

class PollClock {
 public:
  virtual ~PollClock() = default;
  virtual double monotonic() const = 0;  // seconds, arbitrary origin
  virtual double wall() const = 0;       // seconds since the Unix epoch
};

class SystemClock final : public PollClock {
 public:
  double monotonic() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  double wall() const override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
};

// A clock that moves only when told to (tests, virtual-time emulation).
class ManualClock final : public PollClock {
 public:
  explicit ManualClock(double start = 1000, double wall_offset = 1.7e9)
      : now_(start), wall_offset_(wall_offset) {}
  double monotonic() const override { return now_; }
  double wall() const override { return now_ + wall_offset_; }
  void set(double t) { now_ = t; }
  void advance(double dt) { now_ += dt; }

 private:
  double now_;
  double wall_offset_;
};

}  // namespace xcvr::daemon
