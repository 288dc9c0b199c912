// CMIS 4.0 / 5.x memory map (lower memory, pages 00h, 01h, 02h, 10h, 11h, VDM 20h-2Fh).
// Offsets, widths and scales per ../shared/reference/cmis-sff-memory-maps.md §2-§8.
#pragma once

#include <span>

#include "cmis/field.hpp"

namespace xcvr::cmis {

enum class CmisField : uint16_t {
  // Lower memory
  Identifier, Revision, FlatMemory, MciMaxSpeed, ModuleState, InterruptDeasserted,
  FlagModuleStateChanged, FlagModuleFirmwareError, FlagDatapathFirmwareError,
  FlagTempHighAlarm, FlagTempLowAlarm, FlagTempHighWarning, FlagTempLowWarning,
  FlagVccHighAlarm, FlagVccLowAlarm, FlagVccHighWarning, FlagVccLowWarning,
  FlagAux1HighAlarm, FlagAux1LowAlarm, FlagAux1HighWarning, FlagAux1LowWarning,
  FlagAux2HighAlarm, FlagAux2LowAlarm, FlagAux2HighWarning, FlagAux2LowWarning,
  FlagAux3HighAlarm, FlagAux3LowAlarm, FlagAux3HighWarning, FlagAux3LowWarning,
  Temperature, SupplyVoltage, Aux1, Aux2, Aux3, CustomMonitor,
  LowPwrRequestSw, LowPwrAllowRequestHw,
  FirmwareMajor, FirmwareMinor, ModuleFaultCause, MediaType,
  AppHostInterface, AppMediaInterface, AppHostLaneCount, AppMediaLaneCount, AppHostLaneAssignment,
  BankSelect, PageSelect,
  // Page 00h
  IdentifierCopy, VendorName, VendorOui, PartNumber, VendorRevision, SerialNumber, DateCode,
  CleiCode, PowerClass, MaxPower, CableLengthMultiplier, CableLengthBase, Connector,
  MediaLaneUnsupported, FarEndConfiguration, MediaInterfaceTechnology, Checksum00,
  // Page 01h
  InactiveFirmwareMajor, InactiveFirmwareMinor, HardwareMajor, HardwareMinor,
  LengthSmfMultiplier, LengthSmfBase, LengthOm5, LengthOm4, LengthOm3, LengthOm2,
  NominalWavelength, WavelengthTolerance,
  VdmPagesSupported, DiagnosticPagesSupported, Page03Supported, BanksSupported,
  CoolingImplemented, Aux3Observable, Aux2Observable, Aux1Observable,
  RxPowerMeasurementType, TxFlagsSupported, RxFlagsSupported,
  TempMonitorSupported, VccMonitorSupported, Aux1MonitorSupported, Aux2MonitorSupported,
  Aux3MonitorSupported, TxBiasMultiplier, RxPowerMonitorSupported, TxPowerMonitorSupported,
  TxBiasMonitorSupported, MediaLaneAssignment, App2HostInterface, App2MediaInterface,
  App2HostLaneCount, App2MediaLaneCount, App2HostLaneAssignment, Checksum01,
  // Page 02h thresholds: each group high alarm, low alarm, high warning, low warning
  TempHighAlarm, TempLowAlarm, TempHighWarning, TempLowWarning,
  VccHighAlarm, VccLowAlarm, VccHighWarning, VccLowWarning,
  Aux1HighAlarm, Aux1LowAlarm, Aux1HighWarning, Aux1LowWarning,
  Aux2HighAlarm, Aux2LowAlarm, Aux2HighWarning, Aux2LowWarning,
  Aux3HighAlarm, Aux3LowAlarm, Aux3HighWarning, Aux3LowWarning,
  TxPowerHighAlarm, TxPowerLowAlarm, TxPowerHighWarning, TxPowerLowWarning,
  TxBiasHighAlarm, TxBiasLowAlarm, TxBiasHighWarning, TxBiasLowWarning,
  RxPowerHighAlarm, RxPowerLowAlarm, RxPowerHighWarning, RxPowerLowWarning,
  Checksum02,
  // Page 10h (banked)
  DataPathDeinit, TxOutputDisable,
  // Page 11h (banked)
  DataPathState, RxOutputStatus, TxOutputStatus,
  FlagDataPathStateChanged, FlagTxFault, FlagTxLos, FlagTxCdrLol, FlagTxAdaptiveEqFail,
  FlagTxPowerHighAlarm, FlagTxPowerLowAlarm, FlagTxPowerHighWarning, FlagTxPowerLowWarning,
  FlagTxBiasHighAlarm, FlagTxBiasLowAlarm, FlagTxBiasHighWarning, FlagTxBiasLowWarning,
  FlagRxLos, FlagRxCdrLol,
  FlagRxPowerHighAlarm, FlagRxPowerLowAlarm, FlagRxPowerHighWarning, FlagRxPowerLowWarning,
  TxPower, TxBias, RxPower, ConfigStatus, ActiveAppSel, ActiveDataPathId,
  // VDM (group 1 pages; groups 2-4 are the next pages at the same offsets)
  VdmGroupsSupported, VdmFreezeRequest, VdmFreezeDone, VdmUnfreezeDone,
  VdmDescriptorThresholdSet, VdmDescriptorLane, VdmDescriptorType, VdmValue,
  VdmThresholdHighAlarm, VdmThresholdLowAlarm, VdmThresholdHighWarning, VdmThresholdLowWarning,
  VdmFlagHighAlarm, VdmFlagLowAlarm, VdmFlagHighWarning, VdmFlagLowWarning,
  Count
};

// The whole table, in CmisField order.
std::span<const Field> cmis_fields();
namespace detail {
extern const Field* const kCmisRows;  // cmis_fields().data(), for the inline lookup below
}
// Inline: decoders look a row up for every field they read.
inline const Field& cmis_field(CmisField id) { return detail::kCmisRows[static_cast<std::size_t>(id)]; }

// Pages a paged CMIS module is read from, in read order (lower memory first).
inline constexpr int16_t kCmisPageAdvertising = 0x01;
inline constexpr int16_t kCmisPageThresholds = 0x02;
inline constexpr int16_t kCmisPageLaneControl = 0x10;
inline constexpr int16_t kCmisPageLaneStatus = 0x11;
inline constexpr int16_t kCmisPageVdmDescriptors = 0x20;  // + group (0-3)
inline constexpr int16_t kCmisPageVdmValues = 0x24;       // + group (0-3)
inline constexpr int16_t kCmisPageVdmThresholds = 0x28;   // + group (0-3)
inline constexpr int16_t kCmisPageVdmFlags = 0x2C;        // all groups, 32 bytes each
inline constexpr int16_t kCmisPageVdmAdvertising = 0x2F;
inline constexpr int kCmisLanesPerBank = 8;
inline constexpr int kCmisMaxLanes = 32;
inline constexpr int kCmisVdmInstancesPerPage = 64;
inline constexpr int kCmisVdmThresholdSets = 16;      // per group
inline constexpr int kCmisVdmFlagBytesPerGroup = 32;  // page 2Ch: one nibble per instance

// Banks a module has from its BanksSupported code (01h:142 bits 1-0): 0 = bank 0 only, 1 = banks
// 0-1, 2 = banks 0-3; 3 is reserved and read as bank 0 only (nothing beyond it is promised).
constexpr int cmis_bank_count(uint32_t banks_supported_code) {
  return banks_supported_code == 1 ? 2 : banks_supported_code == 2 ? 4 : 1;
}

}  // namespace xcvr::cmis
