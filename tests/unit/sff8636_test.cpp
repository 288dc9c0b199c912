// SFF-8636 decoder tests. Images are written byte by byte from the spec (offsets as in
// SFF-8636 tables), not through the field-table encoder, so the map itself is under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::cmis {
namespace {

// A QSFP module: the 256-byte window of lower page + page 00h, and page 03h's upper half.
struct Qsfp {
  std::array<uint8_t, 256> mem{};
  std::array<uint8_t, 128> page03{};
  bool lower = true, upper = true, with03 = false;

  Qsfp& put(uint16_t offset, std::initializer_list<uint8_t> bytes) {
    std::copy(bytes.begin(), bytes.end(), mem.begin() + offset);
    return *this;
  }
  Qsfp& text(uint16_t offset, std::string_view s) {
    std::copy(s.begin(), s.end(), mem.begin() + offset);
    return *this;
  }
  Qsfp& put03(uint16_t offset, std::initializer_list<uint8_t> bytes) {
    std::copy(bytes.begin(), bytes.end(), page03.begin() + (offset - 128));
    with03 = true;
    return *this;
  }
  // Stores the correct CC_BASE (191) and CC_EXT (223).
  Qsfp& fix_checksums() {
    mem[191] = static_cast<uint8_t>(std::accumulate(mem.begin() + 128, mem.begin() + 191, 0u));
    mem[223] = static_cast<uint8_t>(std::accumulate(mem.begin() + 192, mem.begin() + 223, 0u));
    return *this;
  }
  ModuleImage image() const {
    ModuleImage img;
    if (lower) img.set_page({kDeviceA0, 0, kLowerPage}, std::span(mem).first(128));
    if (upper) img.set_page({kDeviceA0, 0, 0x00}, std::span(mem).subspan(128));
    if (with03) img.set_page({kDeviceA0, 0, 0x03}, page03);
    return img;
  }
};

// A paged, optical QSFP28 of rev 2.8+ advertising all monitors.
Qsfp optical() {
  Qsfp q;
  q.put(0, {0x11, 0x08, 0x00});
  q.put(128, {0x11});
  q.put(147, {0x00});  // 850 nm VCSEL
  q.put(220, {0x3C});  // temperature, Vcc, average Rx power, Tx power
  return q;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Every numeric value in a report is finite (or absent).
void expect_all_finite(const ModuleReport& r) {
  auto ok = [](const std::optional<double>& v) { return !v || std::isfinite(*v); };
  EXPECT_TRUE(ok(r.temperature_celsius));
  EXPECT_TRUE(ok(r.supply_voltage_volts));
  EXPECT_TRUE(ok(r.wavelength_meters));
  EXPECT_TRUE(ok(r.max_power_watts));
  EXPECT_TRUE(ok(r.cable_length_meters));
  for (const auto& [k, v] : r.lengths_meters) {
    EXPECT_TRUE(std::isfinite(v)) << k;
  }
  for (const LaneReport& l : r.lanes) {
    EXPECT_TRUE(ok(l.rx_power_watts) && ok(l.tx_power_watts) && ok(l.tx_bias_amperes));
  }
  for (const auto& [k, t] : r.thresholds) {
    EXPECT_TRUE(ok(t.high_alarm) && ok(t.low_alarm) && ok(t.high_warning) && ok(t.low_warning)) << k;
  }
}

TEST(Sff8636, IdentityStringsAreTrimmedAndOuiIsLowercaseHex) {
  Qsfp q = optical();
  q.text(148, "  ACME OPTICS   ");
  q.put(165, {0x00, 0x02, 0xC9});
  q.text(168, "QSFP-100G-SR4");  // rest of the 16 bytes stay NUL
  q.text(184, "A1");
  q.text(196, "SN12345         ");
  q.text(212, "230115  ");
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_EQ(r.spec, Spec::Sff8636);
  EXPECT_EQ(r.id.identifier.code, 0x11u);
  EXPECT_FALSE(r.id.identifier.name.empty());
  EXPECT_EQ(r.id.vendor_name, "ACME OPTICS");
  EXPECT_EQ(r.id.vendor_oui, "00:02:c9");
  EXPECT_EQ(r.id.part_number, "QSFP-100G-SR4");
  EXPECT_EQ(r.id.revision, "A1");
  EXPECT_EQ(r.id.serial, "SN12345");
  EXPECT_EQ(r.id.date_code, "230115");
  EXPECT_FALSE(r.spec_revision.empty());
  EXPECT_TRUE(r.problems.empty());
}

TEST(Sff8636, NonPrintableVendorBytesAreReplacedAndReported) {
  Qsfp q = optical();
  q.text(148, "BAD\x01NAME");
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_EQ(r.id.vendor_name, "BAD?NAME");
  EXPECT_FALSE(r.problems.empty());
}

TEST(Sff8636, IdentifierMismatchIsAProblem) {
  Qsfp q = optical();
  q.put(128, {0x0D});
  EXPECT_FALSE(decode_sff8636(q.image()).problems.empty());
}

// A vendor-specific byte 0 (80h-FFh) was decoded as CMIS although page 00h byte 128 named a
// QSFP28; the copy decides, and the report says so.
TEST(Sff8636, VendorSpecificByteZeroIsReadAsItsPage00Copy) {
  for (uint8_t vendor : {uint8_t{0x80}, uint8_t{0xC3}, uint8_t{0xFF}}) {
    Qsfp q = optical();
    q.put(0, {vendor});
    q.put(22, {0x1E, 0x00});  // 30 °C, at the SFF-8636 offset (CMIS keeps flags there)
    const ModuleImage img = q.image();
    const auto id = identify(img);
    ASSERT_TRUE(id);
    EXPECT_EQ(id->spec, Spec::Sff8636);
    EXPECT_TRUE(id->from_copy);
    EXPECT_EQ(id->code, 0x11);
    const ModuleReport r = decode(img);
    EXPECT_EQ(r.spec, Spec::Sff8636);
    ASSERT_TRUE(r.temperature_celsius);
    EXPECT_DOUBLE_EQ(*r.temperature_celsius, 30.0);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_NE(r.problems.front().find("decoded as its page 00h copy"), std::string::npos)
        << r.problems.front();
  }
  // Neither byte names a spec: CMIS is guessed, and said.
  Qsfp q = optical();
  q.put(0, {0x90});
  q.put(128, {0x91});
  const auto id = identify(q.image());
  ASSERT_TRUE(id);
  EXPECT_TRUE(id->guessed);
  EXPECT_EQ(decode(q.image()).spec, Spec::Cmis);
}

TEST(Sff8636, TemperatureNegativeAndSupplyVoltage) {
  Qsfp q = optical();
  q.put(22, {0xF6, 0x80});  // -9.5 °C
  q.put(26, {0x80, 0xE8});  // 33000 × 100 µV
  const ModuleReport r = decode_sff8636(q.image());
  ASSERT_TRUE(r.temperature_celsius && r.supply_voltage_volts);
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, -9.5);
  EXPECT_NEAR(*r.supply_voltage_volts, 3.3, 1e-12);
}

TEST(Sff8636, LanePowersAndBiasFollowLaneOrder) {
  Qsfp q = optical();
  q.put(34, {0x03, 0xE8, 0x07, 0xD0, 0x0B, 0xB8, 0x0F, 0xA0});  // Rx 1000..4000 × 0.1 µW
  q.put(42, {0x01, 0xF4, 0x03, 0xE8, 0x05, 0xDC, 0x07, 0xD0});  // bias 500..2000 × 2 µA
  q.put(50, {0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00});  // Tx 1, 2, 3, 0 × 0.1 µW
  const ModuleReport r = decode_sff8636(q.image());
  ASSERT_EQ(r.lanes.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const LaneReport& l = r.lanes[static_cast<std::size_t>(i)];
    EXPECT_EQ(l.lane, i + 1);
    ASSERT_TRUE(l.rx_power_watts && l.tx_bias_amperes && l.tx_power_watts);
    EXPECT_NEAR(*l.rx_power_watts, (i + 1) * 100e-6, 1e-15);
    EXPECT_NEAR(*l.tx_bias_amperes, (i + 1) * 1e-3, 1e-15);
  }
  EXPECT_NEAR(*r.lanes[1].tx_power_watts, 0.2e-6, 1e-18);
  EXPECT_EQ(*r.lanes[3].tx_power_watts, 0.0);  // no light is 0 W, not -inf
  EXPECT_EQ(r.rx_power_type, "average");
}

TEST(Sff8636, TxPowerAbsentUnlessAdvertisedAndRxOmaReported) {
  Qsfp q = optical();
  q.put(220, {0x30});  // temperature and Vcc only: OMA Rx, no Tx power
  q.put(50, {0x12, 0x34});
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_FALSE(r.implemented.tx_power);
  EXPECT_FALSE(r.lanes[0].tx_power_watts);
  EXPECT_TRUE(r.lanes[0].rx_power_watts);
  EXPECT_EQ(r.rx_power_type, "oma");
}

TEST(Sff8636, ThresholdFlagsAreNibblePackedHighAlarmInMsb) {
  Qsfp q = optical();
  q.put(9, {0x08, 0x01});  // Rx2 high alarm (bit 3); Rx4 low warning (bit 0)
  q.put(11, {0x00, 0x40});  // Tx3 bias low alarm (byte 12 bit 6)
  q.put(13, {0x20, 0x00});  // Tx1 power high warning (bit 5)
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(r.lanes[0].flags == std::vector<std::string>{"tx_power_high_warning"});
  EXPECT_TRUE(r.lanes[1].flags == std::vector<std::string>{"rx_power_high_alarm"});
  EXPECT_TRUE(r.lanes[2].flags == std::vector<std::string>{"tx_bias_low_alarm"});
  EXPECT_TRUE(r.lanes[3].flags == std::vector<std::string>{"rx_power_low_warning"});
  EXPECT_TRUE(r.module_flags.empty());
}

TEST(Sff8636, HighNibbleIsLaneOne) {
  Qsfp q = optical();
  q.put(9, {0x80});  // Rx1 high alarm only
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(r.lanes[0].flags == std::vector<std::string>{"rx_power_high_alarm"});
  EXPECT_TRUE(r.lanes[1].flags.empty());
}

TEST(Sff8636, LosFaultAndLolBitsMapLowBitToLaneOne) {
  Qsfp q = optical();
  q.put(3, {0x22});  // Rx2 LOS (bit 1) and Tx2 LOS (bit 5)
  q.put(4, {0x41});  // Tx3 adaptive EQ fault (bit 6), Tx1 fault (bit 0)
  q.put(5, {0x88});  // Tx4 CDR LOL (bit 7), Rx4 CDR LOL (bit 3)
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(r.lanes[0].flags == std::vector<std::string>{"tx_fault"});
  EXPECT_TRUE(has(r.lanes[1].flags, "rx_los") && has(r.lanes[1].flags, "tx_los"));
  EXPECT_EQ(r.lanes[1].flags.size(), 2u);
  EXPECT_TRUE(r.lanes[2].flags == std::vector<std::string>{"tx_adaptive_eq_fault"});
  EXPECT_TRUE(has(r.lanes[3].flags, "rx_cdr_lol") && has(r.lanes[3].flags, "tx_cdr_lol"));
}

TEST(Sff8636, ModuleFlagsAndDataNotReady) {
  Qsfp q = optical();
  q.put(2, {0x01});  // data not ready
  q.put(6, {0x80});  // temperature high alarm
  q.put(7, {0x10});  // Vcc low warning
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(has(r.module_flags, "temperature_high_alarm"));
  EXPECT_TRUE(has(r.module_flags, "supply_voltage_low_warning"));
  EXPECT_TRUE(has(r.module_flags, "data_not_ready"));
  EXPECT_EQ(r.module_flags.size(), 3u);
  for (const LaneReport& l : r.lanes) {
    EXPECT_TRUE(l.flags.empty());
  }
}

TEST(Sff8636, FlagNamesComeFromFlagRows) {
  std::vector<std::string> names;
  for (const Field& f : sff8636_fields()) {
    if (f.role == Role::Flag) names.emplace_back(f.name);
  }
  EXPECT_TRUE(has(names, "rx_los") && has(names, "tx_bias_high_warning"));
  EXPECT_EQ(names.size(), 26u);
}

TEST(Sff8636, EveryRowFitsItsHalfPage) {
  for (const Field& f : sff8636_fields()) {
    const int lanes = f.lanes.count == 0 ? 1 : f.lanes.count;
    for (int lane = 1; lane <= lanes; ++lane) {
      const auto loc = locate(f, lane);
      ASSERT_TRUE(loc) << f.name;
      const int base = loc->page.page == kLowerPage ? 0 : 128;
      EXPECT_GE(loc->offset, base) << f.name;
      EXPECT_LE(loc->offset + f.size, base + 128) << f.name;
      if (f.type == Type::Bits) {
        EXPECT_LE(loc->shift + f.width, 8) << f.name;
      }
    }
  }
}

// Whatever the encoder writes for one flag row on one lane decodes as that flag, there only.
TEST(Sff8636, EachFlagRowRoundTripsOnItsOwnLane) {
  for (const Field& f : sff8636_fields()) {
    if (f.role != Role::Flag) continue;
    const int lanes = f.lanes.count == 0 ? 1 : f.lanes.count;
    for (int lane = 1; lane <= lanes; ++lane) {
      ModuleImage img = optical().image();
      ASSERT_TRUE(write_uint(img, f, 1, lane));
      const ModuleReport r = decode_sff8636(img);
      std::size_t raised = r.module_flags.size();
      for (const LaneReport& l : r.lanes) raised += l.flags.size();
      EXPECT_EQ(raised, 1u) << f.name << " lane " << lane;
      const auto& where = f.lanes.count == 0 ? r.module_flags : r.lanes[lane - 1].flags;
      EXPECT_TRUE(has(where, f.name)) << f.name << " lane " << lane;
    }
  }
}

Qsfp with_thresholds() {
  Qsfp q = optical();
  q.put03(128, {0x4B, 0x00, 0xFB, 0x00, 0x46, 0x00, 0x00, 0x00});  // 75, -5, 70, 0 °C
  q.put03(144, {0x8C, 0xA0, 0x75, 0x30, 0x88, 0xB8, 0x79, 0x18});  // 3.6, 3.0, 3.5, 3.1 V
  q.put03(176, {0x4E, 0x20, 0x01, 0xF4, 0x27, 0x10, 0x03, 0xE8});  // 2, 0.05, 1, 0.1 mW
  q.put03(184, {0x13, 0x88, 0x03, 0xE8, 0x11, 0x94, 0x05, 0xDC});  // 10, 2, 9, 3 mA
  q.put03(192, {0x75, 0x30, 0x07, 0xD0, 0x4E, 0x20, 0x0B, 0xB8});  // 3, 0.2, 2, 0.3 mW
  return q;
}

TEST(Sff8636, ThresholdsFromPage03InAlarmWarningOrder) {
  const ModuleReport r = decode_sff8636(with_thresholds().image());
  ASSERT_EQ(r.thresholds.size(), 5u);
  const Thresholds& t = r.thresholds.at("temperature_celsius");
  EXPECT_DOUBLE_EQ(*t.high_alarm, 75);
  EXPECT_DOUBLE_EQ(*t.low_alarm, -5);
  EXPECT_DOUBLE_EQ(*t.high_warning, 70);
  EXPECT_DOUBLE_EQ(*t.low_warning, 0);
  const Thresholds& v = r.thresholds.at("supply_voltage_volts");
  EXPECT_NEAR(*v.high_alarm, 3.6, 1e-12);
  EXPECT_NEAR(*v.low_warning, 3.1, 1e-12);
  const Thresholds& rx = r.thresholds.at("rx_power_watts");
  EXPECT_NEAR(*rx.high_alarm, 2e-3, 1e-15);
  EXPECT_NEAR(*rx.low_alarm, 50e-6, 1e-15);
  const Thresholds& bias = r.thresholds.at("tx_bias_amperes");  // no multiplier in SFF-8636
  EXPECT_NEAR(*bias.high_alarm, 10e-3, 1e-15);
  EXPECT_NEAR(*bias.low_warning, 3e-3, 1e-15);
  const Thresholds& tx = r.thresholds.at("tx_power_watts");
  EXPECT_NEAR(*tx.high_warning, 2e-3, 1e-15);
  EXPECT_NEAR(*tx.low_warning, 0.3e-3, 1e-15);
}

TEST(Sff8636, FlatMemoryHasNoPage03) {
  Qsfp q = with_thresholds();
  q.put(2, {0x04});  // flat memory
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(r.flat_memory);
  EXPECT_TRUE(r.thresholds.empty());
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_FALSE(r.problems.empty());  // a page 03h on a flat module is odd

  q.with03 = false;
  const ModuleReport clean = decode_sff8636(q.image());
  EXPECT_TRUE(clean.problems.empty());
  EXPECT_TRUE(clean.missing_pages.empty());
}

TEST(Sff8636, MissingPagesAreListed) {
  Qsfp paged = optical();  // not flat, page 03h not read
  ModuleReport r = decode_sff8636(paged.image());
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"03h"});
  EXPECT_TRUE(r.thresholds.empty());

  Qsfp lower_only = optical();
  lower_only.upper = false;
  lower_only.put(22, {0x19, 0x00});  // 25 °C
  r = decode_sff8636(lower_only.image());
  EXPECT_TRUE(has(r.missing_pages, "00h") && has(r.missing_pages, "03h"));
  EXPECT_EQ(r.id.identifier.code, 0x11u);
  EXPECT_TRUE(r.id.vendor_name.empty());
  ASSERT_TRUE(r.temperature_celsius);  // advertisement unknown: a non-zero value counts
  EXPECT_DOUBLE_EQ(*r.temperature_celsius, 25);
  EXPECT_TRUE(r.checksums.empty());
  EXPECT_FALSE(r.power_class);

  Qsfp upper_only = optical();
  upper_only.lower = false;
  upper_only.text(148, "VENDOR");
  r = decode_sff8636(upper_only.image());
  EXPECT_EQ(r.missing_pages, std::vector<std::string>{"lower"});
  EXPECT_EQ(r.id.identifier.code, 0x11u);  // from the page 00h copy
  EXPECT_EQ(r.id.vendor_name, "VENDOR");
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_FALSE(r.lanes[0].rx_power_watts);

  r = decode_sff8636(ModuleImage{});
  EXPECT_TRUE(has(r.missing_pages, "lower") && has(r.missing_pages, "00h"));
  EXPECT_FALSE(r.problems.empty());
}

TEST(Sff8636, PowerClassesOneToEight) {
  struct Case {
    uint8_t ext_id;
    int power_class;
    double watts;
  };
  const Case cases[] = {{0x00, 1, 1.5}, {0x40, 2, 2.0}, {0x80, 3, 2.5}, {0xC0, 4, 3.5},
                        {0x01, 5, 4.0}, {0x02, 6, 4.5}, {0x03, 7, 5.0}, {0xC1, 5, 4.0}};
  for (const Case& c : cases) {
    Qsfp q = optical();
    q.put(129, {c.ext_id});
    const ModuleReport r = decode_sff8636(q.image());
    ASSERT_TRUE(r.power_class && r.max_power_watts) << int(c.ext_id);
    EXPECT_EQ(*r.power_class, c.power_class) << int(c.ext_id);
    EXPECT_DOUBLE_EQ(*r.max_power_watts, c.watts) << int(c.ext_id);
  }
  Qsfp q8 = optical();
  q8.put(129, {0xE3});  // class 8 implemented (bit 5) wins over the class 7 fallback
  q8.put(107, {0x64});  // 100 × 0.1 W
  ModuleReport r = decode_sff8636(q8.image());
  EXPECT_EQ(r.power_class, 8);
  EXPECT_NEAR(*r.max_power_watts, 10.0, 1e-12);

  q8.put(107, {0x00});
  r = decode_sff8636(q8.image());
  EXPECT_EQ(r.power_class, 8);
  EXPECT_FALSE(r.max_power_watts);
  EXPECT_FALSE(r.problems.empty());
}

TEST(Sff8636, ChecksumsOkAndBad) {
  Qsfp q = optical();
  q.text(148, "VENDOR").put(192, {0x02}).fix_checksums();
  ModuleReport r = decode_sff8636(q.image());
  ASSERT_EQ(r.checksums.size(), 2u);
  EXPECT_EQ(r.checksums[0].page, "CC_BASE");
  EXPECT_EQ(r.checksums[0].range, "128-190");
  EXPECT_EQ(r.checksums[1].page, "CC_EXT");
  EXPECT_EQ(r.checksums[1].range, "192-222");
  EXPECT_TRUE(r.checksums[0].ok() && r.checksums[1].ok());

  q.put(150, {0x7F});  // corrupt the vendor name
  r = decode_sff8636(q.image());
  EXPECT_FALSE(r.checksums[0].ok());
  EXPECT_TRUE(r.checksums[1].ok());
  EXPECT_EQ(r.checksums[0].stored, q.mem[191]);
}

TEST(Sff8636, OpticalMediaFields) {
  Qsfp q = optical();
  q.put(130, {0x0C});  // MPO 1x12
  q.put(142, {0x00, 0x23, 0x00, 0x00, 0x32});  // OM3 35 × 2 m, OM4 50 × 2 m
  q.put(147, {0x00});
  q.put(186, {0x42, 0x68, 0x07, 0xD0});  // 17000 × 0.05 nm
  q.put(192, {0x02});
  const ModuleReport r = decode_sff8636(q.image());
  ASSERT_TRUE(r.connector && r.extended_compliance && r.wavelength_meters);
  EXPECT_EQ(r.connector->code, 0x0Cu);
  EXPECT_EQ(r.extended_compliance->code, 0x02u);
  EXPECT_NEAR(*r.wavelength_meters, 850e-9, 1e-15);
  EXPECT_EQ(r.media_interface_technology->code, 0x00u);
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"om3", 70}, {"om4", 100}}));
  EXPECT_FALSE(r.cable_length_meters);
}

TEST(Sff8636, PassiveCopperHasNoOpticsNoWavelengthAndCableLength) {
  Qsfp q = optical();
  q.put(0, {0x0D, 0x00});  // rev "unspecified": the old-revision heuristic would apply
  q.put(22, {0x01, 0x81});  // stray temperature bytes
  q.put(34, {0x12, 0x34});
  q.put(130, {0x23});
  q.put(146, {0x03, 0xA0});  // 3 m, technology 0xA (copper unequalized)
  q.put(186, {0x03, 0x04});  // attenuation, not a wavelength
  q.put(220, {0x00});
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_FALSE(r.implemented.rx_power || r.implemented.tx_bias || r.implemented.tx_power);
  EXPECT_FALSE(r.implemented.temperature);
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_FALSE(r.wavelength_meters);
  EXPECT_EQ(r.cable_length_meters, 3.0);
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"copper", 3}}));
  ASSERT_EQ(r.lanes.size(), 4u);
  EXPECT_FALSE(r.lanes[0].rx_power_watts || r.lanes[0].tx_bias_amperes);
  EXPECT_EQ(r.media_interface_technology->code, 0x0Au);
}

TEST(Sff8636, OldRevisionMayOmitMonitorBits) {
  Qsfp q = optical();
  q.put(1, {0x07});        // rev 2.5-2.7
  q.put(220, {0x08});      // average Rx only: temperature/Vcc bits clear
  q.put(22, {0x1A, 0x68});
  ModuleReport r = decode_sff8636(q.image());
  ASSERT_TRUE(r.temperature_celsius);
  EXPECT_NEAR(*r.temperature_celsius, 26.41, 0.005);
  EXPECT_FALSE(r.supply_voltage_volts);  // zero value: not implemented

  q.put(1, {0x08});  // rev 2.8+: the bits are authoritative
  r = decode_sff8636(q.image());
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_FALSE(r.implemented.temperature);
}

TEST(Sff8636, GarbageNeverCrashesAndStaysFinite) {
  Qsfp ff;
  ff.mem.fill(0xFF);
  ff.page03.fill(0xFF);
  ff.with03 = true;
  ModuleReport r = decode_sff8636(ff.image());
  expect_all_finite(r);
  EXPECT_EQ(r.lanes.size(), 4u);

  uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<uint8_t>(seed >> 24);
  };
  for (int round = 0; round < 200; ++round) {
    Qsfp g;
    for (auto& b : g.mem) b = next();
    for (auto& b : g.page03) b = next();
    g.with03 = (round % 2) == 0;
    g.lower = (round % 7) != 3;
    g.upper = (round % 5) != 2;
    r = decode_sff8636(g.image());
    expect_all_finite(r);
    ASSERT_EQ(r.lanes.size(), 4u);
  }
}

// --- Real dumps -----------------------------------------------------------------------------

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ONL sff_db entries are C arrays: every "0xNN" token in order.
std::vector<uint8_t> c_array_bytes(const std::string& dir) {
  const std::string s = slurp(std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt");
  std::vector<uint8_t> out;
  for (auto i = s.find("0x"); i != std::string::npos; i = s.find("0x", i + 2)) {
    out.push_back(static_cast<uint8_t>(std::stoi(s.substr(i + 2, 2), nullptr, 16)));
  }
  return out;
}

// `ethtool -m hex on`: "0xOOOO:  bb bb ..." rows.
std::vector<uint8_t> ethtool_hex_bytes(const std::string& dir) {
  std::istringstream lines(slurp(std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt"));
  std::vector<uint8_t> out;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("0x", 0) != 0) continue;
    std::istringstream row(line.substr(line.find(':') + 1));
    for (std::string tok; row >> tok;) out.push_back(static_cast<uint8_t>(std::stoi(tok, nullptr, 16)));
  }
  return out;
}

ModuleImage image_of(const std::vector<uint8_t>& b) {
  ModuleImage img;
  img.set_page({kDeviceA0, 0, kLowerPage}, std::span(b).first(128));
  img.set_page({kDeviceA0, 0, 0x00}, std::span(b).subspan(128, 128));
  if (b.size() >= 640) img.set_page({kDeviceA0, 0, 0x03}, std::span(b).subspan(512, 128));
  return img;
}

struct DumpCase {
  const char* dir;
  const char* vendor;
  double temp, vcc;
  double rx_mw[4], bias_ma[4], tx_mw[4];
};

TEST(Sff8636Dump, OnlQsfp28MonitorsMatchPublishedValues) {
  const DumpCase cases[] = {
      {"qsfp28-sr4-finisar-ftlc9551repm", "FINISAR CORP", 26.41, 3.2578,
       {1.3327, 0.7411, 1.3399, 1.3263}, {7.078, 7.154, 7.174, 7.102}, {0.9958, 1.1731, 1.1736, 1.25}},
      {"qsfp28-cwdm4-lumentum-lq210cr-caa1", "LUMENTUM", 30.64, 3.3091,
       {0.6294, 0.7653, 1.0492, 0.7798}, {24.586, 23.854, 24.926, 33.294}, {0.8007, 0.8048, 0.8204, 0.7569}},
      {"qsfp28-lr4-dell-3mfxg", "DELL", 25.18, 3.2600,
       {0.4856, 0.4631, 0.5897, 0.3886}, {71.852, 62.228, 64.578, 67.946}, {0.8077, 0.8485, 0.8353, 0.9012}},
      {"qsfp28-psm4-innolight-tr-vc13t-n00", "INNOLIGHT", 33.72, 3.4059,
       {0.0001, 0.0001, 0.0001, 0.0001}, {35.404, 35.296, 35.526, 35.444}, {0.7662, 0.756, 0.9098, 0.9228}},
  };
  for (const DumpCase& c : cases) {
    SCOPED_TRACE(c.dir);
    const auto bytes = c_array_bytes(c.dir);
    ASSERT_EQ(bytes.size(), 256u);
    const ModuleReport r = decode_sff8636(image_of(bytes));
    EXPECT_EQ(r.id.vendor_name, c.vendor);
    ASSERT_TRUE(r.temperature_celsius && r.supply_voltage_volts);
    EXPECT_NEAR(*r.temperature_celsius, c.temp, 0.005);
    EXPECT_NEAR(*r.supply_voltage_volts, c.vcc, 0.00005);
    for (std::size_t i = 0; i < 4; ++i) {
      const LaneReport& l = r.lanes[i];
      ASSERT_TRUE(l.rx_power_watts && l.tx_power_watts && l.tx_bias_amperes);
      EXPECT_NEAR(*l.rx_power_watts * 1e3, c.rx_mw[i], 0.00005);
      EXPECT_NEAR(*l.tx_power_watts * 1e3, c.tx_mw[i], 0.00005);
      EXPECT_NEAR(*l.tx_bias_amperes * 1e3, c.bias_ma[i], 0.0005);
    }
    ASSERT_EQ(r.checksums.size(), 2u);
    EXPECT_TRUE(r.checksums[0].ok() && r.checksums[1].ok());
    EXPECT_EQ(r.missing_pages, std::vector<std::string>{"03h"});  // paged, but 03h not dumped
    expect_all_finite(r);
  }
}

TEST(Sff8636Dump, FinisarSr4Identity) {
  const ModuleReport r = decode_sff8636(image_of(c_array_bytes("qsfp28-sr4-finisar-ftlc9551repm")));
  EXPECT_EQ(r.id.part_number, "FTLC9551REPM");
  EXPECT_EQ(r.id.serial, "XU90TRP");
  EXPECT_EQ(r.id.date_code, "151006");
  EXPECT_EQ(r.id.revision, "A0");
  EXPECT_EQ(r.id.vendor_oui, "00:90:65");
  EXPECT_EQ(r.power_class, 4);
  EXPECT_EQ(r.max_power_watts, 3.5);
  EXPECT_NEAR(*r.wavelength_meters, 850e-9, 1e-15);
  EXPECT_EQ(r.extended_compliance->code, 0x02u);  // 100GBASE-SR4
  EXPECT_EQ(r.lengths_meters, (std::map<std::string, double>{{"om3", 70}, {"om4", 100}}));
  EXPECT_EQ(r.rx_power_type, "average");
  EXPECT_TRUE(r.module_flags.empty());
}

TEST(Sff8636Dump, InnolightDarkLanesRaiseLosAndLowPowerFlags) {
  const ModuleReport r = decode_sff8636(image_of(c_array_bytes("qsfp28-psm4-innolight-tr-vc13t-n00")));
  for (const LaneReport& l : r.lanes) {
    SCOPED_TRACE(l.lane);
    EXPECT_TRUE(has(l.flags, "rx_los") && has(l.flags, "tx_los"));
    EXPECT_TRUE(has(l.flags, "rx_power_low_alarm") && has(l.flags, "rx_power_low_warning"));
    EXPECT_FALSE(has(l.flags, "rx_power_high_alarm"));
  }
  EXPECT_EQ(r.power_class, 4);
}

TEST(Sff8636Dump, MellanoxPage03ThresholdsMatchPublishedDecode) {
  const auto bytes = ethtool_hex_bytes("qsfp28-sr4-mellanox-mma1b00-mlxsw");
  ASSERT_EQ(bytes.size(), 640u);
  const ModuleReport r = decode_sff8636(image_of(bytes));
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_EQ(r.id.vendor_oui, "00:02:c9");
  EXPECT_EQ(r.power_class, 3);
  const Thresholds& bias = r.thresholds.at("tx_bias_amperes");
  EXPECT_NEAR(*bias.high_alarm, 8.5e-3, 1e-12);
  EXPECT_NEAR(*bias.low_alarm, 5.492e-3, 1e-12);
  EXPECT_NEAR(*bias.high_warning, 8.0e-3, 1e-12);
  EXPECT_NEAR(*bias.low_warning, 6.0e-3, 1e-12);
  const Thresholds& tx = r.thresholds.at("tx_power_watts");
  EXPECT_NEAR(*tx.high_alarm, 3.4673e-3, 1e-12);
  EXPECT_NEAR(*tx.low_alarm, 0.0724e-3, 1e-12);
  EXPECT_NEAR(*tx.high_warning, 1.7378e-3, 1e-12);
  EXPECT_NEAR(*tx.low_warning, 0.1445e-3, 1e-12);
  const Thresholds& t = r.thresholds.at("temperature_celsius");
  EXPECT_EQ(t.high_alarm, 80.0);
  EXPECT_EQ(t.low_alarm, -10.0);
  EXPECT_EQ(t.high_warning, 70.0);
  EXPECT_EQ(t.low_warning, 0.0);
  const Thresholds& v = r.thresholds.at("supply_voltage_volts");
  EXPECT_NEAR(*v.high_alarm, 3.5, 1e-12);
  EXPECT_NEAR(*v.low_alarm, 3.1, 1e-12);
  // Dark lanes: all LOS/LOL set, and byte 9-10 = 0x55 is low alarm + low warning per lane.
  for (const LaneReport& l : r.lanes) {
    EXPECT_TRUE(has(l.flags, "rx_power_low_alarm") && has(l.flags, "rx_power_low_warning"));
    EXPECT_EQ(l.rx_power_watts, 0.0);
  }
}

TEST(Sff8636Dump, MolexPassiveDacIsCopper) {
  // Upper page 00h bytes 128-255 and the lower-page bytes that are non-zero, from the
  // sonic-utilities test data (tests/data/qsfp-dac-molex-1110401054).
  Qsfp q;
  q.put(0, {0x0D, 0x00, 0x06});
  q.put(22, {0x01, 0x81});
  q.put(128, {0x0D, 0x00, 0x23, 0x08, 0x00, 0x00, 0x00, 0x41, 0x80, 0x80, 0xF5, 0x00, 0x00, 0x00, 0x00, 0x00});
  q.put(144, {0x00, 0x00, 0x01, 0xA0});
  q.text(148, "Molex Inc.      ");
  q.put(164, {0x07, 0x00, 0x09, 0x3A});
  q.text(168, "1110401054      ");
  q.put(184, {0x20, 0x20, 0x03, 0x04, 0x00, 0x00, 0x46, 0xC4});
  q.text(196, "611030929       160419  ");
  q.put(220, {0x00, 0x00, 0x00, 0x24});
  const ModuleReport r = decode_sff8636(q.image());
  EXPECT_TRUE(r.flat_memory);
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_EQ(r.id.vendor_name, "Molex Inc.");
  EXPECT_EQ(r.id.vendor_oui, "00:09:3a");
  EXPECT_EQ(r.id.part_number, "1110401054");
  EXPECT_EQ(r.id.serial, "611030929");
  EXPECT_EQ(r.id.date_code, "160419");
  EXPECT_EQ(r.id.revision, "");
  EXPECT_EQ(r.cable_length_meters, 1.0);
  EXPECT_FALSE(r.wavelength_meters);
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_EQ(r.power_class, 1);
  ASSERT_EQ(r.checksums.size(), 2u);
  EXPECT_TRUE(r.checksums[0].ok() && r.checksums[1].ok());
}

}  // namespace
}  // namespace xcvr::cmis
