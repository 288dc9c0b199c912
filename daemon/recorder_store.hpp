// The flight recorder's events, for every port: the newest `events_per_port` of each port and
// `max_events` in all (the oldest go first), kept in the state directory as recorder.json by the
// rules of every state file (daemon/state_file.hpp): written at most every save_interval_s
// after a new event, and at shutdown; one bad event in the file drops that event only.
// Thread-safe: the domain workers add, the publisher reads.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "daemon/flight_recorder.hpp"
#include "daemon/state_file.hpp"

namespace xcvr::daemon {

struct RecorderLimits {
  uint64_t max_file_bytes = 32ull << 20;  // 256 events of 25 samples of 16 lanes: ~8 MiB
  double save_interval_s = 10;
  double log_interval_s = 300;
};

class RecorderStore {
 public:
  static constexpr const char* kFileName = "recorder.json";

  explicit RecorderStore(RecorderLimits limits = {}, files::FileSyscalls& sys = files::real_file_syscalls());
  ~RecorderStore();  // writes unsaved events
  RecorderStore(const RecorderStore&) = delete;
  RecorderStore& operator=(const RecorderStore&) = delete;

  void set_bounds(int events_per_port, int max_events);
  // Points the store at `dir`/recorder.json ("" = memory only) and loads it; the events it holds
  // join those in memory (the same event twice is kept once).
  void set_directory(const std::string& dir, double wall);
  void add(std::shared_ptr<const RecorderEvent> event, double wall);
  void maybe_save(double wall);  // a due write, or a retry of a failed one
  void flush(double wall);

  // Every port's events, oldest first, by port: rebuilt when events come or go, so a publish
  // takes it once and looks its ports up without the lock. Shared with the snapshots.
  using Index = std::map<std::string, std::shared_ptr<const RecorderEvents>>;
  std::shared_ptr<const Index> index() const;
  // A port's events, oldest first; null when it has none.
  std::shared_ptr<const RecorderEvents> of_port(const std::string& port) const;
  RecorderEvents all() const;  // oldest first
  uint64_t recorded_total() const;  // events frozen since start (loaded ones not counted)
  uint64_t write_failures() const { return file_.write_failures(); }
  std::string path() const;

 private:
  void insert_locked(std::shared_ptr<const RecorderEvent> event);
  void evict_locked();
  void rebuild_index_locked();
  void maybe_save_locked(double wall);
  void save_locked(double wall, bool last = false);

  RecorderLimits limits_;
  mutable std::mutex mutex_;
  StateFile file_;
  std::string dir_;
  std::size_t per_port_ = 4, max_events_ = 256;
  std::deque<std::shared_ptr<const RecorderEvent>> events_;  // oldest first
  std::shared_ptr<const Index> index_ = std::make_shared<const Index>();
  uint64_t recorded_ = 0;
  bool dirty_ = false;
};

}  // namespace xcvr::daemon
