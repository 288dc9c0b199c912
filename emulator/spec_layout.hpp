// SpecLayout: what the emulator needs to know about one management spec (CMIS or SFF-8636),
// expressed as rows of the cmis/ field tables. The module, encoder and dynamics speak of
// "temperature", "lane 3 rx power" or "rx LOS flag" and look the bytes up here, so no byte offset
// lives in emulator/.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cmis/field.hpp"
#include "cmis/flags.hpp"

namespace xcvr::emulator {

// Alarm/warning levels in the monitor's SI unit, in the order the tables store them.
struct ThresholdFields {
  const cmis::Field* high_alarm = nullptr;
  const cmis::Field* low_alarm = nullptr;
  const cmis::Field* high_warning = nullptr;
  const cmis::Field* low_warning = nullptr;
};

// Conditions a module can be in are the flag table's rows: each latches its flag's bit
// (module-level or per lane) in the spec's map, where the map has the flag.
using Condition = cmis::FlagId;

// A checksum byte and the first byte it covers; it covers up to the byte before itself.
struct ChecksumRule {
  const cmis::Field* field;
  uint16_t first;
};

struct SpecLayout {
  cmis::Spec spec;
  std::span<const cmis::Field> table;  // the whole table (control bytes are its Role::Control rows)
  const cmis::Field* identifier;
  const cmis::Field* page_select;
  const cmis::Field* bank_select;  // nullptr: no banks (SFF-8636)
  const cmis::Field* flat_memory;
  const cmis::Field* banks_supported;  // CMIS 01h:142; nullptr for SFF-8636
  int16_t first_banked_page;           // CMIS: pages 10h and up are banked
  int max_lanes;

  // Monitors
  const cmis::Field* temperature;
  const cmis::Field* supply_voltage;
  const cmis::Field* tx_power;
  const cmis::Field* tx_bias;
  const cmis::Field* rx_power;
  const cmis::Field* tx_bias_multiplier;  // CMIS 01h:160 code (x1, x2, x4); nullptr for SFF-8636
  ThresholdFields temperature_thresholds, supply_voltage_thresholds, tx_power_thresholds,
      tx_bias_thresholds, rx_power_thresholds;

  // Identity (faults miscode these)
  const cmis::Field* vendor_name;
  const cmis::Field* vendor_oui;
  const cmis::Field* part_number;
  const cmis::Field* serial_number;
  const cmis::Field* date_code;

  std::vector<ChecksumRule> checksums;

  // State (CMIS) / readiness (SFF-8636); nullptr where the spec has none.
  const cmis::Field* module_state;
  const cmis::Field* module_fault_cause;
  const cmis::Field* data_path_state;
  const cmis::Field* tx_output_valid;
  const cmis::Field* rx_output_valid;
  const cmis::Field* data_not_ready;
  // Host controls the module honours (writing them is still an invariant-1 violation).
  const cmis::Field* low_power_request;  // CMIS 26 bit 4 / SFF-8636 93 bits 0-1 (override+set)
  const cmis::Field* low_power_override; // SFF-8636 only
  const cmis::Field* tx_disable;         // CMIS 10h:130 / SFF-8636 86
  const cmis::Field* data_path_deinit;   // CMIS 10h:128
};

const SpecLayout& cmis_layout();
const SpecLayout& sff8636_layout();
const SpecLayout& layout_for(cmis::Spec spec);

// Byte-level helpers the encoder and faults share.
cmis::PageKey page_key_of(const cmis::Field& field, int lane = 1);
uint16_t offset_of(const cmis::Field& field, int lane = 1);

}  // namespace xcvr::emulator
