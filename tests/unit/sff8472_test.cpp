// SFF-8472 decoder tests. A0h and A2h images are written byte by byte from the spec (offsets
// as in SFF-8472 tables), not through the field-table encoder, so the map itself is under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/sff8472_map.hpp"

namespace xcvr::cmis {
namespace {

struct Sfp {
  std::array<uint8_t, 128> a0{};
  std::array<uint8_t, 128> a2{};
  bool with_a0 = true, with_a2 = true;

  Sfp& put0(uint16_t offset, std::initializer_list<uint8_t> bytes) {
    std::copy(bytes.begin(), bytes.end(), a0.begin() + offset);
    return *this;
  }
  Sfp& text0(uint16_t offset, std::string_view s) {
    std::copy(s.begin(), s.end(), a0.begin() + offset);
    return *this;
  }
  Sfp& put2(uint16_t offset, std::initializer_list<uint8_t> bytes) {
    std::copy(bytes.begin(), bytes.end(), a2.begin() + offset);
    return *this;
  }
  // CC_BASE (A0h 63), CC_EXT (A0h 95), CC_DMI (A2h 95).
  Sfp& fix_checksums() {
    a0[63] = static_cast<uint8_t>(std::accumulate(a0.begin(), a0.begin() + 63, 0u));
    a0[95] = static_cast<uint8_t>(std::accumulate(a0.begin() + 64, a0.begin() + 95, 0u));
    a2[95] = static_cast<uint8_t>(std::accumulate(a2.begin(), a2.begin() + 95, 0u));
    return *this;
  }
  ModuleImage image() const {
    ModuleImage img;
    if (with_a0) img.set_page({kDeviceA0, 0, kLowerPage}, a0);
    if (with_a2) img.set_page({kDeviceA2, 0, kLowerPage}, a2);
    return img;
  }
};

// An SFP with internally calibrated DDM, average Rx power and alarm/warning flags.
Sfp ddm_sfp() {
  Sfp s;
  s.put0(0, {0x03, 0x04, 0x07});
  s.put0(92, {0x68, 0x80, 0x08});
  return s;
}

// Same, externally calibrated, with a hand-picked set of constants.
Sfp external_sfp() {
  Sfp s = ddm_sfp();
  s.put0(92, {0x58});
  s.put2(56, {0x35, 0x80, 0x00, 0x00});  // Rx_PWR(4) = 2^-20
  s.put2(60, {0x3B, 0x00, 0x00, 0x00});  // Rx_PWR(3) = 2^-9
  s.put2(64, {0x3E, 0x80, 0x00, 0x00});  // Rx_PWR(2) = 0.25
  s.put2(68, {0x40, 0x00, 0x00, 0x00});  // Rx_PWR(1) = 2.0
  s.put2(72, {0x41, 0x20, 0x00, 0x00});  // Rx_PWR(0) = 10.0
  s.put2(76, {0x02, 0x00, 0x00, 0x00});  // Tx_I slope 2.0, offset 0
  s.put2(80, {0x00, 0x80, 0x00, 0x64});  // Tx_PWR slope 0.5, offset +100
  s.put2(84, {0x01, 0x80, 0x01, 0x00});  // T slope 1.5, offset +256
  s.put2(88, {0x01, 0x00, 0xFC, 0x18});  // V slope 1.0, offset -1000
  s.put2(96, {0x10, 0x00});              // T raw 4096
  s.put2(98, {0x75, 0x30});              // V raw 30000
  s.put2(100, {0x03, 0xE8});             // bias raw 1000
  s.put2(102, {0x13, 0x88});             // Tx raw 5000
  s.put2(104, {0x00, 0x64});             // Rx raw 100
  s.put2(0, {0x20, 0x00});               // temperature high alarm raw 8192
  s.put2(8, {0x88, 0xB8, 0x79, 0x18, 0x87, 0x5A, 0x7A, 0x76});  // Vcc thresholds above the offset
  return s;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void expect_all_finite(const ModuleReport& r) {
  auto ok = [](const std::optional<double>& v) { return !v || std::isfinite(*v); };
  EXPECT_TRUE(ok(r.temperature_celsius));
  EXPECT_TRUE(ok(r.supply_voltage_volts));
  EXPECT_TRUE(ok(r.wavelength_meters));
  EXPECT_TRUE(ok(r.cable_length_meters));
  for (const auto& [k, v] : r.lengths_meters) {
    EXPECT_TRUE(std::isfinite(v)) << k;
  }
  for (const LaneReport& l : r.lanes) {
    EXPECT_TRUE(ok(l.rx_power_watts) && ok(l.tx_power_watts) && ok(l.tx_bias_amperes));
    EXPECT_TRUE(!l.rx_power_watts || *l.rx_power_watts >= 0);
  }
  for (const auto& [k, t] : r.thresholds) {
    EXPECT_TRUE(ok(t.high_alarm) && ok(t.low_alarm) && ok(t.high_warning) && ok(t.low_warning)) << k;
  }
}

TEST(Sff8472, IdentityStringsAreTrimmedAndOuiIsLowercaseHex) {
  Sfp s = ddm_sfp();
  s.text0(20, "FINISAR CORP.   ");
  s.put0(37, {0x00, 0x90, 0x65});
  s.text0(40, "FTLX8571D3BCL   ");
  s.text0(56, "A   ");
  s.text0(68, "  AUJ0RCJ       ");
  s.text0(84, "151029  ");
  const ModuleReport r = decode_sff8472(s.image());
  EXPECT_EQ(r.spec, Spec::Sff8472);
  EXPECT_EQ(r.id.identifier.code, 0x03u);
  EXPECT_EQ(r.id.vendor_name, "FINISAR CORP.");
  EXPECT_EQ(r.id.vendor_oui, "00:90:65");
  EXPECT_EQ(r.id.part_number, "FTLX8571D3BCL");
  EXPECT_EQ(r.id.revision, "A");
  EXPECT_EQ(r.id.serial, "AUJ0RCJ");
  EXPECT_EQ(r.id.date_code, "151029");
  EXPECT_FALSE(r.spec_revision.empty());
}

TEST(Sff8472, InternallyCalibratedMonitorsOnOneLane) {
  Sfp s = ddm_sfp();
  s.put2(96, {0xF3, 0x00, 0x81, 0xB1, 0x0D, 0x5A, 0x17, 0xA5, 0x00, 0x00});
  const ModuleReport r = decode_sff8472(s.image());
  ASSERT_TRUE(r.temperature_celsius && r.supply_voltage_volts);
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, -13.0);
  EXPECT_NEAR(*r.supply_voltage_volts, 3.3201, 1e-12);
  ASSERT_EQ(r.lanes.size(), 1u);
  const LaneReport& l = r.lanes[0];
  EXPECT_EQ(l.lane, 1);
  EXPECT_NEAR(*l.tx_bias_amperes, 6.836e-3, 1e-15);
  EXPECT_NEAR(*l.tx_power_watts, 605.3e-6, 1e-15);
  EXPECT_EQ(*l.rx_power_watts, 0.0);  // no light is 0 W, not -inf
  EXPECT_TRUE(r.implemented.temperature && r.implemented.rx_power && r.implemented.tx_bias);
  EXPECT_EQ(r.rx_power_type, "average");
  EXPECT_TRUE(r.problems.empty());
}

TEST(Sff8472, ExternalCalibrationHandComputed) {
  const ModuleReport r = decode_sff8472(external_sfp().image());
  ASSERT_TRUE(r.temperature_celsius && r.supply_voltage_volts);
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, 25.0);  // (1.5 × 4096 + 256) / 256
  EXPECT_NEAR(*r.supply_voltage_volts, 2.9, 1e-12);  // 30000 - 1000
  const LaneReport& l = r.lanes.at(0);
  EXPECT_NEAR(*l.tx_bias_amperes, 4e-3, 1e-15);    // 2 × 1000 × 2 µA
  EXPECT_NEAR(*l.tx_power_watts, 260e-6, 1e-15);   // (0.5 × 5000 + 100) × 0.1 µW
  // 10 + 2·100 + 0.25·100² + 2^-9·100³ + 2^-20·100⁴ = 4758.492431640625 × 0.1 µW
  EXPECT_NEAR(*l.rx_power_watts, 475.8492431640625e-6, 1e-15);
  // Thresholds are stored like readings: 1.5 × 8192 + 256 = 12544 → 49 °C.
  EXPECT_DOUBLE_EQ(*r.thresholds.at("temperature_celsius").high_alarm, 49.0);
  EXPECT_TRUE(r.problems.empty());
}

TEST(Sff8472, SameBytesInternallyCalibratedIgnoreConstants) {
  Sfp s = external_sfp();
  s.put0(92, {0x68});
  const ModuleReport r = decode_sff8472(s.image());
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, 16.0);
  EXPECT_NEAR(*r.lanes[0].rx_power_watts, 10e-6, 1e-15);
}

TEST(Sff8472, ExternalCalibrationOutOfRangeClampsAndNanIsAbsent) {
  Sfp s = external_sfp();
  s.put2(82, {0x80, 0x00});              // Tx power offset -32768: negative power
  s.put2(72, {0x7F, 0xC0, 0x00, 0x00});  // Rx_PWR(0) = NaN
  const ModuleReport r = decode_sff8472(s.image());
  EXPECT_EQ(r.lanes[0].tx_power_watts, 0.0);
  EXPECT_FALSE(r.lanes[0].rx_power_watts);
  EXPECT_FALSE(r.thresholds.count("rx_power_watts"));
  EXPECT_GE(r.problems.size(), 2u);
  expect_all_finite(r);
}

TEST(Sff8472, CalibrationBitsOddities) {
  Sfp both = external_sfp();
  both.put0(92, {0x78});  // internal and external
  ModuleReport r = decode_sff8472(both.image());
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, 16.0);  // internal values used
  EXPECT_EQ(r.problems.size(), 1u);

  Sfp neither = external_sfp();
  neither.put0(92, {0x48});
  r = decode_sff8472(neither.image());
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, 16.0);
  EXPECT_EQ(r.problems.size(), 1u);
}

TEST(Sff8472, ThresholdsInAlarmWarningOrder) {
  Sfp s = ddm_sfp();
  s.put2(0, {0x4E, 0x00, 0xF3, 0x00, 0x49, 0x00, 0xF8, 0x00,    // 78, -13, 73, -8 °C
             0x90, 0x88, 0x71, 0x48, 0x8C, 0xA0, 0x75, 0x30,    // 3.7, 2.9, 3.6, 3.0 V
             0x19, 0xC8, 0x07, 0xD0, 0x18, 0x9C, 0x09, 0xC4,    // 13.2, 4, 12.6, 5 mA
             0x27, 0x10, 0x09, 0xD0, 0x1F, 0x07, 0x0C, 0x5A,    // Tx 1, .2512, .7943, .3162 mW
             0x27, 0x10, 0x00, 0x64, 0x1F, 0x07, 0x00, 0x9E});  // Rx 1, .01, .7943, .0158 mW
  const ModuleReport r = decode_sff8472(s.image());
  ASSERT_EQ(r.thresholds.size(), 5u);
  const Thresholds& t = r.thresholds.at("temperature_celsius");
  EXPECT_EQ(t.high_alarm, 78.0);
  EXPECT_EQ(t.low_alarm, -13.0);
  EXPECT_EQ(t.high_warning, 73.0);
  EXPECT_EQ(t.low_warning, -8.0);
  EXPECT_NEAR(*r.thresholds.at("supply_voltage_volts").low_alarm, 2.9, 1e-12);
  EXPECT_NEAR(*r.thresholds.at("tx_bias_amperes").high_warning, 12.6e-3, 1e-15);
  EXPECT_NEAR(*r.thresholds.at("tx_power_watts").low_alarm, 251.2e-6, 1e-15);
  EXPECT_NEAR(*r.thresholds.at("rx_power_watts").low_warning, 15.8e-6, 1e-15);
}

TEST(Sff8472, AlarmWarningFlagsAndStatusBits) {
  Sfp s = ddm_sfp();
  s.put2(110, {0x07});        // Tx fault, Rx LOS, data not ready
  s.put2(112, {0x88, 0x40});  // temp high alarm, bias high alarm; Rx power low alarm
  s.put2(116, {0x12, 0x80});  // Vcc low warning, Tx power high warning; Rx power high warning
  ModuleReport r = decode_sff8472(s.image());
  EXPECT_EQ(r.module_flags.size(), 3u);
  EXPECT_TRUE(has(r.module_flags, "data_not_ready"));
  EXPECT_TRUE(has(r.module_flags, "temperature_high_alarm"));
  EXPECT_TRUE(has(r.module_flags, "supply_voltage_low_warning"));
  const auto& lane = r.lanes.at(0).flags;
  for (const char* name : {"tx_fault", "rx_los", "tx_bias_high_alarm", "rx_power_low_alarm",
                           "tx_power_high_warning", "rx_power_high_warning"}) {
    EXPECT_TRUE(has(lane, name)) << name;
  }
  EXPECT_EQ(lane.size(), 6u);

  s.put0(93, {0x00});  // alarm/warning flags not implemented: only the live status bits count
  r = decode_sff8472(s.image());
  EXPECT_EQ(r.module_flags, std::vector<std::string>{"data_not_ready"});
  EXPECT_EQ(r.lanes[0].flags.size(), 2u);
}

TEST(Sff8472, EveryRowFitsTheLowerHalf) {
  for (const Field& f : sff8472_fields()) {
    const auto loc = locate(f, 1);
    ASSERT_TRUE(loc) << f.name;
    EXPECT_EQ(loc->page.page, kLowerPage) << f.name;
    EXPECT_LE(loc->offset + f.size, 128) << f.name;
    if (f.type == Type::Bits) {
      EXPECT_LE(loc->shift + f.width, 8) << f.name;
    }
  }
}

// Whatever the encoder writes for one flag row decodes as that flag, and nothing else.
TEST(Sff8472, EachFlagRowRoundTrips) {
  for (const Field& f : sff8472_fields()) {
    if (f.role != Role::Flag && f.role != Role::Status) continue;
    ModuleImage img = ddm_sfp().image();
    ASSERT_TRUE(write_uint(img, f, 1));
    const ModuleReport r = decode_sff8472(img);
    const auto& where = f.lanes.count == 0 ? r.module_flags : r.lanes.at(0).flags;
    EXPECT_EQ(where, std::vector<std::string>{std::string(f.name)});
    EXPECT_EQ(r.module_flags.size() + r.lanes[0].flags.size(), 1u) << f.name;
  }
}

TEST(Sff8472, ChecksumsOkAndBad) {
  Sfp s = ddm_sfp();
  s.text0(20, "VENDOR").put0(64, {0x00, 0x1A}).put2(96, {0x19, 0x00}).fix_checksums();
  ModuleReport r = decode_sff8472(s.image());
  ASSERT_EQ(r.checksums.size(), 3u);
  EXPECT_EQ(r.checksums[0].page, "CC_BASE");
  EXPECT_EQ(r.checksums[0].range, "0-62");
  EXPECT_EQ(r.checksums[1].page, "CC_EXT");
  EXPECT_EQ(r.checksums[1].range, "64-94");
  EXPECT_EQ(r.checksums[2].page, "CC_DMI");
  EXPECT_EQ(r.checksums[2].range, "0-94");
  for (const Checksum& c : r.checksums) {
    EXPECT_TRUE(c.ok()) << c.page;
  }

  s.put0(65, {0x1B});  // options byte changed: CC_EXT breaks
  s.put2(10, {0x01});  // a threshold changed: CC_DMI breaks
  r = decode_sff8472(s.image());
  EXPECT_TRUE(r.checksums[0].ok());
  EXPECT_FALSE(r.checksums[1].ok());
  EXPECT_FALSE(r.checksums[2].ok());
}

TEST(Sff8472, MissingDiagnosticsPage) {
  Sfp s = ddm_sfp();
  s.with_a2 = false;
  ModuleReport r = decode_sff8472(s.image());
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"A2h lower"});
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_FALSE(r.implemented.temperature || r.implemented.rx_power);
  ASSERT_EQ(r.lanes.size(), 1u);
  EXPECT_FALSE(r.lanes[0].rx_power_watts);
  EXPECT_TRUE(r.thresholds.empty());
  EXPECT_EQ(r.checksums.size(), 2u);
  EXPECT_TRUE(r.problems.empty());

  s.put0(92, {0x6C});  // address change required
  r = decode_sff8472(s.image());
  EXPECT_EQ(r.problems.size(), 1u);

  r = decode_sff8472(ModuleImage{});
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"lower"});
  EXPECT_FALSE(r.problems.empty());
}

TEST(Sff8472, NoDdmMeansNoDiagnosticsEvenWithA2hBytes) {
  Sfp s = ddm_sfp();
  s.put0(92, {0x00});
  s.put2(96, {0x19, 0x00});
  s.put2(110, {0x02});
  const ModuleReport r = decode_sff8472(s.image());
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_FALSE(r.rx_power_type);
  EXPECT_TRUE(r.lanes.at(0).flags.empty());
  EXPECT_TRUE(r.thresholds.empty());
}

TEST(Sff8472, OpticalMediaWavelengthAndLengths) {
  Sfp s = ddm_sfp();
  s.put0(2, {0x07});  // LC
  s.put0(14, {0x0A, 0x64, 0x08, 0x03, 0x0A, 0x1E});  // SMF 10 km / 100×100 m, OM2, OM1, OM4, OM3
  s.put0(36, {0x02});
  s.put0(60, {0x03, 0x52});  // 850 nm
  ModuleReport r = decode_sff8472(s.image());
  EXPECT_NEAR(*r.wavelength_meters, 850e-9, 1e-15);
  EXPECT_EQ(r.connector->code, 0x07u);
  EXPECT_EQ(r.extended_compliance->code, 0x02u);
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{
                                  {"smf", 10000}, {"om2", 80}, {"om1", 30}, {"om4", 100}, {"om3", 300}}));
  s.put0(14, {0x28, 0xFF});  // 40 km: the 100 m byte saturates
  r = decode_sff8472(s.image());
  EXPECT_EQ(r.lengths_meters.at("smf"), 40000);
}

TEST(Sff8472, CopperCableHasNoWavelength) {
  Sfp s = ddm_sfp();
  s.put0(92, {0x00});        // passive DACs have no DDM
  s.put0(2, {0x21});         // copper pigtail
  s.put0(8, {0x04});         // passive cable
  s.put0(18, {0x03});        // 3 m
  s.put0(60, {0x01, 0x00});  // cable compliance bits, not a wavelength
  const ModuleReport r = decode_sff8472(s.image());
  EXPECT_FALSE(r.wavelength_meters);
  EXPECT_EQ(r.cable_length_meters, 3.0);
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"copper", 3}}));
}

TEST(Sff8472, GarbageNeverCrashesAndStaysFinite) {
  Sfp ff;
  ff.a0.fill(0xFF);
  ff.a2.fill(0xFF);
  expect_all_finite(decode_sff8472(ff.image()));
  ff.put0(92, {0x50});  // externally calibrated with NaN floats and extreme slopes
  const ModuleReport r = decode_sff8472(ff.image());
  expect_all_finite(r);
  EXPECT_EQ(r.lanes.size(), 1u);

  uint32_t seed = 777;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<uint8_t>(seed >> 24);
  };
  for (int round = 0; round < 300; ++round) {
    Sfp g;
    for (auto& b : g.a0) b = next();
    for (auto& b : g.a2) b = next();
    g.a0[92] = static_cast<uint8_t>(0x40 | (round % 4) << 4);  // DDM, each calibration mix
    g.with_a2 = (round % 9) != 4;
    expect_all_finite(decode_sff8472(g.image()));
  }
}

// --- Real dumps -----------------------------------------------------------------------------

std::string slurp(const std::string& dir, const std::string& file) {
  std::ifstream in(std::string(XCVR_TEST_DATA) + "/" + dir + "/" + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `name = bytearray([1, 2, ...])` from a Python test file.
std::vector<uint8_t> bytearray(const std::string& text, const std::string& name) {
  std::vector<uint8_t> out;
  auto at = text.find(name + " = bytearray([");
  if (at == std::string::npos) return out;
  at = text.find('[', at) + 1;
  const auto end = text.find(']', at);
  std::string item;
  for (auto i = at; i <= end; ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      item += text[i];
    } else if (!item.empty()) {
      out.push_back(static_cast<uint8_t>(std::stoi(item)));
      item.clear();
    }
  }
  return out;
}

TEST(Sff8472Dump, FinisarSfpPlusMatchesPublishedValues) {
  const std::string text = slurp("sfpplus-sr-finisar-ftlx8571d3bcl", "raw_bytearray_from_test.txt");
  const auto a0 = bytearray(text, "a0h_bytearray");
  const auto a2 = bytearray(text, "a2h_lower_bytearray");
  ASSERT_EQ(a0.size(), 256u);
  ASSERT_EQ(a2.size(), 128u);
  ModuleImage img;
  img.set_page({kDeviceA0, 0, kLowerPage}, std::span(a0).first(128));
  img.set_page({kDeviceA2, 0, kLowerPage}, a2);
  const ModuleReport r = decode(img);
  EXPECT_EQ(r.spec, Spec::Sff8472);
  EXPECT_EQ(r.id.vendor_name, "FINISAR CORP.");
  EXPECT_EQ(r.id.vendor_oui, "00:90:65");
  EXPECT_EQ(r.id.part_number, "FTLX8571D3BCL");
  EXPECT_EQ(r.id.serial, "AUJ0RCJ");
  EXPECT_EQ(r.id.date_code, "151029");
  EXPECT_NEAR(*r.temperature_celsius, 20.01, 0.005);
  EXPECT_NEAR(*r.supply_voltage_volts, 3.3201, 1e-9);
  const LaneReport& l = r.lanes.at(0);
  EXPECT_NEAR(*l.tx_bias_amperes, 6.836e-3, 1e-12);
  EXPECT_NEAR(*l.tx_power_watts, 0.6053e-3, 1e-12);
  EXPECT_NEAR(*l.rx_power_watts, 0.5511e-3, 1e-12);
  EXPECT_EQ(r.thresholds.at("temperature_celsius").high_alarm, 78.0);
  EXPECT_NEAR(*r.wavelength_meters, 850e-9, 1e-15);
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"om1", 30}, {"om2", 80}, {"om3", 300}}));
  ASSERT_EQ(r.checksums.size(), 3u);
  for (const Checksum& c : r.checksums) {
    EXPECT_TRUE(c.ok()) << c.page;
  }
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_TRUE(r.module_flags.empty());
  EXPECT_TRUE(l.flags.empty());
  EXPECT_TRUE(r.problems.empty());

  // Its external constants are the identity (slopes 1, Rx_PWR(1) = 1): forcing external
  // calibration must give the same readings.
  ModuleImage forced = img;
  std::vector<uint8_t> ext(a0.begin(), a0.begin() + 128);
  ext[92] = 0x58;
  forced.set_page({kDeviceA0, 0, kLowerPage}, ext);
  const ModuleReport e = decode_sff8472(forced);
  EXPECT_DOUBLE_EQ(*e.temperature_celsius, *r.temperature_celsius);
  EXPECT_DOUBLE_EQ(*e.lanes[0].rx_power_watts, *l.rx_power_watts);
  EXPECT_DOUBLE_EQ(*e.lanes[0].tx_bias_amperes, *l.tx_bias_amperes);
}

TEST(Sff8472Dump, FinisarSfp28WithoutA2h) {
  const std::string text = slurp("sfp28-sr-finisar-ftlf8536p4bcl", "raw.txt");
  std::vector<uint8_t> bytes;
  for (auto i = text.find("0x"); i != std::string::npos; i = text.find("0x", i + 2)) {
    bytes.push_back(static_cast<uint8_t>(std::stoi(text.substr(i + 2, 2), nullptr, 16)));
  }
  ASSERT_EQ(bytes.size(), 256u);
  ModuleImage img;
  img.set_page({kDeviceA0, 0, kLowerPage}, std::span(bytes).first(128));
  const ModuleReport r = decode_sff8472(img);
  EXPECT_EQ(r.id.part_number, "FTLF8536P4BCL");
  EXPECT_EQ(r.id.serial, "UWB04VY");
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"A2h lower"});
  EXPECT_EQ(r.extended_compliance->code, 0x02u);  // 25GBASE-SR
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"om2", 20}, {"om3", 70}, {"om4", 100}}));
  ASSERT_EQ(r.checksums.size(), 2u);
  EXPECT_TRUE(r.checksums[0].ok() && r.checksums[1].ok());
  EXPECT_FALSE(r.temperature_celsius);
}

}  // namespace
}  // namespace xcvr::cmis
