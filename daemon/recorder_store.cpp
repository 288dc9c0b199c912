#include "daemon/recorder_store.hpp"

#include <algorithm>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "base/files/files.hpp"
#include "daemon/recorder_file.hpp"

namespace xcvr::daemon {

RecorderStore::RecorderStore(RecorderLimits limits, files::FileSyscalls& sys)
    : limits_(limits), file_("flight recorder events", limits.max_file_bytes, limits.log_interval_s, sys) {}

RecorderStore::~RecorderStore() {
  try {
    flush(0);
  } catch (...) {  // a destructor must not throw; flush logs its own failures
  }
}

void RecorderStore::set_bounds(int events_per_port, int max_events) {
  std::lock_guard lock(mutex_);
  per_port_ = static_cast<std::size_t>(std::max(1, events_per_port));
  max_events_ = static_cast<std::size_t>(std::max(1, max_events));
  evict_locked();
  rebuild_index_locked();
}

void RecorderStore::set_directory(const std::string& dir, double wall) {
  std::lock_guard lock(mutex_);
  if (dir == dir_ && !file_.in_memory_only() == !dir.empty()) return;
  if (!file_.in_memory_only() && dirty_) save_locked(wall);  // the old directory gets what it is owed
  dir_ = dir;
  if (!dir.empty()) {
    if (const files::FileError e = files::make_directories(dir, 0750, file_.syscalls()); !e.ok()) {
      spdlog::error("state directory {}: {}; flight recorder events kept in memory, saves retried", dir, e.message);
    }
  }
  const bool had_events = !events_.empty();
  const auto text = file_.open(dir.empty() ? "" : (std::filesystem::path(dir) / kFileName).string(), wall);
  if (text) {
    ParsedRecorder parsed = parse_recorder(file_.path(), *text);
    const std::string damage = file_.damage(parsed.dropped, parsed.fatal, "bad events");
    for (auto& e : parsed.events) insert_locked(std::move(e));
    std::stable_sort(events_.begin(), events_.end(), [](const auto& a, const auto& b) { return a->unix() < b->unix(); });
    evict_locked();
    if (!damage.empty()) {
      dirty_ = file_.set_aside(damage + "; " + std::to_string(events_.size()) + " events kept", wall);
    } else if (!dirty_) {
      file_.loaded_clean(wall);
    }
    rebuild_index_locked();
  }
  if (file_.in_memory_only()) return;
  if (had_events) dirty_ = true;  // a new directory: what we knew goes there too
  if (dirty_) save_locked(wall);
}

void RecorderStore::insert_locked(std::shared_ptr<const RecorderEvent> event) {
  const bool known = std::any_of(events_.begin(), events_.end(), [&](const auto& e) {
    return e->port == event->port && e->unix() == event->unix();
  });
  if (!known) events_.push_back(std::move(event));
}

void RecorderStore::evict_locked() {
  std::map<std::string, std::size_t> count;
  for (const auto& e : events_) ++count[e->port];
  // The oldest first: beyond a port's bound, then beyond the daemon's.
  for (auto it = events_.begin(); it != events_.end();) {
    std::size_t& n = count[(*it)->port];
    if (n > per_port_ || events_.size() > max_events_) {
      --n;
      it = events_.erase(it);
      dirty_ = true;
    } else {
      ++it;
    }
  }
}

void RecorderStore::rebuild_index_locked() {
  std::map<std::string, RecorderEvents> lists;
  for (const auto& e : events_) lists[e->port].push_back(e);
  auto index = std::make_shared<Index>();
  for (auto& [port, list] : lists) index->emplace(port, std::make_shared<const RecorderEvents>(std::move(list)));
  index_ = std::move(index);
}

void RecorderStore::add(std::shared_ptr<const RecorderEvent> event, double wall) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(event));
  ++recorded_;
  dirty_ = true;
  file_.clear_loss_logged();
  evict_locked();
  rebuild_index_locked();
  maybe_save_locked(wall);
}

void RecorderStore::maybe_save(double wall) {
  std::lock_guard lock(mutex_);
  maybe_save_locked(wall);
}

void RecorderStore::maybe_save_locked(double wall) {
  if (!file_.in_memory_only() && dirty_ && wall - file_.last_attempt() >= limits_.save_interval_s) save_locked(wall);
}

void RecorderStore::flush(double wall) {
  std::lock_guard lock(mutex_);
  if (!file_.in_memory_only() && dirty_ && !file_.loss_logged()) save_locked(wall, true);
}

void RecorderStore::save_locked(double wall, bool last) {
  const RecorderEvents all(events_.begin(), events_.end());
  if (file_.write(recorder_file_text(all), wall, std::to_string(events_.size()) + " events", last)) dirty_ = false;
}

std::shared_ptr<const RecorderStore::Index> RecorderStore::index() const {
  std::lock_guard lock(mutex_);
  return index_;
}

std::shared_ptr<const RecorderEvents> RecorderStore::of_port(const std::string& port) const {
  const auto index = this->index();
  const auto it = index->find(port);
  return it == index->end() ? nullptr : it->second;
}

RecorderEvents RecorderStore::all() const {
  std::lock_guard lock(mutex_);
  return RecorderEvents(events_.begin(), events_.end());
}

uint64_t RecorderStore::recorded_total() const {
  std::lock_guard lock(mutex_);
  return recorded_;
}

std::string RecorderStore::path() const {
  std::lock_guard lock(mutex_);
  return file_.path();
}

}  // namespace xcvr::daemon
