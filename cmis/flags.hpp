// The flag table: one row per flag a module can raise, with what it means for the port. The
// memory maps build their flag rows from its ids (cmis/field_rows.hpp), so a flag that is not
// here cannot be written into a map, and its exported name is the row's. The health model takes
// severity, cause rank and cage label from the columns, never from a name's suffix; the
// emulator latches its fault conditions by the same ids.
//
// Where the bits sit is the maps' business: CMIS lower memory 8-11 and page 11h 134-152 (§2, §7
// of the reference digest), SFF-8636 lower page 2-14 (§11), SFF-8472 A2h 110 and 112-117.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cmis/field.hpp"
#include "cmis/quantities.hpp"

namespace xcvr::cmis {

enum class FlagId : uint8_t {
  ModuleStateChanged, DataPathStateChanged,  // events
  RxLos, TxLos, TxFault, RxCdrLol, TxCdrLol, TxAdaptiveEqFault,  // faults, most telling first
  ModuleFirmwareError, DatapathFirmwareError, DataNotReady,
  // Threshold crossings, per monitor: high alarm, low alarm, high warning, low warning.
  TempHighAlarm, TempLowAlarm, TempHighWarning, TempLowWarning, VccHighAlarm, VccLowAlarm, VccHighWarning, VccLowWarning,
  Aux1HighAlarm, Aux1LowAlarm, Aux1HighWarning, Aux1LowWarning, Aux2HighAlarm, Aux2LowAlarm, Aux2HighWarning, Aux2LowWarning,
  Aux3HighAlarm, Aux3LowAlarm, Aux3HighWarning, Aux3LowWarning, TxPowerHighAlarm, TxPowerLowAlarm, TxPowerHighWarning, TxPowerLowWarning,
  TxBiasHighAlarm, TxBiasLowAlarm, TxBiasHighWarning, TxBiasLowWarning, RxPowerHighAlarm, RxPowerLowAlarm, RxPowerHighWarning, RxPowerLowWarning,
  // VDM (CMIS page 2Ch), one row per level: exported as "vdm_<type>_<level>" (vdm_flag_name).
  VdmHighAlarm, VdmLowAlarm, VdmHighWarning, VdmLowWarning,
  Count
};

// What a raised flag says about the port; the health model's verdict follows it.
enum class Severity : uint8_t {
  Alarm,     // the link is failing, or a value is past its alarm level
  Warning,   // a value is past its warning level: degraded, never ok
  Hot,       // past the module's own high temperature warning: hot, not yet an alarm
  NotReady,  // the module says its data is not ready: down
  Event,     // a state changed: counted, but no condition of the port
};

// The levels of a threshold crossing, in the order a value is checked (alarm before warning).
enum class ThresholdLevel : uint8_t { HighAlarm, HighWarning, LowAlarm, LowWarning };
std::string_view level_name(ThresholdLevel level);  // "high_alarm", ...
constexpr bool is_high(ThresholdLevel level) {
  return level == ThresholdLevel::HighAlarm || level == ThresholdLevel::HighWarning;
}

enum class FlagScope : uint8_t {
  Module,       // one bit for the module
  Lane,         // one bit per lane
  VdmInstance,  // one bit per VDM instance (reported on the instance's lane)
};

// The memory maps a flag is in, as a set of Spec bits.
using SpecSet = uint8_t;
constexpr SpecSet spec_bit(Spec spec) { return static_cast<SpecSet>(1u << static_cast<unsigned>(spec)); }
inline constexpr SpecSet kCmis = spec_bit(Spec::Cmis);
inline constexpr SpecSet kSff8636 = spec_bit(Spec::Sff8636);
inline constexpr SpecSet kSff8472 = spec_bit(Spec::Sff8472);
inline constexpr SpecSet kAllSpecs = kCmis | kSff8636 | kSff8472;

// Causes without a rank of their own come after the ranked ones, in name order.
inline constexpr uint8_t kUnrankedCause = 8;

struct FlagRow {
  FlagId id;
  std::string_view name;   // the exported `flag` label value (VDM rows: the level)
  Severity severity;
  uint8_t cause_rank;      // within one verdict, lower ranks are named first
  std::string_view label;  // cage label; "" for a threshold row of a kQuantities monitor
                           // (its cage label + HI/LO) and for VDM rows (from the exported name)
  FlagScope scope;
  SpecSet specs;           // the memory maps that hold it
  std::optional<Quantity> monitor = {};      // threshold rows of a kQuantities monitor
  std::optional<ThresholdLevel> level = {};  // threshold and VDM rows
};

namespace detail {
using L = ThresholdLevel;
// The four threshold rows of one monitor, in FlagId order (high alarm, low alarm, high warning,
// low warning). A high temperature warning makes a port hot rather than warning.
constexpr FlagRow crossing(FlagId id, std::string_view name, L level, std::string_view label,
                           FlagScope scope, SpecSet specs, std::optional<Quantity> monitor) {
  const bool alarm = level == L::HighAlarm || level == L::LowAlarm;
  const bool hot = id == FlagId::TempHighWarning;
  const Severity severity = alarm ? Severity::Alarm : hot ? Severity::Hot : Severity::Warning;
  return FlagRow{id, name, severity, kUnrankedCause, label, scope, specs, monitor, level};
}
}  // namespace detail

// In FlagId order (checked below).
inline constexpr std::array<FlagRow, static_cast<std::size_t>(FlagId::Count)> kFlags = [] {
  using enum FlagId;
  using S = Severity;
  using Sc = FlagScope;
  using detail::crossing;
  using L = ThresholdLevel;
  constexpr std::optional<Quantity> kNoMonitor;
  const auto temp = std::optional(Quantity::Temperature), vcc = std::optional(Quantity::SupplyVoltage),
             tx = std::optional(Quantity::TxPower), bias = std::optional(Quantity::TxBias),
             rx = std::optional(Quantity::RxPower);
  return std::array{
      FlagRow{ModuleStateChanged, "module_state_changed", S::Event, kUnrankedCause, "", Sc::Module, kCmis},
      FlagRow{DataPathStateChanged, "data_path_state_changed", S::Event, kUnrankedCause, "", Sc::Lane, kCmis},
      // Light lost first, then laser faults, lock, firmware (the emulated and real LOS also
      // drops CDR lock: LOS is the news). SFF-8472 has Rx LOS and Tx fault as live bits only.
      FlagRow{RxLos, "rx_los", S::Alarm, 0, "RX LOS", Sc::Lane, kAllSpecs},
      FlagRow{TxLos, "tx_los", S::Alarm, 1, "TX LOS", Sc::Lane, kCmis | kSff8636},
      FlagRow{TxFault, "tx_fault", S::Alarm, 2, "TX FLT", Sc::Lane, kAllSpecs},
      FlagRow{RxCdrLol, "rx_cdr_lol", S::Alarm, 3, "RX LOL", Sc::Lane, kCmis | kSff8636},
      FlagRow{TxCdrLol, "tx_cdr_lol", S::Alarm, 4, "TX LOL", Sc::Lane, kCmis | kSff8636},
      FlagRow{TxAdaptiveEqFault, "tx_adaptive_eq_fault", S::Alarm, 5, "EQ FLT", Sc::Lane, kCmis | kSff8636},
      FlagRow{ModuleFirmwareError, "module_firmware_error", S::Alarm, 6, "FW ERR", Sc::Module, kCmis},
      FlagRow{DatapathFirmwareError, "datapath_firmware_error", S::Alarm, 7, "FW ERR", Sc::Module, kCmis},
      FlagRow{DataNotReady, "data_not_ready", S::NotReady, kUnrankedCause, "NOT RDY", Sc::Module, kSff8636 | kSff8472},
      crossing(TempHighAlarm, "temperature_high_alarm", L::HighAlarm, "", Sc::Module, kAllSpecs, temp),
      crossing(TempLowAlarm, "temperature_low_alarm", L::LowAlarm, "", Sc::Module, kAllSpecs, temp),
      crossing(TempHighWarning, "temperature_high_warning", L::HighWarning, "", Sc::Module, kAllSpecs, temp),
      crossing(TempLowWarning, "temperature_low_warning", L::LowWarning, "", Sc::Module, kAllSpecs, temp),
      crossing(VccHighAlarm, "supply_voltage_high_alarm", L::HighAlarm, "", Sc::Module, kAllSpecs, vcc),
      crossing(VccLowAlarm, "supply_voltage_low_alarm", L::LowAlarm, "", Sc::Module, kAllSpecs, vcc),
      crossing(VccHighWarning, "supply_voltage_high_warning", L::HighWarning, "", Sc::Module, kAllSpecs, vcc),
      crossing(VccLowWarning, "supply_voltage_low_warning", L::LowWarning, "", Sc::Module, kAllSpecs, vcc),
      // CMIS aux monitors (lower 18-23): what they observe is advertised (01h:145), so no monitor.
      crossing(Aux1HighAlarm, "aux1_high_alarm", L::HighAlarm, "AUX1 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux1LowAlarm, "aux1_low_alarm", L::LowAlarm, "AUX1 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux1HighWarning, "aux1_high_warning", L::HighWarning, "AUX1 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux1LowWarning, "aux1_low_warning", L::LowWarning, "AUX1 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux2HighAlarm, "aux2_high_alarm", L::HighAlarm, "AUX2 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux2LowAlarm, "aux2_low_alarm", L::LowAlarm, "AUX2 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux2HighWarning, "aux2_high_warning", L::HighWarning, "AUX2 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux2LowWarning, "aux2_low_warning", L::LowWarning, "AUX2 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux3HighAlarm, "aux3_high_alarm", L::HighAlarm, "AUX3 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux3LowAlarm, "aux3_low_alarm", L::LowAlarm, "AUX3 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux3HighWarning, "aux3_high_warning", L::HighWarning, "AUX3 HI", Sc::Module, kCmis, kNoMonitor),
      crossing(Aux3LowWarning, "aux3_low_warning", L::LowWarning, "AUX3 LO", Sc::Module, kCmis, kNoMonitor),
      crossing(TxPowerHighAlarm, "tx_power_high_alarm", L::HighAlarm, "", Sc::Lane, kAllSpecs, tx),
      crossing(TxPowerLowAlarm, "tx_power_low_alarm", L::LowAlarm, "", Sc::Lane, kAllSpecs, tx),
      crossing(TxPowerHighWarning, "tx_power_high_warning", L::HighWarning, "", Sc::Lane, kAllSpecs, tx),
      crossing(TxPowerLowWarning, "tx_power_low_warning", L::LowWarning, "", Sc::Lane, kAllSpecs, tx),
      crossing(TxBiasHighAlarm, "tx_bias_high_alarm", L::HighAlarm, "", Sc::Lane, kAllSpecs, bias),
      crossing(TxBiasLowAlarm, "tx_bias_low_alarm", L::LowAlarm, "", Sc::Lane, kAllSpecs, bias),
      crossing(TxBiasHighWarning, "tx_bias_high_warning", L::HighWarning, "", Sc::Lane, kAllSpecs, bias),
      crossing(TxBiasLowWarning, "tx_bias_low_warning", L::LowWarning, "", Sc::Lane, kAllSpecs, bias),
      crossing(RxPowerHighAlarm, "rx_power_high_alarm", L::HighAlarm, "", Sc::Lane, kAllSpecs, rx),
      crossing(RxPowerLowAlarm, "rx_power_low_alarm", L::LowAlarm, "", Sc::Lane, kAllSpecs, rx),
      crossing(RxPowerHighWarning, "rx_power_high_warning", L::HighWarning, "", Sc::Lane, kAllSpecs, rx),
      crossing(RxPowerLowWarning, "rx_power_low_warning", L::LowWarning, "", Sc::Lane, kAllSpecs, rx),
      // One row per level for every VDM observable type: the level decides the severity.
      crossing(VdmHighAlarm, "high_alarm", L::HighAlarm, "", Sc::VdmInstance, kCmis, kNoMonitor),
      crossing(VdmLowAlarm, "low_alarm", L::LowAlarm, "", Sc::VdmInstance, kCmis, kNoMonitor),
      crossing(VdmHighWarning, "high_warning", L::HighWarning, "", Sc::VdmInstance, kCmis, kNoMonitor),
      crossing(VdmLowWarning, "low_warning", L::LowWarning, "", Sc::VdmInstance, kCmis, kNoMonitor),
  };
}();

constexpr bool flags_follow_ids() {
  for (std::size_t i = 0; i < kFlags.size(); ++i) {
    if (static_cast<std::size_t>(kFlags[i].id) != i) return false;
  }
  return true;
}
static_assert(flags_follow_ids(), "kFlags rows must follow FlagId order");

constexpr const FlagRow& flag_row(FlagId id) { return kFlags[static_cast<std::size_t>(id)]; }
constexpr std::string_view flag_name(FlagId id) { return flag_row(id).name; }

// The row of an exported flag name: a plain row by its name, a VDM flag ("vdm_<type>_<level>")
// by its level's row; nullptr for a name no row gives.
const FlagRow* find_flag(std::string_view name);

// The threshold row of a kQuantities monitor at `level`; nullptr when the table has none.
constexpr const FlagRow* threshold_flag(Quantity monitor, ThresholdLevel level) {
  for (const FlagRow& row : kFlags) {
    if (row.monitor == monitor && row.level == level) return &row;
  }
  return nullptr;
}

// The port map's label of a raised flag or condition: its row's label, else its monitor's cage
// label with HI or LO ("TEMP HI"), else (VDM) the name's first seven characters ("VDM PRE").
std::string cage_label(std::string_view name);

}  // namespace xcvr::cmis
