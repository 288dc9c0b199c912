// Round trip: every catalog model, read through the transport and decoded by cmis::decode(),
// gives back the model's values within the field resolution.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

// Field resolutions (LSBs) of the encodings.
constexpr double kTempLsb = 1.0 / 256, kVoltLsb = 100e-6, kPowerLsb = 0.1e-6, kBiasLsb = 2e-6;

struct Decoded {
  cmis::ModuleReport report;
  cmis::ModuleImage image;
};

Decoded read_and_decode(const ModuleModel& model) {
  VirtualClock clock;
  EmulatedBus bus(BusConfig{"bus0", kFastModeHz, 1, std::nullopt, 25 * kMillisecond}, clock);
  bus.insert(0, std::make_shared<EmulatedModule>(model, clock));
  clock.advance(2 * kSecond);  // past power-up and data-path init
  EmulatorTransport transport(bus, 0);
  const bool cmis = model.spec == cmis::Spec::Cmis;
  const auto halves = standard_halves(cmis, model.flat_memory, (model.host_lanes + 7) / 8);
  ImageRead r = read_image(transport, halves);
  EXPECT_TRUE(r.errors.empty()) << model.key << ": " << r.errors.front().second.message;
  EXPECT_EQ(bus.module(0)->violations(), 0u);
  return {cmis::decode(r.image), std::move(r.image)};
}

// Raised flags other than the state-change events every fresh module shows once.
std::string alarms(const std::vector<std::string>& flags) {
  std::string out;
  for (const std::string& f : flags) {
    if (f != "module_state_changed" && f != "data_path_state_changed") out += f + " ";
  }
  return out;
}

void expect_levels(const cmis::ModuleReport& r, const std::string& key, const Levels& want,
                   double lsb, const std::string& model) {
  const auto it = r.thresholds.find(key);
  ASSERT_NE(it, r.thresholds.end()) << model << " " << key;
  const cmis::Thresholds& t = it->second;
  const double tol = lsb / 2 + 1e-12;
  EXPECT_NEAR(t.high_alarm.value_or(NAN), want.high_alarm, tol) << model << " " << key;
  EXPECT_NEAR(t.high_warning.value_or(NAN), want.high_warning, tol) << model << " " << key;
  EXPECT_NEAR(t.low_warning.value_or(NAN), want.low_warning, tol) << model << " " << key;
  EXPECT_NEAR(t.low_alarm.value_or(NAN), want.low_alarm, tol) << model << " " << key;
}

TEST(EmulatorCatalog, HasEveryModelTheFleetNeeds) {
  for (const char* key : {"osfp-400g-sr4-flat", "osfp-800g-2xsr4-finned", "qsfpdd-400g-sr8",
                          "qsfpdd-400g-dr4", "qsfpdd-400g-fr4", "qsfpdd-400g-lr4",
                          "qsfp28-100g-sr4", "qsfp28-100g-lr4", "qsfpdd-400g-dac",
                          "osfp-800g-aec"}) {
    EXPECT_NE(find_model(key), nullptr) << key;
  }
  EXPECT_EQ(find_model("no-such-model"), nullptr);
}

TEST(EmulatorCatalog, EveryModelRoundTripsThroughTheDecoder) {
  for (const ModuleModel& m : catalog()) {
    SCOPED_TRACE(m.key);
    const Decoded d = read_and_decode(m);
    const cmis::ModuleReport& r = d.report;
    EXPECT_EQ(r.spec, m.spec);
    EXPECT_EQ(r.id.identifier.code, m.identifier);
    EXPECT_EQ(r.id.vendor_name, m.vendor_name);
    EXPECT_EQ(r.id.part_number, m.part_number);
    EXPECT_EQ(r.id.revision, m.vendor_revision);
    EXPECT_EQ(r.id.serial, m.serial_number);
    EXPECT_EQ(r.flat_memory, m.flat_memory);
    char oui[16];
    std::snprintf(oui, sizeof oui, "%02x:%02x:%02x", m.vendor_oui[0], m.vendor_oui[1],
                  m.vendor_oui[2]);
    EXPECT_EQ(r.id.vendor_oui, oui);
    ASSERT_TRUE(r.connector);
    EXPECT_EQ(r.connector->code, m.connector);
    EXPECT_EQ(r.power_class, m.power_class);
    ASSERT_TRUE(r.max_power_watts);
    EXPECT_NEAR(*r.max_power_watts, m.max_power_w, m.spec == cmis::Spec::Cmis ? 0.25 : 1e-9);
    for (const cmis::Checksum& c : r.checksums) EXPECT_TRUE(c.ok()) << c.page << " " << c.range;
    EXPECT_GE(r.checksums.size(), m.spec == cmis::Spec::Cmis ? (m.flat_memory ? 1u : 3u) : 2u);
    if (m.wavelength_m > 0) {
      ASSERT_TRUE(r.wavelength_meters);
      EXPECT_NEAR(*r.wavelength_meters, m.wavelength_m, 0.025e-9);
    }
    if (m.length_om4_m > 0) {
      EXPECT_EQ(r.lengths_meters.at("om4"), m.length_om4_m);
    }
    if (m.length_smf_m > 0) {
      EXPECT_NEAR(r.lengths_meters.at("smf"), m.length_smf_m, 1.0);
    }
    if (m.spec == cmis::Spec::Cmis) {
      ASSERT_GE(r.applications.size(), m.applications.size());
      for (std::size_t i = 0; i < m.applications.size(); ++i) {
        EXPECT_EQ(r.applications[i].host_interface.code, m.applications[i].host_interface);
        EXPECT_EQ(r.applications[i].media_interface.code, m.applications[i].media_interface);
        EXPECT_EQ(r.applications[i].host_lane_count, m.applications[i].host_lanes);
        EXPECT_EQ(r.applications[i].media_lane_count, m.applications[i].media_lanes);
        EXPECT_EQ(r.applications[i].host_lane_assignment,
                  m.applications[i].host_lane_assignment);
      }
      ASSERT_TRUE(r.media_type);
      EXPECT_EQ(r.media_type->code, m.media_type);
    }
    if (m.flat_memory) continue;  // no thresholds, no lanes
    ASSERT_TRUE(r.temperature_celsius);
    EXPECT_NEAR(*r.temperature_celsius, 30.0 + m.typical_power_w * m.thermal_resistance_c_per_w *
                                                   (1 - std::exp(-2.0 / m.thermal_time_constant_s)),
                1.0);
    ASSERT_TRUE(r.supply_voltage_volts);
    EXPECT_NEAR(*r.supply_voltage_volts, m.supply_voltage_v, 0.01);
    expect_levels(r, "temperature_celsius", m.temperature_c, kTempLsb, m.key);
    expect_levels(r, "supply_voltage_volts", m.supply_voltage_v_levels, kVoltLsb, m.key);
    if (!m.has_lane_monitors) continue;
    expect_levels(r, "tx_power_watts", m.tx_power_w, kPowerLsb, m.key);
    expect_levels(r, "rx_power_watts", m.rx_power_w, kPowerLsb, m.key);
    expect_levels(r, "tx_bias_amperes", m.tx_bias_a, kBiasLsb * m.tx_bias_multiplier, m.key);
    ASSERT_GE(r.lanes.size(), static_cast<std::size_t>(m.media_lanes));
    for (int i = 0; i < m.media_lanes; ++i) {
      const cmis::LaneReport& lane = r.lanes[static_cast<std::size_t>(i)];
      ASSERT_TRUE(lane.rx_power_watts && lane.tx_power_watts && lane.tx_bias_amperes);
      EXPECT_NEAR(*lane.rx_power_watts, m.lane.rx_power_w, 0.06 * m.lane.rx_power_w);
      EXPECT_NEAR(*lane.tx_power_watts, m.lane.tx_power_w, 0.06 * m.lane.tx_power_w);
      EXPECT_NEAR(*lane.tx_bias_amperes, m.lane.tx_bias_a, 0.06 * m.lane.tx_bias_a);
      EXPECT_EQ(alarms(lane.flags), "") << "lane " << lane.lane;
    }
    EXPECT_EQ(alarms(r.module_flags), "");
  }
}

TEST(EmulatorCatalog, PowerAndSpeedsArePlausible) {
  const ModuleModel& sr8 = *find_model("qsfpdd-400g-sr8");
  const ModuleModel& dr4 = *find_model("qsfpdd-400g-dr4");
  const ModuleModel& twin = *find_model("osfp-800g-2xsr4-finned");
  EXPECT_TRUE(sr8.max_power_w >= 3.5 && sr8.max_power_w <= 5.0);
  EXPECT_TRUE(dr4.max_power_w >= 3.5 && dr4.max_power_w <= 5.0);
  EXPECT_TRUE(twin.max_power_w >= 15.0 && twin.max_power_w <= 17.0);
  for (const ModuleModel& m : catalog()) {
    EXPECT_LE(m.typical_power_w, m.max_power_w) << m.key;
    if (!m.has_lane_monitors) continue;
    EXPECT_LT(m.tx_power_w.low_alarm, m.tx_power_w.low_warning) << m.key;
    EXPECT_LT(m.tx_power_w.low_warning, m.lane.tx_power_w) << m.key;
    EXPECT_LT(m.lane.tx_power_w, m.tx_power_w.high_warning) << m.key;
    EXPECT_LT(m.rx_power_w.low_warning, m.lane.rx_power_w) << m.key;
    EXPECT_LT(m.lane.tx_bias_a, m.tx_bias_a.high_warning) << m.key;
    EXPECT_GT(m.lane.tx_bias_a, m.tx_bias_a.low_warning) << m.key;
  }
}

TEST(EmulatorCatalog, EncodedPagesCarryCorrectChecksums) {
  for (const ModuleModel& m : catalog()) {
    const cmis::ModuleImage img = encode_image(m);
    for (const ChecksumRule& rule : layout_for(m.spec).checksums) {
      const cmis::PageKey key = page_key_of(*rule.field);
      if (!img.has(key)) continue;
      const uint16_t at = offset_of(*rule.field);
      EXPECT_EQ(cmis::checksum(img, key, rule.first, static_cast<uint16_t>(at - 1)),
                cmis::read_uint(img, *rule.field))
          << m.key << " " << rule.field->name;
    }
  }
}

}  // namespace
}  // namespace xcvr::emulator
