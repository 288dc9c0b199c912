// Module state machine timings, SFF-8636 readiness and dynamics, through the transport.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "cmis/cmis_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

using cmis::CmisField;
using cmis::cmis_field;

constexpr cmis::PageKey kLower{0x50, 0, cmis::kLowerPage};
constexpr cmis::PageKey kPage11{0x50, 0, 0x11};

struct Rig {
  explicit Rig(std::string_view key, DynamicsConfig dyn = {})
      : bus(BusConfig{"bus0", kFastModePlusHz, 1, std::nullopt, 25 * kMillisecond}, clock),
        transport(bus, 0) {
    module = std::make_shared<EmulatedModule>(*find_model(key), clock, dyn);
    bus.insert(0, module);
  }
  cmis::ModuleImage read(std::initializer_list<cmis::PageKey> halves) {
    return read_image(transport, std::vector<cmis::PageKey>(halves)).image;
  }
  void at(double seconds) {  // moves virtual time to `seconds` after insertion
    clock.advance(module->powered_on_at_ns() + static_cast<int64_t>(seconds * 1e9) -
                  clock.now_ns());
  }
  VirtualClock clock;
  EmulatedBus bus;
  EmulatorTransport transport;
  std::shared_ptr<EmulatedModule> module;
};

TEST(EmulatorState, CmisModuleAndDataPathStatesFollowTheTimings) {
  Rig rig("qsfpdd-400g-sr8");
  const Timings& t = rig.module->model().timings;  // LowPwr 50 ms, PwrUp 200 ms, DPInit 100 ms
  const cmis::Field& state = cmis_field(CmisField::ModuleState);
  const cmis::Field& changed = cmis_field(CmisField::FlagModuleStateChanged);
  const cmis::Field& dp = cmis_field(CmisField::DataPathState);
  const cmis::Field& dp_changed = cmis_field(CmisField::FlagDataPathStateChanged);

  rig.at(t.low_power_s / 2);
  cmis::ModuleImage img = rig.read({kLower, kPage11});
  EXPECT_EQ(cmis::read_uint(img, state), 1u);    // ModuleLowPwr
  EXPECT_EQ(cmis::read_uint(img, changed), 1u);  // MgmtInit -> LowPwr
  EXPECT_EQ(cmis::read_uint(img, dp, 1), 1u);    // DPDeactivated
  EXPECT_EQ(cmis::read_scaled(img, cmis_field(CmisField::TxPower), 1), 0.0);

  rig.at(t.low_power_s + t.power_up_s / 2);
  img = rig.read({kLower});
  EXPECT_EQ(cmis::read_uint(img, state), 2u);  // ModulePwrUp
  EXPECT_EQ(cmis::read_uint(img, changed), 1u);

  const double ready = t.low_power_s + t.power_up_s;
  rig.at(ready + t.data_path_init_s / 2);
  img = rig.read({kLower, kPage11});
  EXPECT_EQ(cmis::read_uint(img, state), 3u);  // ModuleReady
  EXPECT_EQ(cmis::read_uint(img, changed), 1u);
  EXPECT_EQ(cmis::read_uint(img, dp, 8), 2u);  // DPInit
  EXPECT_EQ(cmis::read_uint(img, dp_changed, 8), 1u);

  rig.at(ready + t.data_path_init_s + t.tx_turn_on_s + 0.05);
  img = rig.read({kLower, kPage11});
  EXPECT_EQ(cmis::read_uint(img, state), 3u);
  EXPECT_EQ(cmis::read_uint(img, changed), 0u);  // no transition since the last read
  for (int lane = 1; lane <= 8; ++lane) {
    EXPECT_EQ(cmis::read_uint(img, dp, lane), 4u);  // DPActivated
    EXPECT_EQ(cmis::read_uint(img, cmis_field(CmisField::TxOutputStatus), lane), 1u);
    EXPECT_GT(*cmis::read_scaled(img, cmis_field(CmisField::TxPower), lane), 0.0);
  }
}

TEST(EmulatorState, Sff8636DataNotReadyAfterInsertion) {
  Rig rig("qsfp28-100g-lr4");
  const cmis::Field& dnr = cmis::sff8636_field(cmis::Sff8636Field::DataNotReady);
  const cmis::Field& rx = cmis::sff8636_field(cmis::Sff8636Field::RxPower);
  rig.at(0.1);
  cmis::ModuleImage img = rig.read({kLower});
  EXPECT_EQ(cmis::read_uint(img, dnr), 1u);
  EXPECT_EQ(cmis::read_scaled(img, rx, 1), 0.0);
  rig.at(rig.module->model().timings.data_not_ready_s + 0.01);
  img = rig.read({kLower});
  EXPECT_EQ(cmis::read_uint(img, dnr), 0u);
  EXPECT_NEAR(*cmis::read_scaled(img, rx, 1), rig.module->model().lane.rx_power_w,
              0.1 * rig.module->model().lane.rx_power_w);
}

TEST(EmulatorState, TemperatureFollowsTheThermalModelWithLag) {
  Rig rig("osfp-800g-2xsr4-finned", DynamicsConfig{.seed = 3, .temperature_noise_c = 0});
  const ModuleModel& m = rig.module->model();
  const cmis::Field& temp = cmis_field(CmisField::Temperature);
  rig.at(1.0);
  const double early = *cmis::read_scaled(rig.read({kLower}), temp);
  EXPECT_NEAR(early, 30.0, 1.0);  // starts at ambient
  rig.at(1.0 + m.thermal_time_constant_s);
  const double one_tau = *cmis::read_scaled(rig.read({kLower}), temp);
  const double rise = m.typical_power_w * m.thermal_resistance_c_per_w;
  EXPECT_NEAR(one_tau - 30.0, rise * (1 - std::exp(-1.0)), 1.0);
  rig.at(1.0 + 10 * m.thermal_time_constant_s);
  EXPECT_NEAR(*cmis::read_scaled(rig.read({kLower}), temp), 30.0 + rise, 0.1);
}

TEST(EmulatorState, PoorAirflowRunsHotter) {
  Rig good("qsfpdd-400g-dr4"), poor("qsfpdd-400g-dr4");
  poor.bus.with_module(0, [](EmulatedModule& m) { m.set_environment({30.0, 2.0}); });
  good.at(1000);
  poor.at(1000);
  const cmis::Field& temp = cmis_field(CmisField::Temperature);
  EXPECT_GT(*cmis::read_scaled(poor.read({kLower}), temp),
            *cmis::read_scaled(good.read({kLower}), temp) + 5);
}

TEST(EmulatorState, NoiseIsDeterministicUnderASeed) {
  Rig a("qsfpdd-400g-sr8", {.seed = 42}), b("qsfpdd-400g-sr8", {.seed = 42}),
      c("qsfpdd-400g-sr8", {.seed = 43});
  for (Rig* r : {&a, &b, &c}) r->at(2.0);
  const auto bytes = [](Rig& r) {
    return r.read({kPage11}).find(kPage11)->bytes;
  };
  const auto ba = bytes(a), bb = bytes(b), bc = bytes(c);
  EXPECT_EQ(ba, bb);
  EXPECT_NE(ba, bc);
}

TEST(EmulatorState, BiasDriftsUpWithLaserAging) {
  Rig rig("qsfpdd-400g-dr4",
          DynamicsConfig{.seed = 1, .optical_noise_ratio = 0, .bias_drift_per_hour = 0.01});
  const cmis::Field& bias = cmis_field(CmisField::TxBias);
  rig.at(1.0);
  const double start = *cmis::read_scaled(rig.read({kPage11}), bias, 1);
  rig.at(1.0 + 10 * 3600);
  const double later = *cmis::read_scaled(rig.read({kPage11}), bias, 1);
  EXPECT_NEAR(later / start, 1.10, 0.002);
}

}  // namespace
}  // namespace xcvr::emulator
