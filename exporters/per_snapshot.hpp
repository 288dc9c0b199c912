// What a renderer made of one snapshot, kept while that snapshot is current: the first request
// after a publish makes it, concurrent requests wait for that one make and share it, later ones
// reuse it. Snapshots are immutable, so a body made of one is the body of every request that
// sees it. (/metrics, the JSON API and the landing page show the whole fleet: eight parallel
// 2,048-port GETs of the JSON API, each building its own document, took RSS from 138 MB to
// 1.3 GB.)
#pragma once

#include <memory>
#include <mutex>
#include <utility>

#include "daemon/snapshot.hpp"

namespace xcvr::exporters {

template <typename T>
class PerSnapshot {
 public:
  // The value made for `snapshot` by `make()` (a std::shared_ptr<const T>), made once. An
  // exception from make() leaves nothing cached and reaches the caller.
  template <typename Make>
  std::shared_ptr<const T> get(const std::shared_ptr<const daemon::Snapshot>& snapshot, Make&& make) const {
    std::lock_guard lock(mutex_);
    if (value_ && made_for_.lock() == snapshot) return value_;
    value_ = nullptr;  // the old one goes before the new one is made
    made_for_.reset();
    std::shared_ptr<const T> made = std::forward<Make>(make)();
    value_ = made;
    made_for_ = snapshot;
    return made;
  }

 private:
  mutable std::mutex mutex_;  // one make at a time; others wait and share it
  mutable std::weak_ptr<const daemon::Snapshot> made_for_;  // weak: an old snapshot is not kept alive for this
  mutable std::shared_ptr<const T> value_;
};

}  // namespace xcvr::exporters
