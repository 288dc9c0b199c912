// The daemon as a service: loads the config, builds sources, runs the poll engine, reloads on
// SIGHUP (a bad new config keeps the old one running), and keeps systemd informed.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include "daemon/aging.hpp"
#include "daemon/recorder_store.hpp"
#include "base/clock.hpp"
#include "daemon/coding_setup.hpp"
#include "daemon/config.hpp"
#include "daemon/poll_engine.hpp"
#include "daemon/snapshot.hpp"
#include "daemon/sources.hpp"

namespace xcvr::daemon {

// A config file turned into everything it needs, before anything running is touched: every
// fallible step of --check-config, a start and a reload (parse, limits, catalog and OUI
// registry, sources built) is done here, the same way for all three.
struct PreparedConfig {
  Config config;
  std::shared_ptr<const CodingSetup> coding;
  BuiltSources built;
  // Accepted but probably not meant: a budget group or cage-style glob that matches no port.
  std::vector<std::string> warnings;
};
// `running` (a reload): sources unchanged since then are kept, not rebuilt. `loaded_hook` sees
// the parsed config before anything is built (a start applies its log level there). Never throws.
std::variant<PreparedConfig, std::string> prepare_config(const std::string& path,
                                                         const BuiltSources* running = nullptr,
                                                         const std::function<void(const Config&)>& loaded_hook = {});

class Service {
 public:
  // Checks and applies the web settings of a prepared reload (the frontend lives above daemon/):
  // "" when they took effect, else the error (then nothing of the reload is applied).
  using WebApply = std::function<std::string(const WebConfig&)>;

  Service(const base::Clock& clock, SnapshotStore& store) : clock_(clock), store_(store) {}
  ~Service() { stop(); }

  // Loads `path` and builds its engine (not yet running). Returns the error (file:line:col) or "".
  std::string start(const std::string& path);
  // Starts the domain threads (real time). Tests drive engine()->step() instead.
  void run();
  // Reloads the same path, all or nothing: on any failure (config, sources, or `web` refusing
  // the new web settings) the running engine and frontend are untouched and the failure is
  // counted. Returns "" or the error.
  std::string reload(const WebApply& web = {});
  void stop();
  // For sources that watch what they discover (SourceKind::watch; netlink: netdevs that
  // appeared, went or were renamed): on a change, builds the
  // sources again from the running config (the file is not re-read) — ports that stay keep
  // their pollers — and returns true. Call it often (the main loop's tick); it does not block.
  bool follow_discovery();

  const Config& config() const { return config_; }
  // Catalog, OUI registry and cage-style rules of the running config.
  const CodingSetup* coding() const { return coding_.get(); }
  PollEngine* engine() { return engine_.get(); }
  uint64_t reloads_attempted() const { return reloads_attempted_; }
  uint64_t reloads_failed() const { return reloads_failed_; }

 private:
  enum class Launch { Start, Reload, Rediscovery };  // Rediscovery: follow_discovery() rebuilt the sources
  void launch(PreparedConfig prepared, Launch why);
  // `kept`: how many of them are running pollers taken over.
  std::vector<std::unique_ptr<PortPoller>> pollers_for(PreparedConfig& prepared, std::size_t& kept);

  const base::Clock& clock_;
  SnapshotStore& store_;
  std::string path_;
  Config config_;
  std::unique_ptr<AgingStore> aging_;
  std::unique_ptr<RecorderStore> recorder_;  // flight-recorder events (daemon/recorder_store.hpp)
  std::shared_ptr<const CodingSetup> coding_;
  BuiltSources sources_;
  std::unique_ptr<PollEngine> engine_;
  uint64_t reloads_attempted_ = 0;
  uint64_t reloads_failed_ = 0;
  bool last_reload_ok_ = true;   // of the last SIGHUP reload; a netdev change is no reload
  double last_reload_unix_ = 0;  // 0: none since the start
  bool running_ = false;
  // Per kind (its type), while a source of it watches; and what the last change was ("netdevs").
  std::map<std::string, std::unique_ptr<drivers::DiscoveryWatch>, std::less<>> watches_;
  std::string_view rediscovered_;
};

}  // namespace xcvr::daemon
