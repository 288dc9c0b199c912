// EmulatedModule live values: the CMIS module / data-path state machines, SFF-8636 readiness,
// monitors from the dynamics, and flag conditions compared against the module's own thresholds.
// Everything is a function of the clock and the module's state, updated at each access (at most
// once per kRefreshPeriodNs unless something changed).
#include <algorithm>
#include <cmath>

#include "cmis/codes.hpp"
#include "emulator/module.hpp"

namespace xcvr::emulator {
namespace {

constexpr int64_t kRefreshPeriodNs = 1'000'000;  // 1 ms: finer than any timing we model

// CMIS module states (00h:3) and data-path states (11h:128-131), as the codes table has them.
using cmis::codes::code_of;
using cmis::codes::DataPathState;
using cmis::codes::ModuleState;
constexpr int kLowPwr = code_of(ModuleState::LowPwr), kPwrUp = code_of(ModuleState::PwrUp),
              kReady = code_of(ModuleState::Ready), kFault = code_of(ModuleState::Fault);
constexpr uint8_t kDpDeactivated = code_of(DataPathState::Deactivated),
                  kDpInit = code_of(DataPathState::Init),
                  kDpActivated = code_of(DataPathState::Activated),
                  kDpTxTurnOn = code_of(DataPathState::TxTurnOn);

int64_t seconds_to_ns(double s) { return static_cast<int64_t>(s * 1e9); }

// Noise channels: one per monitor kind and lane.
enum Channel : uint64_t { kTemp = 1, kVcc = 2, kTx = 3, kBias = 4, kRx = 5, kSpread = 6, kVdm = 7 };
uint64_t channel(Channel kind, int lane) { return static_cast<uint64_t>(lane) << 8 | kind; }

bool bit_set(const cmis::ModuleImage& image, const cmis::Field* field, int lane) {
  return field != nullptr && cmis::read_uint(image, *field, lane).value_or(0) != 0;
}

}  // namespace

void EmulatedModule::init_nominal_from_model() {
  nominal_.assign(static_cast<std::size_t>(std::clamp(model_.media_lanes, 0, kMaxLanes)), {});
  for (std::size_t i = 0; i < nominal_.size(); ++i) {
    // Lanes of one module differ by a few percent, fixed for the seed.
    const int lane = static_cast<int>(i) + 1;
    const auto spread = [&](int k) {
      return 1.0 + 0.04 * deterministic_noise(dynamics_.seed, channel(kSpread, lane * 4 + k), 0);
    };
    nominal_[i] = {model_.lane.tx_power_w * spread(0), model_.lane.tx_bias_a * spread(1),
                   model_.lane.rx_power_w * spread(2)};
  }
}

void EmulatedModule::init_nominal_from_memory() {
  const SpecLayout& l = *layout_;
  const auto temp = cmis::read_scaled(memory_, *l.temperature);
  if (temp) fixed_temperature_c_ = *temp;
  model_.has_module_monitors = temp.has_value();
  model_.supply_voltage_v = cmis::read_scaled(memory_, *l.supply_voltage).value_or(0);
  int multiplier = 1;
  if (l.tx_bias_multiplier != nullptr) {
    multiplier = 1 << std::min(2u, cmis::read_uint(memory_, *l.tx_bias_multiplier).value_or(0));
  }
  model_.has_lane_monitors = cmis::read_uint(memory_, *l.rx_power, 1).has_value();
  nominal_.clear();
  for (int lane = 1; model_.has_lane_monitors && lane <= model_.media_lanes; ++lane) {
    nominal_.push_back({cmis::read_scaled(memory_, *l.tx_power, lane).value_or(0),
                        cmis::read_scaled(memory_, *l.tx_bias, lane).value_or(0) * multiplier,
                        cmis::read_scaled(memory_, *l.rx_power, lane).value_or(0)});
  }
  model_.rx_los_w = 0.1e-6;  // a dark lane (0 W) in the dump is LOS
  model_.timings = {0, 0, 0, 0, 0};
}

void EmulatedModule::update() {
  dirty_ = true;
  refresh();
}

void EmulatedModule::refresh() {
  if (replay_only_) return;
  const int64_t now = clock_->now_ns();
  if (!dirty_ && last_refresh_ns_ >= 0 && now - last_refresh_ns_ < kRefreshPeriodNs) return;
  dirty_ = false;
  last_refresh_ns_ = now;
  if (animate_states_) run_state_machine(now);
  update_monitors_and_flags(now);
}

void EmulatedModule::run_state_machine(int64_t now) {
  const SpecLayout& l = *layout_;
  const Timings& t = model_.timings;
  if (l.module_state == nullptr) {  // SFF-8636: Data_Not_Ready, host low-power override
    data_not_ready_ = now < power_on_ns_ + seconds_to_ns(t.data_not_ready_s);
    if (l.data_not_ready != nullptr) {
      cmis::write_uint(memory_, *l.data_not_ready, data_not_ready_ ? 1 : 0);
    }
    sff_low_power_ = bit_set(memory_, l.low_power_override, 1) &&
                     bit_set(memory_, l.low_power_request, 1);
    return;
  }
  if (flat_) {  // flat-memory CMIS modules are always ModuleReady with no data-path pages
    module_state_ = kReady;
    return;
  }
  // Anything holding the module in LowPwr (or ModuleFault) restarts power-up when it lets go.
  const bool held = faults_.module_fault_cause.has_value() || faults_.stuck_low_power ||
                    bit_set(memory_, l.low_power_request, 1);
  if (held_low_ && !held) {
    low_power_exit_ns_ = std::max(now, power_on_ns_ + seconds_to_ns(t.low_power_s));
  }
  held_low_ = held;
  int state = kReady;
  const int64_t ready_at = low_power_exit_ns_ + seconds_to_ns(t.power_up_s);
  if (faults_.module_fault_cause) {
    state = kFault;
  } else if (held || now < low_power_exit_ns_) {
    state = kLowPwr;
  } else if (now < ready_at) {
    state = kPwrUp;
  }
  if (state != module_state_) {
    module_state_ = state;
    latch(Condition::ModuleStateChanged, 1);
  }
  cmis::write_uint(memory_, *l.module_state, static_cast<uint32_t>(state));
  if (l.module_fault_cause != nullptr) {
    cmis::write_uint(memory_, *l.module_fault_cause, faults_.module_fault_cause.value_or(0));
  }
  const int64_t since_ready = now - ready_at;
  const int64_t init_ns = seconds_to_ns(t.data_path_init_s);
  for (int lane = 1; lane <= std::min(model_.host_lanes, kMaxLanes); ++lane) {
    uint8_t dp = kDpDeactivated;
    if (state == kReady && !bit_set(memory_, l.data_path_deinit, lane)) {
      dp = since_ready < init_ns                                        ? kDpInit
           : since_ready < init_ns + seconds_to_ns(t.tx_turn_on_s)     ? kDpTxTurnOn
                                                                        : kDpActivated;
    }
    uint8_t& previous = dp_state_[static_cast<std::size_t>(lane - 1)];
    if (dp != previous) {
      previous = dp;
      latch(Condition::DataPathStateChanged, lane);
    }
    cmis::write_uint(memory_, *l.data_path_state, dp, lane);
  }
}

bool EmulatedModule::module_powered() const {
  if (layout_->module_state == nullptr) return !data_not_ready_ && !sff_low_power_;
  return module_state_ == kReady;
}

bool EmulatedModule::lane_active(int lane) const {
  if (!animate_states_) return true;
  if (layout_->module_state == nullptr) return module_powered();
  return lane <= kMaxLanes && dp_state_[static_cast<std::size_t>(lane - 1)] == kDpActivated;
}

void EmulatedModule::latch(Condition c, int lane) {
  const cmis::Field* f = flag_field_[static_cast<std::size_t>(c)];
  if (f == nullptr) return;
  const auto loc = cmis::locate(*f, lane);
  if (!loc) return;
  if (uint8_t* p = byte_ptr(loc->page, loc->offset); p != nullptr && memory_.has(loc->page)) {
    *p = static_cast<uint8_t>(*p | (1u << loc->shift));
  }
}

void EmulatedModule::raise_condition(Condition c, int lane) {
  const cmis::Field* f = flag_field_[static_cast<std::size_t>(c)];
  if (f == nullptr) return;
  if (const auto loc = cmis::locate(*f, lane)) raise_at(*loc);
}

void EmulatedModule::raise_at(const cmis::Location& loc) {
  LatchedByte* lb = latched_at(loc.page, loc.offset);
  if (lb == nullptr) return;
  const auto mask = static_cast<uint8_t>(1u << loc.shift);
  lb->condition = static_cast<uint8_t>(lb->condition | mask);
  if (uint8_t* p = byte_ptr(loc.page, loc.offset)) *p = static_cast<uint8_t>(*p | mask);
}

namespace {

// Which threshold conditions a value raises; thresholds the image lacks raise nothing.
struct LevelConditions {
  Condition high_alarm, low_alarm, high_warning, low_warning;
};

// One monitor's levels, read from the module's own memory once per update.
struct LevelValues {
  std::optional<double> high_alarm, low_alarm, high_warning, low_warning;
};

LevelValues read_levels(const cmis::ModuleImage& image, const ThresholdFields& f,
                        double multiplier = 1) {
  const auto level = [&](const cmis::Field* field) -> std::optional<double> {
    const auto v = cmis::read_scaled(image, *field);
    if (!v) return std::nullopt;
    return *v * multiplier;
  };
  return {level(f.high_alarm), level(f.low_alarm), level(f.high_warning), level(f.low_warning)};
}

template <typename Raise>
void compare(const LevelValues& l, double value, const LevelConditions& c, Raise&& raise) {
  if (l.high_alarm && value > *l.high_alarm) raise(c.high_alarm);
  if (l.high_warning && value > *l.high_warning) raise(c.high_warning);
  if (l.low_warning && value < *l.low_warning) raise(c.low_warning);
  if (l.low_alarm && value < *l.low_alarm) raise(c.low_alarm);
}

}  // namespace

void EmulatedModule::update_monitors_and_flags(int64_t now) {
  using C = Condition;
  const SpecLayout& l = *layout_;
  for (LatchedByte& lb : latched_) lb.condition = 0;
  const int64_t bucket = now / std::max<int64_t>(1, dynamics_.noise_period_ns);
  const auto noise = [&](Channel kind, int lane) {
    return deterministic_noise(dynamics_.seed, channel(kind, lane), bucket);
  };

  // Module temperature: thermal lag towards ambient + dissipated power x thermal resistance.
  const double power = module_powered() ? model_.typical_power_w : model_.low_power_w;
  double target = fixed_temperature_c_.value_or(
      environment_.ambient_c +
      power * model_.thermal_resistance_c_per_w * environment_.airflow_factor);
  if (faults_.overheat_c_per_s > 0 && now > faults_.overheat_since_ns) {
    target += faults_.overheat_c_per_s * static_cast<double>(now - faults_.overheat_since_ns) * 1e-9;
  }
  const double tau = fixed_temperature_c_ ? 0.0 : model_.thermal_time_constant_s;
  const double temperature =
      thermal_.step(target, tau, now) + noise(kTemp, 0) * dynamics_.temperature_noise_c;
  const double vcc = model_.supply_voltage_v + noise(kVcc, 0) * dynamics_.voltage_noise_v;
  if (model_.has_module_monitors) {
    cmis::write_scaled(memory_, *l.temperature, temperature);
    cmis::write_scaled(memory_, *l.supply_voltage, vcc);
    const auto module_raise = [&](C c) { raise_condition(c, 1); };
    compare(read_levels(memory_, l.temperature_thresholds), temperature,
            {C::TempHighAlarm, C::TempLowAlarm, C::TempHighWarning, C::TempLowWarning},
            module_raise);
    compare(read_levels(memory_, l.supply_voltage_thresholds), vcc,
            {C::VccHighAlarm, C::VccLowAlarm, C::VccHighWarning, C::VccLowWarning},
            module_raise);
  }

  // Lanes.
  double multiplier = 1;
  if (l.tx_bias_multiplier != nullptr) {
    multiplier = 1 << std::min(2u, cmis::read_uint(memory_, *l.tx_bias_multiplier).value_or(0));
  }
  const double hours_on = static_cast<double>(now - power_on_ns_) / 3.6e12;
  const double aging = 1.0 + dynamics_.bias_drift_per_hour * hours_on;
  const double r = dynamics_.optical_noise_ratio;
  const LevelValues rx_levels = read_levels(memory_, l.rx_power_thresholds);
  const LevelValues tx_levels = read_levels(memory_, l.tx_power_thresholds);
  const LevelValues bias_levels = read_levels(memory_, l.tx_bias_thresholds, multiplier);
  for (int lane = 1; lane <= static_cast<int>(nominal_.size()); ++lane) {
    const std::size_t i = static_cast<std::size_t>(lane - 1);
    const LaneOptics& n = nominal_[i];
    const bool active = lane_active(lane);
    const bool tx_on = active && !bit_set(memory_, l.tx_disable, lane);
    const bool tx_fault = faults_.tx_fault[i];
    const double tx = tx_on && !tx_fault ? n.tx_power_w * (1 + r * noise(kTx, lane)) *
                                               db_to_ratio(-faults_.tx_power_drop_db[i])
                                         : 0.0;
    const double bias = tx_on ? n.tx_bias_a * aging * (1 + r * noise(kBias, lane)) : 0.0;
    const double loss_db = faults_.rx_extra_loss_db + faults_.rx_power_drop_db[i];
    const double rx = active && !faults_.rx_los[i]
                          ? n.rx_power_w * (1 + r * noise(kRx, lane)) * db_to_ratio(-loss_db)
                          : 0.0;
    if (model_.has_lane_monitors) {
      cmis::write_scaled(memory_, *l.tx_power, tx, lane);
      cmis::write_scaled(memory_, *l.tx_bias, bias / multiplier, lane);
      cmis::write_scaled(memory_, *l.rx_power, rx, lane);
    }
    const bool rx_los = faults_.rx_los[i] || rx < model_.rx_los_w;
    if (l.rx_output_valid != nullptr && animate_states_) {
      cmis::write_uint(memory_, *l.rx_output_valid, active && !rx_los ? 1 : 0, lane);
      cmis::write_uint(memory_, *l.tx_output_valid, tx_on && !tx_fault ? 1 : 0, lane);
    }
    if (!active || !model_.has_lane_monitors) continue;  // lane flags are valid only when up
    const auto raise = [&](C c) { raise_condition(c, lane); };
    if (rx_los) {
      raise(C::RxLos);
      raise(C::RxCdrLol);
    }
    if (tx_fault) raise(C::TxFault);
    if (faults_.tx_los[i]) {
      raise(C::TxLos);
      raise(C::TxCdrLol);
    }
    compare(rx_levels, rx,
            {C::RxPowerHighAlarm, C::RxPowerLowAlarm, C::RxPowerHighWarning,
             C::RxPowerLowWarning},
            raise);
    if (!tx_on) continue;  // a disabled transmitter is not "low"
    compare(tx_levels, tx,
            {C::TxPowerHighAlarm, C::TxPowerLowAlarm, C::TxPowerHighWarning,
             C::TxPowerLowWarning},
            raise);
    compare(bias_levels, bias,
            {C::TxBiasHighAlarm, C::TxBiasLowAlarm, C::TxBiasHighWarning, C::TxBiasLowWarning},
            raise);
  }
  update_vdm(now, temperature, bucket);
}

double EmulatedModule::ber_decades(int64_t now, int lane) const {
  const std::size_t i = static_cast<std::size_t>(lane - 1);
  double decades = faults_.ber_shift_decades[i];
  if (faults_.ber_decades_per_minute[i] > 0 && now > faults_.ber_degrade_since_ns[i]) {
    decades += faults_.ber_decades_per_minute[i] * static_cast<double>(now - faults_.ber_degrade_since_ns[i]) / 60e9;
  }
  // Light lost on the way (dirty fiber, a failing lane) costs margin: a fifth of a decade per dB.
  return decades + 0.2 * (faults_.rx_extra_loss_db + faults_.rx_power_drop_db[i]);
}

double EmulatedModule::lane_ber(int64_t now, int lane) const {
  // A module that models no BER (no VDM) still carries a link: a clean one.
  const double healthy = model_.vdm.pre_fec_ber > 0 ? model_.vdm.pre_fec_ber : 1e-9;
  const double spread = 1.0 + 0.3 * deterministic_noise(dynamics_.seed, channel(kSpread, 1000 + lane), 0);
  return std::min(0.5, healthy * spread * std::pow(10.0, ber_decades(now, lane)));
}

LinkSide EmulatedModule::link_side() {
  refresh();
  LinkSide side;
  const int64_t now = clock_->now_ns();
  side.carrier = !faults_.link_down && module_powered() && !faults_.all_ff;
  for (int lane = 1; lane <= model_.media_lanes && lane <= kMaxLanes; ++lane) {
    const std::size_t i = static_cast<std::size_t>(lane - 1);
    // The host's PCS needs every lane: one lane without light or with a fault takes the link down.
    if (!lane_active(lane) || faults_.rx_los[i] || faults_.tx_los[i]) side.carrier = false;
    side.lane_ber.push_back(lane_ber(now, lane));
  }
  return side;
}

// VDM real-time values of every described instance, and their latched flags against the
// module's own threshold sets. A lane that is not up, or has no light, measures nothing: 0.
void EmulatedModule::update_vdm(int64_t now, double case_celsius, int64_t bucket) {
  const VdmModel& v = model_.vdm;
  for (const cmis::VdmInstance& in : vdm_instances_) {
    const auto type = cmis::codes::vdm_type_ref(in.type_id);
    if (!type || in.lane < 1 || in.lane > kMaxLanes) continue;
    const std::size_t i = static_cast<std::size_t>(in.lane - 1);
    const double noise = deterministic_noise(dynamics_.seed, channel(kVdm, in.lane * 256 + in.type_id), bucket);
    const double decades = ber_decades(now, in.lane);
    const double ber = std::min(0.5, lane_ber(now, in.lane) * std::pow(10.0, 0.05 * noise));
    double value = 0;
    if (lane_active(in.lane) && !faults_.rx_los[i]) {
      if (type->quantity == "laser_temperature") value = case_celsius + v.laser_above_case_c + 0.2 * noise;
      else if (type->quantity == "esnr") value = v.esnr_db - v.esnr_db_per_decade * decades + 0.05 * noise;
      else if (type->quantity == "ltp") value = v.ltp_db - v.esnr_db_per_decade * decades + 0.05 * noise;
      else if (type->name.starts_with("pre_fec_ber")) value = ber;
      else if (type->name.starts_with("errored_frames")) value = std::min(1.0, ber * 100);
    }
    const uint16_t raw = cmis::vdm_raw(*type, value);
    cmis::write_uint(memory_, cmis::vdm_field(cmis::CmisField::VdmValue, in.group), raw, in.index);
    const auto levels = cmis::vdm_thresholds(memory_, in);
    if (value == 0 || !levels) continue;
    using F = cmis::CmisField;
    const auto past = [&](F flag, const std::optional<double>& threshold, bool high) {
      if (threshold && (high ? value > *threshold : value < *threshold)) {
        if (const auto loc = cmis::locate(cmis::vdm_field(flag, in.group), in.index)) raise_at(*loc);
      }
    };
    past(F::VdmFlagHighAlarm, levels->high_alarm, true);
    past(F::VdmFlagHighWarning, levels->high_warning, true);
    past(F::VdmFlagLowWarning, levels->low_warning, false);
    past(F::VdmFlagLowAlarm, levels->low_alarm, false);
  }
}

}  // namespace xcvr::emulator
