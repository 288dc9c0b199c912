// CMIS decoder, module level: identity, state, advertising, monitors, flags, checksums, page
// bookkeeping, dispatch and the JSON contract. Every image is built byte by byte from the
// offsets in shared/reference/cmis-sff-memory-maps.md §2-§10 — never through our Field tables,
// so a wrong table row cannot make its own test pass. Lanes/thresholds/VDM/robustness are in
// cmis_decode_lanes_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
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

// Low 8 bits of the sum of bytes [first, last] of a page, computed here independently.
uint8_t sum8(const ModuleImage& m, int16_t page, uint16_t first, uint16_t last) {
  unsigned sum = 0;
  for (unsigned o = first; o <= last; ++o) {
    sum += m.byte(kDeviceA0, 0, page, static_cast<uint16_t>(o)).value_or(0);
  }
  return static_cast<uint8_t>(sum & 0xFF);
}

// Paged QSFP-DD, CMIS 5.0, ModuleReady, one 400G-DR4 application; lower + 00h, 01h, 02h, 11h.
ModuleImage paged_module() {
  ModuleImage m;
  put(m, kLower, 0, {0x18, 0x50, 0x00, 0x07});  // QSFP-DD, rev 5.0, paged, state 3 + IntL deasserted
  put(m, kLower, 14, {0x19, 0x80, 0x80, 0xE8});  // 25.5 °C, 3.3000 V
  put(m, kLower, 39, {0x07, 0x02});              // active firmware 7.2
  put(m, kLower, 85, {0x02, 0x11, 0x1C, 0x84, 0x01, 0xFF});  // SMF; 400GAUI-8 / 400GBASE-DR4; end
  put(m, 0x00, 128, {0x18});
  put(m, 0x01, 159, {0x03, 0x07});  // temp + Vcc monitors; Rx/Tx power + bias, bias x1
  put(m, 0x02, 128, {});
  put(m, 0x11, 128, {});
  return m;
}

bool has_problem(const ModuleReport& r, std::string_view needle) {
  for (const std::string& p : r.problems) {
    if (p.find(needle) != std::string::npos) return true;
  }
  return false;
}

// ---- identity ------------------------------------------------------------------------------

TEST(CmisDecode, IdentifierAndRevision) {
  struct Case { uint8_t id, rev; const char* name; const char* revision; };
  for (const Case& c : {Case{0x18, 0x50, "QSFP-DD", "5.0"}, Case{0x19, 0x40, "OSFP", "4.0"},
                        Case{0x1E, 0x52, "QSFP+ or later with CMIS", "5.2"}}) {
    ModuleImage m = paged_module();
    put(m, kLower, 0, {c.id, c.rev});
    const ModuleReport r = decode_cmis(m);
    EXPECT_EQ(r.spec, Spec::Cmis);
    EXPECT_EQ(r.id.identifier.code, c.id);
    EXPECT_EQ(r.id.identifier.name, c.name);
    EXPECT_EQ(r.spec_revision, c.revision);
  }
}

TEST(CmisDecode, ModuleStateAllThreeBitValues) {
  const char* names[] = {"reserved (0x00)", "ModuleLowPwr", "ModulePwrUp", "ModuleReady",
                         "ModulePwrDn",     "ModuleFault",  "reserved (0x06)", "reserved (0x07)"};
  for (uint8_t state = 0; state < 8; ++state) {
    ModuleImage m = paged_module();
    // bits 3-1 = state; bit 0 and reserved bits 7-4 set to prove they are masked off.
    put(m, kLower, 3, {static_cast<uint8_t>(0xF1 | state << 1)});
    put(m, kLower, 41, {0x02});  // fault cause: only meaningful in ModuleFault
    const ModuleReport r = decode_cmis(m);
    ASSERT_TRUE(r.module_state) << int{state};
    EXPECT_EQ(r.module_state->code, state);
    EXPECT_EQ(r.module_state->name, names[state]);
    EXPECT_EQ(r.module_fault_cause.has_value(), state == 5) << int{state};
  }
}

TEST(CmisDecode, ModuleFaultCause) {
  ModuleImage m = paged_module();
  put(m, kLower, 3, {0x0A});  // state 5 ModuleFault
  put(m, kLower, 41, {0x01});
  const ModuleReport r = decode_cmis(m);
  ASSERT_TRUE(r.module_fault_cause);
  EXPECT_EQ(r.module_fault_cause->code, 1u);
  EXPECT_EQ(r.module_fault_cause->name, "TEC runaway");
}

TEST(CmisDecode, FirmwareVersion) {
  struct Case { uint8_t major, minor; std::optional<std::string> expected; };
  for (const Case& c : {Case{1, 4, "1.4"}, Case{0, 1, "0.1"}, Case{2, 0, "2.0"},
                        Case{0, 0, std::nullopt}}) {
    ModuleImage m = paged_module();
    put(m, kLower, 39, {c.major, c.minor});
    EXPECT_EQ(decode_cmis(m).id.firmware, c.expected) << int{c.major} << "." << int{c.minor};
  }
}

TEST(CmisDecode, VendorFieldsAreTrimmed) {
  ModuleImage m = paged_module();
  put_ascii(m, 0x00, 129, 16, "ACME OPTICS");
  put(m, 0x00, 145, {0x00, 0x02, 0xC9});
  put_ascii(m, 0x00, 148, 16, "QDD-400G-DR4");
  put_ascii(m, 0x00, 164, 2, "A1");
  put_ascii(m, 0x00, 166, 16, "SN12345", '\0');  // NUL padding is trimmed too
  put_ascii(m, 0x00, 182, 8, "240115");           // blank lot code
  put_ascii(m, 0x00, 190, 10, "");                // blank CLEI
  const ModuleReport r = decode_cmis(m);
  EXPECT_EQ(r.id.vendor_name, "ACME OPTICS");
  EXPECT_EQ(r.id.vendor_oui, "00:02:c9");
  EXPECT_EQ(r.id.part_number, "QDD-400G-DR4");
  EXPECT_EQ(r.id.revision, "A1");
  EXPECT_EQ(r.id.serial, "SN12345");
  EXPECT_EQ(r.id.date_code, "240115");
  EXPECT_FALSE(r.id.clei);
}

TEST(CmisDecode, NonAsciiVendorBytesAreReplacedAndNoted) {
  ModuleImage m = paged_module();
  put_ascii(m, 0x00, 129, 16, "ACME");
  put(m, 0x00, 133, {0xFF, 0x11, 0xC3});
  const ModuleReport r = decode_cmis(m);
  EXPECT_EQ(r.id.vendor_name, "ACME???");
  EXPECT_TRUE(has_problem(r, "vendor_name"));
  EXPECT_NO_THROW((void)to_json(r).dump());
}

TEST(CmisDecode, CleiPresentOrAbsent) {
  ModuleImage m = paged_module();
  put_ascii(m, 0x00, 190, 10, "WOM3A00ARA");
  EXPECT_EQ(decode_cmis(m).id.clei, "WOM3A00ARA");
  put_ascii(m, 0x00, 190, 10, "", '\0');  // all NUL
  EXPECT_FALSE(decode_cmis(m).id.clei);
}

// ---- advertising (page 00h) ------------------------------------------------------------------

TEST(CmisDecode, PowerClassAndMaxPower) {
  struct Case { uint8_t byte200; int power_class; };
  for (const Case& c : {Case{0x00, 1}, Case{0x20, 2}, Case{0x40, 3}, Case{0x60, 4}, Case{0x80, 5},
                        Case{0xA0, 6}, Case{0xC0, 7}, Case{0xE0, 8}, Case{0x1F, 1}, Case{0xFF, 8}}) {
    ModuleImage m = paged_module();
    put(m, 0x00, 200, {c.byte200, 0x3F});  // 63 × 0.25 W
    const ModuleReport r = decode_cmis(m);
    EXPECT_EQ(r.power_class, c.power_class) << std::hex << int{c.byte200};
    EXPECT_DOUBLE_EQ(r.max_power_watts.value_or(-1), 15.75);
  }
  ModuleImage m = paged_module();
  put(m, 0x00, 201, {40});
  EXPECT_DOUBLE_EQ(decode_cmis(m).max_power_watts.value_or(-1), 10.0);
}

TEST(CmisDecode, CableLengthMultipliers) {
  struct Case { uint8_t byte202; std::optional<double> meters; };
  for (const Case& c : {Case{0x05, 0.5}, Case{0x45, 5.0}, Case{0x83, 30.0}, Case{0xC2, 200.0},
                        Case{0xFF, 6300.0}, Case{0x00, std::nullopt}, Case{0x40, std::nullopt}}) {
    ModuleImage m = paged_module();
    put(m, 0x00, 202, {c.byte202});
    const auto got = decode_cmis(m).cable_length_meters;
    ASSERT_EQ(got.has_value(), c.meters.has_value()) << std::hex << int{c.byte202};
    if (got) {
      EXPECT_DOUBLE_EQ(*got, *c.meters) << std::hex << int{c.byte202};
    }
  }
}

// 00h:212 media interface technology decides whether 01h:138-139 is a wavelength: copper
// cables (0Ah-0Fh) have none, the tunable lasers (10h, 11h) above them do.
TEST(CmisDecode, WavelengthKeptForLasersIncludingTunableDroppedForCopper) {
  struct Case { uint8_t technology; bool has_wavelength; };
  for (const Case& c : {Case{0x04, true}, Case{0x09, true}, Case{0x0A, false}, Case{0x0B, false},
                        Case{0x0F, false}, Case{0x10, true}, Case{0x11, true}}) {
    ModuleImage m = paged_module();
    put(m, 0x00, 212, {c.technology});
    put(m, 0x01, 138, {0x79, 0x18});  // 31000 x 0.05 nm = 1550 nm
    const auto wl = decode_cmis(m).wavelength_meters;
    ASSERT_EQ(wl.has_value(), c.has_wavelength) << std::hex << int{c.technology};
    if (wl) {
      EXPECT_NEAR(*wl, 1550e-9, 1e-15);
    }
  }
}

TEST(CmisDecode, Connector) {
  struct Case { uint8_t code; const char* name; };
  for (const Case& c : {Case{0x07, "LC"}, Case{0x0C, "MPO 1x12"}, Case{0x23, "No separable connector"},
                        Case{0x28, "MPO 1x16"}}) {
    ModuleImage m = paged_module();
    put(m, 0x00, 203, {c.code});
    const ModuleReport r = decode_cmis(m);
    ASSERT_TRUE(r.connector);
    EXPECT_EQ(r.connector->code, c.code);
    EXPECT_EQ(r.connector->name, c.name);
  }
}

// ---- application descriptors -----------------------------------------------------------------

TEST(CmisDecode, ApplicationsStopAtFF) {
  ModuleImage m = paged_module();
  put(m, kLower, 85, {0x02});                          // SMF
  put(m, kLower, 86, {0x11, 0x1C, 0x84, 0x01});        // 1: 400GAUI-8 / 400GBASE-DR4, 8/4 lanes
  put(m, kLower, 90, {0x0F, 0x17, 0x42, 0x11});        // 2: 200GAUI-4 / 200GBASE-DR4, 4/2 lanes
  put(m, kLower, 94, {0xFF, 0x00, 0x00, 0x00});        // 3: end of list
  put(m, kLower, 98, {0x11, 0x1C, 0x84, 0x01});        // 4: after the end: ignored
  const ModuleReport r = decode_cmis(m);
  ASSERT_TRUE(r.media_type);
  EXPECT_EQ(r.media_type->code, 0x02u);
  EXPECT_EQ(r.media_type->name, "SMF");
  ASSERT_EQ(r.applications.size(), 2u);
  const Application& a = r.applications[0];
  EXPECT_EQ(a.index, 1);
  EXPECT_EQ(a.host_interface.code, 0x11u);
  EXPECT_EQ(a.host_interface.name, "400GAUI-8 C2M");
  EXPECT_EQ(a.media_interface.code, 0x1Cu);
  EXPECT_EQ(a.media_interface.name, "400GBASE-DR4");
  EXPECT_EQ(a.host_lane_count, 8);
  EXPECT_EQ(a.media_lane_count, 4);
  EXPECT_EQ(a.host_lane_assignment, 0x01);
  const Application& b = r.applications[1];
  EXPECT_EQ(b.index, 2);
  EXPECT_EQ(b.host_interface.code, 0x0Fu);
  EXPECT_EQ(b.host_lane_count, 4);
  EXPECT_EQ(b.media_lane_count, 2);
  EXPECT_EQ(b.host_lane_assignment, 0x11);
}

TEST(CmisDecode, ApplicationsSkipZeroDescriptorsLikeCiscoCopper) {
  ModuleImage m = paged_module();
  put(m, kLower, 85, {0x03});  // passive copper; descriptors 1-7 all zero
  for (uint16_t o = 86; o < 114; ++o) put(m, kLower, o, {0x00});
  put(m, kLower, 114, {0x11, 0x00, 0x88, 0x00});  // descriptor 8
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.applications.size(), 1u);
  EXPECT_EQ(r.applications[0].index, 8);
  EXPECT_EQ(r.applications[0].host_interface.name, "400GAUI-8 C2M");
  EXPECT_EQ(r.applications[0].media_interface.code, 0x00u);
  EXPECT_EQ(r.applications[0].host_lane_count, 8);
  EXPECT_EQ(r.applications[0].media_lane_count, 8);
}

TEST(CmisDecode, ApplicationsNineToFifteenOnPage01AndMediaLaneAssignment) {
  ModuleImage m = paged_module();
  put(m, kLower, 85, {0x01});                      // MMF
  put(m, kLower, 86, {0x11, 0x10, 0x88, 0x01});    // 1: 400GAUI-8 / 400GBASE-SR8; 2-8 zero
  put(m, kLower, 90, {0x00});
  put(m, 0x01, 223, {0x0C, 0x09, 0x44, 0x0F});     // 9: 100GAUI-4 / 100GBASE-SR4
  put(m, 0x01, 227, {0x00, 0x00, 0x00, 0x00});     // 10: undefined, skipped
  put(m, 0x01, 231, {0x0B, 0x09, 0x44, 0x01});     // 11: CAUI-4 / 100GBASE-SR4
  put(m, 0x01, 235, {0xFF, 0x00, 0x00, 0x00});     // 12: end
  put(m, 0x01, 239, {0x0C, 0x09, 0x44, 0x0F});     // 13: after the end
  put(m, 0x01, 176, {0xFF});                       // AppSel 1 media lane options
  put(m, 0x01, 184, {0x0F});                       // AppSel 9
  put(m, 0x01, 186, {0x03});                       // AppSel 11
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.applications.size(), 3u);
  EXPECT_EQ(r.applications[0].index, 1);
  EXPECT_EQ(r.applications[0].media_interface.name, "400GBASE-SR8");
  EXPECT_EQ(r.applications[0].media_lane_assignment, uint8_t{0xFF});
  EXPECT_EQ(r.applications[1].index, 9);
  EXPECT_EQ(r.applications[1].host_interface.name, "100GAUI-4 C2M");
  EXPECT_EQ(r.applications[1].media_interface.name, "100GBASE-SR4");
  EXPECT_EQ(r.applications[1].host_lane_count, 4);
  EXPECT_EQ(r.applications[1].media_lane_count, 4);
  EXPECT_EQ(r.applications[1].host_lane_assignment, 0x0F);
  EXPECT_EQ(r.applications[1].media_lane_assignment, uint8_t{0x0F});
  EXPECT_EQ(r.applications[2].index, 11);
  EXPECT_EQ(r.applications[2].media_lane_assignment, uint8_t{0x03});
}

TEST(CmisDecode, EndOfListInLowerMemoryEndsDescriptorsNineToFifteen) {
  ModuleImage m = paged_module();  // descriptor 2 is 0xFF
  put(m, 0x01, 223, {0x0C, 0x09, 0x44, 0x0F});
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.applications.size(), 1u);
  EXPECT_EQ(r.applications[0].index, 1);
}

TEST(CmisDecode, MediaLaneAssignmentAbsentWithoutPage01) {
  ModuleImage m = paged_module();
  m.erase({kDeviceA0, 0, 0x01});
  const ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.applications.size(), 1u);
  EXPECT_FALSE(r.applications[0].media_lane_assignment);
}

// ---- module monitors -------------------------------------------------------------------------

TEST(CmisDecode, TemperatureIsSigned) {
  struct Case { uint8_t hi, lo; double celsius; };
  for (const Case& c : {Case{0x19, 0x80, 25.5}, Case{0xFA, 0x80, -5.5}, Case{0x00, 0x00, 0.0},
                        Case{0x7F, 0xFF, 32767.0 / 256}, Case{0x80, 0x00, -128.0}}) {
    ModuleImage m = paged_module();
    put(m, kLower, 14, {c.hi, c.lo});
    const auto t = decode_cmis(m).temperature_celsius;
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, c.celsius);
  }
}

TEST(CmisDecode, SupplyVoltage) {
  ModuleImage m = paged_module();
  EXPECT_DOUBLE_EQ(decode_cmis(m).supply_voltage_volts.value_or(-1), 3.3);
  put(m, kLower, 16, {0xFF, 0xFF});
  EXPECT_DOUBLE_EQ(decode_cmis(m).supply_voltage_volts.value_or(-1), 6.5535);
}

TEST(CmisDecode, UnimplementedModuleMonitorIsAbsentNotZero) {
  ModuleImage m = paged_module();
  put(m, 0x01, 159, {0x02});  // Vcc only
  ModuleReport r = decode_cmis(m);
  EXPECT_FALSE(r.temperature_celsius);
  EXPECT_TRUE(r.supply_voltage_volts);
  EXPECT_FALSE(r.implemented.temperature);
  put(m, 0x01, 159, {0x01});  // temperature only
  r = decode_cmis(m);
  EXPECT_DOUBLE_EQ(r.temperature_celsius.value_or(-1), 25.5);
  EXPECT_FALSE(r.supply_voltage_volts);
}

TEST(CmisDecode, AuxMonitors) {
  ModuleImage m = paged_module();
  put(m, kLower, 18, {0x40, 0x00, 0x2D, 0x80, 0x3A, 0x98});  // Aux1 16384, Aux2 45.5 °C, Aux3 1.5 V
  put(m, 0x01, 145, {0x00});  // Aux2 = laser temperature, Aux3 = laser temperature
  put(m, 0x01, 159, {0x0B});  // temp, Vcc, Aux2
  ModuleReport r = decode_cmis(m);
  EXPECT_DOUBLE_EQ(r.laser_temperature_celsius.value_or(-1), 45.5);
  EXPECT_FALSE(r.tec_current_ratio);
  EXPECT_FALSE(r.supply_voltage2_volts);

  put(m, 0x01, 159, {0x03});  // Aux2 not implemented
  EXPECT_FALSE(decode_cmis(m).laser_temperature_celsius);

  put(m, 0x01, 145, {0x07});  // Aux1 = TEC, Aux2 = TEC, Aux3 = Vcc2
  put(m, 0x01, 159, {0x17});  // temp, Vcc, Aux1, Aux3
  r = decode_cmis(m);
  EXPECT_DOUBLE_EQ(r.tec_current_ratio.value_or(-1), 16384.0 / 32767);
  EXPECT_DOUBLE_EQ(r.supply_voltage2_volts.value_or(-1), 1.5);
  EXPECT_FALSE(r.laser_temperature_celsius);
}

// ---- module flags ----------------------------------------------------------------------------

TEST(CmisDecode, ModuleFlagsByte9BitOrder) {
  const char* names[] = {"temperature_high_alarm",    "temperature_low_alarm",
                         "temperature_high_warning",  "temperature_low_warning",
                         "supply_voltage_high_alarm", "supply_voltage_low_alarm",
                         "supply_voltage_high_warning", "supply_voltage_low_warning"};
  for (int bit = 0; bit < 8; ++bit) {
    ModuleImage m = paged_module();
    put(m, kLower, 9, {static_cast<uint8_t>(1u << bit)});
    EXPECT_EQ(decode_cmis(m).module_flags, std::vector<std::string>{names[bit]}) << "bit " << bit;
  }
  ModuleImage m = paged_module();
  put(m, kLower, 8, {0x01});
  EXPECT_EQ(decode_cmis(m).module_flags, std::vector<std::string>{"module_state_changed"});
  EXPECT_TRUE(decode_cmis(paged_module()).module_flags.empty());
}

// ---- checksums -------------------------------------------------------------------------------

TEST(CmisDecode, PageChecksumsOkAndMismatching) {
  ModuleImage m = paged_module();
  put_ascii(m, 0x00, 129, 16, "ACME OPTICS");
  put(m, 0x00, 221, {0x5A});
  put(m, 0x00, 223, {0x77});                      // custom area: outside the 00h range
  put(m, 0x01, 128, {0x05, 0x03, 0x01, 0x02});     // 128-129 outside the 01h range
  put(m, 0x01, 254, {0x33});
  put(m, 0x02, 128, {0x4B, 0x00, 0xFB, 0x00});
  put(m, 0x02, 254, {0x10});
  const uint8_t c00 = sum8(m, 0x00, 128, 221), c01 = sum8(m, 0x01, 130, 254),
                c02 = sum8(m, 0x02, 128, 254);
  put(m, 0x00, 222, {c00});
  put(m, 0x01, 255, {c01});
  put(m, 0x02, 255, {c02});
  struct Want { const char* page; const char* range; uint8_t value; };
  const Want want[] = {{"00h", "128-221", c00}, {"01h", "130-254", c01}, {"02h", "128-254", c02}};

  ModuleReport r = decode_cmis(m);
  ASSERT_EQ(r.checksums.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.checksums[i].page, want[i].page);
    EXPECT_EQ(r.checksums[i].range, want[i].range);
    EXPECT_EQ(r.checksums[i].stored, want[i].value);
    EXPECT_EQ(r.checksums[i].computed, want[i].value);
    EXPECT_TRUE(r.checksums[i].ok()) << want[i].page;
  }

  put(m, 0x00, 222, {static_cast<uint8_t>(c00 + 1)});
  put(m, 0x01, 255, {static_cast<uint8_t>(c01 ^ 0xFF)});
  put(m, 0x02, 255, {static_cast<uint8_t>(c02 - 1)});
  r = decode_cmis(m);
  ASSERT_EQ(r.checksums.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.checksums[i].computed, want[i].value);
    EXPECT_NE(r.checksums[i].stored, want[i].value);
    EXPECT_FALSE(r.checksums[i].ok()) << want[i].page;
  }
}

// ---- memory model and page bookkeeping ------------------------------------------------------

TEST(CmisDecode, FlatMemoryHasNoLanesAndNeedsOnlyPage00) {
  ModuleImage m;
  put(m, kLower, 0, {0x18, 0x40, 0x80, 0x06});  // flat (byte 2 bit 7), ModuleReady
  put(m, kLower, 14, {0x19, 0x80});
  put(m, 0x00, 128, {0x18});
  put(m, 0x11, 186, {0x10, 0x00});  // stray page 11h: must be ignored
  put(m, 0x01, 160, {0x07});        // stray page 01h: must be ignored
  ModuleReport r = decode_cmis(m);
  EXPECT_TRUE(r.flat_memory);
  EXPECT_TRUE(r.lanes.empty());
  EXPECT_TRUE(r.missing_pages.empty());
  EXPECT_FALSE(r.tx_bias_multiplier);
  EXPECT_DOUBLE_EQ(r.temperature_celsius.value_or(-1), 25.5);
  m.erase({kDeviceA0, 0, 0x00});
  EXPECT_EQ(decode_cmis(m).missing_pages, std::vector<std::string>{"00h"});
}

TEST(CmisDecode, PagedModuleListsMissingPages) {
  ModuleImage m;
  put(m, kLower, 0, {0x18, 0x50, 0x00, 0x06});
  put(m, 0x00, 128, {0x18});
  const ModuleReport r = decode_cmis(m);
  EXPECT_FALSE(r.flat_memory);
  EXPECT_EQ(r.missing_pages, (std::vector<std::string>{"01h", "02h", "11h"}));
  EXPECT_TRUE(r.lanes.empty());
  EXPECT_TRUE(decode_cmis(paged_module()).missing_pages.empty());
}

// ---- decode() dispatch ---------------------------------------------------------------------------

TEST(CmisDispatch, ByIdentifierByte) {
  struct Case { uint8_t id; Spec spec; };
  for (const Case& c : {Case{0x03, Spec::Sff8472}, Case{0x0D, Spec::Sff8636}, Case{0x11, Spec::Sff8636},
                        Case{0x18, Spec::Cmis}, Case{0x19, Spec::Cmis}, Case{0x1E, Spec::Cmis}}) {
    ModuleImage m = paged_module();
    put(m, kLower, 0, {c.id});
    const ModuleReport r = decode(m);
    EXPECT_EQ(r.spec, c.spec) << std::hex << int{c.id};
    if (c.spec == Spec::Cmis) {
      EXPECT_FALSE(has_problem(r, "decoded as CMIS")) << std::hex << int{c.id};
      EXPECT_EQ(r.spec_revision, "5.0");
    }
  }
}

// Neither byte 0 nor its page 00h copy names a spec we decode: CMIS is guessed, and said. (A copy
// that does name one decides instead: Sff8636.VendorSpecificByteZeroIsReadAsItsPage00Copy.)
TEST(CmisDispatch, UnknownIdentifierDecodedAsCmisWithProblem) {
  ModuleImage m = paged_module();
  put(m, kLower, 0, {0x2A});
  put(m, 0x00, 128, {0x2A});
  const ModuleReport r = decode(m);
  EXPECT_EQ(r.spec, Spec::Cmis);
  EXPECT_EQ(r.id.identifier.code, 0x2Au);
  EXPECT_EQ(r.spec_revision, "5.0");
  ASSERT_FALSE(r.problems.empty());
  EXPECT_TRUE(has_problem(r, "decoded as CMIS"));
}

TEST(CmisDispatch, NoLowerPage) {
  ModuleImage m;
  put(m, 0x00, 128, {0x18});
  for (const ModuleReport& r : {decode(m), decode_cmis(m), decode(ModuleImage{})}) {
    EXPECT_FALSE(r.problems.empty());
    EXPECT_EQ(r.missing_pages, std::vector<std::string>{"lower"});
  }
}

// ---- JSON contract ---------------------------------------------------------------------------

TEST(CmisJson, ContractKeyNames) {
  ModuleImage m = paged_module();
  put_ascii(m, 0x00, 129, 16, "ACME OPTICS");
  put(m, 0x00, 145, {0x00, 0x02, 0xC9});
  put_ascii(m, 0x00, 148, 16, "QDD-400G-DR4");
  put_ascii(m, 0x00, 164, 2, "A1");
  put_ascii(m, 0x00, 166, 16, "SN12345");
  put_ascii(m, 0x00, 182, 8, "240115AB");
  put(m, 0x00, 200, {0x60, 0x2C});  // class 4, 11 W
  put(m, 0x00, 222, {sum8(m, 0x00, 128, 221)});
  put16(m, 0x11, 186, 5000);        // lane 1 Rx 0.5 mW
  put(m, 0x11, 147, {0x01});        // lane 1 Rx LOS
  put16(m, 0x02, 128, 0x4B00);      // temperature high alarm 75 °C
  const nlohmann::json j = to_json(decode_cmis(m));

  EXPECT_EQ(j["identifier"]["code"], 0x18);
  EXPECT_EQ(j["identifier"]["name"], "QSFP-DD");
  EXPECT_EQ(j["spec"], "CMIS");
  EXPECT_EQ(j["spec_revision"], "5.0");
  const auto& v = j["vendor"];
  EXPECT_EQ(v["name"], "ACME OPTICS");
  EXPECT_EQ(v["oui"], "00:02:c9");
  EXPECT_EQ(v["part_number"], "QDD-400G-DR4");
  EXPECT_EQ(v["revision"], "A1");
  EXPECT_EQ(v["serial"], "SN12345");
  EXPECT_EQ(v["date_code"], "240115AB");
  EXPECT_FALSE(v.contains("clei"));  // blank: omitted
  const auto& mod = j["module"];
  EXPECT_DOUBLE_EQ(mod["temperature_celsius"].get<double>(), 25.5);
  EXPECT_DOUBLE_EQ(mod["supply_voltage_volts"].get<double>(), 3.3);
  EXPECT_EQ(mod["state"], "ModuleReady");
  EXPECT_EQ(mod["power_class"], 4);
  EXPECT_DOUBLE_EQ(mod["max_power_watts"].get<double>(), 11.0);
  EXPECT_FALSE(mod.contains("fault_cause"));
  EXPECT_FALSE(mod.contains("laser_temperature_celsius"));
  ASSERT_EQ(j["lanes"].size(), 8u);
  const auto& l1 = j["lanes"][0];
  EXPECT_EQ(l1["lane"], 1);
  EXPECT_DOUBLE_EQ(l1["rx_power_watts"].get<double>(), 0.5e-3);
  EXPECT_DOUBLE_EQ(l1["tx_power_watts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(l1["tx_bias_amperes"].get<double>(), 0.0);
  EXPECT_EQ(l1["flags"], nlohmann::json::array({"rx_los"}));
  const auto& t = j["thresholds"]["temperature_celsius"];
  EXPECT_DOUBLE_EQ(t["high_alarm"].get<double>(), 75.0);
  for (const char* key : {"high_warning", "low_warning", "low_alarm"}) EXPECT_TRUE(t.contains(key));
  ASSERT_GE(j["checksums"].size(), 1u);
  const auto& ck = j["checksums"][0];
  EXPECT_EQ(ck["page"], "00h");
  EXPECT_TRUE(ck.contains("stored"));
  EXPECT_TRUE(ck.contains("computed"));
  EXPECT_EQ(ck["ok"], true);
  EXPECT_EQ(j["missing_pages"], nlohmann::json::array());
}

TEST(CmisJson, AbsentValuesAreOmitted) {
  ModuleImage m = paged_module();
  put(m, 0x01, 159, {0x00, 0x01});  // no module monitors; Tx bias only
  put(m, kLower, 3, {0x0A});        // ModuleFault, cause 0
  const nlohmann::json j = to_json(decode_cmis(m));
  EXPECT_FALSE(j["module"].contains("temperature_celsius"));
  EXPECT_FALSE(j["module"].contains("supply_voltage_volts"));
  EXPECT_EQ(j["module"]["fault_cause"]["code"], 0);
  ASSERT_EQ(j["lanes"].size(), 8u);
  EXPECT_FALSE(j["lanes"][0].contains("rx_power_watts"));
  EXPECT_FALSE(j["lanes"][0].contains("tx_power_watts"));
  EXPECT_TRUE(j["lanes"][0].contains("tx_bias_amperes"));
  EXPECT_FALSE(j["thresholds"].contains("temperature_celsius"));
  m.erase({kDeviceA0, 0, 0x01});
  m.erase({kDeviceA0, 0, 0x02});
  const nlohmann::json j2 = to_json(decode_cmis(m));
  EXPECT_EQ(j2["missing_pages"], nlohmann::json::array({"01h", "02h"}));
  EXPECT_FALSE(j2["vendor"].contains("name"));  // page 00h blank: empty strings omitted
}

}  // namespace
}  // namespace xcvr::cmis
