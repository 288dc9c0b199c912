// SFF-8636 (QSFP, QSFP+, QSFP28) memory map: lower page, upper page 00h, page 03h thresholds.
// Offsets, widths and scales per ../shared/reference/cmis-sff-memory-maps.md §11-§13, §15.
#pragma once

#include <array>
#include <span>

#include "cmis/field.hpp"

namespace xcvr::cmis {

enum class Sff8636Field : uint16_t {
  // Lower page
  Identifier, RevisionCompliance, FlatMemory, DataNotReady,
  FlagRxLos, FlagTxLos, FlagTxFault, FlagTxAdaptiveEqFault, FlagRxCdrLol, FlagTxCdrLol,
  FlagTempHighAlarm, FlagTempLowAlarm, FlagTempHighWarning, FlagTempLowWarning,
  FlagVccHighAlarm, FlagVccLowAlarm, FlagVccHighWarning, FlagVccLowWarning,
  FlagRxPowerHighAlarm, FlagRxPowerLowAlarm, FlagRxPowerHighWarning, FlagRxPowerLowWarning,
  FlagTxBiasHighAlarm, FlagTxBiasLowAlarm, FlagTxBiasHighWarning, FlagTxBiasLowWarning,
  FlagTxPowerHighAlarm, FlagTxPowerLowAlarm, FlagTxPowerHighWarning, FlagTxPowerLowWarning,
  Temperature, SupplyVoltage, RxPower, TxBias, TxPower,
  TxDisable, PowerOverride, PowerSet, HighPowerClassEnable, PowerClass8Enable,
  MaxPowerClass8, PageSelect,
  // Upper page 00h
  IdentifierCopy, PowerClassLow, PowerClass8Implemented, TxCdrPresent, RxCdrPresent,
  PowerClassHigh, Connector, EthernetCompliance, Encoding, NominalBitRate,
  LengthSmf, LengthOm3, LengthOm2, LengthOm1, LengthCopper, LengthOm4,
  TransmitterTechnology, VendorName, VendorOui, PartNumber, VendorRevision,
  Wavelength, WavelengthTolerance, MaxCaseTemperature, ChecksumBase,
  ExtendedCompliance, SerialNumber, DateCode,
  TempMonitorImplemented, VccMonitorImplemented, RxPowerIsAverage, TxPowerMonitorImplemented,
  NominalBitRateExtended, ChecksumExt,
  // Page 03h thresholds: each group high alarm, low alarm, high warning, low warning
  TempHighAlarm, TempLowAlarm, TempHighWarning, TempLowWarning,
  VccHighAlarm, VccLowAlarm, VccHighWarning, VccLowWarning,
  RxPowerHighAlarm, RxPowerLowAlarm, RxPowerHighWarning, RxPowerLowWarning,
  TxBiasHighAlarm, TxBiasLowAlarm, TxBiasHighWarning, TxBiasLowWarning,
  TxPowerHighAlarm, TxPowerLowAlarm, TxPowerHighWarning, TxPowerLowWarning,
  Count
};

// The whole table, in Sff8636Field order.
std::span<const Field> sff8636_fields();
const Field& sff8636_field(Sff8636Field id);

inline constexpr int16_t kSff8636PageThresholds = 0x03;
inline constexpr int kSff8636Lanes = 4;
// Maximum power of power classes 1-7 (00h:129); class 8 gives its own in lower byte 107.
inline constexpr std::array<double, 7> kSff8636PowerClassWatts = {1.5, 2.0, 2.5, 3.5, 4.0, 4.5, 5.0};
// Below this revision (byte 1) modules may leave the 00h:220 monitor bits clear.
inline constexpr uint32_t kSff8636RevisionWithMonitorBits = 0x08;

}  // namespace xcvr::cmis
