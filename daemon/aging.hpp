// Laser-aging baselines: the first tx bias and tx power seen for each module serial, kept in
// the state directory, so drift (current ÷ baseline) can be exported per lane. The same file
// remembers each serial's vendor and part number: a serial that comes back with different
// coding is a sign of re-coding.
//
// State that survives (docs/configuration.md, "State directory"): the file is replaced
// atomically and durably; a failed write is logged (rate-limited, but the last one at shutdown
// always) and counted, the baselines stay in memory and the write is retried; one bad entry drops only that entry; a file that cannot be
// used is moved aside, never overwritten; the number of serials is bounded (least recently seen
// evicted first); unsaved changes are written at shutdown and when the directory changes.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cmis/report.hpp"
#include "coding/coding.hpp"
#include "daemon/aging_file.hpp"
#include "daemon/state_file.hpp"
#include "daemon/snapshot.hpp"
#include "base/files/file_syscalls.hpp"

namespace xcvr::daemon {

struct AgingLimits {
  std::size_t max_entries = 4096;           // serials kept; far above any switch's module count
  uint64_t max_file_bytes = 16ull << 20;    // aging.json larger than this is refused (≈ 6× a full store)
  double save_interval_s = 10;              // new baselines reach the disk at most this late
  double touch_save_interval_s = 3600;      // last-seen times alone are written this often
  double log_interval_s = 300;              // repeated write failures: one log line per interval
};

class AgingStore : public coding::IdentityHistory {
 public:
  static constexpr const char* kFileName = "aging.json";

  // `path` "" keeps baselines in memory only (tests). Loads `path` if it exists.
  explicit AgingStore(std::string path = "", AgingLimits limits = {},
                      files::FileSyscalls& sys = files::real_file_syscalls());
  ~AgingStore() override;  // writes unsaved changes
  AgingStore(const AgingStore&) = delete;
  AgingStore& operator=(const AgingStore&) = delete;

  // Points the store at `dir`/aging.json ("" = memory only), creating `dir` if needed. On a
  // change, unsaved changes go to the old file first, then the new file is loaded and merged
  // with what is in memory (for a serial in both, the earlier first sighting wins) and the
  // merged set is written there. The same directory again changes nothing.
  void set_directory(const std::string& dir, double wall);

  // Writes unsaved changes now (clean shutdown, destruction). A failure is counted as any other
  // and logged whatever the rate limit: it is the last chance, and the line says what is lost.
  void flush(double wall);

  // Drift per lane for this module; records a baseline the first time a serial is seen with
  // live bias/power values, and when the serial was last seen. Thread-safe.
  std::vector<LaneAging> observe(const cmis::ModuleReport& report, double wall);

  // The vendor/part number first recorded for `serial`, if different from the report's.
  std::optional<std::string> recorded_identity_mismatch(const cmis::ModuleReport& report) const override;

  uint64_t write_failures() const { return file_.write_failures(); }
  std::size_t size() const;
  std::string path() const;

 private:
  struct Entry {
    AgingBaseline b;
    std::list<const std::string*>::iterator lru;  // position in lru_ (front: least recently seen)
  };
  void set_path_locked(std::string path, double wall);
  void load_locked(const std::string& text, double wall);
  // Adds (or merges) one serial as the most recently seen; evict_locked() applies the bound.
  Entry& insert_locked(const std::string& serial, AgingBaseline b);
  void evict_locked();
  void touch_locked(std::map<std::string, Entry>::iterator it);
  void maybe_save_locked(double wall);
  // `last`: no retry follows (shutdown), so a failure is always logged as a loss.
  void save_locked(double wall, bool last = false);

  AgingLimits limits_;
  mutable std::mutex mutex_;
  StateFile file_;
  std::string dir_;
  std::map<std::string, Entry> by_serial_;
  std::list<const std::string*> lru_;
  bool dirty_ = false;    // baselines or serials not yet on disk
  bool touched_ = false;  // only last-seen times not yet on disk
  double last_wall_ = 0;
};

}  // namespace xcvr::daemon
