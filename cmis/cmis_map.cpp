#include "cmis/cmis_map.hpp"

#include <array>

#include "cmis/field_rows.hpp"

namespace xcvr::cmis {
namespace {

using namespace field_rows;
using F = CmisField;
constexpr int16_t L = kLowerPage;
constexpr int16_t P02 = kCmisPageThresholds;

// Lane layouts on banked pages: 8 lanes per bank, 32 lanes in all.
constexpr LaneLayout kLaneBits{32, 8, 0, 8, 1};    // one bit per lane, bit 0 = lane 1
constexpr LaneLayout kLaneWords{32, 8, 2, 0, 0};   // one U16 per lane
constexpr LaneLayout kLaneNibbles{32, 8, 0, 2, 4}; // 4 bits per lane, low nibble = odd lane
constexpr LaneLayout kLaneBytes{32, 8, 1, 0, 0};   // one byte per lane
constexpr LaneLayout kApps1to8{8, 0, 4, 0, 0};     // application descriptors, 4 bytes each
constexpr LaneLayout kApps9to15{7, 0, 4, 0, 0};
constexpr LaneLayout kVdmInstances{64, 0, 2, 0, 0};
constexpr LaneLayout kVdmThresholdSets{16, 0, 8, 0, 0};  // "lane" n = threshold set n-1
constexpr LaneLayout kVdmFlagNibbles{64, 0, 0, 2, 4};    // instance 1 low nibble, 2 high, ...

// Page 11h lane flags: one byte per flag, bit n-1 = lane n of the bank.
constexpr Field lane_flag(F id, FlagId flag_id, uint16_t offset) {
  return flag(id, flag_id, kCmisPageLaneStatus, offset, 0, kLaneBits);
}
// A monitor's four threshold flags (high alarm, low alarm, high warning, low warning): module
// monitors in four bits of one lower byte from the lowest, lane monitors in four 11h bytes.
constexpr CrossingLayout kModuleCrossings{{{0, 0}, {0, 1}, {0, 2}, {0, 3}}};
constexpr CrossingLayout kLaneCrossings{{{0, 0}, {1, 0}, {2, 0}, {3, 0}}};
constexpr std::array<Field, 4> lane_crossings(F first, FlagId first_flag, uint16_t offset) {
  return crossings(first, first_flag, kCmisPageLaneStatus, offset, 0, kLaneCrossings, kLaneBits);
}

// Page 02h: each monitor's high alarm, low alarm, high warning, low warning levels.
constexpr ThresholdPage<F> threshold{P02};

constexpr auto kTable = join(std::array{
    // --- Lower memory (§2) ---
    row(F::Identifier, "identifier", L, 0, 1, Type::U8),
    row(F::Revision, "cmis_revision", L, 1, 1, Type::U8),
    bits(F::FlatMemory, "flat_memory", L, 2, 7, 1),
    bits(F::MciMaxSpeed, "mci_max_speed", L, 2, 2, 2),
    bits(F::ModuleState, "module_state", L, 3, 1, 3, Role::Status),
    bits(F::InterruptDeasserted, "interrupt_deasserted", L, 3, 0, 1, Role::Status),
    flag(F::FlagModuleStateChanged, FlagId::ModuleStateChanged, L, 8, 0),
    flag(F::FlagModuleFirmwareError, FlagId::ModuleFirmwareError, L, 8, 1),
    flag(F::FlagDatapathFirmwareError, FlagId::DatapathFirmwareError, L, 8, 2),
},
    crossings(F::FlagTempHighAlarm, FlagId::TempHighAlarm, L, 9, 0, kModuleCrossings),
    crossings(F::FlagVccHighAlarm, FlagId::VccHighAlarm, L, 9, 4, kModuleCrossings),
    crossings(F::FlagAux1HighAlarm, FlagId::Aux1HighAlarm, L, 10, 0, kModuleCrossings),
    crossings(F::FlagAux2HighAlarm, FlagId::Aux2HighAlarm, L, 10, 4, kModuleCrossings),
    crossings(F::FlagAux3HighAlarm, FlagId::Aux3HighAlarm, L, 11, 0, kModuleCrossings),
std::array{
    row(F::Temperature, "temperature", L, 14, 2, Type::S16, kTemp, Unit::Celsius, Role::Monitor),
    row(F::SupplyVoltage, "supply_voltage", L, 16, 2, Type::U16, kVolt, Unit::Volts, Role::Monitor),
    row(F::Aux1, "aux1", L, 18, 2, Type::S16, 1, Unit::None, Role::Monitor),
    row(F::Aux2, "aux2", L, 20, 2, Type::S16, 1, Unit::None, Role::Monitor),
    row(F::Aux3, "aux3", L, 22, 2, Type::S16, 1, Unit::None, Role::Monitor),
    row(F::CustomMonitor, "custom_monitor", L, 24, 2, Type::U16, 1, Unit::None, Role::Monitor),
    bits(F::LowPwrRequestSw, "low_power_request_sw", L, 26, 4, 1, Role::Control),
    bits(F::LowPwrAllowRequestHw, "low_power_allow_request_hw", L, 26, 6, 1, Role::Control),
    row(F::FirmwareMajor, "firmware_major", L, 39, 1, Type::U8),
    row(F::FirmwareMinor, "firmware_minor", L, 40, 1, Type::U8),
    row(F::ModuleFaultCause, "module_fault_cause", L, 41, 1, Type::U8, 1, Unit::None, Role::Status),
    row(F::MediaType, "media_type", L, 85, 1, Type::U8),
    row(F::AppHostInterface, "app_host_interface", L, 86, 1, Type::U8, 1, Unit::None, Role::Info, kApps1to8),
    row(F::AppMediaInterface, "app_media_interface", L, 87, 1, Type::U8, 1, Unit::None, Role::Info, kApps1to8),
    bits(F::AppHostLaneCount, "app_host_lane_count", L, 88, 4, 4, Role::Info, kApps1to8),
    bits(F::AppMediaLaneCount, "app_media_lane_count", L, 88, 0, 4, Role::Info, kApps1to8),
    row(F::AppHostLaneAssignment, "app_host_lane_assignment", L, 89, 1, Type::U8, 1, Unit::None, Role::Info, kApps1to8),
    row(F::BankSelect, "bank_select", L, 126, 1, Type::U8, 1, Unit::None, Role::Control),
    row(F::PageSelect, "page_select", L, 127, 1, Type::U8, 1, Unit::None, Role::Control),
    // --- Page 00h (§3) ---
    row(F::IdentifierCopy, "identifier_copy", 0x00, 128, 1, Type::U8),
    row(F::VendorName, "vendor_name", 0x00, 129, 16, Type::Ascii),
    row(F::VendorOui, "vendor_oui", 0x00, 145, 3, Type::Bytes),
    row(F::PartNumber, "part_number", 0x00, 148, 16, Type::Ascii),
    row(F::VendorRevision, "vendor_revision", 0x00, 164, 2, Type::Ascii),
    row(F::SerialNumber, "serial_number", 0x00, 166, 16, Type::Ascii),
    row(F::DateCode, "date_code", 0x00, 182, 8, Type::Ascii),
    row(F::CleiCode, "clei_code", 0x00, 190, 10, Type::Ascii),
    bits(F::PowerClass, "power_class", 0x00, 200, 5, 3),  // class = value + 1
    row(F::MaxPower, "max_power", 0x00, 201, 1, Type::U8, 0.25, Unit::Watts),
    bits(F::CableLengthMultiplier, "cable_length_multiplier", 0x00, 202, 6, 2),
    bits(F::CableLengthBase, "cable_length_base", 0x00, 202, 0, 6),
    row(F::Connector, "connector", 0x00, 203, 1, Type::U8),
    row(F::MediaLaneUnsupported, "media_lane_unsupported", 0x00, 210, 1, Type::U8),
    bits(F::FarEndConfiguration, "far_end_configuration", 0x00, 211, 0, 5),
    row(F::MediaInterfaceTechnology, "media_interface_technology", 0x00, 212, 1, Type::U8),
    row(F::Checksum00, "checksum_00h", 0x00, 222, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- Page 01h (§4) ---
    row(F::InactiveFirmwareMajor, "inactive_firmware_major", 0x01, 128, 1, Type::U8),
    row(F::InactiveFirmwareMinor, "inactive_firmware_minor", 0x01, 129, 1, Type::U8),
    row(F::HardwareMajor, "hardware_major", 0x01, 130, 1, Type::U8),
    row(F::HardwareMinor, "hardware_minor", 0x01, 131, 1, Type::U8),
    bits(F::LengthSmfMultiplier, "length_smf_multiplier", 0x01, 132, 6, 2),
    bits(F::LengthSmfBase, "length_smf_base", 0x01, 132, 0, 6),
    row(F::LengthOm5, "length_om5", 0x01, 133, 1, Type::U8, 2, Unit::Meters),
    row(F::LengthOm4, "length_om4", 0x01, 134, 1, Type::U8, 2, Unit::Meters),
    row(F::LengthOm3, "length_om3", 0x01, 135, 1, Type::U8, 2, Unit::Meters),
    row(F::LengthOm2, "length_om2", 0x01, 136, 1, Type::U8, 1, Unit::Meters),
    row(F::NominalWavelength, "nominal_wavelength", 0x01, 138, 2, Type::U16, 0.05 * kNanometer, Unit::Meters),
    row(F::WavelengthTolerance, "wavelength_tolerance", 0x01, 140, 2, Type::U16, 0.005 * kNanometer, Unit::Meters),
    bits(F::VdmPagesSupported, "vdm_pages_supported", 0x01, 142, 6, 1),
    bits(F::DiagnosticPagesSupported, "diagnostic_pages_supported", 0x01, 142, 5, 1),
    bits(F::Page03Supported, "page_03h_supported", 0x01, 142, 2, 1),
    bits(F::BanksSupported, "banks_supported", 0x01, 142, 0, 2),
    bits(F::CoolingImplemented, "cooling_implemented", 0x01, 145, 7, 1),
    bits(F::Aux3Observable, "aux3_is_vcc2", 0x01, 145, 2, 1),
    bits(F::Aux2Observable, "aux2_is_tec_current", 0x01, 145, 1, 1),
    bits(F::Aux1Observable, "aux1_is_tec_current", 0x01, 145, 0, 1),
    bits(F::RxPowerMeasurementType, "rx_power_is_average", 0x01, 151, 4, 1),
    row(F::TxFlagsSupported, "tx_flags_supported", 0x01, 157, 1, Type::U8),
    row(F::RxFlagsSupported, "rx_flags_supported", 0x01, 158, 1, Type::U8),
    bits(F::TempMonitorSupported, "temperature_monitor_supported", 0x01, 159, 0, 1),
    bits(F::VccMonitorSupported, "supply_voltage_monitor_supported", 0x01, 159, 1, 1),
    bits(F::Aux1MonitorSupported, "aux1_monitor_supported", 0x01, 159, 2, 1),
    bits(F::Aux2MonitorSupported, "aux2_monitor_supported", 0x01, 159, 3, 1),
    bits(F::Aux3MonitorSupported, "aux3_monitor_supported", 0x01, 159, 4, 1),
    bits(F::TxBiasMultiplier, "tx_bias_multiplier_code", 0x01, 160, 3, 2),
    bits(F::RxPowerMonitorSupported, "rx_power_monitor_supported", 0x01, 160, 2, 1),
    bits(F::TxPowerMonitorSupported, "tx_power_monitor_supported", 0x01, 160, 1, 1),
    bits(F::TxBiasMonitorSupported, "tx_bias_monitor_supported", 0x01, 160, 0, 1),
    row(F::MediaLaneAssignment, "app_media_lane_assignment", 0x01, 176, 1, Type::U8, 1, Unit::None, Role::Info, LaneLayout{15, 0, 1, 0, 0}),
    row(F::App2HostInterface, "app_host_interface_9_15", 0x01, 223, 1, Type::U8, 1, Unit::None, Role::Info, kApps9to15),
    row(F::App2MediaInterface, "app_media_interface_9_15", 0x01, 224, 1, Type::U8, 1, Unit::None, Role::Info, kApps9to15),
    bits(F::App2HostLaneCount, "app_host_lane_count_9_15", 0x01, 225, 4, 4, Role::Info, kApps9to15),
    bits(F::App2MediaLaneCount, "app_media_lane_count_9_15", 0x01, 225, 0, 4, Role::Info, kApps9to15),
    row(F::App2HostLaneAssignment, "app_host_lane_assignment_9_15", 0x01, 226, 1, Type::U8, 1, Unit::None, Role::Info, kApps9to15),
    row(F::Checksum01, "checksum_01h", 0x01, 255, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- Page 02h thresholds (§5) ---
    threshold(F::TempHighAlarm, "temperature_high_alarm", 128, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempLowAlarm, "temperature_low_alarm", 130, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempHighWarning, "temperature_high_warning", 132, Type::S16, kTemp, Unit::Celsius),
    threshold(F::TempLowWarning, "temperature_low_warning", 134, Type::S16, kTemp, Unit::Celsius),
    threshold(F::VccHighAlarm, "supply_voltage_high_alarm", 136, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccLowAlarm, "supply_voltage_low_alarm", 138, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccHighWarning, "supply_voltage_high_warning", 140, Type::U16, kVolt, Unit::Volts),
    threshold(F::VccLowWarning, "supply_voltage_low_warning", 142, Type::U16, kVolt, Unit::Volts),
    threshold(F::Aux1HighAlarm, "aux1_high_alarm", 144, Type::S16, 1, Unit::None),
    threshold(F::Aux1LowAlarm, "aux1_low_alarm", 146, Type::S16, 1, Unit::None),
    threshold(F::Aux1HighWarning, "aux1_high_warning", 148, Type::S16, 1, Unit::None),
    threshold(F::Aux1LowWarning, "aux1_low_warning", 150, Type::S16, 1, Unit::None),
    threshold(F::Aux2HighAlarm, "aux2_high_alarm", 152, Type::S16, 1, Unit::None),
    threshold(F::Aux2LowAlarm, "aux2_low_alarm", 154, Type::S16, 1, Unit::None),
    threshold(F::Aux2HighWarning, "aux2_high_warning", 156, Type::S16, 1, Unit::None),
    threshold(F::Aux2LowWarning, "aux2_low_warning", 158, Type::S16, 1, Unit::None),
    threshold(F::Aux3HighAlarm, "aux3_high_alarm", 160, Type::S16, 1, Unit::None),
    threshold(F::Aux3LowAlarm, "aux3_low_alarm", 162, Type::S16, 1, Unit::None),
    threshold(F::Aux3HighWarning, "aux3_high_warning", 164, Type::S16, 1, Unit::None),
    threshold(F::Aux3LowWarning, "aux3_low_warning", 166, Type::S16, 1, Unit::None),
    threshold(F::TxPowerHighAlarm, "tx_power_high_alarm", 176, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerLowAlarm, "tx_power_low_alarm", 178, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerHighWarning, "tx_power_high_warning", 180, Type::U16, kPower, Unit::Watts),
    threshold(F::TxPowerLowWarning, "tx_power_low_warning", 182, Type::U16, kPower, Unit::Watts),
    threshold(F::TxBiasHighAlarm, "tx_bias_high_alarm", 184, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasLowAlarm, "tx_bias_low_alarm", 186, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasHighWarning, "tx_bias_high_warning", 188, Type::U16, kBias, Unit::Amperes),
    threshold(F::TxBiasLowWarning, "tx_bias_low_warning", 190, Type::U16, kBias, Unit::Amperes),
    threshold(F::RxPowerHighAlarm, "rx_power_high_alarm", 192, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerLowAlarm, "rx_power_low_alarm", 194, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerHighWarning, "rx_power_high_warning", 196, Type::U16, kPower, Unit::Watts),
    threshold(F::RxPowerLowWarning, "rx_power_low_warning", 198, Type::U16, kPower, Unit::Watts),
    row(F::Checksum02, "checksum_02h", 0x02, 255, 1, Type::U8, 1, Unit::None, Role::Checksum),
    // --- Page 10h lane controls (§6) ---
    bits(F::DataPathDeinit, "data_path_deinit", kCmisPageLaneControl, 128, 0, 1, Role::Control, kLaneBits),
    bits(F::TxOutputDisable, "tx_output_disable", kCmisPageLaneControl, 130, 0, 1, Role::Control, kLaneBits),
    // --- Page 11h lane status (§7) ---
    bits(F::DataPathState, "data_path_state", kCmisPageLaneStatus, 128, 0, 4, Role::Status, kLaneNibbles),
    bits(F::RxOutputStatus, "rx_output_valid", kCmisPageLaneStatus, 132, 0, 1, Role::Status, kLaneBits),
    bits(F::TxOutputStatus, "tx_output_valid", kCmisPageLaneStatus, 133, 0, 1, Role::Status, kLaneBits),
    lane_flag(F::FlagDataPathStateChanged, FlagId::DataPathStateChanged, 134),
    lane_flag(F::FlagTxFault, FlagId::TxFault, 135),
    lane_flag(F::FlagTxLos, FlagId::TxLos, 136),
    lane_flag(F::FlagTxCdrLol, FlagId::TxCdrLol, 137),
    lane_flag(F::FlagTxAdaptiveEqFail, FlagId::TxAdaptiveEqFault, 138),
},
    lane_crossings(F::FlagTxPowerHighAlarm, FlagId::TxPowerHighAlarm, 139),
    lane_crossings(F::FlagTxBiasHighAlarm, FlagId::TxBiasHighAlarm, 143),
std::array{
    lane_flag(F::FlagRxLos, FlagId::RxLos, 147),
    lane_flag(F::FlagRxCdrLol, FlagId::RxCdrLol, 148),
},
    lane_crossings(F::FlagRxPowerHighAlarm, FlagId::RxPowerHighAlarm, 149),
std::array{
    row(F::TxPower, "tx_power", kCmisPageLaneStatus, 154, 2, Type::U16, kPower, Unit::Watts, Role::Monitor, kLaneWords),
    row(F::TxBias, "tx_bias", kCmisPageLaneStatus, 170, 2, Type::U16, kBias, Unit::Amperes, Role::Monitor, kLaneWords),
    row(F::RxPower, "rx_power", kCmisPageLaneStatus, 186, 2, Type::U16, kPower, Unit::Watts, Role::Monitor, kLaneWords),
    bits(F::ConfigStatus, "config_status", kCmisPageLaneStatus, 202, 0, 4, Role::Status, kLaneNibbles),
    bits(F::ActiveAppSel, "active_app_sel", kCmisPageLaneStatus, 206, 4, 4, Role::Status, kLaneBytes),
    // DataPathID: the first lane (0-based, within the bank) of the data path the lane is in.
    bits(F::ActiveDataPathId, "active_data_path_id", kCmisPageLaneStatus, 206, 1, 3, Role::Status, kLaneBytes),
    // --- VDM (§8) ---
    bits(F::VdmGroupsSupported, "vdm_groups_supported", kCmisPageVdmAdvertising, 128, 0, 2),
    bits(F::VdmFreezeRequest, "vdm_freeze_request", kCmisPageVdmAdvertising, 144, 7, 1, Role::Control),
    bits(F::VdmFreezeDone, "vdm_freeze_done", kCmisPageVdmAdvertising, 145, 7, 1, Role::Status),
    bits(F::VdmUnfreezeDone, "vdm_unfreeze_done", kCmisPageVdmAdvertising, 145, 6, 1, Role::Status),
    bits(F::VdmDescriptorThresholdSet, "vdm_threshold_set", kCmisPageVdmDescriptors, 128, 4, 4, Role::Info, kVdmInstances),
    bits(F::VdmDescriptorLane, "vdm_lane", kCmisPageVdmDescriptors, 128, 0, 4, Role::Info, kVdmInstances),
    row(F::VdmDescriptorType, "vdm_type", kCmisPageVdmDescriptors, 129, 1, Type::U8, 1, Unit::None, Role::Info, kVdmInstances),
    row(F::VdmValue, "vdm_value", kCmisPageVdmValues, 128, 2, Type::U16, 1, Unit::None, Role::Monitor, kVdmInstances),
    // Threshold sets: 8 bytes each, in the encoding of the observables that name the set.
    row(F::VdmThresholdHighAlarm, "vdm_threshold_high_alarm", kCmisPageVdmThresholds, 128, 2, Type::U16, 1, Unit::None, Role::Threshold, kVdmThresholdSets),
    row(F::VdmThresholdLowAlarm, "vdm_threshold_low_alarm", kCmisPageVdmThresholds, 130, 2, Type::U16, 1, Unit::None, Role::Threshold, kVdmThresholdSets),
    row(F::VdmThresholdHighWarning, "vdm_threshold_high_warning", kCmisPageVdmThresholds, 132, 2, Type::U16, 1, Unit::None, Role::Threshold, kVdmThresholdSets),
    row(F::VdmThresholdLowWarning, "vdm_threshold_low_warning", kCmisPageVdmThresholds, 134, 2, Type::U16, 1, Unit::None, Role::Threshold, kVdmThresholdSets),
    // Latched flags of group 1 (group g: 32 bytes further on, same page), clear-on-read.
    flag(F::VdmFlagHighAlarm, FlagId::VdmHighAlarm, kCmisPageVdmFlags, 128, 0, kVdmFlagNibbles, Role::VdmFlag),
    flag(F::VdmFlagLowAlarm, FlagId::VdmLowAlarm, kCmisPageVdmFlags, 128, 1, kVdmFlagNibbles, Role::VdmFlag),
    flag(F::VdmFlagHighWarning, FlagId::VdmHighWarning, kCmisPageVdmFlags, 128, 2, kVdmFlagNibbles, Role::VdmFlag),
    flag(F::VdmFlagLowWarning, FlagId::VdmLowWarning, kCmisPageVdmFlags, 128, 3, kVdmFlagNibbles, Role::VdmFlag),
});

static_assert(kTable.size() == static_cast<std::size_t>(F::Count), "one row per CmisField");
static_assert(rows_follow_ids(kTable), "CMIS table rows must follow CmisField order");
static_assert(flags_come_from_table(kTable), "every CMIS flag row is a flag table row");

}  // namespace

std::span<const Field> cmis_fields() { return kTable; }
const Field* const detail::kCmisRows = kTable.data();

}  // namespace xcvr::cmis
