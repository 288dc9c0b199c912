#include "cmis/sff8636_map.hpp"

#include <array>

namespace xcvr::cmis {
namespace {

using F = Sff8636Field;
constexpr int16_t L = kLowerPage;
constexpr int16_t P03 = kSff8636PageThresholds;
constexpr double kTemp = kTemperatureLsb;
constexpr double kVolt = kVoltageLsb;
constexpr double kPower = kOpticalPowerLsb;
constexpr double kBias = kBiasLsb;

// Lane layouts. SFF-8636 has four lanes and no banks.
constexpr LaneLayout kLaneBits{4, 0, 0, 4, 1};     // bits 3-0 (or 7-4) of one byte, lowest = lane 1
constexpr LaneLayout kLaneNibbles{4, 0, 0, 2, -4}; // 4 bits per lane, high nibble = odd lane
constexpr LaneLayout kLaneWords{4, 0, 2, 0, 0};    // one U16 per lane

constexpr Field row(F id, std::string_view name, int16_t page, uint16_t offset, uint8_t size,
                    Type type, double scale = 1, Unit unit = Unit::None, Role role = Role::Info,
                    LaneLayout lanes = {}) {
  return Field{static_cast<uint16_t>(id), name, kDeviceA0, page, offset, size, type, 0, 8,
               scale, unit, role, lanes};
}
constexpr Field bits(F id, std::string_view name, int16_t page, uint16_t offset, uint8_t shift,
                     uint8_t width, Role role = Role::Info, LaneLayout lanes = {}) {
  return Field{static_cast<uint16_t>(id), name, kDeviceA0, page, offset, 1, Type::Bits, shift,
               width, 1, Unit::None, role, lanes};
}
// Module-level latched flag: one bit of the lower page.
constexpr Field flag(F id, std::string_view name, uint16_t offset, uint8_t bit) {
  return bits(id, name, L, offset, bit, 1, Role::Flag);
}
// Per-lane latched flag; `bit` is lane 1's bit, the layout says where lanes 2-4 sit.
constexpr Field lane_flag(F id, std::string_view name, uint16_t offset, uint8_t bit,
                          LaneLayout lanes) {
  return bits(id, name, L, offset, bit, 1, Role::Flag, lanes);
}
constexpr Field threshold(F id, std::string_view name, uint16_t offset, Type type, double scale,
                          Unit unit) {
  return row(id, name, P03, offset, 2, type, scale, unit, Role::Threshold);
}

constexpr std::array kTable = {
    // --- Lower page (§11) ---
    row(F::Identifier, "identifier", L, 0, 1, Type::U8),
    row(F::RevisionCompliance, "revision_compliance", L, 1, 1, Type::U8),
    bits(F::FlatMemory, "flat_memory", L, 2, 2, 1),
    bits(F::DataNotReady, "data_not_ready", L, 2, 0, 1, Role::Status),
    // Byte 3-5: low nibble Rx (or Tx fault / Rx LOL), high nibble Tx; bit 0/4 = lane 1.
    lane_flag(F::FlagRxLos, "rx_los", 3, 0, kLaneBits),
    lane_flag(F::FlagTxLos, "tx_los", 3, 4, kLaneBits),
    lane_flag(F::FlagTxFault, "tx_fault", 4, 0, kLaneBits),
    lane_flag(F::FlagTxAdaptiveEqFault, "tx_adaptive_eq_fault", 4, 4, kLaneBits),
    lane_flag(F::FlagRxCdrLol, "rx_cdr_lol", 5, 0, kLaneBits),
    lane_flag(F::FlagTxCdrLol, "tx_cdr_lol", 5, 4, kLaneBits),
    // Threshold flags put the high alarm in the MSB (unlike CMIS, §15).
    flag(F::FlagTempHighAlarm, "temperature_high_alarm", 6, 7),
    flag(F::FlagTempLowAlarm, "temperature_low_alarm", 6, 6),
    flag(F::FlagTempHighWarning, "temperature_high_warning", 6, 5),
    flag(F::FlagTempLowWarning, "temperature_low_warning", 6, 4),
    flag(F::FlagVccHighAlarm, "supply_voltage_high_alarm", 7, 7),
    flag(F::FlagVccLowAlarm, "supply_voltage_low_alarm", 7, 6),
    flag(F::FlagVccHighWarning, "supply_voltage_high_warning", 7, 5),
    flag(F::FlagVccLowWarning, "supply_voltage_low_warning", 7, 4),
    // Bytes 9-14: two lanes per byte, lane 1 in bits 7-4 (HA, LA, HW, LW), lane 2 in bits 3-0.
    lane_flag(F::FlagRxPowerHighAlarm, "rx_power_high_alarm", 9, 7, kLaneNibbles),
    lane_flag(F::FlagRxPowerLowAlarm, "rx_power_low_alarm", 9, 6, kLaneNibbles),
    lane_flag(F::FlagRxPowerHighWarning, "rx_power_high_warning", 9, 5, kLaneNibbles),
    lane_flag(F::FlagRxPowerLowWarning, "rx_power_low_warning", 9, 4, kLaneNibbles),
    lane_flag(F::FlagTxBiasHighAlarm, "tx_bias_high_alarm", 11, 7, kLaneNibbles),
    lane_flag(F::FlagTxBiasLowAlarm, "tx_bias_low_alarm", 11, 6, kLaneNibbles),
    lane_flag(F::FlagTxBiasHighWarning, "tx_bias_high_warning", 11, 5, kLaneNibbles),
    lane_flag(F::FlagTxBiasLowWarning, "tx_bias_low_warning", 11, 4, kLaneNibbles),
    lane_flag(F::FlagTxPowerHighAlarm, "tx_power_high_alarm", 13, 7, kLaneNibbles),
    lane_flag(F::FlagTxPowerLowAlarm, "tx_power_low_alarm", 13, 6, kLaneNibbles),
    lane_flag(F::FlagTxPowerHighWarning, "tx_power_high_warning", 13, 5, kLaneNibbles),
    lane_flag(F::FlagTxPowerLowWarning, "tx_power_low_warning", 13, 4, kLaneNibbles),
    row(F::Temperature, "temperature", L, 22, 2, Type::S16, kTemp, Unit::Celsius, Role::Monitor),
    row(F::SupplyVoltage, "supply_voltage", L, 26, 2, Type::U16, kVolt, Unit::Volts, Role::Monitor),
    row(F::RxPower, "rx_power", L, 34, 2, Type::U16, kPower, Unit::Watts, Role::Monitor, kLaneWords),
    row(F::TxBias, "tx_bias", L, 42, 2, Type::U16, kBias, Unit::Amperes, Role::Monitor, kLaneWords),
    row(F::TxPower, "tx_power", L, 50, 2, Type::U16, kPower, Unit::Watts, Role::Monitor, kLaneWords),
    bits(F::TxDisable, "tx_disable", L, 86, 0, 1, Role::Control, kLaneBits),
    bits(F::PowerOverride, "power_override", L, 93, 0, 1, Role::Control),
    bits(F::PowerSet, "power_set_low_power", L, 93, 1, 1, Role::Control),
    bits(F::HighPowerClassEnable, "high_power_class_enable", L, 93, 2, 1, Role::Control),
    bits(F::PowerClass8Enable, "power_class_8_enable", L, 93, 3, 1, Role::Control),
    row(F::MaxPowerClass8, "max_power_class_8", L, 107, 1, Type::U8, 0.1, Unit::Watts),
    row(F::PageSelect, "page_select", L, 127, 1, Type::U8, 1, Unit::None, Role::Control),
    // --- Upper page 00h (§12) ---
    row(F::IdentifierCopy, "identifier_copy", 0x00, 128, 1, Type::U8),
    bits(F::PowerClassLow, "power_class_1_4", 0x00, 129, 6, 2),  // class = value + 1
    bits(F::PowerClass8Implemented, "power_class_8_implemented", 0x00, 129, 5, 1),
    bits(F::TxCdrPresent, "tx_cdr_present", 0x00, 129, 3, 1),
    bits(F::RxCdrPresent, "rx_cdr_present", 0x00, 129, 2, 1),
    bits(F::PowerClassHigh, "power_class_5_7", 0x00, 129, 0, 2),  // nonzero: class = value + 4
    row(F::Connector, "connector", 0x00, 130, 1, Type::U8),
    row(F::EthernetCompliance, "ethernet_compliance", 0x00, 131, 1, Type::U8),
    row(F::Encoding, "encoding", 0x00, 139, 1, Type::U8),
    row(F::NominalBitRate, "nominal_bit_rate", 0x00, 140, 1, Type::U8, 100e6),  // bit/s
    row(F::LengthSmf, "length_smf", 0x00, 142, 1, Type::U8, 1000, Unit::Meters),
    row(F::LengthOm3, "length_om3", 0x00, 143, 1, Type::U8, 2, Unit::Meters),
    row(F::LengthOm2, "length_om2", 0x00, 144, 1, Type::U8, 1, Unit::Meters),
    row(F::LengthOm1, "length_om1", 0x00, 145, 1, Type::U8, 1, Unit::Meters),
    // Byte 146 is a cable length (1 m) for cable assemblies, else the OM4 length (2 m).
    row(F::LengthCopper, "length_cable", 0x00, 146, 1, Type::U8, 1, Unit::Meters),
    row(F::LengthOm4, "length_om4", 0x00, 146, 1, Type::U8, 2, Unit::Meters),
    bits(F::TransmitterTechnology, "transmitter_technology", 0x00, 147, 4, 4),
    row(F::VendorName, "vendor_name", 0x00, 148, 16, Type::Ascii),
    row(F::VendorOui, "vendor_oui", 0x00, 165, 3, Type::Bytes),
    row(F::PartNumber, "part_number", 0x00, 168, 16, Type::Ascii),
    row(F::VendorRevision, "vendor_revision", 0x00, 184, 2, Type::Ascii),
    // For copper cables 186-189 hold attenuation instead (decoders check the technology).
    row(F::Wavelength, "wavelength", 0x00, 186, 2, Type::U16, 0.05 * kNanometer, Unit::Meters),
    row(F::WavelengthTolerance, "wavelength_tolerance", 0x00, 188, 2, Type::U16, 0.005 * kNanometer, Unit::Meters),
    row(F::MaxCaseTemperature, "max_case_temperature", 0x00, 190, 1, Type::U8, 1, Unit::Celsius),
    row(F::ChecksumBase, "cc_base", 0x00, 191, 1, Type::U8, 1, Unit::None, Role::Checksum),
    row(F::ExtendedCompliance, "extended_compliance", 0x00, 192, 1, Type::U8),
    row(F::SerialNumber, "serial_number", 0x00, 196, 16, Type::Ascii),
    row(F::DateCode, "date_code", 0x00, 212, 8, Type::Ascii),
    bits(F::TempMonitorImplemented, "temperature_monitor_implemented", 0x00, 220, 5, 1),
    bits(F::VccMonitorImplemented, "supply_voltage_monitor_implemented", 0x00, 220, 4, 1),
    bits(F::RxPowerIsAverage, "rx_power_is_average", 0x00, 220, 3, 1),
    bits(F::TxPowerMonitorImplemented, "tx_power_monitor_implemented", 0x00, 220, 2, 1),
    row(F::NominalBitRateExtended, "nominal_bit_rate_extended", 0x00, 222, 1, Type::U8, 250e6),  // bit/s
    row(F::ChecksumExt, "cc_ext", 0x00, 223, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- Page 03h thresholds (§13) ---
    threshold(F::TempHighAlarm, "temperature_high_alarm_threshold", 128, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempLowAlarm, "temperature_low_alarm_threshold", 130, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempHighWarning, "temperature_high_warning_threshold", 132, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempLowWarning, "temperature_low_warning_threshold", 134, Type::S16, kTemp, Unit::Celsius),
    threshold(F::VccHighAlarm, "supply_voltage_high_alarm_threshold", 144, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccLowAlarm, "supply_voltage_low_alarm_threshold", 146, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccHighWarning, "supply_voltage_high_warning_threshold", 148, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccLowWarning, "supply_voltage_low_warning_threshold", 150, Type::U16, kVolt, Unit::Volts),
    threshold(F::RxPowerHighAlarm, "rx_power_high_alarm_threshold", 176, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerLowAlarm, "rx_power_low_alarm_threshold", 178, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerHighWarning, "rx_power_high_warning_threshold", 180, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerLowWarning, "rx_power_low_warning_threshold", 182, Type::U16, kPower, Unit::Watts),
    threshold(F::TxBiasHighAlarm, "tx_bias_high_alarm_threshold", 184, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasLowAlarm, "tx_bias_low_alarm_threshold", 186, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasHighWarning, "tx_bias_high_warning_threshold", 188, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasLowWarning, "tx_bias_low_warning_threshold", 190, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxPowerHighAlarm, "tx_power_high_alarm_threshold", 192, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerLowAlarm, "tx_power_low_alarm_threshold", 194, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerHighWarning, "tx_power_high_warning_threshold", 196, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerLowWarning, "tx_power_low_warning_threshold", 198, Type::U16, kPower, Unit::Watts),
};

static_assert(kTable.size() == static_cast<std::size_t>(F::Count), "one row per Sff8636Field");
static_assert(rows_follow_ids(kTable), "SFF-8636 table rows must follow Sff8636Field order");

}  // namespace

std::span<const Field> sff8636_fields() { return kTable; }
const Field& sff8636_field(Sff8636Field id) { return kTable[static_cast<std::size_t>(id)]; }

}  // namespace xcvr::cmis
