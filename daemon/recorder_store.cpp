#include "daemon/recorder_store.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

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
    constexpr std::size_t kLoggedDrops = 20;  // a file of thousands of bad events must not flood the log
    for (std::size_t i = 0; i < std::min(kLoggedDrops, parsed.dropped.size()); ++i) spdlog::warn("{}", parsed.dropped[i]);
    if (parsed.dropped.size() > kLoggedDrops) {
      spdlog::warn("{}: {} more bad events dropped (not logged)", file_.path(), parsed.dropped.size() - kLoggedDrops);
    }
    for (auto& e : parsed.events) insert_locked(std::move(e));
    std::stable_sort(events_.begin(), events_.end(), [](const auto& a, const auto& b) { return a->unix() < b->unix(); });
    evict_locked();
    if (!parsed.fatal.empty() || !parsed.dropped.empty()) {
      const std::string why = parsed.fatal.empty()
                                  ? file_.path() + ": " + std::to_string(parsed.dropped.size()) + " bad events dropped"
                                  : parsed.fatal + " (the rest of the file is not readable)";
      dirty_ = file_.set_aside(why + "; " + std::to_string(events_.size()) + " events kept", wall);
    } else if (!dirty_) {
      file_.loaded_clean(wall);
    }
    std::set<std::string> ports;
    for (const auto& e : events_) ports.insert(e->port);
    for (const std::string& p : ports) reindex_locked(p);
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
  std::set<std::string> changed;
  // The oldest first: beyond a port's bound, then beyond the daemon's.
  for (auto it = events_.begin(); it != events_.end();) {
    std::size_t& n = count[(*it)->port];
    if (n > per_port_ || events_.size() > max_events_) {
      changed.insert((*it)->port);
      --n;
      it = events_.erase(it);
      dirty_ = true;
    } else {
      ++it;
    }
  }
  for (const std::string& p : changed) reindex_locked(p);
}

void RecorderStore::reindex_locked(const std::string& port) {
  auto list = std::make_shared<RecorderEvents>();
  for (const auto& e : events_) {
    if (e->port == port) list->push_back(e);
  }
  if (list->empty()) by_port_.erase(port);
  else by_port_[port] = std::move(list);
}

void RecorderStore::add(std::shared_ptr<const RecorderEvent> event, double wall) {
  std::lock_guard lock(mutex_);
  const std::string port = event->port;
  events_.push_back(std::move(event));
  ++recorded_;
  dirty_ = true;
  file_.clear_loss_logged();
  evict_locked();
  reindex_locked(port);
  if (!file_.in_memory_only() && wall - file_.last_attempt() >= limits_.save_interval_s) save_locked(wall);
}

void RecorderStore::maybe_save(double wall) {
  std::lock_guard lock(mutex_);
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

std::shared_ptr<const RecorderEvents> RecorderStore::of_port(const std::string& port) const {
  std::lock_guard lock(mutex_);
  const auto it = by_port_.find(port);
  return it == by_port_.end() ? nullptr : it->second;
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
