// The daemon as a service: loads the config, builds sources, runs the poll engine, reloads on
// SIGHUP (a bad new config keeps the old one running), and keeps systemd informed.
#pragma once

#include <memory>
#include <string>

#include "daemon/aging.hpp"
#include "daemon/clock.hpp"
#include "daemon/coding_setup.hpp"
#include "daemon/config.hpp"
#include "daemon/poll_engine.hpp"
#include "daemon/snapshot.hpp"
#include "daemon/sources.hpp"

namespace xcvr::daemon {

class Service {
 public:
  Service(const PollClock& clock, SnapshotStore& store) : clock_(clock), store_(store) {}
  ~Service() { stop(); }

  // Loads `path` and builds its engine (not yet running). Returns the error (file:line:col) or "".
  std::string start(const std::string& path);
  // Starts the domain threads (real time). Tests drive engine()->step() instead.
  void run();
  // Reloads the same path; on failure the running engine is untouched. Returns "" or the error.
  std::string reload();
  void stop();

  const Config& config() const { return config_; }
  // Catalog, OUI registry and cage-style rules of the running config.
  const CodingSetup* coding() const { return coding_.get(); }
  PollEngine* engine() { return engine_.get(); }
  uint64_t reloads_ok() const { return reloads_ok_; }
  uint64_t reloads_failed() const { return reloads_failed_; }

 private:
  void launch(Config config, BuiltSources built, std::shared_ptr<const CodingSetup> coding, bool is_reload);

  const PollClock& clock_;
  SnapshotStore& store_;
  std::string path_;
  Config config_;
  std::unique_ptr<AgingStore> aging_;
  std::shared_ptr<const CodingSetup> coding_;
  BuiltSources sources_;
  std::unique_ptr<PollEngine> engine_;
  uint64_t reloads_ok_ = 0;
  uint64_t reloads_failed_ = 0;
  bool running_ = false;
};

}  // namespace xcvr::daemon
