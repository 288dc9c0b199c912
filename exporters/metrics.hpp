// /metrics: renders a daemon::Snapshot into Prometheus families (prometheus-cpp core), serialized
// by prometheus::TextSerializer. Rendering reads only the snapshot: a scrape never touches a bus.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include "daemon/snapshot.hpp"

namespace xcvr::exporters {

// Facts about the exporter itself that are not in the snapshot.
struct SelfStats {
  std::optional<double> last_scrape_seconds;  // duration of the previous render
  uint64_t render_errors = 0;
};

// All families for one snapshot (see docs/metrics.md). Stale modules keep presence, info,
// last-read time and counters; their monitor, threshold, state and flag series are withheld.
std::vector<prometheus::MetricFamily> build_families(const daemon::Snapshot& snapshot,
                                                     const SelfStats& self = {});

// Text exposition format 0.0.4 of build_families().
std::string render_text(const daemon::Snapshot& snapshot, const SelfStats& self = {});

// Content-Type of render_text() output.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

// The Collectable that serves the store's current snapshot. Collect() never throws (an
// exception would terminate the daemon): on failure it counts the error and returns what it
// can.
class SnapshotCollector : public prometheus::Collectable {
 public:
  explicit SnapshotCollector(const daemon::SnapshotStore& store) : store_(store) {}

  std::vector<prometheus::MetricFamily> Collect() const override;

  // Collect() serialized as text; nullopt if serialization failed. Records its own duration,
  // exported by the next render as transceiver_exporter_scrape_duration_seconds.
  std::optional<std::string> render() const;

 private:
  const daemon::SnapshotStore& store_;
  mutable std::atomic<double> last_render_seconds_{-1};
  mutable std::atomic<uint64_t> render_errors_{0};
};

}  // namespace xcvr::exporters
