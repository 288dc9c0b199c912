#include "cmis/sff8636_map.hpp"

#include <array>

#include "cmis/field_rows.hpp"

namespace xcvr::cmis {
namespace {

using namespace field_rows;
using F = Sff8636Field;
constexpr int16_t L = kLowerPage;
constexpr int16_t P03 = kSff8636PageThresholds;

// Lane layouts. SFF-8636 has four lanes and no banks.
constexpr LaneLayout kLaneBits{4, 0, 0, 4, 1};     // bits 3-0 (or 7-4) of one byte, lowest = lane 1
constexpr LaneLayout kLaneNibbles{4, 0, 0, 2, -4}; // 4 bits per lane, high nibble = odd lane
constexpr LaneLayout kLaneWords{4, 0, 2, 0, 0};    // one U16 per lane

// A monitor's four threshold flags: high alarm, low alarm, high warning, low warning from the MSB.
constexpr CrossingLayout kMsbFirst{{{0, 0}, {0, -1}, {0, -2}, {0, -3}}};

// Page 03h: each monitor's high alarm, low alarm, high warning, low warning levels.
constexpr ThresholdPage<F> threshold{P03};

constexpr auto kTable = join(std::array{
    // --- Lower page (§11) ---
    row(F::Identifier, "identifier", L, 0, 1, Type::U8),
    row(F::RevisionCompliance, "revision_compliance", L, 1, 1, Type::U8),
    bits(F::FlatMemory, "flat_memory", L, 2, 2, 1),
    flag(F::DataNotReady, FlagId::DataNotReady, L, 2, 0, {}, Role::Status),
    // Byte 3-5: low nibble Rx (or Tx fault / Rx LOL), high nibble Tx; bit 0/4 = lane 1.
    flag(F::FlagRxLos, FlagId::RxLos, L, 3, 0, kLaneBits),
    flag(F::FlagTxLos, FlagId::TxLos, L, 3, 4, kLaneBits),
    flag(F::FlagTxFault, FlagId::TxFault, L, 4, 0, kLaneBits),
    flag(F::FlagTxAdaptiveEqFault, FlagId::TxAdaptiveEqFault, L, 4, 4, kLaneBits),
    flag(F::FlagRxCdrLol, FlagId::RxCdrLol, L, 5, 0, kLaneBits),
    flag(F::FlagTxCdrLol, FlagId::TxCdrLol, L, 5, 4, kLaneBits),
},
    // Threshold flags put the high alarm in the MSB (unlike CMIS, §15): bytes 6 (temperature) and
    // 7 (Vcc); bytes 9-14 two lanes a byte, lane 1 in bits 7-4 (HA, LA, HW, LW), lane 2 in 3-0.
    crossings(F::FlagTempHighAlarm, FlagId::TempHighAlarm, L, 6, 7, kMsbFirst),
    crossings(F::FlagVccHighAlarm, FlagId::VccHighAlarm, L, 7, 7, kMsbFirst),
    crossings(F::FlagRxPowerHighAlarm, FlagId::RxPowerHighAlarm, L, 9, 7, kMsbFirst, kLaneNibbles),
    crossings(F::FlagTxBiasHighAlarm, FlagId::TxBiasHighAlarm, L, 11, 7, kMsbFirst, kLaneNibbles),
    crossings(F::FlagTxPowerHighAlarm, FlagId::TxPowerHighAlarm, L, 13, 7, kMsbFirst, kLaneNibbles),
std::array{
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
});

static_assert(kTable.size() == static_cast<std::size_t>(F::Count), "one row per Sff8636Field");
static_assert(rows_follow_ids(kTable), "SFF-8636 table rows must follow Sff8636Field order");
static_assert(flags_come_from_table(kTable, true), "every SFF-8636 flag row is a flag table row");

}  // namespace

std::span<const Field> sff8636_fields() { return kTable; }
const Field& sff8636_field(Sff8636Field id) { return kTable[static_cast<std::size_t>(id)]; }

}  // namespace xcvr::cmis
