#include "daemon/aging.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "base/files/files.hpp"

namespace xcvr::daemon {
namespace {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

AgingStore::AgingStore(std::string path, AgingLimits limits, files::FileSyscalls& sys)
    : limits_(limits), file_("aging baselines", limits.max_file_bytes, limits.log_interval_s, sys) {
  std::lock_guard lock(mutex_);
  last_wall_ = now_unix();
  set_path_locked(std::move(path), last_wall_);
}

AgingStore::~AgingStore() {
  try {
    flush(last_wall_);
  } catch (...) {  // a destructor must not throw; flush logs its own failures
  }
}

std::size_t AgingStore::size() const {
  std::lock_guard lock(mutex_);
  return by_serial_.size();
}

std::string AgingStore::path() const {
  std::lock_guard lock(mutex_);
  return file_.path();
}

void AgingStore::set_directory(const std::string& dir, double wall) {
  std::lock_guard lock(mutex_);
  if (dir == dir_ && !file_.in_memory_only() == !dir.empty()) return;
  if (!dir.empty()) {
    if (const files::FileError e = files::make_directories(dir, 0750, file_.syscalls()); !e.ok()) {
      // Not fatal: baselines stay in memory and every save attempt is retried and counted.
      spdlog::error("state directory {}: {}; aging baselines kept in memory, saves retried", dir, e.message);
    }
  }
  set_path_locked(dir.empty() ? "" : (std::filesystem::path(dir) / kFileName).string(), wall);
  dir_ = dir;
}

void AgingStore::set_path_locked(std::string path, double wall) {
  if (path == file_.path()) return;
  if (!file_.in_memory_only() && (dirty_ || touched_)) save_locked(wall);  // the old directory gets what it is owed
  const bool had_entries = !by_serial_.empty();
  if (std::optional<std::string> text = file_.open(std::move(path), wall)) load_locked(*text, wall);
  if (file_.in_memory_only()) return;
  if (had_entries) dirty_ = true;  // a new directory: what we knew goes there too
  if (dirty_) save_locked(wall);
}

void AgingStore::load_locked(const std::string& text, double wall) {
  ParsedAging parsed = parse_aging(file_.path(), text);
  const std::string damage = file_.damage(parsed.dropped, parsed.fatal, "bad entries");
  for (auto& [serial, b] : parsed.entries) insert_locked(serial, std::move(b));
  // What was in memory and what the file holds, in one order: least recently seen first.
  lru_.sort([this](const std::string* a, const std::string* b) {
    return by_serial_.at(*a).b.last_seen_unix < by_serial_.at(*b).b.last_seen_unix;
  });
  if (by_serial_.size() > limits_.max_entries) {
    spdlog::warn("{}: {} serials, above the bound of {}: the {} least recently seen dropped", file_.path(),
                 by_serial_.size(), limits_.max_entries, by_serial_.size() - limits_.max_entries);
    evict_locked();
  }
  if (!damage.empty()) {  // the usable entries go back under the normal name
    dirty_ = file_.set_aside(damage + "; " + std::to_string(by_serial_.size()) + " serials kept", wall);
  }
  if (!dirty_) file_.loaded_clean(wall);  // the file holds what memory holds
}

AgingStore::Entry& AgingStore::insert_locked(const std::string& serial, AgingBaseline b) {
  auto [it, fresh] = by_serial_.try_emplace(serial);
  if (fresh) {
    it->second.b = std::move(b);
    it->second.lru = lru_.insert(lru_.end(), &it->first);
  } else {  // merging two files: the earlier first sighting is the baseline
    AgingBaseline& have = it->second.b;
    const double last = std::max(have.last_seen_unix, b.last_seen_unix);
    if (b.first_seen_unix < have.first_seen_unix) have = std::move(b);
    have.last_seen_unix = last;
    touch_locked(it);
  }
  return it->second;
}

void AgingStore::evict_locked() {
  while (by_serial_.size() > std::max<std::size_t>(1, limits_.max_entries)) {
    const std::string* oldest = lru_.front();
    lru_.pop_front();
    by_serial_.erase(*oldest);
    dirty_ = true;
  }
}

void AgingStore::touch_locked(std::map<std::string, Entry>::iterator it) {
  lru_.splice(lru_.end(), lru_, it->second.lru);
}

std::vector<LaneAging> AgingStore::observe(const cmis::ModuleReport& report, double wall) {
  std::vector<LaneAging> out;
  if (report.id.serial.empty()) return out;
  const std::string serial = aging_text(report.id.serial);
  std::lock_guard lock(mutex_);
  last_wall_ = wall;
  file_.clear_loss_logged();
  auto it = by_serial_.find(serial);
  if (it == by_serial_.end()) {
    AgingBaseline b;
    b.vendor = aging_text(report.id.vendor_name);
    b.part_number = aging_text(report.id.part_number);
    b.first_seen_unix = b.last_seen_unix = wall;
    insert_locked(serial, std::move(b));
    evict_locked();  // the front is least recently seen: never the serial just added
    it = by_serial_.find(serial);
    dirty_ = true;
  } else {
    touch_locked(it);
    if (it->second.b.last_seen_unix != wall) it->second.b.last_seen_unix = wall, touched_ = true;
  }
  AgingBaseline& b = it->second.b;
  for (const cmis::LaneReport& l : report.lanes) {
    if (l.lane < 1 || l.lane > kAgingMaxLanes) continue;
    AgingLaneBaseline& lb = b.lanes[l.lane];
    // Baselines only from a lit laser: a zero reading says nothing about aging.
    if (!lb.tx_bias && l.tx_bias_amperes && plausible_baseline_bias(*l.tx_bias_amperes)) lb.tx_bias = l.tx_bias_amperes, dirty_ = true;
    if (!lb.tx_power && l.tx_power_watts && plausible_baseline_power(*l.tx_power_watts)) lb.tx_power = l.tx_power_watts, dirty_ = true;
    LaneAging a;
    a.lane = l.lane;
    if (lb.tx_bias && l.tx_bias_amperes) a.tx_bias_ratio = *l.tx_bias_amperes / *lb.tx_bias;
    if (lb.tx_power && l.tx_power_watts) a.tx_power_ratio = *l.tx_power_watts / *lb.tx_power;
    if (a.tx_bias_ratio || a.tx_power_ratio) out.push_back(a);
  }
  maybe_save_locked(wall);
  return out;
}

std::optional<std::string> AgingStore::recorded_identity_mismatch(const cmis::ModuleReport& report) const {
  if (report.id.serial.empty()) return std::nullopt;
  std::lock_guard lock(mutex_);
  const auto it = by_serial_.find(aging_text(report.id.serial));
  if (it == by_serial_.end()) return std::nullopt;
  const AgingBaseline& b = it->second.b;
  if (b.vendor == aging_text(report.id.vendor_name) && b.part_number == aging_text(report.id.part_number)) {
    return std::nullopt;
  }
  return "serial " + report.id.serial + " was first seen as " + b.vendor + " " + b.part_number;
}

void AgingStore::flush(double wall) {
  std::lock_guard lock(mutex_);
  // (Not again when the shutdown's flush failed and the destructor flushes: said once.)
  if (!file_.in_memory_only() && (dirty_ || touched_) && !file_.loss_logged()) save_locked(wall, true);
}

void AgingStore::maybe_save_locked(double wall) {
  if (file_.in_memory_only()) return;
  const double since_attempt = wall - file_.last_attempt();
  if ((dirty_ && since_attempt >= limits_.save_interval_s) ||
      (touched_ && wall - file_.last_success() >= limits_.touch_save_interval_s && since_attempt >= limits_.save_interval_s)) {
    save_locked(wall);
  }
}

void AgingStore::save_locked(double wall, bool last) {
  AgingWriter w;
  for (const auto& [serial, e] : by_serial_) w.add(serial, e.b);
  if (file_.write(w.finish(), wall, std::to_string(by_serial_.size()) + " serials", last)) dirty_ = touched_ = false;
}

}  // namespace xcvr::daemon
