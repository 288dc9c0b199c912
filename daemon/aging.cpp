#include "daemon/aging.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace xcvr::daemon {

AgingStore::AgingStore(std::string path) : path_(std::move(path)) {
  if (path_.empty() || !std::filesystem::exists(path_)) return;
  try {
    std::ifstream in(path_);
    const auto j = nlohmann::json::parse(in);
    for (const auto& [serial, b] : j.at("modules").items()) {
      Baseline base;
      base.vendor = b.value("vendor", "");
      base.part_number = b.value("part_number", "");
      base.first_seen_unix = b.value("first_seen_unix", 0.0);
      for (const auto& [lane, l] : b.at("lanes").items()) {
        LaneBaseline lb;
        if (l.contains("tx_bias_amperes")) lb.tx_bias = l["tx_bias_amperes"].get<double>();
        if (l.contains("tx_power_watts")) lb.tx_power = l["tx_power_watts"].get<double>();
        base.lanes[std::stoi(lane)] = lb;
      }
      by_serial_[serial] = base;
    }
  } catch (const std::exception& e) {
    // A damaged file must not stop the daemon: start afresh and say so.
    load_error_ = path_ + ": " + e.what() + " (aging baselines start afresh)";
    by_serial_.clear();
  }
}

std::vector<LaneAging> AgingStore::observe(const cmis::ModuleReport& report, double wall) {
  std::vector<LaneAging> out;
  if (report.id.serial.empty()) return out;
  std::lock_guard lock(mutex_);
  auto [it, fresh] = by_serial_.try_emplace(report.id.serial);
  Baseline& b = it->second;
  bool changed = fresh;
  if (fresh) {
    b.vendor = report.id.vendor_name;
    b.part_number = report.id.part_number;
    b.first_seen_unix = wall;
  }
  for (const cmis::LaneReport& l : report.lanes) {
    LaneBaseline& lb = b.lanes[l.lane];
    // Baselines only from a lit laser: a zero reading says nothing about aging.
    if (!lb.tx_bias && l.tx_bias_amperes && *l.tx_bias_amperes > 0) lb.tx_bias = l.tx_bias_amperes, changed = true;
    if (!lb.tx_power && l.tx_power_watts && *l.tx_power_watts > 0) lb.tx_power = l.tx_power_watts, changed = true;
    LaneAging a;
    a.lane = l.lane;
    if (lb.tx_bias && l.tx_bias_amperes) a.tx_bias_ratio = *l.tx_bias_amperes / *lb.tx_bias;
    if (lb.tx_power && l.tx_power_watts) a.tx_power_ratio = *l.tx_power_watts / *lb.tx_power;
    if (a.tx_bias_ratio || a.tx_power_ratio) out.push_back(a);
  }
  if (changed) save_locked();
  return out;
}

std::optional<std::string> AgingStore::recorded_identity_mismatch(const cmis::ModuleReport& report) const {
  std::lock_guard lock(mutex_);
  const auto it = by_serial_.find(report.id.serial);
  if (it == by_serial_.end() || report.id.serial.empty()) return std::nullopt;
  const Baseline& b = it->second;
  if (b.vendor == report.id.vendor_name && b.part_number == report.id.part_number) return std::nullopt;
  return "serial " + report.id.serial + " was first seen as " + b.vendor + " " + b.part_number;
}

void AgingStore::save_locked() const {
  if (path_.empty()) return;
  nlohmann::json j;
  j["modules"] = nlohmann::json::object();
  for (const auto& [serial, b] : by_serial_) {
    nlohmann::json lanes = nlohmann::json::object();
    for (const auto& [lane, lb] : b.lanes) {
      nlohmann::json l = nlohmann::json::object();
      if (lb.tx_bias) l["tx_bias_amperes"] = *lb.tx_bias;
      if (lb.tx_power) l["tx_power_watts"] = *lb.tx_power;
      lanes[std::to_string(lane)] = l;
    }
    j["modules"][serial] = {{"vendor", b.vendor}, {"part_number", b.part_number},
                            {"first_seen_unix", b.first_seen_unix}, {"lanes", lanes}};
  }
  // Atomic replace: a crash never leaves a half-written file.
  const std::string tmp = path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return;
    out << j.dump(1) << '\n';
    if (!out) return;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path_, ec);
}

}  // namespace xcvr::daemon
