// CMIS decoder, lane level: per-lane monitors (page 11h, banks), Tx bias multiplier, DP state,
// lane flags, page 02h thresholds, VDM, and hostile images. Images are written byte by byte
// from shared/reference/cmis-sff-memory-maps.md §2-§8 (not through our Field tables).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cmis/decode.hpp"
#include "tests/support/image_bytes.hpp"
#include "cmis/report_json.hpp"

namespace xcvr::cmis {
namespace {

using test::put;
using test::put16;
using test::put_ascii;

constexpr int16_t kLower = kLowerPage;

uint16_t off(int base, int index, int stride = 2) { return static_cast<uint16_t>(base + stride * index); }

// Paged QSFP-DD CMIS 5.0 with lower + 00h, 01h (all monitors, bias x1, one bank), 02h, 11h.
ModuleImage paged_module() {
  ModuleImage m;
  put(m, kLower, 0, {0x18, 0x50, 0x00, 0x06});
  put(m, kLower, 14, {0x19, 0x80, 0x80, 0xE8});
  put(m, 0x00, 128, {0x18});
  put(m, 0x01, 159, {0x03, 0x07});
  put(m, 0x02, 128, {});
  put(m, 0x11, 128, {});
  return m;
}

std::vector<int> lane_numbers(const ModuleReport& r) {
  std::vector<int> out;
  for (const LaneReport& l : r.lanes) out.push_back(l.lane);
  return out;
}
std::vector<int> range(int first, int last) {
  std::vector<int> out;
  for (int i = first; i <= last; ++i) out.push_back(i);
  return out;
}
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// ---- per-lane monitors -----------------------------------------------------------------------

TEST(CmisLanes, MonitorsLanesOneToEightInOrder) {
  ModuleImage m = paged_module();
  for (int i = 0; i < 8; ++i) {
    put16(m, 0x11, off(154, i), static_cast<uint16_t>(1000 * (i + 1)));      // Tx power
    put16(m, 0x11, off(170, i), static_cast<uint16_t>(500 * (i + 1)));       // Tx bias
    put16(m, 0x11, off(186, i), static_cast<uint16_t>(2000 * (i + 1) + 1));  // Rx power
  }
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(lane_numbers(r), range(1, 8));
  for (int i = 0; i < 8; ++i) {
    const LaneReport& l = r.lanes[static_cast<std::size_t>(i)];
    EXPECT_DOUBLE_EQ(l.tx_power_watts.value_or(-1), 1000.0 * (i + 1) / 1e7);  // 0.1 µW LSB
    EXPECT_DOUBLE_EQ(l.tx_bias_amperes.value_or(-1), 500.0 * (i + 1) * 2e-6);  // 2 µA LSB
    EXPECT_DOUBLE_EQ(l.rx_power_watts.value_or(-1), (2000.0 * (i + 1) + 1) / 1e7);
  }
}

TEST(CmisLanes, WordsAreBigEndian) {
  ModuleImage m = paged_module();
  put(m, 0x11, 186, {0x12, 0x34});
  EXPECT_DOUBLE_EQ(decode_cmis(m).lanes.at(0).rx_power_watts.value_or(-1), 0x1234 / 1e7);
}

TEST(CmisLanes, ZeroOpticalPowerIsExactlyZero) {
  ModuleImage m = paged_module();  // all lane words zero
  const ModuleReport r = decode_cmis(m);
  ASSERT_FALSE(r.lanes.empty());
  ASSERT_TRUE(r.lanes[0].rx_power_watts);
  EXPECT_EQ(*r.lanes[0].rx_power_watts, 0.0);
  EXPECT_EQ(*r.lanes[0].tx_power_watts, 0.0);
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["lanes"][0]["rx_power_watts"].get<double>(), 0.0);
}

TEST(CmisLanes, OnlyImplementedLaneMonitorsArePresent) {
  struct Case { uint8_t byte160; bool bias, tx, rx; };
  for (const Case& c : {Case{0x01, true, false, false}, Case{0x02, false, true, false},
                        Case{0x04, false, false, true}, Case{0x00, false, false, false}}) {
    ModuleImage m = paged_module();
    put(m, 0x01, 160, {c.byte160});
    put16(m, 0x11, 154, 100);
    put16(m, 0x11, 170, 100);
    put16(m, 0x11, 186, 100);
    const ModuleReport r = decode_cmis(m);
    ASSERT_EQ(r.lanes.size(), 8u);
    EXPECT_EQ(r.lanes[0].tx_bias_amperes.has_value(), c.bias) << std::hex << int{c.byte160};
    EXPECT_EQ(r.lanes[0].tx_power_watts.has_value(), c.tx) << std::hex << int{c.byte160};
    EXPECT_EQ(r.lanes[0].rx_power_watts.has_value(), c.rx) << std::hex << int{c.byte160};
  }
}

// 01h:160 bits 4-3 multiply bias values and bias thresholds (ethtool divides: a known bug).
TEST(CmisLanes, TxBiasMultiplierMultipliesValuesAndThresholds) {
  struct Case { uint8_t byte160; int multiplier; };
  for (const Case& c : {Case{0x07, 1}, Case{0x0F, 2}, Case{0x17, 4}}) {
    ModuleImage m = paged_module();
    put(m, 0x01, 160, {c.byte160});
    put16(m, 0x11, 170, 5000);   // lane 1: 10 mA before the multiplier
    put16(m, 0x11, 184, 2500);   // lane 8: 5 mA
    put16(m, 0x02, 184, 8000);   // bias high alarm 16 mA
    put16(m, 0x02, 186, 1000);   // bias low alarm 2 mA
    const ModuleReport r = decode_cmis(m);
    EXPECT_EQ(r.tx_bias_multiplier, c.multiplier);
    EXPECT_DOUBLE_EQ(r.lanes.at(0).tx_bias_amperes.value_or(-1), 0.010 * c.multiplier);
    EXPECT_DOUBLE_EQ(r.lanes.at(7).tx_bias_amperes.value_or(-1), 0.005 * c.multiplier);
    const Thresholds& t = r.thresholds.at("tx_bias_amperes");
    EXPECT_DOUBLE_EQ(t.high_alarm.value_or(-1), 0.016 * c.multiplier);
    EXPECT_DOUBLE_EQ(t.low_alarm.value_or(-1), 0.002 * c.multiplier);
  }
}

TEST(CmisLanes, ReservedBiasMultiplierCodeFallsBackToOneWithProblem) {
  ModuleImage m = paged_module();
  put(m, 0x01, 160, {0x1F});
  put16(m, 0x11, 170, 5000);
  const ModuleReport r = decode_cmis(m);
  EXPECT_EQ(r.tx_bias_multiplier, 1);
  EXPECT_DOUBLE_EQ(r.lanes.at(0).tx_bias_amperes.value_or(-1), 0.010);
  EXPECT_FALSE(r.problems.empty());
}

TEST(CmisLanes, RxPowerMeasurementType) {
  ModuleImage m = paged_module();
  put(m, 0x01, 151, {0x10});
  EXPECT_EQ(decode_cmis(m).rx_power_type, "average");
  put(m, 0x01, 151, {0xEF});  // every other bit set
  EXPECT_EQ(decode_cmis(m).rx_power_type, "oma");
}

// ---- data paths (Active Control Set, 11h:206-213: AppSel bits 7-4, DataPathID bits 3-1) ------

std::vector<std::optional<int>> data_paths(const ModuleReport& r) {
  std::vector<std::optional<int>> out;
  for (const LaneReport& l : r.lanes) out.push_back(l.data_path);
  return out;
}
using Paths = std::vector<std::optional<int>>;
constexpr std::nullopt_t kNone = std::nullopt;

TEST(CmisLanes, DataPathsOfTheActiveConfiguration) {
  ModuleImage m = paged_module();
  // Twin-port 2x400G (MMA4Z00-NS): AppSel 1 on all lanes, data paths starting at lanes 1 and 5.
  put(m, 0x11, 206, {0x10, 0x10, 0x10, 0x10, 0x18, 0x18, 0x18, 0x18});
  EXPECT_EQ(data_paths(decode_cmis(m)), (Paths{1, 1, 1, 1, 2, 2, 2, 2}));
  // One 400G data path over all 8 lanes (the ExplicitControl bit 0 does not matter).
  put(m, 0x11, 206, {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11});
  EXPECT_EQ(data_paths(decode_cmis(m)), (Paths{1, 1, 1, 1, 1, 1, 1, 1}));
  // 4x100G breakout (2-lane application 2): data paths at lanes 1, 3, 5, 7.
  put(m, 0x11, 206, {0x20, 0x20, 0x24, 0x24, 0x28, 0x28, 0x2C, 0x2C});
  EXPECT_EQ(data_paths(decode_cmis(m)), (Paths{1, 1, 2, 2, 3, 3, 4, 4}));
  // Half configured: lanes 5-8 in no data path (AppSel 0).
  put(m, 0x11, 206, {0x10, 0x10, 0x10, 0x10, 0x00, 0x00, 0x00, 0x00});
  EXPECT_EQ(data_paths(decode_cmis(m)), (Paths{1, 1, 1, 1, kNone, kNone, kNone, kNone}));
  // The steady-state decode keeps them (the bytes come with the static pages).
  ModuleReport r = decode_cmis(m);
  put(m, 0x11, 206, {0x10, 0x10, 0x10, 0x10, 0x18, 0x18, 0x18, 0x18});
  ASSERT_TRUE(decode_dynamic(m, r));
  EXPECT_EQ(data_paths(r), (Paths{1, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(to_json(r)["lanes"][4]["data_path"], 2);
}

TEST(CmisLanes, DataPathsThatMakeNoSenseAreNotGuessed) {
  ModuleImage m = paged_module();
  EXPECT_EQ(data_paths(decode_cmis(m)), Paths(8, kNone));  // nothing configured
  // Lane 1 names a later lane (2) as its first; lane 2 starts a path of its own; lanes 3-4 and 7
  // name lane 1, whose AppSel differs; lane 5 names lane 1, whose DataPathID is not 0; lane 6
  // names lane 5, whose DataPathID is not 4; lane 8 starts a path.
  put(m, 0x11, 206, {0x12, 0x12, 0x20, 0x20, 0x10, 0x18, 0xF0, 0xFE});
  EXPECT_EQ(data_paths(decode_cmis(m)), (Paths{kNone, 1, kNone, kNone, kNone, kNone, kNone, 2}));
}

TEST(CmisLanes, DataPathOrdinalsCountOnAcrossBanks) {
  ModuleImage m = paged_module();
  put(m, 0x01, 142, {0x01});  // banks 0-1
  put(m, 0x11, 206, {0x10, 0x10, 0x10, 0x10, 0x18, 0x18, 0x18, 0x18});
  put(m, 0x11, 206, {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10}, 1);
  const Paths paths = data_paths(decode_cmis(m));
  ASSERT_EQ(paths.size(), 16u);
  EXPECT_EQ(paths[4], 2);
  EXPECT_EQ(paths[8], 3);
  EXPECT_EQ(paths[15], 3);
}

// ---- banks and lane visibility ---------------------------------------------------------------

TEST(CmisLanes, LanesNineToSixteenFromBankOne) {
  ModuleImage m = paged_module();
  put(m, 0x01, 142, {0x01});  // banks 0-1
  put16(m, 0x11, 186, 0x0101);             // lane 1
  put16(m, 0x11, 186, 0x0909, 1);          // lane 9
  put16(m, 0x11, off(186, 7), 0x1010, 1);  // lane 16
  put16(m, 0x11, 154, 0x0202, 1);          // lane 9 Tx power
  put(m, 0x11, 128, {0x04}, 1);            // lane 9 DPActivated
  put(m, 0x11, 147, {0x80}, 1);            // lane 16 Rx LOS
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(lane_numbers(r), range(1, 16));
  EXPECT_DOUBLE_EQ(r.lanes[0].rx_power_watts.value_or(-1), 0x0101 / 1e7);
  EXPECT_DOUBLE_EQ(r.lanes[8].rx_power_watts.value_or(-1), 0x0909 / 1e7);
  EXPECT_DOUBLE_EQ(r.lanes[8].tx_power_watts.value_or(-1), 0x0202 / 1e7);
  EXPECT_EQ(r.lanes[8].data_path_state, "DPActivated");
  EXPECT_DOUBLE_EQ(r.lanes[15].rx_power_watts.value_or(-1), 0x1010 / 1e7);
  EXPECT_EQ(r.lanes[15].flags, std::vector<std::string>{"rx_los"});
  EXPECT_TRUE(r.lanes[7].flags.empty());
  EXPECT_TRUE(r.missing_pages.empty());
}

TEST(CmisLanes, BankPagesFollowAdvertisement) {
  ModuleImage m = paged_module();
  put(m, 0x01, 142, {0x01});  // two banks advertised, bank 1 not read
  ModuleReport r = decode_cmis(m);
  EXPECT_EQ(lane_numbers(r), range(1, 8));
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"11h bank 1"});

  put(m, 0x01, 142, {0x02});  // four banks advertised
  put(m, 0x11, 128, {}, 1);
  r = decode_cmis(m);
  EXPECT_EQ(lane_numbers(r), range(1, 16));
  EXPECT_EQ(r.missing_pages, (std::vector<std::string>{"11h bank 2", "11h bank 3"}));

  for (uint8_t code : {uint8_t{0x00}, uint8_t{0x03}}) {  // one bank; 11 = reserved → bank 0 only
    put(m, 0x01, 142, {code});
    r = decode_cmis(m);
    EXPECT_EQ(lane_numbers(r), range(1, 8)) << int{code};
    EXPECT_TRUE(r.missing_pages.empty()) << int{code};
  }
}

TEST(CmisLanes, MediaLaneInfoHidesUnsupportedLanes) {
  ModuleImage m = paged_module();
  put(m, 0x00, 210, {0xF0});
  EXPECT_EQ(lane_numbers(decode_cmis(m)), range(1, 4));
  put(m, 0x00, 210, {0x0A});
  EXPECT_EQ(lane_numbers(decode_cmis(m)), (std::vector<int>{1, 3, 5, 6, 7, 8}));
}

TEST(CmisLanes, DataPathStateNibblesLowNibbleIsLaneOne) {
  ModuleImage m = paged_module();
  put(m, 0x11, 128, {0x14, 0x72, 0x53, 0x06});
  const ModuleReport r = decode_cmis(m);
  // lane 1 = low nibble of 128: 4, 1 | 2, 7 | 3, 5 | 6, 0
  const char* want[] = {"DPActivated", "DPDeactivated", "DPInit",      "DPInitialized",
                        "DPDeinit",    "DPTxTurnOn",    "DPTxTurnOff", "reserved (0x00)"};
  ASSERT_EQ(r.lanes.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(r.lanes[i].data_path_state, want[i]) << "lane " << i + 1;
  }
}

TEST(CmisLanes, LaneFlagsBitIIsLaneIPlusOne) {
  ModuleImage m = paged_module();
  put(m, 0x11, 135, {0x01, 0x02});        // Tx fault lane 1, Tx LOS lane 2
  put(m, 0x11, 139, {0x80});              // Tx power high alarm lane 8
  put(m, 0x11, 143, {0x01});              // Tx bias high alarm lane 1
  put(m, 0x11, 147, {0x80});              // Rx LOS lane 8
  put(m, 0x11, 149, {0x04, 0x08, 0x10, 0x20});  // Rx power HA lane 3, LA 4, HW 5, LW 6
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.lanes.size(), 8u);
  const std::vector<std::vector<std::string>> want = {
      {"tx_bias_high_alarm", "tx_fault"},
      {"tx_los"},
      {"rx_power_high_alarm"},
      {"rx_power_low_alarm"},
      {"rx_power_high_warning"},
      {"rx_power_low_warning"},
      {},
      {"rx_los", "tx_power_high_alarm"}};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(sorted(r.lanes[i].flags), want[i]) << "lane " << i + 1;
  }
  EXPECT_TRUE(r.module_flags.empty());
}

// ---- thresholds (page 02h) -------------------------------------------------------------------

TEST(CmisThresholds, AllGroupsInHighAlarmLowAlarmHighWarningLowWarningOrder) {
  ModuleImage m = paged_module();
  const auto group = [&](uint16_t first, std::initializer_list<uint16_t> raw) {
    uint16_t o = first;
    for (uint16_t v : raw) put16(m, 0x02, std::exchange(o, static_cast<uint16_t>(o + 2)), v);
  };
  group(128, {0x4B00, 0xFB00, 0x4600, 0x0080});  // 75, -5, 70, 0.5 °C
  group(136, {36300, 29700, 34650, 31350});      // 3.63, 2.97, 3.465, 3.135 V
  group(176, {40000, 500, 30000, 1000});         // Tx power 4 mW, 50 µW, 3 mW, 100 µW
  group(184, {7500, 1000, 6500, 1500});          // Tx bias 15, 2, 13, 3 mA
  group(192, {50000, 100, 45000, 200});          // Rx power 5 mW, 10 µW, 4.5 mW, 20 µW
  const ModuleReport r = decode_cmis(m);
  struct Want { const char* key; double ha, la, hw, lw; };
  for (const Want& w : {Want{"temperature_celsius", 75, -5, 70, 0.5},
                        Want{"supply_voltage_volts", 3.63, 2.97, 3.465, 3.135},
                        Want{"tx_power_watts", 4e-3, 50e-6, 3e-3, 100e-6},
                        Want{"tx_bias_amperes", 15e-3, 2e-3, 13e-3, 3e-3},
                        Want{"rx_power_watts", 5e-3, 10e-6, 4.5e-3, 20e-6}}) {
    ASSERT_TRUE(r.thresholds.count(w.key)) << w.key;
    const Thresholds& t = r.thresholds.at(w.key);
    EXPECT_DOUBLE_EQ(t.high_alarm.value_or(-1), w.ha) << w.key;
    EXPECT_DOUBLE_EQ(t.low_alarm.value_or(-1), w.la) << w.key;
    EXPECT_DOUBLE_EQ(t.high_warning.value_or(-1), w.hw) << w.key;
    EXPECT_DOUBLE_EQ(t.low_warning.value_or(-1), w.lw) << w.key;
  }
}

TEST(CmisThresholds, UnimplementedMonitorHasNoThresholds) {
  ModuleImage m = paged_module();
  put(m, 0x01, 159, {0x01, 0x04});  // temperature; Rx power only
  put16(m, 0x02, 136, 36300);
  put16(m, 0x02, 176, 40000);
  put16(m, 0x02, 184, 7500);
  put16(m, 0x02, 192, 50000);
  put16(m, 0x02, 128, 0x4B00);
  const ModuleReport r = decode_cmis(m);
  EXPECT_TRUE(r.thresholds.count("temperature_celsius"));
  EXPECT_TRUE(r.thresholds.count("rx_power_watts"));
  EXPECT_FALSE(r.thresholds.count("supply_voltage_volts"));
  EXPECT_FALSE(r.thresholds.count("tx_power_watts"));
  EXPECT_FALSE(r.thresholds.count("tx_bias_amperes"));
}

// ---- VDM (pages 20h-2Fh) ---------------------------------------------------------------------

ModuleImage vdm_module(uint8_t groups_code) {
  ModuleImage m = paged_module();
  put(m, 0x01, 142, {0x40});            // VDM pages supported
  put(m, 0x2F, 128, {groups_code});     // bits 1-0 = groups - 1
  put(m, 0x20, 128, {0x00, 5});         // instance 0: lane 1, eSNR media input
  put(m, 0x20, 130, {0x33, 15});        // instance 1: threshold set 3, lane 4, pre-FEC BER current
  put(m, 0x20, 132, {0x00, 0});         // instance 2: unused
  put(m, 0x24, 128, {0x1A, 0x80});      // 26.5 dB
  put(m, 0x24, 130, {0x80, 0xF0});      // F16 e=16, m=240: 240e-8
  put(m, 0x24, 132, {0x12, 0x34});
  put(m, 0x21, 128, {0x07, 6});         // group 2 instance 0: lane 8, eSNR host input
  put(m, 0x25, 128, {0x0C, 0x00});      // 12 dB
  return m;
}

TEST(CmisVdm, DescriptorsAndValuesOneGroup) {
  const ModuleReport r = decode_cmis(vdm_module(0x00));
  ASSERT_EQ(r.vdm.size(), 2u);
  EXPECT_EQ(r.vdm[0].type_id, 5);
  EXPECT_EQ(r.vdm[0].name(), "esnr_media_input");
  EXPECT_EQ(r.vdm[0].lane, 1);
  EXPECT_DOUBLE_EQ(r.vdm[0].value, 26.5);
  EXPECT_EQ(r.vdm[0].unit(), "decibels");
  EXPECT_EQ(r.vdm[1].type_id, 15);
  EXPECT_EQ(r.vdm[1].name(), "pre_fec_ber_current_media");
  EXPECT_EQ(r.vdm[1].lane, 4);
  EXPECT_DOUBLE_EQ(r.vdm[1].value, 2.4e-6);
}

TEST(CmisVdm, SecondGroupWhenAdvertised) {
  const ModuleReport r = decode_cmis(vdm_module(0x01));
  ASSERT_EQ(r.vdm.size(), 3u);
  EXPECT_EQ(r.vdm[2].type_id, 6);
  EXPECT_EQ(r.vdm[2].lane, 8);
  EXPECT_DOUBLE_EQ(r.vdm[2].value, 12.0);
}

TEST(CmisVdm, AbsentWhenNotAdvertised) {
  ModuleImage m = vdm_module(0x00);
  put(m, 0x01, 142, {0x00});
  EXPECT_TRUE(decode_cmis(m).vdm.empty());
  m = vdm_module(0x00);
  m.erase({kDeviceA0, 0, 0x24});  // values page not read
  EXPECT_TRUE(decode_cmis(m).vdm.empty());
}

// ---- hostile images --------------------------------------------------------------------------

std::vector<double> all_doubles(const ModuleReport& r) {
  std::vector<double> v;
  const auto add = [&](const std::optional<double>& d) { if (d) v.push_back(*d); };
  for (const auto& d : {r.cable_length_meters, r.wavelength_meters, r.max_power_watts,
                        r.temperature_celsius, r.supply_voltage_volts, r.laser_temperature_celsius,
                        r.tec_current_ratio, r.supply_voltage2_volts}) {
    add(d);
  }
  for (const auto& [name, len] : r.lengths_meters) v.push_back(len);
  for (const LaneReport& l : r.lanes) {
    add(l.rx_power_watts);
    add(l.tx_power_watts);
    add(l.tx_bias_amperes);
  }
  for (const auto& [name, t] : r.thresholds) {
    for (const auto& d : {t.high_alarm, t.high_warning, t.low_warning, t.low_alarm}) add(d);
  }
  for (const VdmObservable& o : r.vdm) v.push_back(o.value);
  return v;
}

bool sane(const ModuleReport& r, bool render_json = true) {
  const auto v = all_doubles(r);
  if (!std::all_of(v.begin(), v.end(), [](double d) { return std::isfinite(d); })) return false;
  for (const LaneReport& l : r.lanes) {
    if (l.lane < 1 || l.lane > 32) return false;
  }
  if (render_json) (void)to_json(r).dump();  // may throw: callers wrap in EXPECT_NO_THROW
  return true;
}

const std::vector<PageKey>& every_page() {
  static const std::vector<PageKey> pages = [] {
    std::vector<PageKey> p{{kDeviceA0, 0, kLower}};
    for (int page : {0x00, 0x01, 0x02, 0x10}) p.push_back({kDeviceA0, 0, static_cast<int16_t>(page)});
    for (uint8_t bank = 0; bank < 4; ++bank) p.push_back({kDeviceA0, bank, int16_t{0x11}});
    for (int page = 0x20; page <= 0x2F; ++page) p.push_back({kDeviceA0, 0, static_cast<int16_t>(page)});
    return p;
  }();
  return pages;
}

ModuleImage filled(uint8_t value) {
  ModuleImage m;
  PageBytes bytes;
  bytes.fill(value);
  for (const PageKey& k : every_page()) m.set_page(k, bytes);
  return m;
}

TEST(CmisRobust, AllFFAndAllZeroImages) {
  for (uint8_t fill : {uint8_t{0xFF}, uint8_t{0x00}}) {
    for (bool paged : {false, true}) {
      ModuleImage m = filled(fill);
      if (paged) put(m, kLower, 2, {0x00});  // 0xFF has the flat bit set: also try paged
      for (const ModuleReport& r : {decode_cmis(m), decode(m)}) {
        bool ok = false;
        EXPECT_NO_THROW(ok = sane(r)) << std::hex << int{fill} << " paged=" << paged;
        EXPECT_TRUE(ok) << std::hex << int{fill} << " paged=" << paged;
      }
    }
  }
  ModuleImage ff = filled(0xFF);
  put(ff, kLower, 2, {0x00});
  const ModuleReport r = decode_cmis(ff);
  EXPECT_EQ(lane_numbers(r), std::vector<int>{});  // 00h:210 = FF: every media lane unsupported
  EXPECT_EQ(r.tx_bias_multiplier, 1);               // reserved code 3
}

TEST(CmisRobust, RandomImagesDecodeFinite) {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> byte(0, 255);
  const uint8_t cmis_ids[] = {0x18, 0x19, 0x1E, 0x21};
  const auto& pages = every_page();
  for (int iter = 0; iter < 2500; ++iter) {
    ModuleImage m;
    const auto present = static_cast<uint32_t>(rng());
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (i != 0 && (present >> (i % 32) & 1) == 0) continue;  // lower page always present
      PageBytes bytes;
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(byte(rng));
      m.set_page(pages[i], bytes);
    }
    if (iter % 2 == 0) {  // half the time: a CMIS identifier, paged, with VDM advertised
      put(m, kLower, 0, {cmis_ids[iter / 2 % 4]});
      put(m, kLower, 2, {static_cast<uint8_t>(byte(rng) & 0x7F)});
      if (m.has({kDeviceA0, 0, 0x01})) put(m, 0x01, 142, {static_cast<uint8_t>(byte(rng) | 0x40)});
    }
    const bool render = iter % 16 == 0;  // JSON rendering is slow in Debug: sample it
    bool ok = false;
    EXPECT_NO_THROW({
      const ModuleReport r = decode(m);  // decode_cmis too when dispatch picked another decoder
      ok = sane(r, render) && (r.spec == Spec::Cmis || sane(decode_cmis(m), render));
    }) << "iteration " << iter;
    if (!ok) {
      ADD_FAILURE() << "non-finite value, bad lane or throw at iteration " << iter;
      break;
    }
  }
}

}  // namespace
}  // namespace xcvr::cmis
