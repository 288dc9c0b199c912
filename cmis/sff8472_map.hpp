// SFF-8472 (SFP, SFP+, SFP28) memory map: A0h serial ID (device 0x50, bytes 0-95) and A2h
// diagnostics (device 0x51, lower half: thresholds, external calibration, monitors, flags).
#pragma once

#include <span>

#include "cmis/field.hpp"

namespace xcvr::cmis {

enum class Sff8472Field : uint16_t {
  // A0h
  Identifier, ExtendedIdentifier, Connector, ActiveCopperCable, PassiveCopperCable, Encoding,
  NominalBitRate, LengthSmfKm, LengthSmf, LengthOm2, LengthOm1, LengthCopper, LengthOm4,
  LengthOm3, VendorName, ExtendedCompliance, VendorOui, PartNumber, VendorRevision, Wavelength,
  ChecksumBase, Options, SerialNumber, DateCode,
  DdmImplemented, InternallyCalibrated, ExternallyCalibrated, RxPowerIsAverage,
  AddressChangeRequired, AlarmWarningFlagsImplemented, Compliance, ChecksumExt,
  // A2h thresholds: each group high alarm, low alarm, high warning, low warning
  TempHighAlarm, TempLowAlarm, TempHighWarning, TempLowWarning,
  VccHighAlarm, VccLowAlarm, VccHighWarning, VccLowWarning,
  TxBiasHighAlarm, TxBiasLowAlarm, TxBiasHighWarning, TxBiasLowWarning,
  TxPowerHighAlarm, TxPowerLowAlarm, TxPowerHighWarning, TxPowerLowWarning,
  RxPowerHighAlarm, RxPowerLowAlarm, RxPowerHighWarning, RxPowerLowWarning,
  // A2h external calibration constants
  RxPwr4, RxPwr3, RxPwr2, RxPwr1, RxPwr0,
  TxBiasSlope, TxBiasOffset, TxPowerSlope, TxPowerOffset,
  TempSlope, TempOffset, VccSlope, VccOffset, ChecksumDmi,
  // A2h monitors and status
  Temperature, SupplyVoltage, TxBias, TxPower, RxPower,
  SoftTxDisable, StatusTxFault, StatusRxLos, DataNotReady,
  // A2h latched flags (alarms 112-113, warnings 116-117), per monitor: HA, LA, HW, LW
  FlagTempHighAlarm, FlagTempLowAlarm, FlagTempHighWarning, FlagTempLowWarning, FlagVccHighAlarm, FlagVccLowAlarm,
  FlagVccHighWarning, FlagVccLowWarning, FlagTxBiasHighAlarm, FlagTxBiasLowAlarm, FlagTxBiasHighWarning,
  FlagTxBiasLowWarning, FlagTxPowerHighAlarm, FlagTxPowerLowAlarm, FlagTxPowerHighWarning, FlagTxPowerLowWarning,
  FlagRxPowerHighAlarm, FlagRxPowerLowAlarm, FlagRxPowerHighWarning, FlagRxPowerLowWarning,
  Count
};

// The whole table, in Sff8472Field order.
std::span<const Field> sff8472_fields();
const Field& sff8472_field(Sff8472Field id);

inline constexpr int kSff8472Lanes = 1;  // SFP is single-lane: lane fields use lane 1

}  // namespace xcvr::cmis
