#include "cmis/sff8472_map.hpp"

#include <array>

#include "cmis/field_rows.hpp"

namespace xcvr::cmis {
namespace {

using namespace field_rows;
using F = Sff8472Field;
constexpr int16_t L = kLowerPage;  // SFF-8472 fields all live in the lower half of A0h or A2h
constexpr double kSlope = 1.0 / 256;  // calibration slopes are unsigned 8.8 fixed point

constexpr LaneLayout kOneLane{1, 0, 0, 0, 0};  // single-lane module: lane 1 only

constexpr Place kA0{kDeviceA0, L};
constexpr Place kA2{kDeviceA2, L};

constexpr Field a0(F id, std::string_view name, uint16_t offset, uint8_t size, Type type,
                   double scale = 1, Unit unit = Unit::None, Role role = Role::Info) {
  return row(id, name, kA0, offset, size, type, scale, unit, role);
}
constexpr Field a0_bit(F id, std::string_view name, uint16_t offset, uint8_t shift) {
  return bits(id, name, kA0, offset, shift, 1);
}
constexpr Field a2(F id, std::string_view name, uint16_t offset, Type type, double scale,
                   Unit unit, Role role, LaneLayout lanes = {}) {
  return row(id, name, kA2, offset, type == Type::Bytes ? 4 : 2, type, scale, unit, role, lanes);
}
// A monitor's four threshold flags: high and low alarm in adjacent bits of an alarm byte (high
// first, from the MSB), the warnings in the same bits 4 bytes on.
constexpr CrossingLayout kAlarmsThenWarnings{{{0, 0}, {0, -1}, {4, 0}, {4, -1}}};
constexpr Field calibration(F id, std::string_view name, uint16_t offset, Type type,
                            double scale = 1) {
  return a2(id, name, offset, type, scale, Unit::None, Role::Info);
}

constexpr auto kTable = join(std::array{
    // --- A0h serial ID ---
    a0(F::Identifier, "identifier", 0, 1, Type::U8),
    a0(F::ExtendedIdentifier, "extended_identifier", 1, 1, Type::U8),
    a0(F::Connector, "connector", 2, 1, Type::U8),
    a0_bit(F::ActiveCopperCable, "active_copper_cable", 8, 3),
    a0_bit(F::PassiveCopperCable, "passive_copper_cable", 8, 2),
    a0(F::Encoding, "encoding", 11, 1, Type::U8),
    a0(F::NominalBitRate, "nominal_bit_rate", 12, 1, Type::U8, 100e6),  // bit/s
    a0(F::LengthSmfKm, "length_smf_km", 14, 1, Type::U8, 1000, Unit::Meters),
    a0(F::LengthSmf, "length_smf", 15, 1, Type::U8, 100, Unit::Meters),
    a0(F::LengthOm2, "length_om2", 16, 1, Type::U8, 10, Unit::Meters),
    a0(F::LengthOm1, "length_om1", 17, 1, Type::U8, 10, Unit::Meters),
    // Byte 18 is the cable length (1 m) for copper cables, else the OM4 length (10 m).
    a0(F::LengthCopper, "length_cable", 18, 1, Type::U8, 1, Unit::Meters),
    a0(F::LengthOm4, "length_om4", 18, 1, Type::U8, 10, Unit::Meters),
    a0(F::LengthOm3, "length_om3", 19, 1, Type::U8, 10, Unit::Meters),
    a0(F::VendorName, "vendor_name", 20, 16, Type::Ascii),
    a0(F::ExtendedCompliance, "extended_compliance", 36, 1, Type::U8),
    a0(F::VendorOui, "vendor_oui", 37, 3, Type::Bytes),
    a0(F::PartNumber, "part_number", 40, 16, Type::Ascii),
    a0(F::VendorRevision, "vendor_revision", 56, 4, Type::Ascii),
    // For copper cables 60-61 hold cable compliance bits instead (decoders check byte 8).
    a0(F::Wavelength, "wavelength", 60, 2, Type::U16, kNanometer, Unit::Meters),
    a0(F::ChecksumBase, "cc_base", 63, 1, Type::U8, 1, Unit::None, Role::Checksum),
    a0(F::Options, "options", 64, 2, Type::U16),
    a0(F::SerialNumber, "serial_number", 68, 16, Type::Ascii),
    a0(F::DateCode, "date_code", 84, 8, Type::Ascii),
    a0_bit(F::DdmImplemented, "ddm_implemented", 92, 6),
    a0_bit(F::InternallyCalibrated, "internally_calibrated", 92, 5),
    a0_bit(F::ExternallyCalibrated, "externally_calibrated", 92, 4),
    a0_bit(F::RxPowerIsAverage, "rx_power_is_average", 92, 3),
    a0_bit(F::AddressChangeRequired, "address_change_required", 92, 2),
    a0_bit(F::AlarmWarningFlagsImplemented, "alarm_warning_flags_implemented", 93, 7),
    a0(F::Compliance, "sff8472_compliance", 94, 1, Type::U8),
    a0(F::ChecksumExt, "cc_ext", 95, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- A2h thresholds (same encodings as the monitors) ---
    a2(F::TempHighAlarm, "temperature_high_alarm_threshold", 0, Type::S16, kTemp, Unit::Celsius, Role::Threshold),
    a2(F::TempLowAlarm, "temperature_low_alarm_threshold", 2, Type::S16, kTemp, Unit::Celsius, Role::Threshold),
    a2(F::TempHighWarning, "temperature_high_warning_threshold", 4, Type::S16, kTemp, Unit::Celsius, Role::Threshold),
    a2(F::TempLowWarning, "temperature_low_warning_threshold", 6, Type::S16, kTemp, Unit::Celsius, Role::Threshold),
    a2(F::VccHighAlarm, "supply_voltage_high_alarm_threshold", 8, Type::U16, kVolt, Unit::Volts, Role::Threshold),
    a2(F::VccLowAlarm, "supply_voltage_low_alarm_threshold", 10, Type::U16, kVolt, Unit::Volts, Role::Threshold),
    a2(F::VccHighWarning, "supply_voltage_high_warning_threshold", 12, Type::U16, kVolt, Unit::Volts, Role::Threshold),
    a2(F::VccLowWarning, "supply_voltage_low_warning_threshold", 14, Type::U16, kVolt, Unit::Volts, Role::Threshold),
    a2(F::TxBiasHighAlarm, "tx_bias_high_alarm_threshold", 16, Type::U16, kBias, Unit::Amperes, Role::Threshold),
    a2(F::TxBiasLowAlarm, "tx_bias_low_alarm_threshold", 18, Type::U16, kBias, Unit::Amperes, Role::Threshold),
    a2(F::TxBiasHighWarning, "tx_bias_high_warning_threshold", 20, Type::U16, kBias, Unit::Amperes, Role::Threshold),
    a2(F::TxBiasLowWarning, "tx_bias_low_warning_threshold", 22, Type::U16, kBias, Unit::Amperes, Role::Threshold),
    a2(F::TxPowerHighAlarm, "tx_power_high_alarm_threshold", 24, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::TxPowerLowAlarm, "tx_power_low_alarm_threshold", 26, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::TxPowerHighWarning, "tx_power_high_warning_threshold", 28, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::TxPowerLowWarning, "tx_power_low_warning_threshold", 30, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::RxPowerHighAlarm, "rx_power_high_alarm_threshold", 32, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::RxPowerLowAlarm, "rx_power_low_alarm_threshold", 34, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::RxPowerHighWarning, "rx_power_high_warning_threshold", 36, Type::U16, kPower, Unit::Watts, Role::Threshold),
    a2(F::RxPowerLowWarning, "rx_power_low_warning_threshold", 38, Type::U16, kPower, Unit::Watts, Role::Threshold),
    // --- A2h external calibration (used when A0h:92 bit 4 is set) ---
    // Rx power polynomial coefficients: IEEE-754 single precision, big-endian.
    calibration(F::RxPwr4, "rx_power_cal_4", 56, Type::Bytes),
    calibration(F::RxPwr3, "rx_power_cal_3", 60, Type::Bytes),
    calibration(F::RxPwr2, "rx_power_cal_2", 64, Type::Bytes),
    calibration(F::RxPwr1, "rx_power_cal_1", 68, Type::Bytes),
    calibration(F::RxPwr0, "rx_power_cal_0", 72, Type::Bytes),
    // Slopes scale to a plain factor; offsets stay in the monitor's raw LSB units.
    calibration(F::TxBiasSlope, "tx_bias_cal_slope", 76, Type::U16, kSlope),
    calibration(F::TxBiasOffset, "tx_bias_cal_offset", 78, Type::S16),
    calibration(F::TxPowerSlope, "tx_power_cal_slope", 80, Type::U16, kSlope),
    calibration(F::TxPowerOffset, "tx_power_cal_offset", 82, Type::S16),
    calibration(F::TempSlope, "temperature_cal_slope", 84, Type::U16, kSlope),
    calibration(F::TempOffset, "temperature_cal_offset", 86, Type::S16),
    calibration(F::VccSlope, "supply_voltage_cal_slope", 88, Type::U16, kSlope),
    calibration(F::VccOffset, "supply_voltage_cal_offset", 90, Type::S16),
    row(F::ChecksumDmi, "cc_dmi", kA2, 95, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- A2h monitors ---
    a2(F::Temperature, "temperature", 96, Type::S16, kTemp, Unit::Celsius, Role::Monitor),
    a2(F::SupplyVoltage, "supply_voltage", 98, Type::U16, kVolt, Unit::Volts, Role::Monitor),
    a2(F::TxBias, "tx_bias", 100, Type::U16, kBias, Unit::Amperes, Role::Monitor, kOneLane),
    a2(F::TxPower, "tx_power", 102, Type::U16, kPower, Unit::Watts, Role::Monitor, kOneLane),
    a2(F::RxPower, "rx_power", 104, Type::U16, kPower, Unit::Watts, Role::Monitor, kOneLane),
    // Byte 110: live (not latched) pin states; the names are the exported flag names.
    bits(F::SoftTxDisable, "soft_tx_disable", kA2, 110, 6, 1, Role::Control),
    flag(F::StatusTxFault, FlagId::TxFault, kA2, 110, 2, kOneLane, Role::Status),
    flag(F::StatusRxLos, FlagId::RxLos, kA2, 110, 1, kOneLane, Role::Status),
    flag(F::DataNotReady, FlagId::DataNotReady, kA2, 110, 0, {}, Role::Status),
},
    // --- A2h latched flags: alarms 112-113, warnings at the same bits of 116-117 ---
    crossings(F::FlagTempHighAlarm, FlagId::TempHighAlarm, kA2, 112, 7, kAlarmsThenWarnings),
    crossings(F::FlagVccHighAlarm, FlagId::VccHighAlarm, kA2, 112, 5, kAlarmsThenWarnings),
    crossings(F::FlagTxBiasHighAlarm, FlagId::TxBiasHighAlarm, kA2, 112, 3, kAlarmsThenWarnings, kOneLane),
    crossings(F::FlagTxPowerHighAlarm, FlagId::TxPowerHighAlarm, kA2, 112, 1, kAlarmsThenWarnings, kOneLane),
    crossings(F::FlagRxPowerHighAlarm, FlagId::RxPowerHighAlarm, kA2, 113, 7, kAlarmsThenWarnings, kOneLane));

static_assert(kTable.size() == static_cast<std::size_t>(F::Count), "one row per Sff8472Field");
static_assert(rows_follow_ids(kTable), "SFF-8472 table rows must follow Sff8472Field order");
static_assert(flags_come_from_table(kTable, true), "every SFF-8472 flag row is a flag table row");

}  // namespace

std::span<const Field> sff8472_fields() { return kTable; }
const Field& sff8472_field(Sff8472Field id) { return kTable[static_cast<std::size_t>(id)]; }

}  // namespace xcvr::cmis
