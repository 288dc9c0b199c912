// The flight recorder: per port, a ring of compact samples of the last minute — DOM per lane,
// the worst media pre-FEC BER and eSNR (VDM), the link's FEC rates and tail, carrier, raised
// flags, module and data-path state — frozen into an event when the link goes down, an alarm
// flag (LOS, LOL, a fault, a threshold alarm) rises, a lane's data path leaves DPActivated, or
// the FEC tail jumps. The event keeps the ring as it was at the trigger and the few samples that
// follow (the recovery, or not); triggers while it is open join it rather than open another, so a
// link flapping twice in a minute is one event with two triggers.
//
// Samples are one per window/(samples-1) (5 s by default, the default dynamic poll) when the
// port is polled at least that often; a trigger takes one at once (the ring has a slot for it),
// and while a port is polled fast after an event (RecorderConfig::fast_interval_s) every poll
// is a sample: the ring then spans samples x fast_interval of finer detail.
//
// A sample is 40 bytes and 6 per lane, in the units the module memory uses (0.1 µW, 2 µA,
// 1/256 °C, 100 µV, 1/256 dB), so recording loses nothing of what was read.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cmis/report.hpp"
#include "daemon/recorder_config.hpp"
#include "drivers/link_health.hpp"

namespace xcvr::daemon {

inline constexpr int kRecorderMaxLanes = 16;
inline constexpr int kRecorderMaxTriggers = 16;   // per event; more are counted, not kept
inline constexpr int kRecorderTailJump = 3;       // symbols above the ring's highest tail

// One instant of a port. "None" values: kNone16 (int16/uint16), NaN (float), kNone8 (uint8).
struct RecorderSample {
  static constexpr int16_t kNoneI16 = INT16_MIN;
  static constexpr uint16_t kNoneU16 = 0xFFFF;
  static constexpr uint8_t kNone8 = 0xFF;
  uint32_t unix_s = 0;
  uint16_t unix_ms = 0;
  int16_t temperature = kNoneI16;      // 1/256 °C
  uint16_t supply_voltage = kNoneU16;  // 100 µV
  uint16_t esnr = kNoneU16;            // worst media lane, 1/256 dB
  float pre_fec_ber = NAN;             // worst media lane
  float fec_corrected_per_s = NAN;     // codewords, since the link read before
  float fec_uncorrectable_per_s = NAN;
  uint16_t alarm_lanes = 0;            // lanes with an alarm-severity flag raised (bit 0 = lane 1)
  uint16_t active_lanes = 0;           // lanes whose data path is DPActivated (CMIS)
  uint8_t fec_tail = kNone8;           // symbols
  uint8_t carrier = kNone8;            // 0 down, 1 up
  uint8_t module_state = kNone8;       // CMIS code
  uint8_t reserved = 0;
  std::array<uint32_t, 2> flags{};     // bit i: cmis::FlagId i raised on the module or any lane

  double unix() const { return unix_s + unix_ms / 1000.0; }
  bool flag(int id) const { return (flags[id / 32] >> (id % 32)) & 1u; }
};
static_assert(sizeof(RecorderSample) == 40);

struct RecorderLane {
  uint16_t rx_power = RecorderSample::kNoneU16;  // 0.1 µW
  uint16_t tx_power = RecorderSample::kNoneU16;  // 0.1 µW
  uint16_t tx_bias = RecorderSample::kNoneU16;   // 2 µA
};

struct RecorderTrigger {
  std::string kind;    // "link_down", "flag", "data_path", "fec_tail_jump"
  std::string detail;  // "eth0: carrier lost", "rx_los lane 3", ...
  double unix = 0;
};

// A frozen ring: `samples` oldest first, `lanes` values per sample in `lane_values`.
struct RecorderEvent {
  std::string port, serial;
  std::vector<RecorderTrigger> triggers;  // the first froze it
  uint32_t more_triggers = 0;             // beyond kRecorderMaxTriggers
  int lanes = 0;
  std::size_t trigger_sample = 0;  // index of the sample taken at the first trigger
  std::vector<RecorderSample> samples;
  std::vector<RecorderLane> lane_values;
  double unix() const { return triggers.empty() ? 0 : triggers.front().unix; }
  const RecorderLane& lane(std::size_t sample, int lane) const { return lane_values[sample * lanes + (lane - 1)]; }
};
using RecorderEvents = std::vector<std::shared_ptr<const RecorderEvent>>;

// What the link adds to a sample, and the triggers it gives, from two successive link reads.
struct RecorderLinkInput {
  std::optional<bool> carrier_up;  // all of the port's netdevs up
  std::optional<int> fec_tail;     // highest tail of its links
  std::optional<double> fec_corrected_per_s, fec_uncorrectable_per_s;
};
RecorderLinkInput recorder_link_input(const drivers::LinkHealth* before, const drivers::LinkHealth& now,
                                      double seconds_between);
// A carrier loss or a link-downed count that grew between the two reads.
std::vector<RecorderTrigger> link_down_triggers(const drivers::LinkHealth* before, const drivers::LinkHealth& now,
                                                double wall);
// The sample a report and the link make (pure: the tests build samples this way too).
RecorderSample make_sample(double wall, const cmis::ModuleReport* report, const RecorderLinkInput& link);
std::vector<RecorderLane> make_lanes(const cmis::ModuleReport* report, int lanes);

class PortRecorder {
 public:
  explicit PortRecorder(const RecorderConfig& config = {});
  void configure(const RecorderConfig& config);  // a changed ring size starts the ring afresh
  void clear();  // another module (or none): the ring starts afresh, an open event closes

  // A trigger since the last sample: the next record() samples at once and opens an event (or
  // joins the open one).
  void trigger(RecorderTrigger t);
  // At the end of a poll: samples when one is due or a trigger waits. `report` null: no module
  // data (an empty or failing cage), the sample holds the link only.
  void record(double now, double wall, const std::string& port, const cmis::ModuleReport* report,
              const RecorderLinkInput& link);
  // Events that closed since the last call (the engine hands them to the store).
  RecorderEvents take_closed();
  // Polled fast after an event: a sample at every poll.
  void set_fast(bool fast) { fast_ = fast; }
  // Monotonic time of the last trigger; -inf when none.
  double last_trigger() const { return last_trigger_; }
  std::size_t ring_bytes() const;  // what the ring holds (memory accounting)

 private:
  void push(const RecorderSample& s, const std::vector<RecorderLane>& lanes);
  void open_event(const std::string& port, const std::string& serial);
  void close_event();

  RecorderConfig config_;
  std::vector<RecorderSample> ring_;  // capacity config_.samples
  std::vector<RecorderLane> ring_lanes_;
  std::size_t head_ = 0, count_ = 0;  // head_: where the next sample goes
  int lanes_ = 0;
  double last_sample_ = -1e300;
  double last_trigger_ = -1e300;
  std::vector<RecorderTrigger> pending_;
  std::shared_ptr<RecorderEvent> open_;
  int after_left_ = 0;
  bool fast_ = false;
  RecorderEvents closed_;
};

}  // namespace xcvr::daemon
