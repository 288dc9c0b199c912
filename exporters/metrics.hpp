// /metrics: renders a daemon::Snapshot as exposition text in prometheus::TextSerializer's format
// with shortest exact values (render_text, exporters/text_exposition.hpp); the same walk of the
// snapshot (add_all_series) gives the tests prometheus-cpp families (tests/support/
// metric_families.hpp). Rendering reads only the snapshot: a scrape never touches a bus.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "daemon/snapshot.hpp"
#include "drivers/process_stats.hpp"
#include "exporters/per_snapshot.hpp"
#include "exporters/series_plan.hpp"
#include "exporters/text_exposition.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

class FamilySet;  // families.hpp

// Facts about the exporter itself that are not in the snapshot.
struct SelfStats {
  std::optional<double> last_scrape_seconds;  // duration of the previous render
  uint64_t render_errors = 0;
  std::optional<drivers::ProcessStats> process;  // the daemon's process_* figures (nullopt: none)
};

// Every series of one snapshot into `out` (see docs/metrics.md). Stale modules keep presence,
// info, last-read time and counters; their monitor, threshold, state and flag series are withheld.
// `plan`: the profile's choice per port (exporters/series_plan.hpp); {} = the full profile.
void add_all_series(FamilySet& out, const health::FleetView& views, const SelfStats& self, const SeriesPlan& plan = {});

// Text exposition format 0.0.4 of every series, written one by one without building families
// (exporter_text_exposition_test holds it equal to prometheus-cpp's serializer).
// `family_bytes`: kept by a caller that renders snapshot after snapshot (FamilySet).
TextBuffer render_body(const health::FleetView& views, const SelfStats& self = {},
                       std::vector<std::size_t>* family_bytes = nullptr, const SeriesPlan& plan = {});
// render_body() as a string (a copy of the body: for callers off the scrape path).
std::string render_text(const health::FleetView& views, const SelfStats& self = {}, const SeriesPlan& plan = {});

// Content-Type of render_text() output.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

// One snapshot's /metrics body, rendered once and shared by every scrape of that snapshot.
struct RenderedMetrics {
  TextBuffer body;
  std::string_view text;  // body's bytes
  std::string gzip;       // `text` gzip-compressed; empty if compression failed
};

// Serves the store's current snapshot as /metrics. render() never throws (an exception would
// terminate the daemon): on failure it counts the error and returns nullptr. It takes the
// snapshot with current_for_scrape(), which counts scrapes and consumes nothing: every scraper,
// the landing page and the JSON API see the same flags.
class SnapshotCollector {
 public:
  explicit SnapshotCollector(const daemon::SnapshotStore& store) : store_(store) {}

  // The current snapshot as text (and gzip), rendered by the first call after each publish
  // and reused while the snapshot stays the same: snapshots are immutable, so concurrent and
  // repeated scrapes (an HA pair) cost one render. nullptr if rendering failed. The render's
  // duration is exported by the next snapshot's render.
  std::shared_ptr<const RenderedMetrics> render() const;
  SelfStats self_stats() const;  // the exporter's own figures for the next render

 private:
  const daemon::SnapshotStore& store_;
  mutable std::atomic<double> last_render_seconds_{-1};
  mutable std::atomic<uint64_t> render_errors_{0};
  PerSnapshot<RenderedMetrics> rendered_;
  mutable SeriesPlanner planner_;  // the profile's lanes per port, render after render
  mutable std::vector<std::size_t> family_bytes_;  // of the last render (render_body; under rendered_'s lock)
};

}  // namespace xcvr::exporters
