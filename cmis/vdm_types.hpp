// The VDM observable table (CMIS §8, pages 20h-2Fh; OIF C-CMIS for the coherent types):
// one row per quantity, with the observable types that measure it and, for an exported quantity,
// its metric family, the label its types' qualifiers go under and its thresholds' family. The
// decoder (codes::vdm_type_ref), the emulator's encoder, /metrics and the JSON API read these
// rows, so a new observable type is one entry here and a new exported quantity one row;
// cmis/vdm_types.cpp checks the rows at compile time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cmis/codes.hpp"
#include "cmis/field.hpp"  // the monitor LSBs the VDM types share

namespace xcvr::cmis {

struct VdmTypeRow {
  uint8_t id = 0;                   // observable type code (descriptor odd byte); 0 = unused slot
  std::string_view name;            // snake_case, unique: JSON name and VDM flag stem
  codes::VdmEncoding encoding = codes::VdmEncoding::U16;
  double scale = 1;                 // the row's unit per LSB (F16: 1; S16Dbm: dBm per LSB)
  std::string_view qualifier = {};  // the label value: side "media"/"host", rail "2p6", ...
};

struct VdmQuantitySpec {
  std::string_view key;   // VdmObservable::quantity and the families' stem; "" = JSON only
  std::string_view unit;  // SI, the families' suffix
  std::array<VdmTypeRow, 8> types;
  bool statistic = false;  // min/max/avg: coherent only under a freeze, which is never written
  bool per_lane = true;
  std::string_view metric = {};           // its gauge family; "" = JSON only
  std::string_view help = {};
  std::string_view qualifier_label = {};  // what its types' qualifiers are called; "" = none
  std::string_view threshold_metric = {};
  std::string_view threshold_help = {};

  constexpr bool exported() const { return !metric.empty(); }
};

namespace vdm_detail {
using enum codes::VdmEncoding;
inline constexpr double kPercentOfU16 = 1.0 / 65535;  // C-CMIS "%" types: 100/65535 % per LSB
inline constexpr double kPsPerNm = 1e-3;              // 1 ps/nm = 1e-12 s / 1e-9 m
}  // namespace vdm_detail

// Exported rows first, in output order (their families are numbered so); JSON-only rows last.
// Types 1-34, 77-84: CMIS §8 observable types (reference digest cmis-sff-memory-maps.md §8).
// Types 128-147: OIF-C-CMIS-01.1 (coherent modules), with the units and LSBs that
// sonic-net/sonic-platform-common sonic_platform_base/sonic_xcvr/codes/public/cmis.py (VDM_TYPE)
// lists ("Modulator Bias X/I [%]" U16 100/65535, "CD high granularity, short link [ps/nm]" S16 1,
// ..., "MER [dB]" U16 0.1), converted to SI units.
inline constexpr std::array kVdmQuantities = [] {
  using namespace vdm_detail;
  return std::array{
      VdmQuantitySpec{.key = "laser_temperature", .unit = "celsius",
                      .types = {{{4, "laser_temperature", S16, kTemperatureLsb}}},
                      .metric = "transceiver_lane_laser_temperature_celsius",
                      .help = "Laser temperature per lane from the module's VDM (cached from the last VDM poll).",
                      .threshold_metric = "transceiver_laser_temperature_threshold_celsius",
                      .threshold_help = "Module's own VDM laser temperature thresholds (apply to every lane), by level."},
      VdmQuantitySpec{.key = "esnr", .unit = "decibels",
                      .types = {{{5, "esnr_media_input", U16, 1.0 / 256, "media"},
                                 {6, "esnr_host_input", U16, 1.0 / 256, "host"}}},
                      .metric = "transceiver_lane_esnr_decibels",
                      .help = "Electrical SNR per lane and side (media, host) from the module's VDM (cached).",
                      .qualifier_label = "side", .threshold_metric = "transceiver_esnr_threshold_decibels",
                      .threshold_help = "Module's own VDM eSNR thresholds per side (apply to every lane), by level."},
      VdmQuantitySpec{.key = "ltp", .unit = "decibels",
                      .types = {{{7, "ltp_media_input", U16, 1.0 / 256, "media"},
                                 {8, "ltp_host_input", U16, 1.0 / 256, "host"}}},
                      .metric = "transceiver_lane_ltp_decibels",
                      .help = "PAM4 level transition parameter per lane and side from the module's VDM (cached).",
                      .qualifier_label = "side", .threshold_metric = "transceiver_ltp_threshold_decibels",
                      .threshold_help = "Module's own VDM LTP thresholds per side (apply to every lane), by level."},
      VdmQuantitySpec{.key = "pre_fec_ber", .unit = "ratio",
                      .types = {{{15, "pre_fec_ber_current_media", F16, 1, "media"},
                                 {16, "pre_fec_ber_current_host", F16, 1, "host"}}},
                      .metric = "transceiver_lane_pre_fec_ber_ratio",
                      .help = "Pre-FEC bit error ratio per lane and side, the VDM current value (cached).",
                      .qualifier_label = "side", .threshold_metric = "transceiver_pre_fec_ber_threshold_ratio",
                      .threshold_help = "Module's own VDM pre-FEC BER thresholds per side (apply to every lane), by level."},
      VdmQuantitySpec{.key = "errored_frames", .unit = "ratio",
                      .types = {{{23, "errored_frames_current_media", F16, 1, "media"},
                                 {24, "errored_frames_current_host", F16, 1, "host"}}},
                      .metric = "transceiver_lane_errored_frames_ratio",
                      .help = "Errored frames ratio per lane and side, the VDM current value (cached).",
                      .qualifier_label = "side", .threshold_metric = "transceiver_errored_frames_threshold_ratio",
                      .threshold_help = "Module's own VDM errored frames thresholds per side (apply to every lane), by level."},
      VdmQuantitySpec{.key = "laser_age", .unit = "ratio", .types = {{{1, "laser_age", U16, 0.01}}},
                      .metric = "transceiver_lane_laser_age_ratio",
                      .help = "Laser age per lane as a fraction of its rated life, 1 = end of life (VDM, cached).",
                      .threshold_metric = "transceiver_laser_age_threshold_ratio",
                      .threshold_help = "Module's own VDM laser age thresholds (apply to every lane), by level."},
      VdmQuantitySpec{.key = "tec_current", .unit = "ratio", .types = {{{2, "tec_current", S16, kTecCurrentLsb}}},
                      .metric = "transceiver_lane_tec_current_ratio",
                      .help = "TEC current per lane as a signed fraction of its maximum (VDM, cached).",
                      .threshold_metric = "transceiver_tec_current_threshold_ratio",
                      .threshold_help = "Module's own VDM TEC current thresholds (apply to every lane), by level."},
      VdmQuantitySpec{.key = "laser_frequency_error", .unit = "hertz",
                      .types = {{{3, "laser_frequency_error", S16, 10e6}}},
                      .metric = "transceiver_lane_laser_frequency_error_hertz",
                      .help = "Laser frequency error per lane (VDM, cached).",
                      .threshold_metric = "transceiver_laser_frequency_error_threshold_hertz",
                      .threshold_help = "Module's own VDM laser frequency error thresholds (apply to every lane), by level."},
      VdmQuantitySpec{.key = "supply_rail_voltage", .unit = "volts",
                      .types = {{{77, "vcc_2p6", U16, kVoltageLsb, "2p6"}, {78, "vcc_1p8", U16, kVoltageLsb, "1p8"},
                                 {79, "vcc_1p2", U16, kVoltageLsb, "1p2"}, {80, "vcc_0p9", U16, kVoltageLsb, "0p9"},
                                 {81, "vcc_0p7a", U16, kVoltageLsb, "0p7a"}, {82, "vcc_0p7b", U16, kVoltageLsb, "0p7b"},
                                 {83, "vcc_12", U16, 250e-6, "12"}}},
                      .per_lane = false, .metric = "transceiver_supply_rail_voltage_volts",
                      .help = "Internal supply rail voltage by rail (VDM, cached).", .qualifier_label = "rail",
                      .threshold_metric = "transceiver_supply_rail_voltage_threshold_volts",
                      .threshold_help = "Module's own VDM supply rail thresholds, by rail and level."},
      // ---- coherent modules (C-CMIS types 128-147) ----
      VdmQuantitySpec{.key = "modulator_bias", .unit = "ratio",
                      .types = {{{128, "modulator_bias_xi", U16, kPercentOfU16, "xi"},
                                 {129, "modulator_bias_xq", U16, kPercentOfU16, "xq"},
                                 {130, "modulator_bias_yi", U16, kPercentOfU16, "yi"},
                                 {131, "modulator_bias_yq", U16, kPercentOfU16, "yq"},
                                 {132, "modulator_bias_x_phase", U16, kPercentOfU16, "x_phase"},
                                 {133, "modulator_bias_y_phase", U16, kPercentOfU16, "y_phase"}}},
                      .metric = "transceiver_lane_modulator_bias_ratio",
                      .help = "Coherent modulator bias per lane and tributary (X/I, X/Q, Y/I, Y/Q, X and Y phase) as a fraction of its range (VDM, cached).",
                      .qualifier_label = "tributary", .threshold_metric = "transceiver_modulator_bias_threshold_ratio",
                      .threshold_help = "Module's own VDM modulator bias thresholds per tributary, by level."},
      VdmQuantitySpec{.key = "chromatic_dispersion", .unit = "seconds_per_meter",
                      .types = {{{134, "chromatic_dispersion_short_link", S16, kPsPerNm, "short_link"},
                                 {135, "chromatic_dispersion_long_link", S16, 20 * kPsPerNm, "long_link"}}},
                      .metric = "transceiver_lane_chromatic_dispersion_seconds_per_meter",
                      .help = "Chromatic dispersion the coherent receiver compensates, fine (short link) or coarse (long link) range (VDM, cached; 1 ps/nm = 0.001 s/m).",
                      .qualifier_label = "range",
                      .threshold_metric = "transceiver_chromatic_dispersion_threshold_seconds_per_meter",
                      .threshold_help = "Module's own VDM chromatic dispersion thresholds per range, by level."},
      VdmQuantitySpec{.key = "differential_group_delay", .unit = "seconds",
                      .types = {{{136, "differential_group_delay", U16, 0.01e-12}}},
                      .metric = "transceiver_lane_differential_group_delay_seconds",
                      .help = "Differential group delay (first-order PMD) the coherent receiver measures (VDM, cached).",
                      .threshold_metric = "transceiver_differential_group_delay_threshold_seconds",
                      .threshold_help = "Module's own VDM differential group delay thresholds, by level."},
      VdmQuantitySpec{.key = "second_order_pmd", .unit = "seconds_squared",
                      .types = {{{137, "second_order_pmd", U16, 0.01e-24}}},
                      .metric = "transceiver_lane_second_order_pmd_seconds_squared",
                      .help = "Second-order polarization mode dispersion (SOPMD) the coherent receiver measures (VDM, cached).",
                      .threshold_metric = "transceiver_second_order_pmd_threshold_seconds_squared",
                      .threshold_help = "Module's own VDM second-order PMD thresholds, by level."},
      VdmQuantitySpec{.key = "polarization_dependent_loss", .unit = "decibels",
                      .types = {{{138, "polarization_dependent_loss", U16, 0.1}}},
                      .metric = "transceiver_lane_polarization_dependent_loss_decibels",
                      .help = "Polarization dependent loss the coherent receiver measures (VDM, cached).",
                      .threshold_metric = "transceiver_polarization_dependent_loss_threshold_decibels",
                      .threshold_help = "Module's own VDM polarization dependent loss thresholds, by level."},
      VdmQuantitySpec{.key = "osnr", .unit = "decibels", .types = {{{139, "osnr", U16, 0.1}}},
                      .metric = "transceiver_lane_osnr_decibels",
                      .help = "Optical SNR the coherent receiver estimates (VDM, cached).",
                      .threshold_metric = "transceiver_osnr_threshold_decibels",
                      .threshold_help = "Module's own VDM OSNR thresholds, by level."},
      VdmQuantitySpec{.key = "coherent_esnr", .unit = "decibels", .types = {{{140, "coherent_esnr", U16, 0.1}}},
                      .metric = "transceiver_lane_coherent_esnr_decibels",
                      .help = "Electrical SNR of the coherent receiver's DSP (VDM, cached).",
                      .threshold_metric = "transceiver_coherent_esnr_threshold_decibels",
                      .threshold_help = "Module's own VDM coherent eSNR thresholds, by level."},
      VdmQuantitySpec{.key = "carrier_frequency_offset", .unit = "hertz",
                      .types = {{{141, "carrier_frequency_offset", S16, 1e6}}},
                      .metric = "transceiver_lane_carrier_frequency_offset_hertz",
                      .help = "Carrier frequency offset between the received signal and the local oscillator (VDM, cached).",
                      .threshold_metric = "transceiver_carrier_frequency_offset_threshold_hertz",
                      .threshold_help = "Module's own VDM carrier frequency offset thresholds, by level."},
      VdmQuantitySpec{.key = "error_vector_magnitude", .unit = "ratio",
                      .types = {{{142, "error_vector_magnitude", U16, kPercentOfU16}}},
                      .metric = "transceiver_lane_error_vector_magnitude_ratio",
                      .help = "Error vector magnitude of the coherent modem (VDM, cached).",
                      .threshold_metric = "transceiver_error_vector_magnitude_threshold_ratio",
                      .threshold_help = "Module's own VDM error vector magnitude thresholds, by level."},
      VdmQuantitySpec{.key = "coherent_tx_power", .unit = "watts",
                      .types = {{{143, "coherent_tx_power", S16Dbm, 0.01}}},
                      .metric = "transceiver_lane_coherent_tx_power_watts",
                      .help = "Transmitted optical power the coherent module reports in its VDM (cached).",
                      .threshold_metric = "transceiver_coherent_tx_power_threshold_watts",
                      .threshold_help = "Module's own VDM coherent tx power thresholds, by level."},
      VdmQuantitySpec{.key = "coherent_rx_total_power", .unit = "watts",
                      .types = {{{144, "coherent_rx_total_power", S16Dbm, 0.01}}},
                      .metric = "transceiver_lane_coherent_rx_total_power_watts",
                      .help = "Total received optical power (signal and out-of-band light) of the coherent receiver (VDM, cached).",
                      .threshold_metric = "transceiver_coherent_rx_total_power_threshold_watts",
                      .threshold_help = "Module's own VDM coherent rx total power thresholds, by level."},
      VdmQuantitySpec{.key = "coherent_rx_signal_power", .unit = "watts",
                      .types = {{{145, "coherent_rx_signal_power", S16Dbm, 0.01}}},
                      .metric = "transceiver_lane_coherent_rx_signal_power_watts",
                      .help = "Received optical power of the signal channel of the coherent receiver (VDM, cached).",
                      .threshold_metric = "transceiver_coherent_rx_signal_power_threshold_watts",
                      .threshold_help = "Module's own VDM coherent rx signal power thresholds, by level."},
      VdmQuantitySpec{.key = "sop_rate_of_change", .unit = "radians_per_second",
                      .types = {{{146, "sop_rate_of_change", U16, 1e3}}},
                      .metric = "transceiver_lane_sop_rate_of_change_radians_per_second",
                      .help = "Rate of change of the state of polarization the coherent receiver tracks (VDM, cached).",
                      .threshold_metric = "transceiver_sop_rate_of_change_threshold_radians_per_second",
                      .threshold_help = "Module's own VDM SOP rate of change thresholds, by level."},
      VdmQuantitySpec{.key = "modulation_error_ratio", .unit = "decibels",
                      .types = {{{147, "modulation_error_ratio", U16, 0.1}}},
                      .metric = "transceiver_lane_modulation_error_ratio_decibels",
                      .help = "Modulation error ratio of the coherent receiver (VDM, cached).",
                      .threshold_metric = "transceiver_modulation_error_ratio_threshold_decibels",
                      .threshold_help = "Module's own VDM modulation error ratio thresholds, by level."},
      // ---- JSON only: statistics (held consistent only by a freeze), FERC totals, SEWmax and
      // the ELS input power (dBm of an external laser) ----
      VdmQuantitySpec{.key = "", .unit = "ratio",
                      .types = {{{9, "pre_fec_ber_min_media", F16, 1, "media"}, {10, "pre_fec_ber_min_host", F16, 1, "host"},
                                 {11, "pre_fec_ber_max_media", F16, 1, "media"}, {12, "pre_fec_ber_max_host", F16, 1, "host"},
                                 {13, "pre_fec_ber_avg_media", F16, 1, "media"}, {14, "pre_fec_ber_avg_host", F16, 1, "host"}}},
                      .statistic = true},
      VdmQuantitySpec{.key = "", .unit = "ratio",
                      .types = {{{17, "errored_frames_min_media", F16, 1, "media"}, {18, "errored_frames_min_host", F16, 1, "host"},
                                 {19, "errored_frames_max_media", F16, 1, "media"}, {20, "errored_frames_max_host", F16, 1, "host"},
                                 {21, "errored_frames_avg_media", F16, 1, "media"}, {22, "errored_frames_avg_host", F16, 1, "host"}}},
                      .statistic = true},
      VdmQuantitySpec{.key = "", .unit = "ratio",
                      .types = {{{25, "errored_frames_total_media", F16, 1, "media"},
                                 {26, "errored_frames_total_host", F16, 1, "host"}}}},
      VdmQuantitySpec{.key = "", .unit = "count",
                      .types = {{{27, "sewmax_min_media", U16, 1, "media"}, {28, "sewmax_min_host", U16, 1, "host"},
                                 {29, "sewmax_max_media", U16, 1, "media"}, {30, "sewmax_max_host", U16, 1, "host"},
                                 {31, "sewmax_avg_media", U16, 1, "media"}, {32, "sewmax_avg_host", U16, 1, "host"}}},
                      .statistic = true},
      VdmQuantitySpec{.key = "", .unit = "count",
                      .types = {{{33, "sewmax_current_media", U16, 1, "media"}, {34, "sewmax_current_host", U16, 1, "host"}}}},
      VdmQuantitySpec{.key = "", .unit = "dbm", .types = {{{84, "els_input_power", S16, 0.01}}}},
  };
}();

// Exported rows (the first ones): each has a gauge family and a thresholds family.
inline constexpr std::size_t kVdmExportedCount = [] {
  std::size_t n = 0;
  while (n < kVdmQuantities.size() && kVdmQuantities[n].exported()) ++n;
  return n;
}();

// Where a type code's row and entry are: by code, so a decode finds a type in one load. Every
// default is zero: GCC 12 emits the elements a constant initializer leaves to their defaults as
// zeros (the compile-time value said 0xFF, the program read 0).
struct VdmTypeSlot {
  bool known = false;
  uint8_t row = 0;
  uint8_t entry = 0;
};
inline constexpr std::array<VdmTypeSlot, 256> kVdmTypeSlots = [] {
  std::array<VdmTypeSlot, 256> slots{};
  for (std::size_t r = 0; r < kVdmQuantities.size(); ++r) {
    for (std::size_t e = 0; e < kVdmQuantities[r].types.size(); ++e) {
      const uint8_t id = kVdmQuantities[r].types[e].id;
      if (id != 0) slots[id] = {true, static_cast<uint8_t>(r), static_cast<uint8_t>(e)};
    }
  }
  return slots;
}();

// The row of an observable type; nullptr for an unknown code.
constexpr const VdmQuantitySpec* vdm_quantity_of(int type_id) {
  if (type_id < 0 || type_id > 255) return nullptr;
  const VdmTypeSlot slot = kVdmTypeSlots[static_cast<std::size_t>(type_id)];
  return slot.known ? &kVdmQuantities[slot.row] : nullptr;
}

}  // namespace xcvr::cmis
