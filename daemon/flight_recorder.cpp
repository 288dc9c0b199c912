#include "daemon/flight_recorder.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "cmis/codes.hpp"
#include "cmis/flags.hpp"
#include "cmis/vdm.hpp"
#include "daemon/recorder_units.hpp"

namespace xcvr::daemon {
namespace {

namespace units = recorder_units;
static_assert(units::kNone == RecorderSample::kNoneU16);

// A value in the module memory's unit (`per` of them per SI unit), or the "none" value when
// absent or not representable.
uint16_t in_units(const std::optional<double>& v, double per) {
  if (!v || !std::isfinite(*v) || *v < 0) return units::kNone;
  return static_cast<uint16_t>(std::min<double>(units::kMax, std::round(*v * per)));
}

int16_t in_signed_units(const std::optional<double>& v, double per) {
  if (!v || !std::isfinite(*v)) return RecorderSample::kNoneI16;
  return static_cast<int16_t>(std::clamp(std::round(*v * per), -32767.0, 32767.0));
}

// The tail as a sample keeps it.
uint8_t tail_code(const RecorderLinkInput& link) {
  return link.fec_tail ? static_cast<uint8_t>(std::clamp(*link.fec_tail, 0, 254)) : RecorderSample::kNone8;
}

float as_float(const std::optional<double>& v) { return v ? static_cast<float>(*v) : NAN; }

// The ring slot of the sample `age` samples before the newest (0: the newest).
std::size_t slot_back(std::size_t head, std::size_t slots, std::size_t age) { return (head + slots - 1 - age) % slots; }

uint16_t lane_bit(int lane) {
  return lane >= 1 && lane <= kRecorderMaxLanes ? static_cast<uint16_t>(1u << (lane - 1)) : uint16_t{0};
}

void set_flag(RecorderSample& s, std::string_view name, int lane) {
  const cmis::FlagRow* row = cmis::find_flag(name);
  if (row == nullptr) return;
  const auto id = static_cast<unsigned>(row->id);
  s.flags[id / 32] |= 1u << (id % 32);
  if (row->severity == cmis::Severity::Alarm) s.alarm_lanes |= lane_bit(lane);
}

// Lanes whose data path is DPActivated (CMIS), bit 0 = lane 1.
uint16_t active_lanes(const cmis::ModuleReport* report) {
  if (report == nullptr) return 0;
  static const std::string_view activated =
      cmis::codes::data_path_state(cmis::codes::code_of(cmis::codes::DataPathState::Activated));
  uint16_t bits = 0;
  for (const cmis::LaneReport& l : report->lanes) {
    if (l.data_path_state == activated) bits |= lane_bit(l.lane);
  }
  return bits;
}

uint64_t downs_of(const drivers::LinkHealth& h, const std::string& link) {
  uint64_t n = 0;
  for (const drivers::LinkCounter& c : h.counters) {
    const bool down = c.id == drivers::LinkCounterId::CarrierDown || c.id == drivers::LinkCounterId::LinkDowned;
    if (down && c.link == link && c.lane == 0) n += c.value;
  }
  return n;
}

std::optional<uint64_t> summed(const drivers::LinkHealth& h, drivers::LinkCounterId id) {
  std::optional<uint64_t> n;
  for (const drivers::LinkCounter& c : h.counters) {
    if (c.id == id && c.lane == 0) n = n.value_or(0) + c.value;
  }
  return n;
}

std::optional<double> rate(const drivers::LinkHealth* before, const drivers::LinkHealth& now, drivers::LinkCounterId id,
                           double seconds) {
  if (before == nullptr || seconds <= 0) return std::nullopt;
  const auto a = summed(*before, id), b = summed(now, id);
  if (!a || !b || *b < *a) return std::nullopt;  // absent, or the device reset its counters
  return static_cast<double>(*b - *a) / seconds;
}

}  // namespace

RecorderLinkInput recorder_link_input(const drivers::LinkHealth* before, const drivers::LinkHealth& now,
                                      double seconds_between) {
  RecorderLinkInput in;
  for (const drivers::LinkCarrier& c : now.carrier) in.carrier_up = in.carrier_up.value_or(true) && c.up;
  for (const drivers::LinkFecHistogram& h : now.fec_histograms) {
    if (h.tail) in.fec_tail = std::max(in.fec_tail.value_or(0), *h.tail);
  }
  in.fec_corrected_per_s = rate(before, now, drivers::LinkCounterId::FecCorrectedBlocks, seconds_between);
  in.fec_uncorrectable_per_s = rate(before, now, drivers::LinkCounterId::FecUncorrectableBlocks, seconds_between);
  return in;
}

std::vector<RecorderTrigger> link_down_triggers(const drivers::LinkHealth* before, const drivers::LinkHealth& now,
                                                double wall) {
  std::vector<RecorderTrigger> out;
  if (before == nullptr) return out;
  std::vector<std::string> links;
  for (const drivers::LinkCounter& c : now.counters) links.push_back(c.link);
  for (const drivers::LinkCarrier& c : now.carrier) links.push_back(c.link);
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  for (const std::string& link : links) {
    const uint64_t was = downs_of(*before, link), is = downs_of(now, link);
    const auto carrier = std::find_if(now.carrier.begin(), now.carrier.end(), [&](const auto& c) { return c.link == link; });
    const auto carrier_was =
        std::find_if(before->carrier.begin(), before->carrier.end(), [&](const auto& c) { return c.link == link; });
    const bool lost = carrier != now.carrier.end() && !carrier->up && carrier_was != before->carrier.end() && carrier_was->up;
    if (is > was) {
      out.push_back({"link_down", fmt::format("{}: {} loss{} since the read before{}", link, is - was, is - was > 1 ? "es" : "",
                                              carrier != now.carrier.end() && !carrier->up ? ", still down" : ""),
                     wall});
    } else if (lost) {
      out.push_back({"link_down", link + ": carrier lost", wall});
    }
  }
  return out;
}

RecorderSample make_sample(double wall, const cmis::ModuleReport* report, const RecorderLinkInput& link) {
  RecorderSample s;
  const double whole = std::floor(wall);
  s.unix_s = static_cast<uint32_t>(std::clamp(whole, 0.0, 4294967295.0));
  s.unix_ms = static_cast<uint16_t>(std::clamp(std::round((wall - whole) * 1000), 0.0, 999.0));
  if (link.carrier_up) s.carrier = *link.carrier_up ? 1 : 0;
  s.fec_tail = tail_code(link);
  s.fec_corrected_per_s = as_float(link.fec_corrected_per_s);
  s.fec_uncorrectable_per_s = as_float(link.fec_uncorrectable_per_s);
  if (report == nullptr) return s;
  s.temperature = in_signed_units(report->temperature_celsius, units::kPerCelsius);
  s.supply_voltage = in_units(report->supply_voltage_volts, units::kPerVolt);
  s.esnr = in_units(cmis::worst_media_vdm(*report, "esnr", false), units::kPerDecibel);
  s.pre_fec_ber = as_float(cmis::worst_media_vdm(*report, "pre_fec_ber", true));
  if (report->module_state) s.module_state = static_cast<uint8_t>(std::min<uint32_t>(report->module_state->code, 254));
  s.active_lanes = active_lanes(report);
  for (const std::string& f : report->module_flags) set_flag(s, f, 0);
  for (const cmis::LaneReport& l : report->lanes) {
    for (const std::string& f : l.flags) set_flag(s, f, l.lane);
  }
  return s;
}

std::vector<RecorderLane> make_lanes(const cmis::ModuleReport* report, int lanes) {
  std::vector<RecorderLane> out(static_cast<std::size_t>(lanes));
  if (report == nullptr) return out;
  for (const cmis::LaneReport& l : report->lanes) {
    if (l.lane < 1 || l.lane > lanes) continue;
    RecorderLane& v = out[static_cast<std::size_t>(l.lane - 1)];
    v.rx_power = in_units(l.rx_power_watts, units::kPerWatt);
    v.tx_power = in_units(l.tx_power_watts, units::kPerWatt);
    v.tx_bias = in_units(l.tx_bias_amperes, units::kPerAmpere);
  }
  return out;
}

PortRecorder::PortRecorder(const RecorderConfig& config) : config_(config) {}

void PortRecorder::configure(const RecorderConfig& config) {
  const bool same_ring = config.samples == config_.samples && config.enabled == config_.enabled;
  config_ = config;
  if (!same_ring) clear();
}

void PortRecorder::clear() {
  if (open_) close_event();
  pending_.clear();
  // Back to no memory at all: the ring is allocated with the first sample of the next module.
  ring_ = {};
  ring_lanes_ = {};
  head_ = count_ = 0;
  lanes_ = 0;
  last_sample_ = -1e300;
}

void PortRecorder::trigger(RecorderTrigger t) {
  if (config_.enabled) pending_.push_back(std::move(t));
}

std::size_t PortRecorder::ring_bytes() const {
  return ring_.capacity() * sizeof(RecorderSample) + ring_lanes_.capacity() * sizeof(RecorderLane);
}

void PortRecorder::push(const RecorderSample& s, const std::vector<RecorderLane>& lanes) {
  // One slot beyond `samples`: a trigger's sample comes off the schedule, and must not push out
  // the sample a full window before it.
  const auto slots = static_cast<std::size_t>(config_.samples) + 1;
  if (ring_.empty()) {  // exactly the ring's size, once: no growth slack
    ring_.resize(slots);
    ring_lanes_.resize(slots * static_cast<std::size_t>(lanes_));
  }
  ring_[head_] = s;
  std::copy(lanes.begin(), lanes.end(), ring_lanes_.begin() + static_cast<std::ptrdiff_t>(head_ * lanes_));
  head_ = (head_ + 1) % slots;
  count_ = std::min(count_ + 1, slots);
}

void PortRecorder::record(double now, double wall, const std::string& port, const cmis::ModuleReport* report,
                          const RecorderLinkInput& link) {
  if (!config_.enabled) return;
  if (count_ == 0) pending_.clear();  // a trigger with nothing before it (the first read of a module): no event
  const bool due = fast_ || now - last_sample_ >= config_.spacing_s() - 1e-9;
  // The edges only a comparison with the ring's last sample shows: a data path that left
  // DPActivated, a tail above the ring's highest by kRecorderTailJump. Checked at every poll
  // from the two fields they need; the whole sample is made only when one is taken.
  const uint16_t active = active_lanes(report);
  const uint8_t tail = tail_code(link);
  const std::size_t slots = ring_.size();
  if (count_ > 0) {
    const uint16_t left = ring_[slot_back(head_, slots, 0)].active_lanes & static_cast<uint16_t>(~active);
    if (report != nullptr && left != 0) {
      pending_.push_back({"data_path", fmt::format("lane {} left DPActivated", std::countr_zero(left) + 1), wall});
    }
    int highest = -1;
    for (std::size_t age = 0; age < count_; ++age) {
      const uint8_t t = ring_[slot_back(head_, slots, age)].fec_tail;
      if (t != RecorderSample::kNone8) highest = std::max<int>(highest, t);
    }
    if (tail != RecorderSample::kNone8 && highest >= 0 && tail >= highest + kRecorderTailJump) {
      pending_.push_back({"fec_tail_jump", fmt::format("tail {} symbols, the last minute's highest {}", tail, highest), wall});
    }
  }
  if (!due && pending_.empty()) return;
  const RecorderSample s = make_sample(wall, report, link);
  const int lanes_now = report ? std::clamp(static_cast<int>(report->lanes.size()), 0, kRecorderMaxLanes) : lanes_;
  if (lanes_now != lanes_) {  // the first module data, or another lane count: a ring of that shape
    auto triggers = std::move(pending_);
    clear();
    pending_ = std::move(triggers);
    lanes_ = lanes_now;
  }
  const std::vector<RecorderLane> lanes = make_lanes(report, lanes_);
  push(s, lanes);
  last_sample_ = now;
  if (open_) {
    open_->samples.push_back(s);
    open_->lane_values.insert(open_->lane_values.end(), lanes.begin(), lanes.end());
  }
  if (!pending_.empty()) {
    last_trigger_ = now;
    if (!open_) open_event(port, report ? report->id.serial : std::string());
    for (RecorderTrigger& t : pending_) {
      if (open_->triggers.size() < kRecorderMaxTriggers) open_->triggers.push_back(std::move(t));
      else ++open_->more_triggers;
    }
    pending_.clear();
    after_left_ = config_.after_samples;  // a new trigger: its aftermath too
    if (after_left_ == 0) close_event();
    return;
  }
  if (open_ && --after_left_ <= 0) close_event();
}

void PortRecorder::open_event(const std::string& port, const std::string& serial) {
  open_ = std::make_shared<RecorderEvent>();
  open_->port = port;
  open_->serial = serial;
  open_->lanes = lanes_;
  open_->samples.reserve(count_ + static_cast<std::size_t>(config_.after_samples));
  for (std::size_t age = count_; age-- > 0;) {  // oldest first
    const std::size_t at = slot_back(head_, ring_.size(), age);
    open_->samples.push_back(ring_[at]);
    const auto lane_begin = ring_lanes_.begin() + static_cast<std::ptrdiff_t>(at * lanes_);
    open_->lane_values.insert(open_->lane_values.end(), lane_begin, lane_begin + lanes_);
  }
  open_->trigger_sample = count_ - 1;
}

void PortRecorder::close_event() {
  open_->samples.shrink_to_fit();
  open_->lane_values.shrink_to_fit();
  closed_.push_back(std::move(open_));
  open_.reset();
  after_left_ = 0;
}

RecorderEvents PortRecorder::take_closed() { return std::exchange(closed_, {}); }

}  // namespace xcvr::daemon
