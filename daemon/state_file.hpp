// One file of the state directory (aging.json, recorder.json) and the rules every such file
// follows (docs/configuration.md, "State directory"): it is replaced atomically and durably; a
// failed write is counted and logged (rate-limited, but a loss at shutdown always), and retried
// by its owner; a file that cannot be used whole is moved aside, never overwritten; one that
// cannot even be read or moved aside is never written. What the file holds, and when it is due
// for a write, are the owner's; the owner serialises calls (its own lock).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/files/file_syscalls.hpp"

namespace xcvr::daemon {

class StateFile {
 public:
  // `what` names the content in log lines ("aging baselines"); `max_bytes` caps what is loaded.
  StateFile(std::string what, uint64_t max_bytes, double log_interval_s, files::FileSyscalls& sys);

  // Points at `path` ("" = memory only) and reads it: its text, or nothing when it is missing or
  // could not be used (logged; set aside when too large, never written when unreadable).
  std::optional<std::string> open(std::string path, double wall);

  // What a load of the text open() gave dropped: the first 20 lines logged, then a count of the
  // rest ("bad entries", "bad events": `what`); "" when nothing was dropped and the text was read
  // to its end, else why it must be set aside ("<path>: 3 bad entries dropped", or `fatal`).
  std::string damage(const std::vector<std::string>& dropped, const std::string& fatal, std::string_view what) const;

  // The text open() gave could not be used whole (`why`: what was dropped and kept): the file
  // is moved aside, or, if it cannot be, never written. True when it may be written again.
  bool set_aside(const std::string& why, double wall);

  // Writes `text`; `held` says what memory keeps when it fails ("12 serials"). `last`: no retry
  // follows (shutdown), so a failure is logged as a loss whatever the rate limit.
  bool write(const std::string& text, double wall, const std::string& held, bool last = false);

  const std::string& path() const { return path_; }
  bool in_memory_only() const { return path_.empty(); }
  double last_attempt() const { return last_attempt_; }
  double last_success() const { return last_success_; }
  void loaded_clean(double wall) { last_success_ = wall; }  // what memory holds is on disk
  // A write failed at shutdown and said what was lost: nothing more to say until new data comes.
  bool loss_logged() const { return loss_logged_; }
  void clear_loss_logged() { loss_logged_ = false; }
  files::FileSyscalls& syscalls() const { return sys_; }
  uint64_t write_failures() const { return write_failures_.load(std::memory_order_relaxed); }

 private:
  void note_failure(const std::string& why, double wall, const std::string& held, bool last);

  std::string what_;
  uint64_t max_bytes_;
  double log_interval_s_;
  files::FileSyscalls& sys_;
  std::string path_;
  std::string dir_;
  std::string refuse_writes_;  // why path_ must not be written (a file that could not be moved aside)
  bool loss_logged_ = false;
  double last_attempt_ = -1e300, last_success_ = -1e300, last_failure_log_ = -1e300;
  uint64_t failures_in_row_ = 0, unlogged_failures_ = 0;
  std::atomic<uint64_t> write_failures_{0};
};

}  // namespace xcvr::daemon
