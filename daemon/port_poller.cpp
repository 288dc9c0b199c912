#include "daemon/port_poller.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "base/interned.hpp"
#include "cmis/decode.hpp"
#include "cmis/flags.hpp"
#include "cmis/quantities.hpp"
#include "cmis/vdm.hpp"
#include "daemon/coding_setup.hpp"
#include "daemon/fec_tail.hpp"

namespace xcvr::daemon {

PortPoller::PortPoller(PortIdentity id, std::unique_ptr<drivers::Transport> transport,
                       const PollConfig& poll, std::shared_ptr<const CodingSetup> coding)
    : id_(std::move(id)), transport_(std::move(transport)), poll_(poll), log_(id_.port),
      coding_setup_(std::move(coding)), recorder_(poll.recorder) {}

PortPoller::~PortPoller() {
  if (fast_) fast_budget_->release();
}

void PortPoller::set_fast_budget(std::shared_ptr<FastPollBudget> budget) {
  if (fast_) fast_budget_->release();
  fast_ = false;  // asked again of the new budget at the next poll
  fast_budget_ = std::move(budget);
}

double PortPoller::fast_interval(double now, double normal) {
  const RecorderConfig& r = poll_.recorder;
  const bool wanted = r.enabled && r.fast_interval_s > 0 && now - recorder_.last_trigger() < r.fast_for_s;
  if (wanted && !fast_) fast_ = fast_budget_ && fast_budget_->acquire();
  if (!wanted && fast_) {
    fast_budget_->release();
    fast_ = false;
  }
  recorder_.set_fast(fast_);
  return fast_ ? std::min(r.fast_interval_s, normal) : normal;
}

// What this poll read, into the port's ring: the module's values only while they are current.
void PortPoller::record(double now, double wall) {
  if (!poll_.recorder.enabled || !id_.service.in_service || state_ == State::Empty || state_ == State::Misconfigured) return;
  const cmis::ModuleReport* report = state_ == State::Ok ? report_.get() : nullptr;
  if (report == nullptr && !link_) return;  // nothing read yet (settling): the ring waits for the module's shape
  recorder_.record(now, wall, id_.port, report, link_input_);
}

drivers::ReadPolicy PortPoller::read_policy(double wall) const {
  return {poll_.retries, static_cast<int64_t>(wall * 1e9)};
}

std::optional<drivers::Error> PortPoller::taken(drivers::ReadResult r) {
  // Pages may have been dropped or found unreachable: the next report is decoded whole.
  if (r.error || r.pages_changed) full_decode_due_ = true;
  return std::move(r.error);
}

std::optional<drivers::Error> PortPoller::read_ranges(const std::vector<cmis::ReadRange>& plan, double wall) {
  return taken(drivers::read_ranges(*transport_, plan, image_, unavailable_, read_policy(wall)));
}

std::optional<drivers::Error> PortPoller::read_static(double wall) {
  return taken(drivers::read_static(*transport_, image_, unavailable_, read_policy(wall)));
}

void PortPoller::on_insertion(double now) {
  ++insertions_;
  log_.log(spdlog::level::info, "inserted", now, "module inserted");
  coding_.clear();
  state_ = State::Settling;
  settle_until_ = now + poll_.settle_delay_s;
  static_due_ = true;
  image_.clear();
  report_.reset();
  full_decode_due_ = true;
  fec_trend_.reset();
  last_module_state_.reset();
  last_dp_states_.clear();
  unavailable_.clear();
  forget_flags();
  recorder_.clear();
}

void PortPoller::on_absent(double now) {
  if (state_ != State::Empty && state_ != State::Misconfigured) log_.log(spdlog::level::info, "removed", now, "module removed");
  coding_.clear();
  state_ = State::Empty;
  image_.clear();
  report_.reset();
  full_decode_due_ = true;
  consecutive_failures_ = 0;
  forget_flags();
  recorder_.clear();
}

// Event counts stay (they count on the port, across modules); the gauge and its since-time do
// not: a healthy module inserted after a LOS burst shows no LOS.
void PortPoller::forget_flags() {
  for (auto& [key, f] : flags_) {
    f.current = false;
    f.last_seen_mono = -1;
    f.history.raised = false;
    f.history.since_unix = 0;
  }
}

bool PortPoller::configured(double now) {
  auto why = transport_->missing();
  if (!why) {
    if (state_ == State::Misconfigured) {
      log_.log(spdlog::level::info, "configured", now, "configuration resolved: " + misconfiguration_);
      state_ = State::Empty;
      misconfiguration_.clear();
    }
    return true;
  }
  if (state_ != State::Misconfigured || *why != misconfiguration_) {
    log_.log(spdlog::level::warn, "misconfigured", now, "misconfigured: " + *why);
  }
  on_absent(now);  // nothing of a module to keep, quietly
  state_ = State::Misconfigured;
  misconfiguration_ = std::move(*why);
  return false;
}

void PortPoller::on_error(const drivers::Error& err, double now) {
  const std::string_view kind = drivers::error_kind_name(err.kind);
  ++errors_[std::string(kind)];
  ++consecutive_failures_;
  log_.log(spdlog::level::warn, kind, now, fmt::format("read failed ({}): {}", kind, err.message));
  state_ = State::Failing;
  // Back off exponentially while failing, so a dead module does not hog its bus.
  const double backoff = std::min(poll_.backoff_max_s, interval() * std::pow(2.0, std::min(consecutive_failures_ - 1, 16)));
  next_due_ = now + backoff;
}

bool PortPoller::identity_changed(const cmis::ModuleReport& fresh) const {
  if (!report_) return false;
  return fresh.id.serial != report_->id.serial || fresh.id.part_number != report_->id.part_number ||
         fresh.id.vendor_name != report_->id.vendor_name;
}

void PortPoller::account_flags(double now, double wall) {
  std::vector<std::pair<std::string_view, int>> raised;  // views into report_
  for (const std::string& f : report_->module_flags) raised.emplace_back(f, 0);
  for (const cmis::LaneReport& l : report_->lanes) {
    for (const std::string& f : l.flags) raised.emplace_back(f, l.lane);
  }
  for (auto& [key, f] : flags_) {
    if (!f.current || std::find(raised.begin(), raised.end(), key) != raised.end()) continue;
    read_clear(key.first, f, wall);
  }
  for (const auto& key : raised) {
    auto it = flags_.find(key);
    if (it == flags_.end()) {
      const std::string_view name = base::interned(key.first);  // outlives the report
      it = flags_.emplace(std::pair{name, key.second}, FlagState{}).first;
      it->second.history.flag = name;
      it->second.history.lane = key.second;
    }
    FlagState& f = it->second;
    // An event is a rising edge: raised on this read, clear on the previous read of the flag
    // (the confirming re-read below included), so a persisting condition counts once.
    if (!f.current) {
      ++f.history.raised_total;
      const cmis::FlagRow* row = cmis::find_flag(key.first);
      const bool lane_used = !std::binary_search(id_.service.unused_lanes.begin(), id_.service.unused_lanes.end(), key.second);
      if (row != nullptr && row->severity == cmis::Severity::Alarm && lane_used) {
        recorder_.trigger({"flag", key.second > 0 ? fmt::format("{} lane {}", key.first, key.second) : std::string(key.first), wall});
      }
    }
    // A flag that comes and goes within the hold window is one raising: its since-time stays.
    if (!shown(f, now)) f.history.since_unix = wall;
    f.history.last_seen_unix = wall;
    f.last_seen_mono = now;
    f.current = true;
  }
  confirm_latches(wall);
}

// A raised flag read clear: it is down, so its next raised read is a new event. When light
// comes back, VDM is read on the next poll: a VDM read in the dark found zeros.
void PortPoller::read_clear(std::string_view flag, FlagState& f, double wall) {
  f.current = false;
  f.history.last_cleared_unix = wall;
  if (flag == cmis::flag_name(cmis::FlagId::RxLos)) next_vdm_ = 0;
}

// A latched flag that read raised may be a condition that came and went since the previous
// poll: its byte read again now tells (a persisting condition latches again at once). Those
// that read clear are down again, so the next raised read is a new event. Live status flags
// (SFF-8472 byte 110) are current on every read and need no second look.
void PortPoller::confirm_latches(double wall) {
  const std::vector<cmis::ReadRange> plan = cmis::latch_confirm_reads(image_);
  if (plan.empty()) return;
  if (auto err = read_ranges(plan, wall)) {
    // The poll itself was good: count the failure, keep the flags as read (a transient may
    // then count once with the next one rather than a persisting condition once per poll).
    ++errors_[std::string(drivers::error_kind_name(err->kind))];
    return;
  }
  for (auto& [key, f] : flags_) {
    if (!f.current) continue;
    if (cmis::latched_flag_raised(image_, key.first, key.second) == false) read_clear(key.first, f, wall);
  }
}

// A steady-state poll's report: a copy of the last one with its dynamic part decoded again. It is
// a copy, not the previous report reused in place, so a port holds one report between polls
// (its snapshots share it): at 2,048 ports a second, reusable one cost 12 MiB to save the copy,
// ~0.6 µs a poll of a 32-observable VDM optic (bench_decode: BM_PollDecodeCopyThenDynamicVdm).
std::shared_ptr<cmis::ModuleReport> PortPoller::decode_poll() {
  if (!report_ || full_decode_due_ || image_.entries().size() != pages_at_decode_) return nullptr;
  auto next = std::make_shared<cmis::ModuleReport>(*report_);
  if (!cmis::decode_dynamic(image_, *next)) return nullptr;
  return next;
}

void PortPoller::on_good_read(double now, double wall, bool flags_read, std::optional<cmis::ModuleReport> full) {
  std::shared_ptr<cmis::ModuleReport> fresh = full ? nullptr : decode_poll();
  if (!fresh) {
    fresh = std::make_shared<cmis::ModuleReport>(full ? std::move(*full) : cmis::decode(image_));
    full_decode_due_ = false;
    pages_at_decode_ = image_.entries().size();
  }
  report_ = std::move(fresh);
  if (flags_read) account_flags(now, wall);
  if (consecutive_failures_ > 0) {
    log_.log(spdlog::level::info, "recovered", now, fmt::format("reads good again after {} failures", consecutive_failures_));
  }
  state_ = State::Ok;
  consecutive_failures_ = 0;
  last_good_mono_ = now;
  last_good_wall_ = wall;
  const auto module_state = report_->module_state ? std::optional<uint32_t>(report_->module_state->code) : std::nullopt;
  if (last_module_state_ && module_state != last_module_state_) static_due_ = true;  // re-verify on state change
  last_module_state_ = module_state;
  // A host that reconfigures data paths takes them through DPDeactivated and DPInit while the
  // module stays Ready: re-read the static pages then too, for the new Active Control Set.
  if (data_path_states_changed()) static_due_ = true;
}

// The worst media lane's current pre-FEC BER (VDM), for the forecast; nothing when no lane
// measures one.
void PortPoller::track_fec_trend(double now) {
  const std::optional<double> worst = cmis::worst_media_vdm(*report_, "pre_fec_ber", true);
  if (worst && *worst > 0) fec_trend_.add(now, *worst);
}

bool PortPoller::data_path_states_changed() {
  const std::vector<cmis::LaneReport>& lanes = report_->lanes;
  bool same = lanes.size() == last_dp_states_.size();
  for (std::size_t i = 0; same && i < lanes.size(); ++i) same = lanes[i].data_path_state == last_dp_states_[i];
  if (same) return false;
  const bool known = !last_dp_states_.empty();
  last_dp_states_.clear();
  for (const cmis::LaneReport& l : lanes) last_dp_states_.push_back(l.data_path_state);
  return known;
}

namespace {
// The next slot of an anchored schedule strictly after `now`: no drift, missed slots skipped.
double next_slot(double anchor, double interval, double now) {
  if (anchor > now) return anchor;
  return anchor + (std::floor((now - anchor) / interval) + 1) * interval;
}
}  // namespace

double PortPoller::poll(double now, double wall) {
  // Link health and the module keep separate schedules on the same domain worker: the link
  // read never lands inside a module read, and a module that backs off does not hold it up.
  if (link_enabled_ && now + 1e-9 >= next_link_) poll_link(now, wall);
  if (now + 1e-9 >= module_due_) module_due_ = poll_module(now, wall);
  record(now, wall);
  return next_due_ = link_enabled_ ? std::min(module_due_, next_link_) : module_due_;
}

void PortPoller::poll_link(double now, double wall) {
  next_link_ = next_slot(next_link_, fast_interval(now, poll_.link_interval_s), now);
  auto r = transport_->read_link_health();
  if (auto* e = std::get_if<drivers::Error>(&r)) {
    if (e->kind == drivers::ErrorKind::Unsupported && !link_) {
      link_enabled_ = false;  // this path has no link counters (or no map to them): stop asking
      log_.log(spdlog::level::debug, "link", now, "no link counters: " + e->message);
      return;
    }
    const std::string_view kind = drivers::error_kind_name(e->kind);
    ++link_errors_[std::string(kind)];
    log_.log(spdlog::level::warn, "link", now, fmt::format("link counters ({}): {}", kind, e->message));
    return;
  }
  auto& health = std::get<drivers::LinkHealth>(r);
  add_fec_tails(link_.get(), health);
  link_input_ = recorder_link_input(link_.get(), health, link_good_mono_ < 0 ? 0 : now - link_good_mono_);
  for (RecorderTrigger& t : link_down_triggers(link_.get(), health, wall)) recorder_.trigger(std::move(t));
  link_ = std::make_shared<const drivers::LinkHealth>(std::move(health));
  link_good_mono_ = now;
  link_good_wall_ = wall;
}

double PortPoller::poll_module(double now, double wall) {
  const bool shows_nothing = state_ == State::Empty || state_ == State::Failing || state_ == State::Misconfigured;
  if (shows_nothing && !configured(now)) return next_due_ = next_dynamic_ = now + interval();
  if (state_ == State::Empty) {
    next_dynamic_ = next_due_ = now + interval();
    const drivers::Presence p = transport_->presence();
    if (p == drivers::Presence::Absent) return next_due_;
    if (p == drivers::Presence::Unknown) {
      uint8_t probe = 0;
      const auto err = transport_->read({cmis::kDeviceA0, 0, 0, 0, 1}, std::span<uint8_t>(&probe, 1));
      if (err) {
        if (err->kind != drivers::ErrorKind::Absent) on_error(*err, now);
        return next_due_;
      }
    }
    on_insertion(now);
    return next_due_ = settle_until_;
  }
  if (state_ == State::Settling) {
    if (now < settle_until_) return next_due_ = settle_until_;
    state_ = State::Reading;
    next_dynamic_ = now;
  }
  if (transport_->presence() == drivers::Presence::Absent) {
    on_absent(now);
    return next_due_ = next_dynamic_ = now + interval();
  }

  if (reverify_requested_.exchange(false, std::memory_order_relaxed)) static_due_ = true;
  const bool dynamic_due = static_due_ || now + 1e-9 >= next_dynamic_;
  if (dynamic_due) next_dynamic_ = next_slot(next_dynamic_, fast_interval(now, interval()), now);
  std::optional<drivers::Error> err;
  std::optional<cmis::ModuleReport> full;  // the static read's decode, reused for the report
  bool flags_read = false;
  bool vdm_read = false;
  if (static_due_ || (dynamic_due && ++cycles_since_static_ >= poll_.static_reverify_cycles)) {
    const auto previous = report_;
    err = read_static(wall);
    if (!err) {
      full = cmis::decode(image_);
      const cmis::ModuleReport& fresh = *full;
      if (previous && identity_changed(fresh)) {  // a different module in this cage
        ++insertions_;
        forget_flags();
        fec_trend_.reset();
        recorder_.clear();
        log_.log(spdlog::level::info, "inserted", now,
                 fmt::format("different module: serial {} replaces {}", fresh.id.serial, previous->id.serial));
      }
      static_due_ = false;
      cycles_since_static_ = 0;
      flags_read = true;
    }
  } else if (dynamic_due) {
    auto plan = cmis::dynamic_reads(image_);
    if (now + 1e-9 >= next_vdm_) {
      // VDM first: the poll then ends on page 11h, where the next poll starts, so a VDM poll
      // costs the following polls no page select.
      const auto vdm = cmis::vdm_reads(image_);
      plan.insert(plan.begin(), vdm.begin(), vdm.end());
      next_vdm_ = now + poll_.vdm_interval_s;
      vdm_read = !vdm.empty();
    }
    err = read_ranges(plan, wall);
    flags_read = true;
  } else {
    err = read_ranges(cmis::thermal_reads(image_), wall);  // the fast thermal path
  }
  if (err) {
    if (err->kind == drivers::ErrorKind::Absent) {
      on_absent(now);
      return next_due_ = next_dynamic_ = now + interval();
    }
    on_error(*err, now);
    return next_dynamic_ = next_due_;
  }
  const bool static_read = full.has_value();
  on_good_read(now, wall, flags_read, std::move(full));
  // One sample per measurement: the static pages carry the VDM values too; the polls between
  // VDM reads only repeat the last ones.
  if (static_read || vdm_read) track_fec_trend(now);
  if (static_read) verify_coding(now, wall);  // identity, advertisement, thresholds: just read
  next_due_ = next_dynamic_;
  if (poll_.thermal_interval_s > 0) {
    next_thermal_ = now + poll_.thermal_interval_s;
    next_due_ = std::min(next_dynamic_, next_thermal_);
  }
  return next_due_;
}

void PortPoller::verify_coding(double now, double wall) {
  if (!coding_setup_ || !report_) return;
  std::vector<CodingFinding> verdict = verify_module(image_, *report_, coding_setup_->context_for(id_.port, wall));
  ++verifications_;
  const auto failed_checks = [](const std::vector<CodingFinding>& findings) {
    std::string names;
    for (const CodingFinding& f : findings) {
      if (f.severity == coding::CheckStatus::Fail) names += (names.empty() ? "" : ", ") + f.check;
    }
    return names;
  };
  const std::string failed = failed_checks(verdict);
  if (!failed.empty() && failed != failed_checks(coding_)) {
    log_.log(spdlog::level::warn, "coding", now,
             fmt::format("coding checks failed: {} (serial {}, part {})", failed, report_->id.serial, report_->id.part_number));
  }
  coding_ = std::move(verdict);
}

PortSnapshot PortPoller::snapshot(double now) {
  // A transient the confirming re-read already found gone still shows for the hold window.
  for (auto& [key, f] : flags_) f.history.raised = shown(f, now);
  PortSnapshot s;
  s.port = id_.port;
  s.node = id_.node;
  s.source = id_.source;
  s.cage = id_.cage;
  s.groups = id_.groups;
  s.in_service = id_.service.in_service;
  s.unused_lanes = id_.service.unused_lanes;
  s.domain = transport_->domain();
  s.insertions_total = insertions_;
  s.read_errors_total = errors_;
  for (const auto& [key, f] : flags_) s.flags.push_back(f.history);
  s.link_read_errors_total = link_errors_;
  s.link_read_unix = link_good_wall_;
  if (link_ && now - link_good_mono_ <= poll_.stale_after_intervals * poll_.link_interval_s + 1e-9) s.link = link_;
  if (state_ == State::Empty || state_ == State::Misconfigured) s.link.reset();
  if (fec_trend_.has_samples()) s.fec_forecast = fec_trend_.estimate(now, cmis::kKp4PreFecBerLimit);
  switch (state_) {
    case State::Empty: s.presence = PortPresence::Absent; s.state = state_; return s;
    case State::Misconfigured:  // not an empty cage: presence stays unknown
      s.state = state_;
      s.misconfiguration = misconfiguration_;
      return s;
    case State::Settling: s.presence = PortPresence::Present; s.state = state_; return s;
    default: s.state = state_; break;
  }
  s.presence = PortPresence::Present;
  s.report = report_;
  s.coding = coding_;
  s.last_good_read_unix = last_good_wall_;
  const double age = last_good_mono_ < 0 ? 1e300 : now - last_good_mono_;
  s.stale = age > poll_.stale_after_intervals * interval() + 1e-9;
  if (s.stale) s.state = PortState::Stale;
  return s;
}

void PortPoller::reconfigure(const PollConfig& poll, std::shared_ptr<const CodingSetup> coding, double now,
                             double wall) {
  poll_ = poll;
  recorder_.configure(poll.recorder);
  coding_setup_ = std::move(coding);
  if (state_ == State::Ok) verify_coding(now, wall);
}

}  // namespace xcvr::daemon
