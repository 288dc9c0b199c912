// Laser-aging baselines: the first tx bias and tx power seen for each module serial, kept in
// the state directory, so drift (current ÷ baseline) can be exported per lane. The same file
// remembers each serial's vendor and part number: a serial that comes back with different
// coding is a sign of re-coding.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cmis/report.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::daemon {

class AgingStore {
 public:
  // `path` "" keeps baselines in memory only (tests, read-only state directory).
  explicit AgingStore(std::string path);

  // Drift per lane for this module; records a baseline the first time a serial is seen with
  // live bias/power values. Thread-safe.
  std::vector<LaneAging> observe(const cmis::ModuleReport& report, double wall);

  // The vendor/part number first recorded for `serial`, if different from the report's.
  std::optional<std::string> recorded_identity_mismatch(const cmis::ModuleReport& report) const;

  std::string load_error() const { return load_error_; }

 private:
  struct LaneBaseline {
    std::optional<double> tx_bias, tx_power;
  };
  struct Baseline {
    std::string vendor, part_number;
    double first_seen_unix = 0;
    std::map<int, LaneBaseline> lanes;
  };
  void save_locked() const;

  std::string path_;
  std::string load_error_;
  mutable std::mutex mutex_;
  std::map<std::string, Baseline> by_serial_;
};

}  // namespace xcvr::daemon
