// CMIS models of the catalog. Values are plausible datasheet-class numbers, not copies of any
// one vendor's coding; power classes follow the QSFP-DD/OSFP hardware specs' watt bands.
#include "emulator/catalog.hpp"

#include <algorithm>
#include <cmath>

namespace xcvr::emulator {
namespace {

// SFF-8024 codes used below (reference §14).
constexpr uint8_t kIdQsfpDd = 0x18, kIdOsfp = 0x19, kIdQsfpCmis = 0x1E;  // 0x1E: QSFP112 and other QSFPs with CMIS
constexpr uint8_t kConnLc = 0x07, kConnMpo1x12 = 0x0C, kConnMpo1x16 = 0x28, kConnNone = 0x23;
constexpr uint8_t kMediaMmf = 0x01, kMediaSmf = 0x02, kMediaPassiveCu = 0x03,
                  kMediaActiveCable = 0x04;
constexpr uint8_t kHost400gaui8 = 0x11, kHost400gaui4S = 0x4F, kHost200gaui2S = 0x4D,
                  kHost800gS = 0x51, kHost400gCr8 = 0x1D;
constexpr uint8_t kMmf400gSr8 = 0x10, kMmf400gSr4 = 0x11, kMmf200gSr2 = 0x1B;
constexpr uint8_t kSmf400gDr4 = 0x1C, kSmf400gFr4 = 0x1D, kSmf400gLr4_10 = 0x1E;
constexpr uint8_t kCopperCable = 0x01, kActiveBer1e6 = 0x04;
constexpr uint8_t kTech850Vcsel = 0x00, kTech1310Eml = 0x06, kTechCuUnequalized = 0x0A,
                  kTechCuActiveNearFar = 0x0C;
constexpr std::array<uint8_t, 3> kOuiNvidia{0x00, 0x02, 0xC9};   // Mellanox/NVIDIA
constexpr std::array<uint8_t, 3> kOuiExample{0xAC, 0xDE, 0x48};  // IEEE's example OUI

constexpr double mA(double v) { return v * 1e-3; }

Levels dbm_levels(double ha, double hw, double lw, double la) {
  return {dbm_to_watts(ha), dbm_to_watts(hw), dbm_to_watts(lw), dbm_to_watts(la)};
}

// Fields most CMIS optics share; each model overrides what differs.
ModuleModel cmis_base() {
  ModuleModel m;
  m.spec = cmis::Spec::Cmis;
  m.revision = 0x50;
  m.firmware_major = 1;
  m.firmware_minor = 4;
  m.hardware_major = 1;
  m.hardware_minor = 0;
  m.vendor_revision = "A1";
  m.date_code = "240115  ";
  m.supply_voltage_v = 3.30;
  m.temperature_c = {75, 70, 0, -5};
  m.supply_voltage_v_levels = {3.63, 3.465, 3.135, 2.97};
  m.low_power_w = 1.2;
  return m;
}

// VDM of a PAM4 module (CMIS §8): per media lane the laser temperature and eSNR in group 1,
// LTP and the current pre-FEC BER in group 2 (so every such module exercises a second group),
// each type with its own threshold set. Pre-FEC BER levels: alarm at the RS(544,514) KP4 FEC
// limit 2.4e-4, warning a decade and a half before it.
VdmModel pam4_vdm(double pre_fec_ber, double esnr_db, double ltp_db, bool lasers = true) {
  VdmModel v;
  if (lasers) v.observables.push_back({4, 0, {80, 75, 10, 5}});  // laser temperature, degC
  v.observables.push_back({5, 0, {30, 28, 15, 13}});              // eSNR media input, dB
  v.observables.push_back({7, 1, {30, 28, 14, 12}});              // LTP media input, dB
  v.observables.push_back({15, 1, {2.4e-4, 1e-5, 0, 0}});         // pre-FEC BER current, media
  v.pre_fec_ber = pre_fec_ber;
  v.esnr_db = esnr_db;
  v.ltp_db = ltp_db;
  v.laser_above_case_c = lasers ? 4.0 : 0.0;
  return v;
}

ModuleModel multimode(ModuleModel m) {
  m.media_type = kMediaMmf;
  m.media_technology = kTech850Vcsel;
  m.wavelength_m = 850e-9;
  m.wavelength_tolerance_m = 10e-9;
  m.tx_bias_a = {mA(15), mA(13), mA(3), mA(2)};
  m.rx_los_w = dbm_to_watts(-12);
  m.lane = {dbm_to_watts(0.5), mA(7.5), dbm_to_watts(-1.5)};
  m.vdm = pam4_vdm(2e-7, 19.0, 17.0);
  return m;
}

ModuleModel singlemode(ModuleModel m) {
  m.media_type = kMediaSmf;
  m.media_technology = kTech1310Eml;
  m.wavelength_m = 1310e-9;
  m.wavelength_tolerance_m = 20e-9;
  m.tx_bias_a = {mA(110), mA(100), mA(20), mA(10)};
  m.rx_los_w = dbm_to_watts(-15);
  m.lane = {dbm_to_watts(1.5), mA(60), dbm_to_watts(-1.0)};
  m.vdm = pam4_vdm(5e-8, 21.0, 18.0);
  return m;
}

// A single-port 400GBASE-SR4 optic in a ConnectX-7 cage (4 x 100G PAM4 over an MPO-12, 200G
// SR2 as its second application), riding the cage's heat sink; each model adds its package.
ModuleModel sr4_400g_nic_side() {
  ModuleModel m = multimode(cmis_base());
  m.mci_1mhz = true;
  m.connector = kConnMpo1x12;
  m.applications = {{kHost400gaui4S, kMmf400gSr4, 4, 4, 0x01, 0x01},
                    {kHost200gaui2S, kMmf200gSr2, 2, 2, 0x05, 0x05}};
  m.host_lanes = m.media_lanes = 4;
  m.host_lane_gbps = 106.25;  // 100G PAM4
  m.power_class = 4;  // <= 8 W
  m.max_power_w = 8.0;
  m.thermal_resistance_c_per_w = 3.0;  // flat top: the NIC cage's heatsink does the work
  m.tx_power_w = dbm_levels(5.0, 4.0, -4.6, -6.6);
  m.rx_power_w = dbm_levels(5.0, 4.0, -6.4, -8.4);
  return m;
}

ModuleModel osfp_400g_sr4_flat() {
  ModuleModel m = sr4_400g_nic_side();
  m.key = "osfp-400g-sr4-flat";
  m.description = "OSFP flat-top 400G SR4 (MMA4Z00-NS400 class), ConnectX-7 side";
  m.identifier = kIdOsfp;
  m.vendor_name = "NVIDIA";
  m.vendor_oui = kOuiNvidia;
  m.part_number = "MMA4Z00-NS400";
  m.vendor_revision = "A5";
  m.serial_number = "MT2402FT00417";
  m.length_om3_m = 30;
  m.length_om4_m = 50;
  m.typical_power_w = 6.8;
  // Errored frames too, and a statistic (average pre-FEC BER, no thresholds): decoded and kept
  // in the JSON, never exported, since only a freeze write holds it.
  m.vdm.observables.push_back({23, 1, {1e-2, 1e-3, 0, 0}});
  m.vdm.observables.push_back({13, 1, {}});
  return m;
}

ModuleModel osfp_800g_twin_sr4_finned() {
  ModuleModel m = multimode(cmis_base());
  m.key = "osfp-800g-2xsr4-finned";
  m.description = "OSFP finned-top twin-port 2x400G SR4 (MMA4Z00-NS class), Quantum-2 side";
  m.identifier = kIdOsfp;
  m.mci_1mhz = true;
  m.vendor_name = "NVIDIA";
  m.vendor_oui = kOuiNvidia;
  m.part_number = "MMA4Z00-NS";
  m.vendor_revision = "B2";
  m.serial_number = "MT2336FT09152";
  m.connector = kConnMpo1x12;  // two MPO-12/APC receptacles
  m.applications = {{kHost400gaui4S, kMmf400gSr4, 4, 4, 0x11, 0x11},
                    {kHost200gaui2S, kMmf200gSr2, 2, 2, 0x55, 0x55}};
  m.host_lanes = m.media_lanes = 8;
  m.host_lane_gbps = 106.25;  // 100G PAM4
  m.length_om3_m = 30;
  m.length_om4_m = 50;
  m.power_class = 8;  // > 14 W
  m.max_power_w = 17.0;
  m.typical_power_w = 15.0;
  m.thermal_resistance_c_per_w = 1.5;  // fins in switch airflow
  m.tx_power_w = dbm_levels(5.0, 4.0, -4.6, -6.6);
  m.rx_power_w = dbm_levels(5.0, 4.0, -6.4, -8.4);
  return m;
}

// The storage/in-band ports of a DGX-class host: ConnectX-7 QSFP112 cages (4 x 100G PAM4) with
// a generic 400GBASE-SR4 optic. QSFP112 modules identify as 0x1E ("QSFP+ or later with CMIS").
ModuleModel qsfp112_400g_sr4() {
  ModuleModel m = sr4_400g_nic_side();
  m.key = "qsfp112-400g-sr4";
  m.description = "QSFP112 400GBASE-SR4, 4x100G PAM4, MMF 100 m, MPO-12 (ConnectX-7 storage port)";
  m.identifier = kIdQsfpCmis;
  m.vendor_name = "EMULATED OPTICS";
  m.vendor_oui = kOuiExample;
  m.part_number = "EO-Q112-400G-SR4";
  m.serial_number = "EOQ112240300127";
  m.length_om3_m = 60;
  m.length_om4_m = 100;
  m.typical_power_w = 7.0;
  return m;
}

ModuleModel qsfpdd_400g_sr8() {
  ModuleModel m = multimode(cmis_base());
  m.key = "qsfpdd-400g-sr8";
  m.description = "QSFP-DD 400GBASE-SR8, 8x50G PAM4, MMF 100 m, MPO-16";
  m.identifier = kIdQsfpDd;
  m.vendor_name = "EMULATED OPTICS";
  m.vendor_oui = kOuiExample;
  m.part_number = "QDD-400G-SR8-E";
  m.serial_number = "EMU24SR8000117";
  m.connector = kConnMpo1x16;
  m.applications = {{kHost400gaui8, kMmf400gSr8, 8, 8, 0x01, 0x01}};
  m.host_lanes = m.media_lanes = 8;
  m.length_om3_m = 70;
  m.length_om4_m = 100;
  m.power_class = 3;  // <= 7 W
  m.max_power_w = 4.5;
  m.typical_power_w = 4.0;
  m.tx_power_w = dbm_levels(6.0, 4.0, -6.5, -8.5);
  m.rx_power_w = dbm_levels(6.0, 4.0, -9.5, -11.5);
  m.lane = {dbm_to_watts(-1.0), mA(7.0), dbm_to_watts(-2.5)};
  return m;
}

ModuleModel qsfpdd_400g_smf(std::string key, std::string description, uint8_t media_id) {
  ModuleModel m = singlemode(cmis_base());
  m.key = std::move(key);
  m.description = std::move(description);
  m.identifier = kIdQsfpDd;
  m.vendor_name = "EMULATED OPTICS";
  m.vendor_oui = kOuiExample;
  m.applications = {{kHost400gaui8, media_id, 8, 4, 0x01, 0x01}};
  m.host_lanes = 8;
  m.media_lanes = 4;
  m.power_class = 3;
  return m;
}

ModuleModel qsfpdd_400g_dr4() {
  ModuleModel m = qsfpdd_400g_smf("qsfpdd-400g-dr4",
                                  "QSFP-DD 400GBASE-DR4, 4x100G SMF 500 m, MPO-12", kSmf400gDr4);
  m.part_number = "QDD-400G-DR4-E";
  m.serial_number = "EMU24DR4000342";
  m.connector = kConnMpo1x12;
  m.length_smf_m = 500;
  m.max_power_w = 5.0;
  m.typical_power_w = 4.5;
  m.tx_power_w = dbm_levels(6.0, 4.0, -2.9, -4.9);
  m.rx_power_w = dbm_levels(6.0, 4.0, -5.9, -7.9);
  return m;
}

ModuleModel qsfpdd_400g_fr4() {
  ModuleModel m =
      qsfpdd_400g_smf("qsfpdd-400g-fr4", "QSFP-DD 400G-FR4, CWDM 2 km, duplex LC", kSmf400gFr4);
  m.part_number = "QDD-400G-FR4-E";
  m.serial_number = "EMU24FR4000078";
  m.connector = kConnLc;
  m.wavelength_m = 1301e-9;  // CWDM grid 1271-1331 nm
  m.wavelength_tolerance_m = 35e-9;
  m.length_smf_m = 2000;
  m.max_power_w = 6.0;
  m.typical_power_w = 5.2;
  m.tx_power_w = dbm_levels(6.5, 3.5, -3.2, -5.2);
  m.rx_power_w = dbm_levels(6.5, 3.5, -7.1, -9.1);
  m.lane = {dbm_to_watts(1.0), mA(55), dbm_to_watts(-2.5)};
  return m;
}

ModuleModel qsfpdd_400g_lr4() {
  ModuleModel m = qsfpdd_400g_smf("qsfpdd-400g-lr4", "QSFP-DD 400G-LR4-10, 10 km, duplex LC",
                                  kSmf400gLr4_10);
  m.part_number = "QDD-400G-LR4-E";
  m.serial_number = "EMU24LR4000021";
  m.connector = kConnLc;
  m.wavelength_m = 1301e-9;
  m.wavelength_tolerance_m = 35e-9;
  m.length_smf_m = 10000;
  m.max_power_w = 6.5;
  m.typical_power_w = 5.8;
  m.tx_power_w = dbm_levels(7.0, 4.5, -2.7, -4.7);
  m.rx_power_w = dbm_levels(7.0, 4.5, -10.3, -12.3);
  m.lane = {dbm_to_watts(2.0), mA(70), dbm_to_watts(-5.0)};
  m.tx_bias_multiplier = 2;  // high-bias EML: monitors and thresholds in 4 uA steps
  m.tx_bias_a = {mA(150), mA(140), mA(30), mA(20)};
  return m;
}

ModuleModel qsfpdd_400g_dac() {
  ModuleModel m = cmis_base();
  m.key = "qsfpdd-400g-dac";
  m.description = "QSFP-DD 400G passive copper DAC 2 m, flat memory, no monitors";
  m.identifier = kIdQsfpDd;
  m.flat_memory = true;
  m.vendor_name = "EMULATED CABLES";
  m.vendor_oui = kOuiExample;
  m.part_number = "QDD-400G-CU2M-E";
  m.serial_number = "EMU24CU2M00901";
  m.connector = kConnNone;
  m.media_type = kMediaPassiveCu;
  m.media_technology = kTechCuUnequalized;
  m.applications = {{kHost400gCr8, kCopperCable, 8, 8, 0x01, 0x01}};
  m.host_lanes = m.media_lanes = 8;
  m.cable_length_m = 2.0;
  m.power_class = 1;
  m.max_power_w = 0.25;
  m.typical_power_w = 0.05;
  m.low_power_w = 0.05;
  m.has_module_monitors = false;
  m.has_lane_monitors = false;
  m.thermal_resistance_c_per_w = 0;
  return m;
}

ModuleModel osfp_800g_aec() {
  ModuleModel m = cmis_base();
  m.key = "osfp-800g-aec";
  m.description = "OSFP 800G active electrical cable 3 m (retimed, module monitors only)";
  m.identifier = kIdOsfp;
  m.mci_1mhz = true;
  m.vendor_name = "EMULATED CABLES";
  m.vendor_oui = kOuiExample;
  m.part_number = "OSFP-800G-AEC3M";
  m.serial_number = "EMU24AEC000055";
  m.connector = kConnNone;
  m.media_type = kMediaActiveCable;
  m.media_technology = kTechCuActiveNearFar;
  m.applications = {{kHost800gS, kActiveBer1e6, 8, 8, 0x01, 0x01},
                    {kHost400gaui4S, kActiveBer1e6, 4, 4, 0x11, 0x11}};
  m.host_lanes = m.media_lanes = 8;
  m.host_lane_gbps = 106.25;  // 100G PAM4
  m.cable_length_m = 3.0;
  m.power_class = 6;  // <= 12 W
  m.max_power_w = 12.0;
  m.vdm = pam4_vdm(1e-7, 20.0, 18.0, /*lasers=*/false);  // its DSPs measure; no lasers
  m.typical_power_w = 10.0;
  m.thermal_resistance_c_per_w = 2.0;
  m.has_lane_monitors = false;
  return m;
}

}  // namespace

double dbm_to_watts(double dbm) { return 1e-3 * std::pow(10.0, dbm / 10.0); }

std::vector<ModuleModel> cmis_models() {
  return {osfp_400g_sr4_flat(), osfp_800g_twin_sr4_finned(), qsfp112_400g_sr4(),
          qsfpdd_400g_sr8(),    qsfpdd_400g_dr4(),           qsfpdd_400g_fr4(),
          qsfpdd_400g_lr4(),    qsfpdd_400g_dac(),           osfp_800g_aec()};
}

const std::vector<ModuleModel>& catalog() {
  static const std::vector<ModuleModel> all = [] {
    std::vector<ModuleModel> v = cmis_models();
    for (ModuleModel& m : sff8636_models()) v.push_back(std::move(m));
    return v;
  }();
  return all;
}

const ModuleModel* find_model(std::string_view key) {
  const auto& all = catalog();
  const auto it = std::find_if(all.begin(), all.end(), [&](const ModuleModel& m) {
    return m.key == key;
  });
  return it == all.end() ? nullptr : &*it;
}

std::vector<std::string> catalog_keys() {
  std::vector<std::string> keys;
  for (const ModuleModel& m : catalog()) keys.push_back(m.key);
  return keys;
}

ModuleModel unit_of(const ModuleModel& model, uint64_t unit) {
  ModuleModel m = model;
  std::string digits = std::to_string(unit % 100000);
  digits.insert(0, 5 - digits.size(), '0');
  const std::size_t keep = m.serial_number.size() > 5 ? m.serial_number.size() - 5 : 0;
  m.serial_number = m.serial_number.substr(0, keep) + digits;
  return m;
}

}  // namespace xcvr::emulator
