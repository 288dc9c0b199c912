#include "emulator/spec_layout.hpp"

#include "cmis/cmis_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::emulator {
namespace {

using cmis::CmisField;
using cmis::Sff8636Field;

const cmis::Field* cm(CmisField f) { return &cmis::cmis_field(f); }
const cmis::Field* sf(Sff8636Field f) { return &cmis::sff8636_field(f); }

SpecLayout make_cmis() {
  SpecLayout l{};
  l.spec = cmis::Spec::Cmis;
  l.table = cmis::cmis_fields();
  l.identifier = cm(CmisField::Identifier);
  l.page_select = cm(CmisField::PageSelect);
  l.bank_select = cm(CmisField::BankSelect);
  l.flat_memory = cm(CmisField::FlatMemory);
  l.banks_supported = cm(CmisField::BanksSupported);
  l.first_banked_page = cmis::kCmisPageLaneControl;
  l.max_lanes = cmis::kCmisMaxLanes;
  l.temperature = cm(CmisField::Temperature);
  l.supply_voltage = cm(CmisField::SupplyVoltage);
  l.tx_power = cm(CmisField::TxPower);
  l.tx_bias = cm(CmisField::TxBias);
  l.rx_power = cm(CmisField::RxPower);
  l.tx_bias_multiplier = cm(CmisField::TxBiasMultiplier);
  l.vendor_name = cm(CmisField::VendorName);
  l.vendor_oui = cm(CmisField::VendorOui);
  l.part_number = cm(CmisField::PartNumber);
  l.serial_number = cm(CmisField::SerialNumber);
  l.date_code = cm(CmisField::DateCode);
  l.temperature_thresholds = {cm(CmisField::TempHighAlarm), cm(CmisField::TempLowAlarm),
                              cm(CmisField::TempHighWarning), cm(CmisField::TempLowWarning)};
  l.supply_voltage_thresholds = {cm(CmisField::VccHighAlarm), cm(CmisField::VccLowAlarm),
                                 cm(CmisField::VccHighWarning), cm(CmisField::VccLowWarning)};
  l.tx_power_thresholds = {cm(CmisField::TxPowerHighAlarm), cm(CmisField::TxPowerLowAlarm),
                           cm(CmisField::TxPowerHighWarning), cm(CmisField::TxPowerLowWarning)};
  l.tx_bias_thresholds = {cm(CmisField::TxBiasHighAlarm), cm(CmisField::TxBiasLowAlarm),
                          cm(CmisField::TxBiasHighWarning), cm(CmisField::TxBiasLowWarning)};
  l.rx_power_thresholds = {cm(CmisField::RxPowerHighAlarm), cm(CmisField::RxPowerLowAlarm),
                           cm(CmisField::RxPowerHighWarning), cm(CmisField::RxPowerLowWarning)};
  // Page checksums: 00h over 128-221, 01h over 130-254, 02h over 128-254 (the reference, §3-§5).
  l.checksums = {{cm(CmisField::Checksum00), 128},
                 {cm(CmisField::Checksum01), 130},
                 {cm(CmisField::Checksum02), 128}};
  l.module_state = cm(CmisField::ModuleState);
  l.module_fault_cause = cm(CmisField::ModuleFaultCause);
  l.data_path_state = cm(CmisField::DataPathState);
  l.tx_output_valid = cm(CmisField::TxOutputStatus);
  l.rx_output_valid = cm(CmisField::RxOutputStatus);
  l.data_not_ready = nullptr;
  l.low_power_request = cm(CmisField::LowPwrRequestSw);
  l.low_power_override = nullptr;
  l.tx_disable = cm(CmisField::TxOutputDisable);
  l.data_path_deinit = cm(CmisField::DataPathDeinit);
  return l;
}

SpecLayout make_sff8636() {
  SpecLayout l{};
  l.spec = cmis::Spec::Sff8636;
  l.table = cmis::sff8636_fields();
  l.identifier = sf(Sff8636Field::Identifier);
  l.page_select = sf(Sff8636Field::PageSelect);
  l.bank_select = nullptr;
  l.flat_memory = sf(Sff8636Field::FlatMemory);
  l.banks_supported = nullptr;
  l.first_banked_page = 0x100;  // none
  l.max_lanes = cmis::kSff8636Lanes;
  l.temperature = sf(Sff8636Field::Temperature);
  l.supply_voltage = sf(Sff8636Field::SupplyVoltage);
  l.tx_power = sf(Sff8636Field::TxPower);
  l.tx_bias = sf(Sff8636Field::TxBias);
  l.rx_power = sf(Sff8636Field::RxPower);
  l.tx_bias_multiplier = nullptr;
  l.vendor_name = sf(Sff8636Field::VendorName);
  l.vendor_oui = sf(Sff8636Field::VendorOui);
  l.part_number = sf(Sff8636Field::PartNumber);
  l.serial_number = sf(Sff8636Field::SerialNumber);
  l.date_code = sf(Sff8636Field::DateCode);
  l.temperature_thresholds = {sf(Sff8636Field::TempHighAlarm), sf(Sff8636Field::TempLowAlarm),
                              sf(Sff8636Field::TempHighWarning), sf(Sff8636Field::TempLowWarning)};
  l.supply_voltage_thresholds = {sf(Sff8636Field::VccHighAlarm), sf(Sff8636Field::VccLowAlarm),
                                 sf(Sff8636Field::VccHighWarning), sf(Sff8636Field::VccLowWarning)};
  l.tx_power_thresholds = {sf(Sff8636Field::TxPowerHighAlarm), sf(Sff8636Field::TxPowerLowAlarm),
                           sf(Sff8636Field::TxPowerHighWarning),
                           sf(Sff8636Field::TxPowerLowWarning)};
  l.tx_bias_thresholds = {sf(Sff8636Field::TxBiasHighAlarm), sf(Sff8636Field::TxBiasLowAlarm),
                          sf(Sff8636Field::TxBiasHighWarning), sf(Sff8636Field::TxBiasLowWarning)};
  l.rx_power_thresholds = {sf(Sff8636Field::RxPowerHighAlarm), sf(Sff8636Field::RxPowerLowAlarm),
                           sf(Sff8636Field::RxPowerHighWarning),
                           sf(Sff8636Field::RxPowerLowWarning)};
  // CC_BASE over 128-190, CC_EXT over 192-222 (the reference, §12).
  l.checksums = {{sf(Sff8636Field::ChecksumBase), 128}, {sf(Sff8636Field::ChecksumExt), 192}};
  l.module_state = nullptr;
  l.module_fault_cause = nullptr;
  l.data_path_state = nullptr;
  l.tx_output_valid = nullptr;
  l.rx_output_valid = nullptr;
  l.data_not_ready = sf(Sff8636Field::DataNotReady);
  l.low_power_request = sf(Sff8636Field::PowerSet);
  l.low_power_override = sf(Sff8636Field::PowerOverride);
  l.tx_disable = sf(Sff8636Field::TxDisable);
  l.data_path_deinit = nullptr;
  return l;
}

}  // namespace

const SpecLayout& cmis_layout() {
  static const SpecLayout layout = make_cmis();
  return layout;
}

const SpecLayout& sff8636_layout() {
  static const SpecLayout layout = make_sff8636();
  return layout;
}

const SpecLayout& layout_for(cmis::Spec spec) {
  return spec == cmis::Spec::Sff8636 ? sff8636_layout() : cmis_layout();
}

cmis::PageKey page_key_of(const cmis::Field& field, int lane) {
  const auto loc = cmis::locate(field, lane);
  return loc ? loc->page : cmis::PageKey{field.device, 0, field.page};
}

uint16_t offset_of(const cmis::Field& field, int lane) {
  const auto loc = cmis::locate(field, lane);
  return loc ? loc->offset : field.offset;
}

}  // namespace xcvr::emulator
