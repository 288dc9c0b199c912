// The prometheus-cpp side of /metrics, for tests and benchmarks only: the families one render's
// series make (FamilyCollector, a FamilySet sink; build_families), what a Collectable over the
// collector's store would give (collect_families), and their text as prometheus-cpp's
// TextSerializer writes it but for values (serialize_text). The equivalence tests hold the
// product's text (exporters::render_body) to these; check_separate.sh fails if a product library
// defines them.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

#include "daemon/snapshot.hpp"
#include "exporters/families.hpp"
#include "exporters/metrics.hpp"

namespace xcvr::exporters {

// Builds one prometheus-cpp family per family row from the samples a FamilySet hands it.
class FamilyCollector final : public FamilySink {
 public:
  // `ports`: room for a fleet of that many up front.
  explicit FamilyCollector(std::size_t ports = 0);
  void sample(const FamilySpec& spec, std::span<const LabelView> labels, prometheus::ClientMetric* histogram,
              double value) override;
  // The families with samples, in table order (names checked with prometheus::CheckMetricName).
  std::vector<prometheus::MetricFamily> take();

 private:
  std::vector<prometheus::MetricFamily> families_;
};

// All families for one snapshot: the series render_body() writes as text.
std::vector<prometheus::MetricFamily> build_families(const health::FleetView& views, const SelfStats& self = {});

// The families of the store's current snapshot with `collector`'s own figures, as a
// prometheus-cpp Collectable serving it would collect them.
std::vector<prometheus::MetricFamily> collect_families(const SnapshotCollector& collector,
                                                       const daemon::SnapshotStore& store);

std::string serialize_text(const std::vector<prometheus::MetricFamily>& families);

}  // namespace xcvr::exporters
