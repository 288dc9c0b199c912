// The scrape benchmark's baseline: the same series served the barest way the chosen libraries
// allow — families built once, serialized per request by prometheus::TextSerializer, served by
// a stock httplib::Server. The exporter's own path adds building families from the snapshot,
// validation, and the guarded connection handling; the benchmark measures that overhead.
#pragma once

#include <httplib.h>
#include <prometheus/text_serializer.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "exporters/metrics.hpp"
#include "tests/support/metric_families.hpp"

namespace xcvr::bench {

class BaselineServer {
 public:
  explicit BaselineServer(const daemon::Snapshot& snapshot)
      : families_(exporters::build_families(health::FleetView(snapshot))) {
    server_.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(prometheus::TextSerializer{}.Serialize(families_),
                      "text/plain; version=0.0.4; charset=utf-8");
    });
  }
  ~BaselineServer() { stop(); }

  // Binds host:port (0 = any free port) and serves in the background; returns the port or -1.
  int start(const std::string& host = "127.0.0.1", int port = 0) {
    const int bound = port == 0 ? server_.bind_to_any_port(host) : (server_.bind_to_port(host, port) ? port : -1);
    if (bound < 0) return -1;
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
    return bound;
  }
  void stop() {
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }

 private:
  std::vector<prometheus::MetricFamily> families_;
  httplib::Server server_;
  std::thread thread_;
};

}  // namespace xcvr::bench
