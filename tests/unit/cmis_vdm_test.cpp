// CMIS VDM (pages 20h-2Fh): the decoder against published peer vectors, the flag and threshold
// layouts, and the emulator's VDM read back through the production read loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "cmis/vdm.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/faults.hpp"
#include "drivers/module_reader.hpp"
#include "exporters/metrics.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::cmis {
namespace {
std::vector<std::string> level_names(const xcvr::cmis::VdmFlagLevels& levels) {
  std::vector<std::string> out;
  for (const std::string_view l : levels) out.emplace_back(l);
  return out;
}
}  // namespace

namespace {

using F = CmisField;

// A paged CMIS module image advertising VDM with `groups` groups; pages are blank until put.
struct VdmImage {
  ModuleImage img;
  explicit VdmImage(int groups) {
    for (int16_t p : {kLowerPage, int16_t{0x00}, kCmisPageAdvertising, kCmisPageVdmAdvertising}) page(p);
    write_uint(img, cmis_field(F::Identifier), 0x19);  // OSFP
    write_uint(img, cmis_field(F::IdentifierCopy), 0x19);
    write_uint(img, cmis_field(F::Revision), 0x52);
    write_uint(img, cmis_field(F::ModuleState), 3);  // ModuleReady
    write_uint(img, cmis_field(F::VdmPagesSupported), 1);
    write_uint(img, cmis_field(F::VdmGroupsSupported), static_cast<uint32_t>(groups - 1));
  }
  void page(int16_t p) { img.set_page({kDeviceA0, 0, p}, PageBytes{}); }
  // Bytes from offset 128 of an upper page, as a published dump prints them.
  void put(int16_t p, std::initializer_list<uint8_t> bytes, uint16_t offset = 128) {
    if (!img.has({kDeviceA0, 0, p})) page(p);
    uint16_t at = offset;
    for (uint8_t b : bytes) write_uint(img, Field{0, "", kDeviceA0, p, at++, 1, Type::U8}, b);
  }
};

const VdmObservable* find(const ModuleReport& r, int type, int lane = 1) {
  const auto it = std::find_if(r.vdm.begin(), r.vdm.end(), [&](const VdmObservable& o) { return o.type_id == type && o.lane == lane; });
  return it == r.vdm.end() ? nullptr : &*it;
}

// F16 vectors the peers assert: SONiC sonic-platform-common tests/sonic_xcvr/test_cmisVDM.py
// test_get_F16 (0x9200 -> 0.000512); FBOSS qsfp_service CmisTest cmis400GLr4TransceiverInfoTest
// on FakeTransceiverImpl kCmis400GLr4Page24/25 (errored frames media 72E0/72E7/72E2/72E5 ->
// 7.36e-8/7.43e-8/7.38e-8/7.41e-8, host 6A55/6A59 -> 5.97e-9/6.01e-9).
TEST(CmisVdm, F16MatchesPublishedPeerVectors) {
  EXPECT_DOUBLE_EQ(codes::vdm_f16(0x9200), 0.000512);
  const std::pair<uint16_t, double> vectors[] = {{0x72E0, 7.36e-8}, {0x72E7, 7.43e-8}, {0x72E2, 7.38e-8},
                                                 {0x72E5, 7.41e-8}, {0x6A55, 5.97e-9}, {0x6A59, 6.01e-9}};
  for (const auto& [raw, want] : vectors) {
    EXPECT_NEAR(codes::vdm_f16(raw), want, want * 1e-12) << std::hex << raw;
    EXPECT_EQ(codes::vdm_f16_raw(want), raw) << want;  // the emulator's encoder is its inverse
  }
  EXPECT_EQ(codes::vdm_f16_raw(0), 0);
  EXPECT_EQ(codes::vdm_f16_raw(-1), 0);
  EXPECT_NEAR(codes::vdm_f16(codes::vdm_f16_raw(2.4e-4)), 2.4e-4, 1e-12);
}

// A real 800G ZR module's VDM group 3 (FBOSS FakeTransceiverImpl, "Real data from 800G ZR
// module": kCmis800GZrPage22 descriptors and Page26 values; group count from Page2f byte 128 =
// 03h). Type 4 267Dh = 38.49 degC, type 5 0F8Ch = 15.55 dB, pre-FEC BER media min/max/avg/current
// 9135h/917Eh/914Dh/9161h = 3.09e-4/3.82e-4/3.33e-4/3.53e-4; type 100 (vendor range) is skipped.
TEST(CmisVdm, RealModuleGroupThreeDecodes) {
  VdmImage m(4);
  for (int g = 0; g < 4; ++g) m.page(static_cast<int16_t>(0x20 + g));
  m.put(0x22, {0x00, 0x01, 0x00, 0x00, 0x20, 0x03, 0x30, 0x04, 0x40, 0x05, 0x00, 0x00, 0x60, 0x09,
               0x60, 0x0B, 0x60, 0x0D, 0x60, 0x0F, 0x80, 0x11, 0x80, 0x13, 0x80, 0x15, 0x80, 0x17,
               0x80, 0x19, 0x80, 0x64});
  m.put(0x26, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x26, 0x7D, 0x0F, 0x8C, 0x00, 0x00, 0x91, 0x35,
               0x91, 0x7E, 0x91, 0x4D, 0x91, 0x61});
  m.put(0x26, {0x00, 0x02}, 158);
  const ModuleReport r = decode(m.img);
  ASSERT_TRUE(find(r, 4) && find(r, 5) && find(r, 15) && find(r, 9));
  EXPECT_NEAR(find(r, 4)->value, 38.488, 1e-3);
  EXPECT_EQ(find(r, 4)->threshold_set, 3);
  EXPECT_NEAR(find(r, 5)->value, 15.547, 1e-3);
  EXPECT_EQ(find(r, 5)->qualifier(), "media");
  EXPECT_DOUBLE_EQ(find(r, 15)->value, 3.53e-4);
  EXPECT_FALSE(find(r, 15)->statistic());
  EXPECT_EQ(find(r, 15)->quantity(), "pre_fec_ber");
  EXPECT_DOUBLE_EQ(find(r, 9)->value, 3.09e-4);
  EXPECT_TRUE(find(r, 9)->statistic());
  EXPECT_EQ(find(r, 100), nullptr);
  EXPECT_FALSE(find(r, 15)->thresholds);  // page 2Ah not in the image
}

// The latched flags of the same real module's page 2Ch: byte 231 = 80h and byte 232 = AAh, i.e.
// group 4 instance 16 low warning, instances 17 and 18 low alarm + low warning (SONiC cmisVDM.py
// layout: byte 128 + 32 x group + instance/2, even instance in the low nibble, bits high alarm,
// low alarm, high warning, low warning). Known types put at those instances show where they land.
TEST(CmisVdm, FlagNibblesFollowThePublishedLayout) {
  VdmImage m(4);
  for (int g = 0; g < 4; ++g) m.page(static_cast<int16_t>(0x20 + g));
  m.put(0x23, {0x00, 0x05, 0x01, 0x05, 0x02, 0x05}, 128 + 2 * 15);  // instances 16-18: eSNR lanes 1-3
  m.put(0x27, {0x0C, 0x00, 0x0C, 0x00, 0x0C, 0x00}, 128 + 2 * 15);  // 12 dB
  m.put(kCmisPageVdmFlags, {0x80, 0xAA}, 231);
  const ModuleReport r = decode(m.img);
  ASSERT_TRUE(find(r, 5, 1) && find(r, 5, 2) && find(r, 5, 3));
  EXPECT_EQ(level_names(find(r, 5, 1)->flags), (std::vector<std::string>{"low_warning"}));
  EXPECT_EQ(level_names(find(r, 5, 2)->flags), (std::vector<std::string>{"low_alarm", "low_warning"}));
  EXPECT_EQ(level_names(find(r, 5, 3)->flags), (std::vector<std::string>{"low_alarm", "low_warning"}));
  // They are flags of their lanes (no lane pages here: module-level), named for the accounting,
  // and the latch re-read finds them.
  EXPECT_NE(std::find(r.module_flags.begin(), r.module_flags.end(), "vdm_esnr_media_input_low_alarm"), r.module_flags.end());
  EXPECT_EQ(latched_flag_raised(m.img, "vdm_esnr_media_input_low_warning", 1), true);
  EXPECT_EQ(latched_flag_raised(m.img, "vdm_esnr_media_input_high_alarm", 1), false);
  EXPECT_EQ(latched_flag_raised(m.img, "vdm_esnr_media_input_low_warning", 4), std::nullopt);
  const auto spans = raised_latch_spans(m.img);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].page.page, kCmisPageVdmFlags);
  EXPECT_EQ(spans[0].offset, 231);
  EXPECT_EQ(spans[0].length, 2);
}

// Threshold sets (28h+g): 8 bytes per set in the observable's own encoding, high alarm, low
// alarm, high warning, low warning; an all-zero set is one the module leaves blank.
TEST(CmisVdm, ThresholdSetsInTheObservablesEncoding) {
  VdmImage m(1);
  m.put(0x20, {0x00, 0x0F, 0x10, 0x05});  // BER current (set 0), eSNR (set 1)
  m.put(0x24, {0x71, 0xF4, 0x15, 0x00});  // 5e-8, 21 dB
  m.put(0x28, {0x91, 0x2C, 0x00, 0x00, 0x83, 0xE8, 0x00, 0x00});  // 3e-4 / 0 / 1e-5 / 0
  m.page(0x2C);
  const ModuleReport r = decode(m.img);
  ASSERT_TRUE(find(r, 15) && find(r, 5));
  ASSERT_TRUE(find(r, 15)->thresholds);
  EXPECT_DOUBLE_EQ(*find(r, 15)->thresholds->high_alarm, 3e-4);
  EXPECT_DOUBLE_EQ(*find(r, 15)->thresholds->high_warning, 1e-5);
  EXPECT_EQ(*find(r, 15)->thresholds->low_alarm, 0);
  EXPECT_FALSE(find(r, 5)->thresholds);  // set 1 is blank
  // The plan: static pages hold 20h, 24h, 28h, 2Ch and 2Fh; a VDM poll reads the two values
  // and their one flag byte.
  const auto vdm = vdm_reads(m.img);
  ASSERT_EQ(vdm.size(), 2u);
  EXPECT_EQ(vdm[0].page.page, 0x24);
  EXPECT_EQ(vdm[0].length, 4);
  EXPECT_EQ(vdm[1].page.page, kCmisPageVdmFlags);
  EXPECT_EQ(vdm[1].length, 1);
}

// No VDM pages advertised, or VDM advertised but descriptors not read: nothing decoded, nothing
// planned, never a crash (modules without VDM, VDM while the module initialises).
// A fleet holds tens of thousands of observables: the lanes of one type that name one set share
// its levels (one object, also shared by the report's copies), while another type naming the
// same set number decodes it in its own encoding.
TEST(CmisVdm, ObservablesOfOneTypeAndSetShareTheirLevels) {
  VdmImage m(1);
  m.put(0x20, {0x00, 0x0F, 0x01, 0x0F, 0x02, 0x05});  // BER lanes 1 and 2, eSNR lane 3: all set 0
  m.put(0x24, {0x71, 0xF4, 0x71, 0xF4, 0x15, 0x00});
  m.put(0x28, {0x91, 0x2C, 0x00, 0x00, 0x83, 0xE8, 0x00, 0x00});
  m.page(0x2C);
  const ModuleReport r = decode(m.img);
  ASSERT_EQ(r.vdm.size(), 3u);
  ASSERT_TRUE(r.vdm[0].thresholds && r.vdm[1].thresholds && r.vdm[2].thresholds);
  EXPECT_EQ(r.vdm[0].thresholds.get(), r.vdm[1].thresholds.get());
  EXPECT_NE(r.vdm[0].thresholds.get(), r.vdm[2].thresholds.get());
  EXPECT_DOUBLE_EQ(*r.vdm[1].thresholds->high_alarm, 3e-4);
  EXPECT_NE(*r.vdm[2].thresholds->high_alarm, 3e-4);  // the same bytes as decibels
  const ModuleReport copy = r;
  EXPECT_EQ(copy.vdm[0].thresholds.get(), r.vdm[0].thresholds.get());
  EXPECT_LE(sizeof(VdmObservable), 64u);  // text by type id, levels shared: see cmis/report.hpp
}

TEST(CmisVdm, AbsentOrUnreadVdmIsEmpty) {
  VdmImage m(2);
  EXPECT_TRUE(decode(m.img).vdm.empty());
  EXPECT_TRUE(vdm_reads(m.img).empty());
  write_uint(m.img, cmis_field(F::VdmPagesSupported), 0);
  m.put(0x20, {0x00, 0x0F});
  m.put(0x24, {0x71, 0xF4});
  EXPECT_TRUE(decode(m.img).vdm.empty());
  EXPECT_EQ(vdm_group_count(m.img), 0);
}

// The coherent types (OIF C-CMIS 128-147), each one row of cmis/vdm_types.hpp: a module that
// describes them is decoded in SI units and served on /metrics under the row's family, its
// qualifier under the row's label and its threshold set under the row's threshold family.
TEST(CmisVdm, CoherentTypesAreDecodedAndServedInSiUnits) {
  VdmImage m(1);
  // Descriptors: threshold set (high nibble), lane 1; types OSNR 139, tx power 143, CD short 134
  // and long 135, modulator bias X/I 128, CFO 141, DGD 136, rx total power 144.
  m.put(0x20, {0x00, 0x8B, 0x10, 0x8F, 0x20, 0x86, 0x20, 0x87, 0x20, 0x80, 0x20, 0x8D, 0x20, 0x88, 0x20, 0x90});
  // 235 x 0.1 dB; -150 x 0.01 dBm; -1200 x 1 ps/nm; 100 x 20 ps/nm; 32768 x 100/65535 %;
  // -250 MHz; 400 x 0.01 ps; -1000 x 0.01 dBm.
  m.put(0x24, {0x00, 0xEB, 0xFF, 0x6A, 0xFB, 0x50, 0x00, 0x64, 0x80, 0x00, 0xFF, 0x06, 0x01, 0x90, 0xFC, 0x18});
  // Set 0 (OSNR): 40 / 10 / 35 / 15 dB; set 1 (tx power): +3 / -15 / +2 / -12 dBm; set 2 blank.
  m.put(0x28, {0x01, 0x90, 0x00, 0x64, 0x01, 0x5E, 0x00, 0x96, 0x01, 0x2C, 0xFA, 0x24, 0x00, 0xC8, 0xFB, 0x50});
  m.page(kCmisPageVdmFlags);
  const ModuleReport r = decode(m.img);
  ASSERT_EQ(r.vdm.size(), 8u);
  ASSERT_TRUE(find(r, 139) && find(r, 143));
  EXPECT_EQ(find(r, 139)->name(), "osnr");
  EXPECT_EQ(find(r, 139)->unit(), "decibels");
  EXPECT_EQ(find(r, 143)->unit(), "watts");
  EXPECT_NEAR(find(r, 143)->value, 7.0794578e-4, 1e-11);  // -1.50 dBm

  daemon::Snapshot s = testing::make_fleet(1);
  const std::string port = s.ports[0].port;
  s.ports[0] = testing::editable_port(port);
  testing::report_of(s.ports[0]).vdm = r.vdm;
  const testing::Exposition e = testing::parse_exposition(exporters::render_text(health::FleetView(s)));
  const auto value = [&](const std::string& family, std::map<std::string, std::string> labels) {
    labels["port"] = port;
    return e.value(family, labels).value_or(-1e300);
  };
  const std::map<std::string, std::string> lane1{{"lane", "1"}};
  EXPECT_EQ(e.type.at("transceiver_lane_osnr_decibels"), "gauge");
  EXPECT_DOUBLE_EQ(value("transceiver_lane_osnr_decibels", lane1), 23.5);
  EXPECT_NEAR(value("transceiver_lane_coherent_tx_power_watts", lane1), 7.0794578e-4, 1e-11);
  EXPECT_NEAR(value("transceiver_lane_coherent_rx_total_power_watts", lane1), 1e-4, 1e-15);  // -10 dBm
  EXPECT_DOUBLE_EQ(value("transceiver_lane_chromatic_dispersion_seconds_per_meter", {{"lane", "1"}, {"range", "short_link"}}), -1.2);
  EXPECT_DOUBLE_EQ(value("transceiver_lane_chromatic_dispersion_seconds_per_meter", {{"lane", "1"}, {"range", "long_link"}}), 2.0);
  EXPECT_DOUBLE_EQ(value("transceiver_lane_modulator_bias_ratio", {{"lane", "1"}, {"tributary", "xi"}}), 32768.0 / 65535);
  EXPECT_DOUBLE_EQ(value("transceiver_lane_carrier_frequency_offset_hertz", lane1), -2.5e8);
  EXPECT_NEAR(value("transceiver_lane_differential_group_delay_seconds", lane1), 4e-12, 1e-24);
  EXPECT_DOUBLE_EQ(value("transceiver_osnr_threshold_decibels", {{"level", "low_alarm"}}), 10.0);
  EXPECT_DOUBLE_EQ(value("transceiver_osnr_threshold_decibels", {{"level", "high_warning"}}), 35.0);
  EXPECT_NEAR(value("transceiver_coherent_tx_power_threshold_watts", {{"level", "high_alarm"}}), 1.9952623e-3, 1e-10);
  EXPECT_NEAR(value("transceiver_coherent_tx_power_threshold_watts", {{"level", "low_alarm"}}), 3.1622777e-5, 1e-12);
  EXPECT_TRUE(e.find("transceiver_chromatic_dispersion_threshold_seconds_per_meter").empty());  // set 2 blank
  EXPECT_TRUE(e.find("transceiver_lane_pre_fec_ber_ratio").empty());  // the fleet's own VDM replaced
}

// The emulator encodes a dBm type from watts with the decoder's inverse; no light is 0 W both ways.
TEST(CmisVdm, DbmTypesRoundTripThroughWatts) {
  const auto tx = codes::vdm_type_ref(143);
  ASSERT_TRUE(tx);
  EXPECT_EQ(vdm_raw(*tx, 7.0794578e-4), 0xFF6A);
  EXPECT_EQ(vdm_raw(*tx, 1e-3), 0);  // 0 dBm
  EXPECT_EQ(vdm_raw(*tx, 0), 0x8000);
  EXPECT_EQ(vdm_value(*tx, 0x8000), 0.0);
  EXPECT_DOUBLE_EQ(vdm_value(*tx, 0), 1e-3);
}

}  // namespace
}  // namespace xcvr::cmis

namespace xcvr::emulator {
namespace {

struct VdmRig {
  explicit VdmRig(std::string_view key)
      : bus(BusConfig{"bus0", kFastModeHz, 1, 0x70, 25 * kMillisecond}, clock), transport(bus, 0), injector(bus) {
    bus.insert(0, std::make_shared<EmulatedModule>(*find_model(key), clock));
    clock.advance(2 * kSecond);
  }
  cmis::ModuleReport read() {
    drivers::UnreachablePages unreachable;
    const auto r = drivers::read_static(transport, image, unreachable, {});
    EXPECT_FALSE(r.error) << r.error->message;
    return cmis::decode(image);
  }
  cmis::ModuleReport poll_vdm() {  // as the poller does every vdm_interval
    drivers::UnreachablePages unreachable;
    const auto r = drivers::read_ranges(transport, cmis::vdm_reads(image), image, unreachable, {});
    EXPECT_FALSE(r.error) << r.error->message;
    return cmis::decode(image);
  }
  void apply(FaultKind kind, int lane, double value) {
    Fault f;
    f.kind = kind;
    f.lane = lane;
    f.value = value;
    ASSERT_EQ(injector.apply(0, f), std::nullopt);
  }
  VirtualClock clock;
  EmulatedBus bus;
  EmulatorTransport transport;
  FaultInjector injector;
  cmis::ModuleImage image;
};

const cmis::VdmObservable* find(const cmis::ModuleReport& r, std::string_view name, int lane) {
  for (const auto& o : r.vdm) {
    if (o.name() == name && o.lane == lane) return &o;
  }
  return nullptr;
}

// Every 400G/800G optic of the catalog describes laser temperature, eSNR, LTP and pre-FEC BER
// per media lane over two groups, with healthy values, read through the production read loop.
TEST(EmulatorVdm, PamFourOpticsDescribeTheFailingOpticSignals) {
  for (const char* key : {"osfp-800g-2xsr4-finned", "qsfpdd-400g-sr8", "osfp-400g-sr4-flat", "qsfpdd-400g-dr4"}) {
    VdmRig rig(key);
    const cmis::ModuleReport r = rig.read();
    const int lanes = find_model(key)->media_lanes;
    for (int lane = 1; lane <= lanes; ++lane) {
      const auto* ber = find(r, "pre_fec_ber_current_media", lane);
      ASSERT_TRUE(ber) << key << " lane " << lane;
      EXPECT_GT(ber->value, 1e-9) << key;
      EXPECT_LT(ber->value, 1e-6) << key;
      ASSERT_TRUE(ber->thresholds);
      EXPECT_DOUBLE_EQ(*ber->thresholds->high_alarm, 2.4e-4);
      ASSERT_TRUE(find(r, "esnr_media_input", lane) && find(r, "ltp_media_input", lane) && find(r, "laser_temperature", lane));
      EXPECT_GT(find(r, "esnr_media_input", lane)->value, 15);
      EXPECT_NEAR(find(r, "laser_temperature", lane)->value, *r.temperature_celsius + 4, 1.0);
      EXPECT_TRUE(find(r, "esnr_media_input", lane)->flags.empty());
    }
  }
  // Bus cost of one VDM poll: 2 bytes per instance and a flag byte per two, in 4 reads (values
  // and flags of two groups): 80 bytes for an 8-lane optic (docs/benchmarks.md).
  for (const auto& [key, bytes] : {std::pair{"osfp-800g-2xsr4-finned", 80}, std::pair{"qsfpdd-400g-sr8", 80},
                                   std::pair{"osfp-400g-sr4-flat", 60}, std::pair{"qsfpdd-400g-dr4", 40}}) {
    VdmRig rig(key);
    rig.read();
    const auto plan = cmis::vdm_reads(rig.image);
    EXPECT_EQ(cmis::plan_bytes(plan), static_cast<std::size_t>(bytes)) << key;
    EXPECT_EQ(plan.size(), 4u) << key;
  }
  // The passive DAC (flat memory) has none.
  VdmRig dac("qsfpdd-400g-dac");
  EXPECT_TRUE(dac.read().vdm.empty());
}

// A degrading link: BER rises half a decade a minute until it passes the module's own high
// warning (1e-5) and the VDM flag latches, eSNR falling with it; the flag is clear-on-read.
TEST(EmulatorVdm, DegradingBerCrossesTheModulesWarning) {
  VdmRig rig("qsfpdd-400g-sr8");
  const double before = find(rig.read(), "pre_fec_ber_current_media", 3)->value;
  rig.apply(FaultKind::BerDegrade, 3, 0.5);
  rig.clock.advance(4 * 60 * kSecond);  // two decades
  cmis::ModuleReport r = rig.poll_vdm();
  const auto* ber = find(r, "pre_fec_ber_current_media", 3);
  ASSERT_TRUE(ber);
  EXPECT_GT(ber->value, before * 50);
  EXPECT_LT(find(r, "pre_fec_ber_current_media", 4)->value, before * 5);  // lane 4 untouched
  EXPECT_EQ(cmis::level_names(ber->flags), (std::vector<std::string>{"high_warning"}));
  EXPECT_LT(find(r, "esnr_media_input", 3)->value, find(r, "esnr_media_input", 4)->value - 2);
  const auto lane3 = std::find_if(r.lanes.begin(), r.lanes.end(), [](const cmis::LaneReport& l) { return l.lane == 3; });
  ASSERT_NE(lane3, r.lanes.end());
  EXPECT_NE(std::find(lane3->flags.begin(), lane3->flags.end(), "vdm_pre_fec_ber_current_media_high_warning"), lane3->flags.end());
}

// The BER of a lane in LOS or of a module in LowPwr reads 0 (nothing measured); a shifted BER
// (a worse link after a flap) is a whole decade up.
TEST(EmulatorVdm, LosLowPowerAndShift) {
  VdmRig rig("osfp-800g-2xsr4-finned");
  const double before = find(rig.read(), "pre_fec_ber_current_media", 2)->value;
  rig.apply(FaultKind::RxLos, 1, 0);
  rig.apply(FaultKind::BerShift, 2, 1.0);
  rig.clock.advance(kSecond);
  const cmis::ModuleReport r = rig.poll_vdm();
  EXPECT_EQ(find(r, "pre_fec_ber_current_media", 1)->value, 0);
  EXPECT_EQ(find(r, "esnr_media_input", 1)->value, 0);
  EXPECT_NEAR(std::log10(find(r, "pre_fec_ber_current_media", 2)->value / before), 1.0, 0.3);
}

}  // namespace
}  // namespace xcvr::emulator
