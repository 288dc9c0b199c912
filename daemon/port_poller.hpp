// PortPoller: one cage's lifecycle — presence, settle delay after insertion, static read,
// cheap dynamic polls, latched-flag accounting, freshness, backoff while failing — on top of a
// Transport. Single-threaded: its domain's worker is the only caller.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "cmis/image.hpp"
#include "cmis/report.hpp"
#include "daemon/config.hpp"
#include "daemon/port_log.hpp"
#include "cmis/read_plan.hpp"
#include "drivers/module_reader.hpp"
#include "daemon/fec_forecast.hpp"
#include "daemon/flight_recorder.hpp"
#include "daemon/snapshot.hpp"
#include "drivers/transport.hpp"

namespace xcvr::daemon {

struct CodingSetup;  // daemon/coding_setup.hpp

// The bus budget of the recorder's fast poll: how many ports of one domain (bus, NIC) may be
// polled fast at once. Shared by the domain's pollers.
class FastPollBudget {
 public:
  explicit FastPollBudget(int ports) : free_(ports) {}
  bool acquire() {
    int n = free_.load();
    while (n > 0 && !free_.compare_exchange_weak(n, n - 1)) {
    }
    return n > 0;
  }
  void release() { free_.fetch_add(1); }

 private:
  std::atomic<int> free_;
};

struct PortIdentity {
  std::string port, node, source, cage;
  std::vector<std::string> groups;
  PortService service;  // configured out of service (whole port or lanes)
};

class PortPoller {
 public:
  // `coding` (nullptr: no coding verification) is used after each good static read.
  PortPoller(PortIdentity id, std::unique_ptr<drivers::Transport> transport, const PollConfig& poll,
             std::shared_ptr<const CodingSetup> coding = nullptr);

  // Does whatever is due at `now` (monotonic seconds; `wall` for timestamps) and returns when
  // it next wants to run.
  double poll(double now, double wall);
  double next_due() const { return next_due_; }

  // The port as of its last poll, at `now` (monotonic): a flag shows raised while it was seen
  // raised within poll.flag_hold of `now`, whoever reads the snapshot and however often.
  PortSnapshot snapshot(double now);

  // Asks for a static re-read at the next poll (any thread; e.g. SIGUSR1 after a firmware
  // upgrade, when cached identity and thresholds may be outdated).
  void request_reverify() { reverify_requested_.store(true, std::memory_order_relaxed); }

  // A reload kept this port (its source is unchanged): the new poll settings and coding rules
  // apply from now on; the coding verdict is redone from the pages already read (no bus
  // traffic). Only while its domain's worker is stopped.
  void reconfigure(const PollConfig& poll, std::shared_ptr<const CodingSetup> coding, double now, double wall);

  const std::string& name() const { return id_.port; }
  drivers::Transport& transport() { return *transport_; }
  const cmis::ModuleImage& image() const { return image_; }
  // Coding verifications run so far (once per good static read, never per dynamic poll).
  uint64_t verifications() const { return verifications_; }

  // The flight recorder's events that closed since the last call.
  RecorderEvents take_recorded() { return recorder_.take_closed(); }
  const PortRecorder& recorder() const { return recorder_; }
  // The domain's fast-poll budget (null: no fast poll).
  void set_fast_budget(std::shared_ptr<FastPollBudget> budget);
  bool polling_fast() const { return fast_; }
  ~PortPoller();

 private:
  using State = PortState;  // Unknown and Stale are the snapshot's, never the poller's own
  // False (and the port misconfigured) while its transport names something the host lacks.
  bool configured(double now);

  drivers::ReadPolicy read_policy(double wall) const;
  std::optional<drivers::Error> taken(drivers::ReadResult result);  // notes dropped pages
  std::optional<drivers::Error> read_ranges(const std::vector<cmis::ReadRange>& plan, double wall);
  std::optional<drivers::Error> read_static(double wall);
  double poll_module(double now, double wall);
  void poll_link(double now, double wall);
  void on_insertion(double now);
  void on_absent(double now);
  void on_error(const drivers::Error& err, double now);
  void on_good_read(double now, double wall, bool flags_read, std::optional<cmis::ModuleReport> full);
  std::shared_ptr<cmis::ModuleReport> decode_poll();
  void account_flags(double now, double wall);
  void forget_flags();  // a module went or another one came: what the old one latched is not news
  struct FlagState;
  void read_clear(std::string_view flag, FlagState& f, double wall);
  void confirm_latches(double wall);
  bool data_path_states_changed();
  void track_fec_trend(double now);
  bool identity_changed(const cmis::ModuleReport& fresh) const;
  void verify_coding(double now, double wall);
  double interval() const { return poll_.dynamic_interval_s; }
  // The recorder's fast poll for a port with a recent event, when the domain's budget allows.
  double fast_interval(double now, double normal);
  void record(double now, double wall);

  PortIdentity id_;
  std::unique_ptr<drivers::Transport> transport_;
  PollConfig poll_;
  PortLog log_;  // rate-limited per port and kind
  std::shared_ptr<const CodingSetup> coding_setup_;
  std::vector<CodingFinding> coding_;  // verdict of the last static read (problems only)
  uint64_t verifications_ = 0;

  State state_ = State::Empty;
  std::string misconfiguration_;
  cmis::ModuleImage image_;
  std::shared_ptr<const cmis::ModuleReport> report_;  // shared read-only with snapshots
  bool full_decode_due_ = true;   // static pages re-read, or the set of pages may have changed
  std::size_t pages_at_decode_ = 0;
  double next_due_ = 0;
  double next_thermal_ = 0;
  double next_dynamic_ = 0;
  double next_vdm_ = 0;
  double settle_until_ = 0;
  double last_good_mono_ = -1;
  double last_good_wall_ = 0;
  int cycles_since_static_ = 0;
  int consecutive_failures_ = 0;
  bool static_due_ = true;
  std::atomic<bool> reverify_requested_{false};
  std::optional<uint32_t> last_module_state_;
  FecTrend fec_trend_;  // the worst media lane's pre-FEC BER of this module
  std::vector<std::optional<std::string_view>> last_dp_states_;  // per lane, as of the last good read
  drivers::UnreachablePages unavailable_;  // pages this path cannot read for this module

  // Link health: its own schedule; off for good once the transport says Unsupported.
  bool link_enabled_ = true;
  double module_due_ = 0;
  double next_link_ = 0;
  double link_good_mono_ = -1;
  double link_good_wall_ = 0;
  std::shared_ptr<const drivers::LinkHealth> link_;
  std::map<std::string, uint64_t> link_errors_;

  PortRecorder recorder_;
  RecorderLinkInput link_input_;  // what the last two link reads add to a sample
  std::shared_ptr<FastPollBudget> fast_budget_;
  bool fast_ = false;  // holds one of fast_budget_'s ports

  uint64_t insertions_ = 0;
  std::map<std::string, uint64_t> errors_;
  struct FlagState {
    FlagHistory history;
    bool current = false;        // raised at the last read that covered it (poll or confirming re-read)
    double last_seen_mono = -1;  // monotonic time of the last read that found it raised; -1 = not held
  };
  bool shown(const FlagState& f, double now) const {
    return f.current || (f.last_seen_mono >= 0 && now - f.last_seen_mono <= poll_.flag_hold_s + 1e-9);
  }
  std::map<std::pair<std::string_view, int>, FlagState> flags_;  // names base::interned
};

}  // namespace xcvr::daemon
