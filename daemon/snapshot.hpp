// Snapshot: the immutable state of every port at one instant. The poller builds a new one after
// each change and publishes it atomically; exporters only ever render snapshots (a scrape never
// touches a bus and never waits for one).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coding/finding.hpp"
#include "daemon/metrics_config.hpp"
#include "cmis/report.hpp"
#include "daemon/fec_forecast.hpp"
#include "daemon/flight_recorder.hpp"
#include "drivers/link_health.hpp"

namespace xcvr::daemon {

enum class PortPresence { Present, Absent, Unknown };

// A port's lifecycle as its poller sees it (the `state` label of
// transceiver_port_lifecycle_state, the JSON API's `state`).
enum class PortState {
  Unknown,        // no poller has published yet
  Empty,          // no module in the cage
  Misconfigured,  // the host lacks what the port's configuration names (misconfiguration says what)
  Settling,       // inserted, waiting before the first read
  Reading,        // reading its static pages
  Ok,
  Failing,        // reads fail, backing off
  Stale,          // present but no good read for K intervals: monitors withheld
};

constexpr std::string_view port_state_name(PortState s) {
  switch (s) {
    case PortState::Unknown: return "";
    case PortState::Empty: return "empty";
    case PortState::Misconfigured: return "misconfigured";
    case PortState::Settling: return "settling";
    case PortState::Reading: return "reading";
    case PortState::Ok: return "ok";
    case PortState::Failing: return "failing";
    case PortState::Stale: return "stale";
  }
  return "";
}

// One latched flag's history on one port (lane 0 = module-level flag).
struct FlagHistory {
  std::string_view flag;  // "rx_los", ...: base::interned, so a snapshot's copy allocates nothing
  int lane = 0;
  // Events: rising edges, i.e. reads that found the flag raised when the previous read of it
  // (a poll, or the re-read that confirms a latched flag) found it clear. A condition that came
  // and went between two polls counts once (its latch); one that persists counts once, however
  // many polls it lasts.
  uint64_t raised_total = 0;
  // Raised at the last read, or seen raised within the hold window (poll.flag_hold) before the
  // snapshot: a time window, not a scrape window, so every reader sees the same (invariant 3).
  bool raised = false;
  double since_unix = 0;         // first read of this raising (the gauge has been 1 since); 0 = never
  double last_seen_unix = 0;     // last read that found it raised; 0 = never
  double last_cleared_unix = 0;  // last read that found it clear after a raised one; 0 = never
};

using coding::CodingFinding;  // coding/finding.hpp

struct LaneAging {  // drift against the first value seen for this serial (laser aging)
  int lane = 0;
  std::optional<double> tx_bias_ratio;   // current / baseline
  std::optional<double> tx_power_ratio;
};

struct PortSnapshot {
  std::string port;    // unique label within the exporter
  std::string node;    // remote switch for fabric-sourced ports ("" otherwise)
  std::string domain;  // serialization domain (bus, NIC, IB target)
  std::string source;  // "emulator", "i2c", "optoe", "netlink", "ib", "file"
  std::string cage;    // cage form factor from config ("OSFP", "QSFP-DD", ...), may be ""
  std::vector<std::string> groups;  // budget/port groups this port belongs to

  PortPresence presence = PortPresence::Unknown;
  bool stale = false;  // present but no good read for K intervals: monitors withheld
  PortState state = PortState::Unknown;
  // Misconfigured: what the port's configuration names that the host lacks (Transport::missing).
  std::string misconfiguration;
  // Decoded module (identity + monitors as of last_good_read_unix). Absent when the cage is
  // empty or no read ever succeeded; when stale, monitor values must not be exported.
  std::shared_ptr<const cmis::ModuleReport> report;
  double last_good_read_unix = 0;  // 0 = never

  uint64_t insertions_total = 0;
  std::map<std::string, uint64_t> read_errors_total;  // by error kind ("absent", "busy", ...)
  std::vector<FlagHistory> flags;
  std::vector<CodingFinding> coding;
  std::vector<LaneAging> aging;
  bool over_power_allowance = false;
  // Out of service by configuration: the whole port (health "unused", never alarming) or some
  // of its lanes (e.g. lanes 5-8 of a half-cabled twin-port module), whose flags and monitors
  // do not count toward the port's health.
  bool in_service = true;
  std::vector<int> unused_lanes;  // 1-based, sorted

  // Link health beside the optic (drivers/link_health.hpp), polled every link_interval: the
  // counters of the last good link read while it is fresh (within stale_after_intervals link
  // intervals), else null; never shown for an empty cage.
  std::shared_ptr<const drivers::LinkHealth> link;
  double link_read_unix = 0;                                 // 0 = never
  std::map<std::string, uint64_t> link_read_errors_total;   // by error kind
  // Time to the FEC limit at the worst media lane's pre-FEC BER trend (daemon/fec_forecast.hpp);
  // absent for a module without VDM pre-FEC BER.
  std::optional<FecForecast> fec_forecast;
  // The flight recorder's events of this port, oldest first (daemon/flight_recorder.hpp); null
  // when none.
  std::shared_ptr<const RecorderEvents> events;
};

struct BudgetSnapshot {
  std::string group;
  double budget_watts = 0;             // configured total
  double per_port_allowance_watts = 0;
  double allocated_watts = 0;          // sum of advertised max power of present modules
  double projected_watts = 0;          // allocated + empty cages filled at the allowance
  int ports = 0;
  int present = 0;
  std::vector<std::string> over_allowance_ports;
};

struct DomainStats {
  std::string domain;
  uint64_t cycles_total = 0;
  double last_cycle_seconds = 0;
  std::vector<std::pair<double, uint64_t>> cycle_seconds_buckets;  // (upper bound le, cumulative count), le ascending
  double cycle_seconds_sum = 0;
  uint64_t bus_bytes_total = 0;
  uint64_t bus_transactions_total = 0;
};

struct Snapshot {
  double taken_unix = 0;
  std::vector<PortSnapshot> ports;
  std::vector<BudgetSnapshot> budgets;
  std::vector<DomainStats> domains;
  // What sources that find their own ports looked at and found (netlink discovery), so a host
  // where nothing was found says why on the landing page.
  std::vector<std::string> source_notes;
  uint64_t config_reloads_total = 0;
  uint64_t config_reload_failures_total = 0;
  bool last_config_reload_ok = true;
  double last_config_reload_unix = 0;
  uint64_t state_write_failures_total = 0;  // state files not saved (aging baselines, recorder events)
  uint64_t recorder_events_total = 0;       // flight-recorder events frozen since start
  std::string version;
  std::shared_ptr<const MetricsConfig> metrics;  // the config's [metrics]; nullptr: its defaults
};

// Publishes snapshots: one writer (the poller), many readers (scrapes). Readers get a
// shared_ptr they keep as long as they like; publishing never waits for them.
class SnapshotStore {
 public:
  void publish(std::shared_ptr<const Snapshot> snapshot) {
    std::lock_guard lock(mutex_);
    current_ = std::move(snapshot);
  }
  std::shared_ptr<const Snapshot> current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }
  // A Prometheus scrape took the current snapshot. Counted only (benchmarks publish a new
  // snapshot per scrape): a scrape consumes nothing, every reader sees the same flags.
  std::shared_ptr<const Snapshot> current_for_scrape() const {
    scrapes_.fetch_add(1, std::memory_order_relaxed);
    return current();
  }
  uint64_t scrapes() const { return scrapes_.load(std::memory_order_relaxed); }

 private:
  mutable std::atomic<uint64_t> scrapes_{0};
  mutable std::mutex mutex_;  // guards only the pointer swap/copy: nanoseconds
  std::shared_ptr<const Snapshot> current_ = std::make_shared<const Snapshot>();
};

}  // namespace xcvr::daemon
