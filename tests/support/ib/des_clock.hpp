// DesClock: virtual time for code that runs on several threads at once — a conservative
// discrete-event scheduler. Each task of run() gets its own thread, but exactly one runs at a
// time: the one whose wake time is earliest (ties: lowest index). spend(ns) puts the caller to
// sleep until now + ns of virtual time and hands the CPU to the next task due. Used to measure
// what parallel domains (one poll thread per IB lane) achieve under an emulated per-MAD
// latency, deterministically and without waiting for real time.
//
// Rule for code run under it: never hold a lock across spend() (another task may need it and
// cannot run until this one yields). drivers/ib and the poll engine follow it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/clock.hpp"

namespace xcvr::ib {

class DesClock final : public base::Clock {
 public:
  explicit DesClock(int64_t start_ns = 0) : now_(start_ns) {}
  int64_t now_ns() const override;
  int64_t wall_ns() const override { return now_ns() + 1'770'000'000 * base::kSecond; }
  // Inside run(): sleep for ns of virtual time. Outside: just advance time.
  void spend(int64_t ns) override;
  bool is_virtual() const override { return true; }
  void advance(int64_t ns) { spend(ns); }

  // Runs the tasks to completion under virtual time. Exceptions are rethrown (the first one).
  void run(std::vector<std::function<void()>> tasks);

 private:
  void pick_next_locked();

  mutable std::mutex mutex_;
  int64_t now_;
  struct Task {
    int64_t wake = 0;
    bool done = false;
    std::condition_variable cv;  // signalled when this task is the one to run
  };
  std::vector<std::unique_ptr<Task>> tasks_;
  int running_ = -1;
};

}  // namespace xcvr::ib
