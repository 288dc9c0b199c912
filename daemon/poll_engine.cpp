#include "daemon/poll_engine.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include "coding/coding.hpp"
#include "daemon/budget.hpp"
#include "daemon/build_info.hpp"
#include "daemon/coding_setup.hpp"

namespace xcvr::daemon {

namespace {
std::vector<std::unique_ptr<PortPoller>> make_pollers(std::vector<PortSpec> ports, const PollConfig& poll,
                                                      const std::shared_ptr<const CodingSetup>& coding) {
  std::vector<std::unique_ptr<PortPoller>> out;
  for (PortSpec& spec : ports) {
    out.push_back(std::make_unique<PortPoller>(std::move(spec.id), std::move(spec.transport), poll, coding));
  }
  return out;
}
}  // namespace

PollEngine::PollEngine(const Config& config, std::vector<PortSpec> ports, const base::Clock& clock,
                       SnapshotStore& store, AgingStore& aging, std::shared_ptr<const CodingSetup> coding)
    : PollEngine(config, make_pollers(std::move(ports), config.poll, coding), clock, store, aging, coding) {}

PollEngine::PollEngine(const Config& config, std::vector<std::unique_ptr<PortPoller>> pollers,
                       const base::Clock& clock, SnapshotStore& store, AgingStore& aging,
                       std::shared_ptr<const CodingSetup> coding)
    : config_(config), metrics_(std::make_shared<const MetricsConfig>(config.metrics)), clock_(clock), store_(store),
      aging_(aging), coding_(std::move(coding)) {
  // A scrape sees data at most this much older than the last poll: small beside the interval.
  publish_interval_ = std::min(0.1, config.poll.dynamic_interval_s / 10);
  std::map<std::string, Domain*> by_name;
  for (auto& poller : pollers) {
    const std::string domain = poller->transport().domain();
    Domain*& d = by_name[domain];
    if (d == nullptr) {
      domains_.push_back(std::make_unique<Domain>());
      d = domains_.back().get();
      d->name = domain;
      d->stats.domain = domain;
      for (double le : kCycleBuckets) d->stats.cycle_seconds_buckets.emplace_back(le, 0);
    }
    d->ports.push_back(std::move(poller));
  }
  recorder_->set_bounds(config.poll.recorder.events_per_port, config.poll.recorder.max_events);
  for (auto& d : domains_) {  // the bus budget of the recorder's fast poll, per domain
    auto budget = std::make_shared<FastPollBudget>(config.poll.recorder.fast_ports_per_domain);
    for (auto& p : d->ports) p->set_fast_budget(budget);
  }
}

void PollEngine::set_recorder(RecorderStore& store) {
  recorder_ = &store;
  recorder_->set_bounds(config_.poll.recorder.events_per_port, config_.poll.recorder.max_events);
  for (auto& e : own_recorder_->all()) store.add(e, clock_.wall());
  own_recorder_.reset();
}

PollEngine::~PollEngine() { stop(); }

PortPoller* PollEngine::port(const std::string& name) {
  for (auto& d : domains_) {
    for (auto& p : d->ports) {
      if (p->name() == name) return p.get();
    }
  }
  return nullptr;
}

void PollEngine::request_reverify_all() {
  for (auto& d : domains_) {
    for (auto& p : d->ports) p->request_reverify();
  }
}

double PollEngine::run_domain(Domain& d) {
  const double start = clock_.monotonic();
  double next = std::numeric_limits<double>::infinity();
  bool polled = false;
  const std::size_t n = d.ports.size();
  for (std::size_t k = 0; k < n; ++k) {
    PortPoller& p = *d.ports[(d.next_port + k) % n];
    const double now = clock_.monotonic();
    if (p.next_due() <= now + 1e-9) {
      const double wall = clock_.wall();
      p.poll(now, wall);
      for (auto& event : p.take_recorded()) recorder_->add(std::move(event), wall);
      polled = true;
    }
    next = std::min(next, p.next_due());
  }
  d.next_port = n == 0 ? 0 : (d.next_port + 1) % n;  // fairness: rotate who goes first
  const double end = clock_.monotonic();
  std::vector<PortSnapshot> snaps;
  snaps.reserve(n);
  drivers::BusCounters bus;
  for (auto& p : d.ports) {
    snaps.push_back(p->snapshot(end));
    const drivers::BusCounters c = p->transport().counters();
    bus.bytes += c.bytes;
    bus.transactions += c.transactions;
  }
  std::lock_guard lock(d.mutex);
  d.published = std::move(snaps);
  d.stats.bus_bytes_total = bus.bytes;
  d.stats.bus_transactions_total = bus.transactions;
  if (polled) {
    const double took = end - start;
    ++d.stats.cycles_total;
    d.stats.last_cycle_seconds = took;
    d.stats.cycle_seconds_sum += took;
    for (auto& [le, count] : d.stats.cycle_seconds_buckets) {
      if (took <= le) ++count;
    }
  }
  d.heartbeat.store(end);
  return next;
}

void PollEngine::publish() {
  std::lock_guard publish_lock(publish_mutex_);  // snapshots go out in the order they were built
  auto snap = std::make_shared<Snapshot>();
  snap->taken_unix = clock_.wall();
  snap->version = std::string(build_info::version());
  for (auto& d : domains_) {
    std::lock_guard lock(d->mutex);
    snap->ports.insert(snap->ports.end(), d->published.begin(), d->published.end());
    snap->domains.push_back(d->stats);
  }
  // Aging drift and re-coding memory need the module's serial: one store for all domains. A
  // serial in two cages (serial_duplicate) identifies neither module: no baseline is learned or
  // borrowed for it, so a copy never shows drift against the original's laser.
  std::vector<std::string> keys(snap->ports.size());  // each port's serial_key, made once
  std::map<std::string_view, int> holders;             // views into `keys`, which never grows
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!snap->ports[i].report) continue;
    keys[i] = coding::serial_key(*snap->ports[i].report);
    ++holders[keys[i]];
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    PortSnapshot& p = snap->ports[i];
    if (!p.report || p.stale || (!keys[i].empty() && holders[keys[i]] > 1)) continue;
    p.aging = aging_.observe(*p.report, snap->taken_unix);
  }
  if (coding_) add_fleet_findings(snap->ports, &aging_);  // after observe(): first sightings recorded
  if (const auto events = recorder_->index(); !events->empty()) {  // one lock a publish, none a port
    for (PortSnapshot& p : snap->ports) {
      if (const auto it = events->find(p.port); it != events->end()) p.events = it->second;
    }
  }
  recorder_->maybe_save(snap->taken_unix);  // a retry of a failed write, when nothing new comes
  snap->budgets = compute_budgets(config_.budgets, snap->ports);
  snap->source_notes = source_notes_;
  snap->config_reloads_total = reloads_attempted_.load();
  snap->config_reload_failures_total = reloads_failed_.load();
  snap->last_config_reload_ok = last_reload_ok_.load();
  snap->last_config_reload_unix = last_reload_unix_.load();
  snap->state_write_failures_total = aging_.write_failures() + recorder_->write_failures();
  snap->recorder_events_total = recorder_->recorded_total();
  snap->metrics = metrics_;
  store_.publish(std::move(snap));
}

double PollEngine::step() {
  double next = std::numeric_limits<double>::infinity();
  for (auto& d : domains_) next = std::min(next, run_domain(*d));
  publish();
  return next;
}

void PollEngine::worker(Domain& d) {
  while (!stopping_.load()) {
    const double next = run_domain(d);
    {
      std::lock_guard lock(dirty_mutex_);
      dirty_ = true;
    }
    dirty_cv_.notify_one();
    const double wait = std::clamp(next - clock_.monotonic(), 0.0, 1.0);  // wake at least each second
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return stopping_.load(); });
  }
}

void PollEngine::publisher() {
  for (;;) {
    {
      std::unique_lock lock(dirty_mutex_);
      dirty_cv_.wait(lock, [this] { return dirty_ || publisher_stopping_; });
      if (!dirty_) return;  // stopping, and the last cycle is out
      dirty_ = false;
    }
    publish();
    std::unique_lock lock(dirty_mutex_);  // coalesce the cycles that finish meanwhile
    dirty_cv_.wait_for(lock, std::chrono::duration<double>(publish_interval_),
                       [this] { return publisher_stopping_; });
  }
}

void PollEngine::start() {
  stopping_ = false;
  publisher_stopping_ = false;
  // No domain would ever publish: put out the (empty) snapshot now, or the previous
  // configuration's ports would keep being served as if fresh.
  if (domains_.empty()) publish();
  publisher_ = std::thread([this] { publisher(); });
  for (auto& d : domains_) threads_.emplace_back([this, &d] { worker(*d); });
}

void PollEngine::stop() {
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (publisher_.joinable()) {
    {
      std::lock_guard lock(dirty_mutex_);
      publisher_stopping_ = true;  // the publisher still puts out the last cycles
    }
    dirty_cv_.notify_all();
    publisher_.join();
  }
}

double PollEngine::oldest_domain_heartbeat_age() const {
  double oldest = 0;
  const double now = clock_.monotonic();
  for (const auto& d : domains_) oldest = std::max(oldest, now - d->heartbeat.load());
  return oldest;
}

std::vector<std::unique_ptr<PortPoller>> PollEngine::release_pollers() {
  std::vector<std::unique_ptr<PortPoller>> out;
  for (auto& d : domains_) {
    for (auto& p : d->ports) out.push_back(std::move(p));
  }
  domains_.clear();
  return out;
}

void PollEngine::set_source_notes(std::vector<std::string> notes) {
  std::lock_guard lock(publish_mutex_);
  source_notes_ = std::move(notes);
}

void PollEngine::set_reload_stats(uint64_t attempts, uint64_t failed, bool last_ok, double last_unix) {
  reloads_attempted_ = attempts;
  reloads_failed_ = failed;
  last_reload_ok_ = last_ok;
  last_reload_unix_ = last_unix;
}

}  // namespace xcvr::daemon
