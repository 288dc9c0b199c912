// Frontend: everything the daemon shows the outside world — the HTTP(S) server and the optional
// node_exporter textfile — configured from the daemon's [web] section.
#pragma once

#include <memory>
#include <string>

#include "daemon/config.hpp"
#include "daemon/snapshot.hpp"
#include "exporters/http_server.hpp"

namespace xcvr::exporters {

// The daemon's [web] config in the HTTP server's terms.
WebConfig to_server_config(const daemon::WebConfig& web);

class Frontend {
 public:
  Frontend(const daemon::WebConfig& web, const daemon::SnapshotStore& store, std::string textfile);
  // Binds the listeners; returns the error (naming the address or file) or "".
  std::string start();
  // Called periodically by the main loop: rewrites the textfile when the snapshot changed.
  void tick();
  void stop();

 private:
  const daemon::SnapshotStore& store_;
  std::string textfile_;
  HttpServer server_;
  double textfile_written_for_ = -1;  // snapshot time of the last textfile write
};

}  // namespace xcvr::exporters
