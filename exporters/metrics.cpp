#include "exporters/metrics.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include "daemon/build_info.hpp"
#include "exporters/gzip.hpp"
#include "exporters/metrics_internal.hpp"
#include "exporters/text_exposition.hpp"

namespace xcvr::exporters {
namespace detail {

void add_budget_series(FamilySet& out, const daemon::Snapshot& s) {
  std::set<std::string> seen;
  for (const daemon::BudgetSnapshot& b : s.budgets) {
    if (!seen.insert(b.group).second) continue;
    const Labels l{{"group", b.group}};
    out.gauge(Fam::PowerBudget, l, b.budget_watts);
    out.gauge(Fam::PowerAllocated, l, b.allocated_watts);
    out.gauge(Fam::PowerProjected, l, b.projected_watts);
    out.gauge(Fam::PowerPortAllowance, l, b.per_port_allowance_watts);
    out.gauge(Fam::PowerGroupCages, l, b.ports);
    out.gauge(Fam::PowerGroupModules, l, b.present);
  }
}

namespace {

prometheus::ClientMetric::Histogram cycle_histogram(const daemon::DomainStats& d) {
  prometheus::ClientMetric::Histogram h;
  h.sample_count = d.cycles_total;
  h.sample_sum = d.cycle_seconds_sum;
  for (const auto& [le, count] : d.cycle_seconds_buckets) {
    if (std::isinf(le)) continue;  // the serializer writes le="+Inf" from sample_count
    h.bucket.push_back({count, le});
  }
  return h;
}

void add_domain_series(FamilySet& out, const daemon::Snapshot& s) {
  std::set<std::string> seen;
  for (const daemon::DomainStats& d : s.domains) {
    if (!seen.insert(d.domain).second) continue;
    const Labels l{{"domain", d.domain}};
    out.histogram(Fam::PollCycleDuration, l, cycle_histogram(d));
    out.gauge(Fam::PollCycleLastDuration, l, d.last_cycle_seconds);
    out.counter(Fam::BusBytesTotal, l, static_cast<double>(d.bus_bytes_total));
    out.counter(Fam::BusTransactionsTotal, l, static_cast<double>(d.bus_transactions_total));
  }
}

}  // namespace

void add_self_series(FamilySet& out, const daemon::Snapshot& s, const SelfStats& self) {
  out.gauge(Fam::BuildInfo,
            {{"version", s.version.empty() ? daemon::build_info::version() : std::string_view(s.version)},
             {"revision", daemon::build_info::revision()},
             {"build_date", daemon::build_info::date()}},
            1);
  add_domain_series(out, s);
  out.counter(Fam::ConfigReloadsTotal, {}, static_cast<double>(s.config_reloads_total));
  out.counter(Fam::ConfigReloadFailuresTotal, {},
              static_cast<double>(s.config_reload_failures_total));
  out.gauge(Fam::ConfigLastReloadSuccessful, {}, s.last_config_reload_ok ? 1 : 0);
  if (s.last_config_reload_unix > 0) {
    out.gauge(Fam::ConfigLastReloadTimestamp, {}, s.last_config_reload_unix);
  }
  if (s.taken_unix > 0) out.gauge(Fam::SnapshotTimestamp, {}, s.taken_unix);
  out.counter(Fam::StateWriteFailuresTotal, {}, static_cast<double>(s.state_write_failures_total));
  out.counter(Fam::RecorderEventsTotal, {}, static_cast<double>(s.recorder_events_total));
  if (self.last_scrape_seconds) out.gauge(Fam::ScrapeDuration, {}, *self.last_scrape_seconds);
  if (const auto& p = self.process) {
    out.counter(Fam::ProcessCpuSeconds, {}, p->cpu_seconds);
    out.gauge(Fam::ProcessResidentMemory, {}, p->resident_bytes);
    out.gauge(Fam::ProcessVirtualMemory, {}, p->virtual_bytes);
    out.gauge(Fam::ProcessStartTime, {}, p->start_time_unix);
    out.gauge(Fam::ProcessOpenFds, {}, p->open_fds);
    out.gauge(Fam::ProcessMaxFds, {}, p->max_fds);
  }
}

}  // namespace detail

void add_all_series(FamilySet& out, const health::FleetView& views, const SelfStats& self, const SeriesPlan& plan) {
  const daemon::Snapshot& snapshot = views.snapshot();
  std::unordered_set<std::string_view> ports;  // a repeated port name would duplicate every series
  ports.reserve(snapshot.ports.size());
  for (std::size_t i = 0; i < snapshot.ports.size(); ++i) {
    const daemon::PortSnapshot& p = snapshot.ports[i];
    if (ports.insert(p.port).second) {
      detail::add_port_series(out, p, views.port(i), {.fleet = plan.fleet, .lanes = plan.shows_lanes(i)});
    }
  }
  detail::add_budget_series(out, snapshot);
  detail::add_self_series(out, snapshot, self);
  // Known before take_text(): ports dropped as duplicates; after: samples refused by validation.
  const std::size_t duplicates = snapshot.ports.size() - ports.size();
  out.counter(Fam::RenderErrorsTotal, {},
              static_cast<double>(self.render_errors + duplicates + out.dropped()));
}

TextBuffer render_body(const health::FleetView& views, const SelfStats& self, std::vector<std::size_t>* family_bytes,
                       const SeriesPlan& plan) {
  FamilySet out(family_bytes);
  add_all_series(out, views, self, plan);
  return out.take_text(family_bytes);
}

std::string render_text(const health::FleetView& views, const SelfStats& self, const SeriesPlan& plan) {
  return std::string(render_body(views, self, nullptr, plan).view());
}

SelfStats SnapshotCollector::self_stats() const {
  SelfStats self;
  const double last = last_render_seconds_.load();
  if (last >= 0) self.last_scrape_seconds = last;
  self.render_errors = render_errors_.load();
  self.process = drivers::read_process_stats();  // as of the render: once per snapshot
  return self;
}

std::shared_ptr<const RenderedMetrics> SnapshotCollector::render() const {
  const auto snapshot = store_.current_for_scrape();
  if (!snapshot) return nullptr;
  try {
    return rendered_.get(snapshot, [&] {
      const auto start = std::chrono::steady_clock::now();
      auto out = std::make_shared<RenderedMetrics>();
      const auto views = health::shared_views(snapshot);
      out->body = render_body(*views, self_stats(), &family_bytes_, planner_.plan(*views));
      out->text = out->body.view();
      out->gzip = gzip_compress(out->text).value_or("");
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      last_render_seconds_.store(took.count());
      return std::shared_ptr<const RenderedMetrics>(std::move(out));
    });
  } catch (...) {
    render_errors_.fetch_add(1);
    return nullptr;
  }
}

}  // namespace xcvr::exporters
