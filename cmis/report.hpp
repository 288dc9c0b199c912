// ModuleReport: what a decoder makes of a ModuleImage, in SI units. Anything the module does not
// implement, or whose bytes were not read, is absent (nullopt / empty) — never zero.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmis/field.hpp"

namespace xcvr::cmis {

struct Coded {  // a code byte and its SFF-8024 / CMIS name
  uint32_t code = 0;
  std::string_view name;  // static text: cmis/codes.hpp's names (or a literal); never a temporary
};

struct Thresholds {  // alarm/warning levels, in the monitor's unit
  std::optional<double> high_alarm, high_warning, low_warning, low_alarm;
  bool any() const { return high_alarm || high_warning || low_warning || low_alarm; }
  bool operator==(const Thresholds&) const = default;
};

struct Application {  // one CMIS application descriptor (or an SFF-8636 compliance code)
  int index = 0;      // AppSel code, 1-based
  Coded host_interface;
  Coded media_interface;
  int host_lane_count = 0;
  int media_lane_count = 0;
  uint8_t host_lane_assignment = 0;              // bit i: may start on host lane i+1
  std::optional<uint8_t> media_lane_assignment;  // from page 01h when read
};

struct Checksum {
  std::string page;   // "00h", "01h", "02h", "CC_BASE", "CC_EXT", "CC_DMI"
  std::string range;  // bytes covered, e.g. "128-221"
  uint8_t stored = 0;
  uint8_t computed = 0;
  bool ok() const { return stored == computed; }
};

struct LaneReport {
  int lane = 0;  // 1-based
  std::optional<double> rx_power_watts;
  std::optional<double> tx_power_watts;
  std::optional<double> tx_bias_amperes;
  std::optional<std::string_view> data_path_state;  // CMIS only; static text (codes::data_path_state)
  // CMIS: which data path (host port) of the active application the lane belongs to, numbered
  // 1, 2, ... in lane order (a twin-port 2x400G module: lanes 1-4 -> 1, lanes 5-8 -> 2).
  std::optional<int> data_path;
  std::vector<std::string> flags;              // raised flags, e.g. "rx_los", "tx_power_high_warning"
};

// The raised latched flags of one VDM observable, one bit per level in the order of the flag
// table's VDM rows: "high_alarm", "low_alarm", "high_warning", "low_warning" (level_name()).
// A byte, not a list of strings: nearly every observable has none, and a fleet holds tens of
// thousands of them in two generations of reports (a list cost 3 MiB at 2,048 ports).
class VdmFlagLevels {
 public:
  static constexpr int kLevels = 4;
  static std::string_view level_name(int level);  // cmis/vdm.cpp
  void set(int level) { bits_ = static_cast<uint8_t>(bits_ | 1u << level); }
  void clear() { bits_ = 0; }
  bool empty() const { return bits_ == 0; }
  bool contains(int level) const { return (bits_ >> level & 1u) != 0; }
  bool operator==(const VdmFlagLevels&) const = default;

  // The raised levels' names in order: `for (std::string_view level : o.flags)`.
  class iterator {
   public:
    iterator(uint8_t bits, int at) : bits_(bits), at_(at) { skip(); }
    std::string_view operator*() const { return level_name(at_); }
    iterator& operator++() {
      ++at_;
      skip();
      return *this;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    void skip() {
      while (at_ < kLevels && (bits_ >> at_ & 1u) == 0) ++at_;
    }
    uint8_t bits_;
    int at_;
  };
  iterator begin() const { return {bits_, 0}; }
  iterator end() const { return {bits_, kLevels}; }

 private:
  uint8_t bits_ = 0;
};

// One described VDM instance (cmis/vdm.hpp). Kept small, since a fleet holds tens of thousands
// and a port's report is copied every poll: the type's text comes from the static type table
// (cmis/vdm_types.hpp) by type_id (an observable exists only for a known type), and the
// threshold set, which only a static read changes, is shared by the report's copies and by the
// instances that name the same set.
struct VdmObservable {
  double value = 0;
  std::shared_ptr<const Thresholds> thresholds;  // the set's levels; null when not read or blank
  VdmFlagLevels flags;                           // raised latched flags: "high_alarm", ...
  uint8_t type_id = 0;
  int16_t lane = 0;           // 1-based
  int16_t group = 0;          // where the module describes it: group 0-3, instance 1-64
  int16_t index = 1;
  int16_t threshold_set = 0;  // 0-15 within the instance's group

  std::string_view name() const;       // type name, e.g. "esnr_media_input"
  std::string_view quantity() const;   // exported quantity ("pre_fec_ber", "esnr", ...); "" = JSON only
  std::string_view qualifier() const;  // "media"/"host" side, or the supply rail ("2p6", ...); "" = none
  std::string_view unit() const;       // "decibels", "ratio", "celsius", ...
  bool statistic() const;              // min/max/avg (held only by a freeze, which is never written)
};

// Which monitors the module says it implements (an unimplemented monitor is absent).
struct Implemented {
  bool temperature = false, supply_voltage = false;
  bool rx_power = false, tx_power = false, tx_bias = false;
};

struct Identity {
  Coded identifier;
  std::string vendor_name;
  std::string vendor_oui;  // "00:02:c9"
  std::string part_number;
  std::string revision;
  std::string serial;
  std::string date_code;
  std::optional<std::string> clei;
  std::optional<std::string> firmware;           // "1.4" (active), CMIS only
  std::optional<std::string> inactive_firmware;  // the other image's version, CMIS page 01h
  std::optional<std::string> hardware_revision;  // CMIS page 01h
};

struct ModuleReport {
  Spec spec = Spec::Cmis;
  std::string spec_revision;  // "5.0", "SFF-8636 rev 2.5-2.7", ...
  Identity id;
  bool flat_memory = false;

  std::optional<Coded> media_type;                  // CMIS byte 85
  std::optional<Coded> connector;
  std::optional<Coded> media_interface_technology;  // CMIS 212 / SFF-8636 147 bits 7-4
  std::optional<Coded> extended_compliance;         // SFF-8636 192 / SFF-8472 36
  std::optional<double> cable_length_meters;
  std::optional<double> wavelength_meters;
  std::optional<int> power_class;
  std::optional<double> max_power_watts;
  std::vector<Application> applications;
  std::optional<int> active_application;  // CMIS AppSel of the first configured lane (11h:206)
  std::map<std::string, double> lengths_meters;  // "smf", "om3", "om4", ...

  std::optional<double> temperature_celsius;
  std::optional<double> supply_voltage_volts;
  std::optional<double> laser_temperature_celsius;  // CMIS aux / SFF-8472 optional
  std::optional<double> tec_current_ratio;          // fraction of max, signed
  std::optional<double> supply_voltage2_volts;      // CMIS Aux3 Vcc2
  Implemented implemented;
  std::optional<std::string> rx_power_type;  // "average" or "oma"
  std::optional<int> tx_bias_multiplier;     // CMIS 01h:160 bits 4-3, applied to bias values

  std::optional<Coded> module_state;  // CMIS
  std::optional<Coded> module_fault_cause;
  std::optional<bool> low_power;  // CMIS ModuleLowPwr; SFF-8636 host-forced low power (93 bits 0-1)
  std::vector<std::string> module_flags;  // raised, e.g. "temperature_high_warning"
  std::vector<LaneReport> lanes;
  // By cmis/quantities.hpp key, which is static text (set_thresholds in cmis/decode_util.hpp).
  std::map<std::string_view, Thresholds, std::less<>> thresholds;
  std::vector<VdmObservable> vdm;

  std::vector<Checksum> checksums;
  std::vector<std::string> missing_pages;  // pages the decoder wanted but the image lacks
  std::vector<std::string> problems;       // decode-time findings (unknown identifier, ...)
};

}  // namespace xcvr::cmis
