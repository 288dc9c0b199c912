// The daemon's HTTP(S) endpoint (cpp-httplib): "/" landing page and port map, "/port/<name>",
// "/metrics" (gzip when asked), "/api/v1/modules[/<port>]", "/healthz". Everything is rendered
// from the SnapshotStore's current snapshot; no request touches a bus.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/snapshot.hpp"
#include "daemon/config.hpp"
#include "exporters/http/connection_stats.hpp"

namespace xcvr::exporters {

class SnapshotCollector;

// The [web] settings (daemon::WebConfig: the one schema, defaults in one place: all addresses on
// :10458, plain HTTP, no auth) plus the server's own limits, which no config key sets.
struct WebConfig : daemon::WebConfig {
  std::string tls_min_version = "TLS12";  // "TLS12" or "TLS13"
  // The TLS handshake and a whole request head must arrive within the smaller of this and
  // read_timeout_s, counted from accept (first request) or from its first byte (later ones). Far
  // below Prometheus' 10 s scrape timeout: a slow client is dropped long before it could matter.
  std::chrono::milliseconds request_timeout{3000};
  std::chrono::milliseconds keep_alive_timeout{5000};  // idle time between requests
  std::size_t keep_alive_max_requests = 100;
  std::size_t max_threads = 8;  // requests answered at once (complete requests only)
  // Connections from one client address; beyond it new ones are closed.
  // 0 = half of max_connections, at least 16 (or max_connections if smaller).
  std::size_t max_connections_per_source = 0;

  std::string version;  // shown on the landing page if the snapshot has none
};

class HttpServer {
 public:
  HttpServer(WebConfig config, const daemon::SnapshotStore& store);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Loads TLS material, binds every listen address and starts serving on background threads.
  // Throws std::runtime_error naming the address or file on any failure (nothing keeps
  // running then). Sets SIGPIPE to ignored if it still has its default action.
  void start();

  // Closes the listeners, ends connections (in-flight requests get ~200 ms) and joins the
  // threads. Idempotent.
  void stop();

  // Bound TCP port per listen address, in configuration order (after start()).
  std::vector<int> ports() const;

  // Serves one plain-HTTP connection on which a client sent `request` and closed, with no
  // socket: the same limits, request parser, auth and routes as start()'s listeners. Returns
  // the bytes sent back. For tests and fuzzing; not to be called concurrently with itself.
  std::string serve_bytes(std::string_view request);

  // Zero before start() and after stop().
  ConnectionStats connection_stats() const;

  // The collector behind /metrics (e.g. for a textfile writer sharing its counters).
  const SnapshotCollector& collector() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace xcvr::exporters
