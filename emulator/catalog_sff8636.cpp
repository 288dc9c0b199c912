// SFF-8636 (QSFP28) models of the catalog.
#include "emulator/catalog.hpp"

namespace xcvr::emulator {
namespace {

constexpr uint8_t kIdQsfp28 = 0x11;
constexpr uint8_t kRev2_5to2_7 = 0x07;  // byte 1 revision compliance
constexpr uint8_t kConnLc = 0x07, kConnMpo1x12 = 0x0C;
constexpr uint8_t kExt100gSr4 = 0x02, kExt100gLr4 = 0x03;  // SFF-8024 Table 4-4
constexpr uint8_t kEncoding64b66b = 0x05;
constexpr uint8_t kTech850Vcsel = 0x00, kTech1310Dfb = 0x04;
constexpr std::array<uint8_t, 3> kOuiExample{0xAC, 0xDE, 0x48};

constexpr double mA(double v) { return v * 1e-3; }

Levels dbm_levels(double ha, double hw, double lw, double la) {
  return {dbm_to_watts(ha), dbm_to_watts(hw), dbm_to_watts(lw), dbm_to_watts(la)};
}

ModuleModel qsfp28_base() {
  ModuleModel m;
  m.spec = cmis::Spec::Sff8636;
  m.identifier = kIdQsfp28;
  m.revision = kRev2_5to2_7;
  m.vendor_name = "EMULATED OPTICS";
  m.vendor_oui = kOuiExample;
  m.vendor_revision = "A0";
  m.date_code = "230611  ";
  m.encoding = kEncoding64b66b;
  m.nominal_bit_rate_bps = 25.78125e9;  // per lane; above 25.4 Gb/s it goes in byte 222
  m.host_lanes = m.media_lanes = 4;
  m.supply_voltage_v = 3.29;
  m.temperature_c = {75, 70, 0, -5};
  m.supply_voltage_v_levels = {3.63, 3.465, 3.135, 2.97};
  m.low_power_w = 1.0;
  m.thermal_resistance_c_per_w = 4.0;
  m.timings.data_not_ready_s = 0.3;
  return m;
}

ModuleModel qsfp28_100g_sr4() {
  ModuleModel m = qsfp28_base();
  m.key = "qsfp28-100g-sr4";
  m.description = "QSFP28 100GBASE-SR4, 4x25G NRZ, MMF 100 m, MPO-12 (SFF-8636)";
  m.part_number = "QSFP-100G-SR4-E";
  m.serial_number = "EMU23SR4001204";
  m.connector = kConnMpo1x12;
  m.extended_compliance = kExt100gSr4;
  m.media_technology = kTech850Vcsel;
  m.wavelength_m = 850e-9;
  m.wavelength_tolerance_m = 10e-9;
  m.length_om3_m = 70;
  m.length_om4_m = 100;
  m.power_class = 3;  // 2.5 W
  m.max_power_w = 2.5;
  m.typical_power_w = 2.2;
  m.lane = {dbm_to_watts(-0.5), mA(7.0), dbm_to_watts(-1.5)};
  m.rx_los_w = dbm_to_watts(-14);
  m.tx_power_w = dbm_levels(5.0, 3.0, -7.6, -9.6);
  m.rx_power_w = dbm_levels(5.4, 2.4, -10.3, -13.3);
  m.tx_bias_a = {mA(13), mA(11), mA(3), mA(2)};
  return m;
}

ModuleModel qsfp28_100g_lr4() {
  ModuleModel m = qsfp28_base();
  m.key = "qsfp28-100g-lr4";
  m.description = "QSFP28 100GBASE-LR4, LAN-WDM 10 km, duplex LC (SFF-8636)";
  m.part_number = "QSFP-100G-LR4-E";
  m.serial_number = "EMU23LR4000388";
  m.connector = kConnLc;
  m.extended_compliance = kExt100gLr4;
  m.media_technology = kTech1310Dfb;
  m.wavelength_m = 1304.5e-9;
  m.wavelength_tolerance_m = 10e-9;
  m.length_smf_m = 10000;
  m.power_class = 4;  // 3.5 W
  m.max_power_w = 3.5;
  m.typical_power_w = 3.2;
  m.lane = {dbm_to_watts(1.0), mA(45), dbm_to_watts(-3.0)};
  m.rx_los_w = dbm_to_watts(-20);
  m.tx_power_w = dbm_levels(6.5, 4.5, -4.3, -6.3);
  m.rx_power_w = dbm_levels(6.5, 4.5, -10.6, -13.6);
  m.tx_bias_a = {mA(100), mA(90), mA(20), mA(15)};
  return m;
}

}  // namespace

std::vector<ModuleModel> sff8636_models() { return {qsfp28_100g_sr4(), qsfp28_100g_lr4()}; }

}  // namespace xcvr::emulator
