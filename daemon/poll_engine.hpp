// PollEngine: one worker per serialization domain (bus, mux tree, NIC, IB target). Domains run
// in parallel; ports within a domain take turns; a stuck domain delays only its own ports.
// After each domain cycle the engine assembles and publishes a fresh Snapshot.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "daemon/aging.hpp"
#include "daemon/recorder_store.hpp"
#include "base/clock.hpp"
#include "daemon/config.hpp"
#include "daemon/port_poller.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::daemon {

struct PortSpec {
  PortIdentity id;
  std::unique_ptr<drivers::Transport> transport;
  bool discovered = false;  // found by its source, not listed in the config
};

class ScrapeTracker;  // below

class PollEngine {
 public:
  // `coding` (nullptr: none) verifies each module's coding after its static reads, and the
  // fleet checks (duplicate and re-coded serials) run on every published snapshot.
  PollEngine(const Config& config, std::vector<PortSpec> ports, const base::Clock& clock,
             SnapshotStore& store, AgingStore& aging, std::shared_ptr<const CodingSetup> coding = nullptr);
  // From pollers already made (a reload passes the ones it keeps, in port order).
  PollEngine(const Config& config, std::vector<std::unique_ptr<PortPoller>> pollers, const base::Clock& clock,
             SnapshotStore& store, AgingStore& aging, std::shared_ptr<const CodingSetup> coding);
  ~PollEngine();

  // Virtual-time driving (tests): polls every due port of every domain once at the clock's
  // current time, sequentially, then publishes. Returns the earliest next due time.
  double step();

  // Real time: one thread per domain until stop().
  void start();
  void stop();

  std::size_t domain_count() const { return domains_.size(); }
  // Seconds since each domain worker last finished a cycle (watchdog health).
  double oldest_domain_heartbeat_age() const;
  // Every port re-reads its static pages at its next poll (SIGUSR1).
  void request_reverify_all();
  // Ports by name, for tests and `xcvrctl`-style inspection.
  PortPoller* port(const std::string& name);

  // Hands every poller over (a reload keeps the unchanged ones); the engine must be stopped
  // and holds no port afterwards.
  std::vector<std::unique_ptr<PortPoller>> release_pollers();

  // attempts: every SIGHUP (successful or not); failed: those that kept the old config.
  void set_reload_stats(uint64_t attempts, uint64_t failed, bool last_ok, double last_unix);
  // Copied into every snapshot (BuiltSources::notes).
  void set_source_notes(std::vector<std::string> notes);
  // Where the pollers' flight-recorder events go (the service's, kept in the state directory);
  // before any is set, the engine keeps them in memory.
  void set_recorder(RecorderStore& store);
  RecorderStore& recorder() { return *recorder_; }

 private:
  struct Domain {
    std::string name;
    std::vector<std::unique_ptr<PortPoller>> ports;
    std::size_t next_port = 0;  // round-robin start
    mutable std::mutex mutex;   // guards the published fields below
    std::vector<PortSnapshot> published;
    DomainStats stats;
    drivers::BusCounters counters_at_start;
    std::atomic<double> heartbeat{0};
  };

  double run_domain(Domain& d);  // one cycle: every due port once; returns next due
  void publish();
  void worker(Domain& d);
  // Real time: publishes when a domain has finished a cycle, at most every publish_interval_,
  // off the domain threads (a publish copies every port: with hundreds of domains, publishing
  // after each domain cycle would cost O(ports) per cycle, in series with the bus).
  void publisher();

  Config config_;
  std::shared_ptr<const MetricsConfig> metrics_;  // config_.metrics, shared by every snapshot
  const base::Clock& clock_;
  SnapshotStore& store_;
  AgingStore& aging_;
  std::unique_ptr<RecorderStore> own_recorder_ = std::make_unique<RecorderStore>();
  RecorderStore* recorder_ = own_recorder_.get();
  std::shared_ptr<const CodingSetup> coding_;
  std::vector<std::unique_ptr<Domain>> domains_;
  std::vector<std::thread> threads_;
  std::thread publisher_;
  double publish_interval_ = 0.1;
  std::mutex dirty_mutex_;
  std::condition_variable dirty_cv_;
  bool dirty_ = false;             // a domain cycle finished since the last publish
  bool publisher_stopping_ = false;
  std::mutex publish_mutex_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> reloads_attempted_{0}, reloads_failed_{0};
  std::atomic<bool> last_reload_ok_{true};
  std::atomic<double> last_reload_unix_{0};
  std::vector<std::string> source_notes_;  // guarded by publish_mutex_
};

// Cycle-duration histogram buckets (seconds): spans an 8-cage 400 kHz bus (≈ 20 ms) to a
// stuck domain (≥ 10 s).
inline constexpr double kCycleBuckets[] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

}  // namespace xcvr::daemon
