// One row per monitored quantity: a module- or lane-level reading the decoders report in SI
// units. The row says where the value lives in the report, its JSON and thresholds key, its unit,
// its metric families, its human labels and where a module's alarm thresholds for it may lie.
// /metrics, the JSON API, the port page, xcvrctl, the health reasons and the coding checks
// iterate these rows, so a decoded quantity reaches every output by adding its row here.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cmis/report.hpp"

namespace xcvr::cmis {

enum class Quantity : uint8_t {
  Temperature,
  SupplyVoltage,
  LaserTemperature,
  TecCurrent,
  SupplyVoltage2,
  RxPower,
  TxPower,
  TxBias,
};

struct ThresholdRange {  // where any module of its kind puts its high and its low alarm
  double high_min, high_max, low_min, low_max;
};

struct QuantitySpec {
  Quantity id;
  std::string_view key;            // JSON key and ModuleReport::thresholds key: "temperature_celsius"
  std::string_view stem;           // flag prefix ("temperature_high_alarm"): "temperature"
  std::string_view unit;           // SI unit, the key's suffix: "celsius"
  std::string_view label;          // human, lower case: "temperature" (port page, messages)
  std::string_view ethtool_label;  // xcvrctl's `ethtool -m` wording: "Module temperature"
  std::string_view cage_label;     // the port map's condition stem: "TEMP" ("TEMP HI")
  std::optional<double> ModuleReport::*module_value = nullptr;  // exactly one of these two
  std::optional<double> LaneReport::*lane_value = nullptr;
  std::string_view metric;            // its gauge family
  std::string_view help;
  std::string_view threshold_metric = {};  // its thresholds' family; "" when no spec defines them
  std::string_view threshold_help = {};
  std::optional<ThresholdRange> plausible = {};  // coding check thresholds_plausible; none = unchecked

  constexpr bool per_lane() const { return lane_value != nullptr; }
  constexpr bool has_thresholds() const { return !threshold_metric.empty(); }
};

// In output order (metric families, JSON, pages).
inline constexpr std::array kQuantities = {
    QuantitySpec{.id = Quantity::Temperature, .key = "temperature_celsius", .stem = "temperature",
                 .unit = "celsius", .label = "temperature", .ethtool_label = "Module temperature",
                 .cage_label = "TEMP", .module_value = &ModuleReport::temperature_celsius,
                 .metric = "transceiver_temperature_celsius",
                 .help = "Module case temperature (cached from the last good poll).",
                 .threshold_metric = "transceiver_temperature_threshold_celsius",
                 .threshold_help = "Module's own temperature alarm/warning thresholds, by level.",
                 .plausible = ThresholdRange{40, 130, -60, 25}},
    QuantitySpec{.id = Quantity::SupplyVoltage, .key = "supply_voltage_volts", .stem = "supply_voltage",
                 .unit = "volts", .label = "supply voltage", .ethtool_label = "Module voltage",
                 .cage_label = "VCC", .module_value = &ModuleReport::supply_voltage_volts,
                 .metric = "transceiver_supply_voltage_volts",
                 .help = "Module supply voltage Vcc (cached from the last good poll).",
                 .threshold_metric = "transceiver_supply_voltage_threshold_volts",
                 .threshold_help = "Module's own supply voltage alarm/warning thresholds, by level.",
                 .plausible = ThresholdRange{3.3, 4.0, 2.5, 3.3}},
    QuantitySpec{.id = Quantity::LaserTemperature, .key = "laser_temperature_celsius",
                 .stem = "laser_temperature", .unit = "celsius", .label = "laser temperature",
                 .ethtool_label = "Laser temperature", .cage_label = "LASER T",
                 .module_value = &ModuleReport::laser_temperature_celsius,
                 .metric = "transceiver_laser_temperature_celsius",
                 .help = "Laser temperature where the module reports it (cached from the last good poll)."},
    QuantitySpec{.id = Quantity::TecCurrent, .key = "tec_current_ratio", .stem = "tec_current",
                 .unit = "ratio", .label = "TEC current", .ethtool_label = "TEC current",
                 .cage_label = "TEC", .module_value = &ModuleReport::tec_current_ratio,
                 .metric = "transceiver_tec_current_ratio",
                 .help = "Module TEC current as a signed fraction of its maximum, where the module reports "
                         "it (cached)."},
    QuantitySpec{.id = Quantity::SupplyVoltage2, .key = "supply_voltage2_volts", .stem = "supply_voltage2",
                 .unit = "volts", .label = "supply voltage 2", .ethtool_label = "Supply voltage 2",
                 .cage_label = "VCC2", .module_value = &ModuleReport::supply_voltage2_volts,
                 .metric = "transceiver_supply_voltage2_volts",
                 .help = "Module second supply voltage Vcc2, where the module reports it (cached)."},
    QuantitySpec{.id = Quantity::RxPower, .key = "rx_power_watts", .stem = "rx_power", .unit = "watts",
                 .label = "rx power", .ethtool_label = "Laser rx power", .cage_label = "RX",
                 .lane_value = &LaneReport::rx_power_watts, .metric = "transceiver_lane_rx_power_watts",
                 .help = "Received optical power per lane; 0 means no light (cached from the last good poll).",
                 .threshold_metric = "transceiver_rx_power_threshold_watts",
                 .threshold_help = "Module's own rx power alarm/warning thresholds (apply to every lane), by level.",
                 .plausible = ThresholdRange{1e-6, 0.02, 0, 0.02}},  // up to +13 dBm
    QuantitySpec{.id = Quantity::TxPower, .key = "tx_power_watts", .stem = "tx_power", .unit = "watts",
                 .label = "tx power", .ethtool_label = "Laser output power", .cage_label = "TX",
                 .lane_value = &LaneReport::tx_power_watts, .metric = "transceiver_lane_tx_power_watts",
                 .help = "Transmitted optical power per lane (cached from the last good poll).",
                 .threshold_metric = "transceiver_tx_power_threshold_watts",
                 .threshold_help = "Module's own tx power alarm/warning thresholds (apply to every lane), by level.",
                 .plausible = ThresholdRange{1e-6, 0.02, 0, 0.02}},
    QuantitySpec{.id = Quantity::TxBias, .key = "tx_bias_amperes", .stem = "tx_bias", .unit = "amperes",
                 .label = "tx bias", .ethtool_label = "Laser bias current", .cage_label = "BIAS",
                 .lane_value = &LaneReport::tx_bias_amperes, .metric = "transceiver_lane_tx_bias_amperes",
                 .help = "Laser bias current per lane, CMIS multiplier applied (cached from the last good poll).",
                 .threshold_metric = "transceiver_tx_bias_threshold_amperes",
                 .threshold_help = "Module's own laser bias alarm/warning thresholds (apply to every lane), by level.",
                 .plausible = ThresholdRange{1e-4, 0.3, 0, 0.3}},
};

inline constexpr std::size_t kThresholdQuantityCount = static_cast<std::size_t>(
    std::count_if(kQuantities.begin(), kQuantities.end(), [](const QuantitySpec& q) { return q.has_thresholds(); }));

constexpr const QuantitySpec& quantity(Quantity id) { return kQuantities[static_cast<std::size_t>(id)]; }

// Position of `id` among the rows that have thresholds (their families are numbered so).
constexpr std::size_t threshold_index(Quantity id) {
  std::size_t n = 0;
  for (const QuantitySpec& q : kQuantities) {
    if (q.id == id) return n;
    n += q.has_thresholds() ? 1 : 0;
  }
  return n;
}

// The row whose thresholds key (or JSON key) is `key`; nullptr for none.
const QuantitySpec* quantity_by_key(std::string_view key);

// The value of a module quantity, or of a lane quantity on `lane` (1-based); absent is nullopt.
std::optional<double> value_of(const QuantitySpec& q, const ModuleReport& r, int lane = 0);

// The module's high-warning temperature threshold minus its temperature; nullopt without either.
std::optional<double> temperature_headroom(const ModuleReport& r);

// Plain ASCII text of a value in its unit, for messages and logs: "45.00 C", "3.3000 V",
// "6.500 mA", "0.5012 mW".
std::string plain_text(std::string_view unit, double value);

}  // namespace xcvr::cmis
