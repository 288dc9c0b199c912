#include "tests/support/metric_families.hpp"

#include <prometheus/check_names.h>

#include "exporters/text_exposition.hpp"

namespace xcvr::exporters {

FamilyCollector::FamilyCollector(std::size_t ports) {
  families_.reserve(family_specs().size());
  for (const FamilySpec& spec : family_specs()) {
    prometheus::MetricFamily f;
    f.name = std::string(spec.name);
    f.help = std::string(spec.help);
    f.type = spec.type;
    // Room for a full fleet up front: regrowing vectors of ClientMetric dominates otherwise.
    if (spec.id < Fam::PowerBudget) {
      const bool lanes = spec.name.find("_lane_") != std::string_view::npos;
      const bool levels = spec.name.find("_threshold_") != std::string_view::npos;
      f.metric.reserve(ports * (lanes ? 8 : levels ? 4 : 1));
    }
    families_.push_back(std::move(f));
  }
}

void FamilyCollector::sample(const FamilySpec& spec, std::span<const LabelView> labels,
                             prometheus::ClientMetric* histogram, double value) {
  prometheus::ClientMetric metric = histogram ? std::move(*histogram) : prometheus::ClientMetric{};
  metric.label.reserve(labels.size());
  for (const LabelView& l : labels) metric.label.push_back({std::string(l.name), std::string(l.value)});
  if (spec.type == prometheus::MetricType::Gauge) metric.gauge.value = value;
  if (spec.type == prometheus::MetricType::Counter) metric.counter.value = value;
  families_[static_cast<std::size_t>(spec.id)].metric.push_back(std::move(metric));
}

std::vector<prometheus::MetricFamily> FamilyCollector::take() {
  std::vector<prometheus::MetricFamily> out;
  for (auto& f : families_) {
    if (!f.metric.empty() && prometheus::CheckMetricName(f.name)) out.push_back(std::move(f));
  }
  families_.clear();
  return out;
}

std::vector<prometheus::MetricFamily> build_families(const health::FleetView& views, const SelfStats& self) {
  FamilyCollector families(views.snapshot().ports.size());
  FamilySet out(families);
  add_all_series(out, views, self);
  return families.take();
}

std::vector<prometheus::MetricFamily> collect_families(const SnapshotCollector& collector,
                                                       const daemon::SnapshotStore& store) {
  const auto snapshot = store.current_for_scrape();
  return snapshot ? build_families(*health::shared_views(snapshot), collector.self_stats())
                  : std::vector<prometheus::MetricFamily>{};
}

std::string serialize_text(const std::vector<prometheus::MetricFamily>& families) {
  std::size_t series = 0;
  for (const auto& f : families) series += f.metric.size();
  std::string out;
  out.reserve(series * 96 + families.size() * 160);  // a typical line; one regrowth at most
  for (const auto& f : families) {
    append_family_header(out, f.name, f.type, f.help);
    for (const auto& m : f.metric) append_metric(out, f.name, f.type, m);
  }
  return out;
}

}  // namespace xcvr::exporters
