// Frontend: everything the daemon shows the outside world — the HTTP(S) server and the optional
// node_exporter textfile — configured from the daemon's [web] section, and reconfigured by a
// reload.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "daemon/config.hpp"
#include "daemon/snapshot.hpp"
#include "exporters/http/server.hpp"
#include "exporters/series_plan.hpp"

namespace xcvr::exporters {

// The daemon's [web] config in the HTTP server's terms.
WebConfig to_server_config(const daemon::WebConfig& web);

enum class BindCheck {
  None,     // listen addresses are bound for real right after (a reload)
  InUseOk,  // --check-config: "address in use" is expected while the daemon runs
  Strict,   // start: every address must be bindable now
};

// Everything HttpServer::start() would refuse about `web`, as "file:line:col: ..." of the key:
// listen addresses (syntax, port 0-65535, duplicates and overlaps, unresolvable hosts, and per
// `bind` a test bind), TLS files (regular, readable, within the size cap, loading as a cert and
// matching key). Hashes are checked when the config is parsed. "" when all is well;
// `tls_digest` (optional) receives a digest of the TLS files' bytes (renewal detection).
std::string check_web(const daemon::WebConfig& web, BindCheck bind, std::string* tls_digest = nullptr);

class Frontend {
 public:
  Frontend(const daemon::WebConfig& web, const daemon::SnapshotStore& store, std::string textfile);
  // Binds the listeners; returns the error (naming the address or file) or "".
  std::string start();
  // A reload's web settings (users, hashes, TLS files — compared by content, so a renewed
  // certificate counts —, addresses, limits). Unchanged: nothing happens. Changed: a server
  // with the new settings is started, then the old one stopped; when they share a listen
  // address the old one has to let go of it first (SO_REUSEPORT stays off: no second process
  // may share our port), and on failure it is started again with its settings. Returns "" or
  // the error; on error the old settings keep serving.
  std::string reconfigure(const daemon::WebConfig& web);
  // Called periodically by the main loop: rewrites the textfile when the snapshot changed.
  void tick();
  void stop();
  // Bound TCP port per listen address (tests; port 0 picks a free one).
  std::vector<int> ports() const { return server_->ports(); }

 private:
  const daemon::SnapshotStore& store_;
  std::string textfile_;
  daemon::WebConfig web_;
  std::string tls_digest_;
  std::unique_ptr<HttpServer> server_;
  double textfile_written_for_ = -1;  // snapshot time of the last textfile write
  SeriesPlanner textfile_plans_;
  std::string textfile_error_;  // the last write's error, logged when it first appears or changes
};

}  // namespace xcvr::exporters
