#include "daemon/state_file.hpp"

#include <algorithm>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "base/files/files.hpp"

namespace xcvr::daemon {

StateFile::StateFile(std::string what, uint64_t max_bytes, double log_interval_s, files::FileSyscalls& sys)
    : what_(std::move(what)), max_bytes_(max_bytes), log_interval_s_(log_interval_s), sys_(sys) {}

std::optional<std::string> StateFile::open(std::string path, double wall) {
  path_ = std::move(path);
  dir_ = std::filesystem::path(path_).parent_path().string();
  refuse_writes_.clear();
  failures_in_row_ = unlogged_failures_ = 0;
  last_attempt_ = last_success_ = last_failure_log_ = -1e300;
  if (path_.empty()) return std::nullopt;
  files::ReadResult r = files::read_regular_file(path_, max_bytes_, sys_);
  if (r.status == files::ReadStatus::Missing) return std::nullopt;
  if (r.status == files::ReadStatus::TooLarge) {
    set_aside(r.error.message + " for state files: not loaded, " + what_ + " start afresh", wall);
    return std::nullopt;
  }
  if (r.status != files::ReadStatus::Ok) {
    // Unreadable (EACCES, EIO) or not a regular file: never write over what we could not read.
    refuse_writes_ = r.error.message;
    spdlog::error("{}: {} kept in memory only, the file is never overwritten", r.error.message, what_);
    return std::nullopt;
  }
  return std::move(r.data);
}

std::string StateFile::damage(const std::vector<std::string>& dropped, const std::string& fatal,
                              std::string_view what) const {
  // A file of thousands of bad entries must not flood the log: the first few, then a count.
  constexpr std::size_t kLoggedDrops = 20;
  for (std::size_t i = 0; i < std::min(kLoggedDrops, dropped.size()); ++i) spdlog::warn("{}", dropped[i]);
  if (dropped.size() > kLoggedDrops) spdlog::warn("{}: {} more {} dropped (not logged)", path_, dropped.size() - kLoggedDrops, what);
  if (!fatal.empty()) return fatal + " (the rest of the file is not readable)";
  return dropped.empty() ? "" : path_ + ": " + std::to_string(dropped.size()) + " " + std::string(what) + " dropped";
}

bool StateFile::set_aside(const std::string& why, double wall) {
  files::FileError e;
  const std::string to = files::move_aside(path_, ".corrupt-" + std::to_string(static_cast<long long>(wall)), e, sys_);
  if (to.empty()) {
    refuse_writes_ = why + ", and it could not be moved aside (" + e.message + ")";
    spdlog::error("{}; it is left untouched and never overwritten: {} kept in memory only", refuse_writes_, what_);
    return false;
  }
  spdlog::error("{}; the file is kept as {}", why, to);
  return true;
}

bool StateFile::write(const std::string& text, double wall, const std::string& held, bool last) {
  last_attempt_ = wall;
  if (!refuse_writes_.empty()) {
    note_failure("not writing " + path_ + ": " + refuse_writes_, wall, held, last);
    return false;
  }
  files::FileError e = files::make_directories(dir_.empty() ? "." : dir_, 0750, sys_);  // recreated if removed
  if (e.ok()) e = files::write_file_atomic(path_, text, 0640, sys_);
  if (!e.ok()) {
    note_failure(e.message, wall, held, last);
    return false;
  }
  if (failures_in_row_ > 0) spdlog::info("{} saved to {} again after {} failed writes", what_, path_, failures_in_row_);
  failures_in_row_ = unlogged_failures_ = 0;
  last_failure_log_ = -1e300;
  last_success_ = wall;
  return true;
}

void StateFile::note_failure(const std::string& why, double wall, const std::string& held, bool last) {
  write_failures_.fetch_add(1, std::memory_order_relaxed);
  ++failures_in_row_;
  if (last) {
    const std::string saved = last_success_ < -1e299 ? std::string("never saved")
                                                      : fmt::format("last saved {:.0f} s ago", wall - last_success_);
    spdlog::error("cannot save {} at shutdown: {}; what was learned since the last save is lost ({} known, {}; {} "
                  "failures in a row, {} of them not logged)",
                  what_, why, held, saved, failures_in_row_, unlogged_failures_);
    unlogged_failures_ = 0;
    last_failure_log_ = wall;
    loss_logged_ = true;
    return;
  }
  if (wall - last_failure_log_ < log_interval_s_) {
    ++unlogged_failures_;
    return;
  }
  spdlog::error("cannot save {}: {}; {} kept in memory, retried ({} failures in a row, {} not logged)", what_, why,
                held, failures_in_row_, unlogged_failures_);
  unlogged_failures_ = 0;
  last_failure_log_ = wall;
}

}  // namespace xcvr::daemon
