// ModuleModel: everything that makes one kind of pluggable module, as parameters in SI units.
// The catalog fills these; encode_image() turns one into module memory through the field tables;
// EmulatedModule animates it (state machine, monitors, flags).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cmis/field.hpp"

namespace xcvr::emulator {

struct Levels {  // alarm/warning thresholds in the monitor's SI unit
  double high_alarm = 0, high_warning = 0, low_warning = 0, low_alarm = 0;
};

// One CMIS application descriptor (SFF-8024 host/media interface IDs).
struct Application {
  uint8_t host_interface = 0;
  uint8_t media_interface = 0;
  uint8_t host_lanes = 0;
  uint8_t media_lanes = 0;
  uint8_t host_lane_assignment = 0x01;   // bit i: data path may start on host lane i+1
  uint8_t media_lane_assignment = 0x01;  // same for media lanes (page 01h)
};

// Nominal per-lane optics; lanes differ slightly (deterministically) around these.
struct LaneOptics {
  double tx_power_w = 0;
  double tx_bias_a = 0;
  double rx_power_w = 0;
};

// State-machine and readiness timings (seconds).
struct Timings {
  double low_power_s = 0.05;      // CMIS: MgmtInit + LowPwr before the host lets it power up
  double power_up_s = 0.2;        // CMIS ModulePwrUp
  double data_path_init_s = 0.1;  // CMIS DPInit per lane
  double tx_turn_on_s = 0.02;     // CMIS DPTxTurnOn
  double data_not_ready_s = 0.3;  // SFF-8636 Data_Not_Ready after insertion
};

// VDM (CMIS pages 20h-2Fh): real-time observables described once per media lane, each type with
// its own threshold set, on the group's pages given (so a model can exercise groups 2-4).
struct VdmObservableModel {
  uint8_t type_id = 0;  // CMIS observable type: 4 laser temperature, 5 eSNR media, 7 LTP media,
                        // 15 pre-FEC BER current media, 23 errored frames current media, ...
  int group = 0;        // 0-3
  Levels levels;        // in the observable's unit; all zero = no thresholds given
};

struct VdmModel {
  std::vector<VdmObservableModel> observables;  // empty: no VDM
  double pre_fec_ber = 0;        // healthy per-lane pre-FEC BER (lanes spread around it)
  double esnr_db = 0;            // healthy eSNR; falls esnr_db_per_decade per decade of BER
  double ltp_db = 0;             // healthy PAM4 level transition parameter, falls the same way
  double esnr_db_per_decade = 1.5;
  double laser_above_case_c = 0;  // laser temperature over the module case temperature
};

struct ModuleModel {
  std::string key;          // catalog name, e.g. "osfp-400g-sr4-flat"
  std::string description;  // one line for humans
  cmis::Spec spec = cmis::Spec::Cmis;
  uint8_t identifier = 0x18;  // SFF-8024: 0x18 QSFP-DD, 0x19 OSFP, 0x11 QSFP28
  uint8_t revision = 0x50;    // CMIS 5.0 / SFF-8636 revision compliance code
  bool flat_memory = false;
  bool mci_1mhz = false;  // CMIS byte 2: management interface up to 1 MHz

  // Identity
  std::string vendor_name;
  std::array<uint8_t, 3> vendor_oui{};
  std::string part_number;
  std::string vendor_revision;
  std::string serial_number;
  std::string date_code;  // YYMMDD + lot
  uint8_t firmware_major = 0, firmware_minor = 0;
  uint8_t hardware_major = 0, hardware_minor = 0;

  // Media and advertisement
  uint8_t connector = 0;
  uint8_t media_type = 0;        // CMIS 00h:85 (01 MMF, 02 SMF, 03 passive Cu, 04 active cable)
  uint8_t media_technology = 0;  // CMIS 00h:212 / SFF-8636 147 bits 7-4
  std::vector<Application> applications;  // CMIS
  uint8_t ethernet_compliance = 0;   // SFF-8636 131
  uint8_t extended_compliance = 0;   // SFF-8636 192
  uint8_t encoding = 0;              // SFF-8636 139
  double nominal_bit_rate_bps = 0;   // SFF-8636 140 (per lane)
  int host_lanes = 8;
  // Signalling rate of a host lane in the first application, which sets the emulated link's
  // codeword rate (emulator/link.hpp); 0: 53.125 Gb/s for CMIS (50G PAM4), 25.78125 otherwise.
  double host_lane_gbps = 0;
  int media_lanes = 8;
  double wavelength_m = 0;
  double wavelength_tolerance_m = 0;
  double length_smf_m = 0;
  double length_om3_m = 0;
  double length_om4_m = 0;
  double cable_length_m = 0;  // DAC/AEC assemblies

  // Power
  int power_class = 1;         // 1-8
  double max_power_w = 0;      // advertised
  double typical_power_w = 0;  // dissipated when fully up (drives the thermal model)
  double low_power_w = 1.0;    // dissipated in LowPwr / before data ready

  // Monitoring
  bool has_module_monitors = true;  // temperature, Vcc
  bool has_lane_monitors = true;    // tx/rx power, tx bias
  int tx_bias_multiplier = 1;       // CMIS 01h:160: 1, 2 or 4
  double supply_voltage_v = 3.3;
  LaneOptics lane;
  double rx_los_w = 0;  // rx power below this raises rx LOS
  Levels temperature_c, supply_voltage_v_levels, tx_power_w, tx_bias_a, rx_power_w;

  // Thermal: case temperature settles at ambient + power * resistance * airflow factor.
  double thermal_resistance_c_per_w = 3.0;
  double thermal_time_constant_s = 60.0;

  Timings timings;
  VdmModel vdm;
};

// Bytes 0-127 of each half the model fills, ready for an EmulatedModule: lower memory, 00h and,
// unless flat, 01h, 02h (CMIS) or 03h (SFF-8636), and CMIS 10h/11h for each bank of lanes.
// Checksums are correct. Live bytes (monitors, flags, states) start at their power-on values.
cmis::ModuleImage encode_image(const ModuleModel& model);

// Recomputes every checksum byte of the layout over the pages present (after a fault edits).
void fix_checksums(cmis::ModuleImage& image, cmis::Spec spec);

}  // namespace xcvr::emulator
