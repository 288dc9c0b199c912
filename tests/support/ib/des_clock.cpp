#include "tests/support/ib/des_clock.hpp"

#include <exception>
#include <thread>

namespace xcvr::ib {
namespace {
thread_local const DesClock* tl_clock = nullptr;
thread_local int tl_index = -1;
}  // namespace

int64_t DesClock::now_ns() const {
  std::lock_guard lock(mutex_);
  return now_;
}

void DesClock::pick_next_locked() {
  int best = -1;
  for (int i = 0; i < static_cast<int>(tasks_.size()); ++i) {
    const Task& t = *tasks_[static_cast<std::size_t>(i)];
    if (t.done) continue;
    if (best < 0 || t.wake < tasks_[static_cast<std::size_t>(best)]->wake) best = i;
  }
  running_ = best;
  if (best < 0) return;
  Task& next = *tasks_[static_cast<std::size_t>(best)];
  if (next.wake > now_) now_ = next.wake;
  // Wake only the task whose turn it is: waking every thread on each hand-off made a sweep of
  // 64 lanes cost O(lanes) context switches per MAD, which crawls on a loaded machine.
  next.cv.notify_one();
}

void DesClock::spend(int64_t ns) {
  if (ns < 0) ns = 0;
  std::unique_lock lock(mutex_);
  if (tl_clock != this || tl_index < 0) {  // not one of run()'s tasks
    now_ += ns;
    return;
  }
  const int me = tl_index;
  Task& self = *tasks_[static_cast<std::size_t>(me)];
  self.wake = now_ + ns;
  pick_next_locked();
  self.cv.wait(lock, [&] { return running_ == me; });
}

void DesClock::run(std::vector<std::function<void()>> tasks) {
  {
    std::lock_guard lock(mutex_);
    tasks_.clear();
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      tasks_.push_back(std::make_unique<Task>());
      tasks_.back()->wake = now_;
    }
    running_ = -1;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> threads;
  threads.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    threads.emplace_back([this, i, &tasks, &failure, &failure_mutex] {
      tl_clock = this;
      tl_index = static_cast<int>(i);
      {
        std::unique_lock lock(mutex_);
        tasks_[i]->cv.wait(lock, [&] { return running_ == static_cast<int>(i); });
      }
      try {
        tasks[i]();
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
      std::lock_guard lock(mutex_);
      tasks_[i]->done = true;
      pick_next_locked();
      tl_clock = nullptr;
      tl_index = -1;
    });
  }
  {
    std::lock_guard lock(mutex_);
    pick_next_locked();
  }
  for (std::thread& t : threads) t.join();
  {
    std::lock_guard lock(mutex_);
    tasks_.clear();
    running_ = -1;
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace xcvr::ib
