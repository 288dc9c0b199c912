#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cmis/codes.hpp"

namespace xcvr::cmis::codes {
namespace {

// raw F16: bits 15-11 exponent, bits 10-0 mantissa.
constexpr uint16_t f16(unsigned exponent, unsigned mantissa) {
  return static_cast<uint16_t>((exponent << 11) | mantissa);
}

TEST(Codes, Identifier) {
  EXPECT_EQ(identifier(0x18), "QSFP-DD");
  EXPECT_EQ(identifier(0x19), "OSFP");
  EXPECT_EQ(identifier(0x11), "QSFP28");
  EXPECT_EQ(identifier(0x0D), "QSFP+");
  EXPECT_EQ(identifier(0x0C), "QSFP");
  EXPECT_EQ(identifier(0x03), "SFP/SFP+/SFP28");
  EXPECT_EQ(identifier(0x1E), "QSFP+ or later with CMIS");
  EXPECT_EQ(identifier(0x21), "OSFP-XD with CMIS");
  EXPECT_EQ(identifier(0x2a), "reserved (0x2a)");
  EXPECT_EQ(identifier(0x7F), "reserved (0x7f)");
  EXPECT_EQ(identifier(0x80), "vendor specific (0x80)");
  EXPECT_EQ(identifier(0xFF), "vendor specific (0xff)");
}

TEST(Codes, Connector) {
  EXPECT_EQ(connector(0x07), "LC");
  EXPECT_EQ(connector(0x0C), "MPO 1x12");
  EXPECT_EQ(connector(0x0D), "MPO 2x16");
  EXPECT_EQ(connector(0x23), "No separable connector");
  EXPECT_EQ(connector(0x27), "MPO 2x12");
  EXPECT_EQ(connector(0x28), "MPO 1x16");
  EXPECT_EQ(connector(0x22), "RJ45");
  EXPECT_EQ(connector(0x0E), "reserved (0x0e)");
  EXPECT_EQ(connector(0x29), "reserved (0x29)");
  EXPECT_EQ(connector(0x91), "vendor specific (0x91)");
}

TEST(Codes, ExtendedCompliance) {
  EXPECT_EQ(extended_compliance(0x00), "Unspecified");
  EXPECT_EQ(extended_compliance(0x02), "100GBASE-SR4 or 25GBASE-SR");
  EXPECT_EQ(extended_compliance(0x06), "100G CWDM4");
  EXPECT_EQ(extended_compliance(0x25), "100GBASE-DR");
  EXPECT_EQ(extended_compliance(0x26), "100G-FR or 100GBASE-FR1");
  EXPECT_EQ(extended_compliance(0x48), "400GBASE-FR4");
  EXPECT_EQ(extended_compliance(0x81), "128GFC");
  EXPECT_EQ(extended_compliance(0x0A), "reserved (0x0a)");
  EXPECT_EQ(extended_compliance(0xF0), "reserved (0xf0)");
}

TEST(Codes, HostInterface) {
  EXPECT_EQ(host_interface(0x00), "Undefined");
  EXPECT_EQ(host_interface(0x0B), "CAUI-4 C2M");
  EXPECT_EQ(host_interface(0x0F), "200GAUI-4 C2M");
  EXPECT_EQ(host_interface(0x11), "400GAUI-8 C2M");
  EXPECT_EQ(host_interface(0x1D), "400G CR8");
  EXPECT_EQ(host_interface(0x32), "IB NDR");
  EXPECT_EQ(host_interface(0x4F), "400GAUI-4-S C2M");
  EXPECT_EQ(host_interface(0x51), "800G S C2M");
  EXPECT_EQ(host_interface(0x52), "800G L C2M");
  EXPECT_EQ(host_interface(0xFF), "Unused/end of list");
  EXPECT_EQ(host_interface(0x12), "reserved (0x12)");
  EXPECT_EQ(host_interface(0xBF), "reserved (0xbf)");
  EXPECT_EQ(host_interface(0xC0), "custom (0xc0)");
  EXPECT_EQ(host_interface(0xFE), "custom (0xfe)");
}

TEST(Codes, ApplicationTerminator) {
  EXPECT_TRUE(is_application_terminator(0xFF));
  EXPECT_TRUE(is_application_terminator(0x00));
  EXPECT_FALSE(is_application_terminator(0x11));
  EXPECT_FALSE(is_application_terminator(0xFE));
  EXPECT_FALSE(is_application_terminator(0x01));
}

TEST(Codes, MediaType) {
  EXPECT_EQ(media_type(0), "Undefined");
  EXPECT_EQ(media_type(1), "MMF");
  EXPECT_EQ(media_type(2), "SMF");
  EXPECT_EQ(media_type(3), "Passive copper");
  EXPECT_EQ(media_type(4), "Active cable");
  EXPECT_EQ(media_type(5), "BASE-T");
  EXPECT_EQ(media_type(0x06), "reserved (0x06)");
  EXPECT_EQ(media_type(0x3F), "reserved (0x3f)");
  EXPECT_EQ(media_type(0x40), "custom (0x40)");
  EXPECT_EQ(media_type(0x8F), "custom (0x8f)");
  EXPECT_EQ(media_type(0x90), "reserved (0x90)");
}

TEST(Codes, MediaInterfaceMmf) {
  EXPECT_EQ(media_interface(0x01, 0x02), "10GBASE-SR");
  EXPECT_EQ(media_interface(0x01, 0x09), "100GBASE-SR4");
  EXPECT_EQ(media_interface(0x01, 0x10), "400GBASE-SR8");
  EXPECT_EQ(media_interface(0x01, 0x11), "400GBASE-SR4");
  EXPECT_EQ(media_interface(0x01, 0x12), "800G-SR8");
  EXPECT_EQ(media_interface(0x01, 0x1A), "400GBASE-SR4.2");
  EXPECT_EQ(media_interface(0x01, 0x60), "reserved (0x60)");
  EXPECT_EQ(media_interface(0x01, 0xC5), "custom (0xc5)");
}

TEST(Codes, MediaInterfaceSmf) {
  EXPECT_EQ(media_interface(0x02, 0x10), "100G CWDM4");
  EXPECT_EQ(media_interface(0x02, 0x14), "100GBASE-DR");
  EXPECT_EQ(media_interface(0x02, 0x1C), "400GBASE-DR4");
  EXPECT_EQ(media_interface(0x02, 0x1D), "400G-FR4/400GBASE-FR4");
  EXPECT_EQ(media_interface(0x02, 0x1E), "400G-LR4-10");
  EXPECT_EQ(media_interface(0x02, 0x43), "400GBASE-LR4-6");
  EXPECT_EQ(media_interface(0x02, 0x56), "800GBASE-DR8");
  EXPECT_EQ(media_interface(0x02, 0x57), "800GBASE-DR8-2");
  EXPECT_EQ(media_interface(0x02, 0xC1), "custom (0xc1)");  // e.g. FBOSS FR8_800G
  EXPECT_EQ(media_interface(0x02, 0x35), "reserved (0x35)");
}

TEST(Codes, MediaInterfaceCopperActiveBaseT) {
  EXPECT_EQ(media_interface(0x03, 0x01), "Copper cable");
  EXPECT_EQ(media_interface(0x03, 0xBF), "Passive loopback module");
  EXPECT_EQ(media_interface(0x03, 0x02), "reserved (0x02)");
  EXPECT_EQ(media_interface(0x04, 0x01), "Active cable, BER < 1e-12");
  EXPECT_EQ(media_interface(0x04, 0x04), "Active cable, BER < 1e-6");
  EXPECT_EQ(media_interface(0x04, 0xBF), "Active loopback module");
  EXPECT_EQ(media_interface(0x05, 0x04), "10GBASE-T");
  EXPECT_EQ(media_interface(0x05, 0x01), "1000BASE-T");
  EXPECT_EQ(media_interface(0x05, 0x08), "reserved (0x08)");
}

TEST(Codes, MediaInterfaceWithoutTable) {
  EXPECT_EQ(media_interface(0x00, 0x10), "unknown (0x10)");
  EXPECT_EQ(media_interface(0x06, 0x01), "unknown (0x01)");
  EXPECT_EQ(media_interface(0x40, 0x1C), "unknown (0x1c)");
  EXPECT_EQ(media_interface(0xFF, 0xFF), "unknown (0xff)");
  // The same code means different things under different media types.
  EXPECT_NE(media_interface(0x01, 0x10), media_interface(0x02, 0x10));
}

TEST(Codes, MediaInterfaceTechnology) {
  EXPECT_EQ(media_interface_technology(0x00), "850 nm VCSEL");
  EXPECT_EQ(media_interface_technology(0x06), "1310 nm EML");
  EXPECT_EQ(media_interface_technology(0x0A), "Copper cable unequalized");
  EXPECT_EQ(media_interface_technology(0x10), "C-band tunable laser");
  EXPECT_EQ(media_interface_technology(0x11), "L-band tunable laser");
  EXPECT_EQ(media_interface_technology(0x12), "reserved (0x12)");
}

TEST(Codes, ModuleState) {
  EXPECT_EQ(module_state(1), "ModuleLowPwr");
  EXPECT_EQ(module_state(2), "ModulePwrUp");
  EXPECT_EQ(module_state(3), "ModuleReady");
  EXPECT_EQ(module_state(4), "ModulePwrDn");
  EXPECT_EQ(module_state(5), "ModuleFault");
  EXPECT_EQ(module_state(0), "reserved (0x00)");
  EXPECT_EQ(module_state(6), "reserved (0x06)");
  EXPECT_EQ(module_state(7), "reserved (0x07)");
}

TEST(Codes, DataPathState) {
  EXPECT_EQ(data_path_state(1), "DPDeactivated");
  EXPECT_EQ(data_path_state(2), "DPInit");
  EXPECT_EQ(data_path_state(3), "DPDeinit");
  EXPECT_EQ(data_path_state(4), "DPActivated");
  EXPECT_EQ(data_path_state(5), "DPTxTurnOn");
  EXPECT_EQ(data_path_state(6), "DPTxTurnOff");
  EXPECT_EQ(data_path_state(7), "DPInitialized");
  EXPECT_EQ(data_path_state(0), "reserved (0x00)");
  EXPECT_EQ(data_path_state(0xF), "reserved (0x0f)");
}

TEST(Codes, ConfigStatus) {
  EXPECT_EQ(config_status(0x0), "ConfigUndefined");
  EXPECT_EQ(config_status(0x1), "ConfigSuccess");
  EXPECT_EQ(config_status(0x3), "ConfigRejectedInvalidAppSel");
  EXPECT_EQ(config_status(0x6), "ConfigRejectedLaneInUse");
  EXPECT_EQ(config_status(0xC), "ConfigInProgress");
  EXPECT_EQ(config_status(0x8), "reserved (0x08)");
  EXPECT_EQ(config_status(0xD), "custom (0x0d)");
  EXPECT_EQ(config_status(0xF), "custom (0x0f)");
}

TEST(Codes, ModuleFaultCause) {
  EXPECT_EQ(module_fault_cause(0), "No fault detected or not supported");
  EXPECT_EQ(module_fault_cause(1), "TEC runaway");
  EXPECT_EQ(module_fault_cause(2), "Data memory corrupted");
  EXPECT_EQ(module_fault_cause(3), "Program memory corrupted");
  EXPECT_EQ(module_fault_cause(4), "reserved (0x04)");
  EXPECT_EQ(module_fault_cause(31), "reserved (0x1f)");
  EXPECT_EQ(module_fault_cause(32), "custom (0x20)");
  EXPECT_EQ(module_fault_cause(63), "custom (0x3f)");
  EXPECT_EQ(module_fault_cause(64), "reserved (0x40)");
}

TEST(Codes, Sff8636Revision) {
  EXPECT_EQ(sff8636_revision(0x00), "Not specified");
  EXPECT_EQ(sff8636_revision(0x03), "SFF-8636 rev 1.3 or earlier");
  EXPECT_EQ(sff8636_revision(0x07), "SFF-8636 rev 2.5-2.7");
  EXPECT_EQ(sff8636_revision(0x08), "SFF-8636 rev 2.8-2.10");
  EXPECT_EQ(sff8636_revision(0x09), "reserved (0x09)");
}

TEST(Codes, Sff8472Compliance) {
  EXPECT_EQ(sff8472_compliance(0), "Not included or undefined");
  EXPECT_EQ(sff8472_compliance(1), "SFF-8472 rev 9.3");
  EXPECT_EQ(sff8472_compliance(5), "SFF-8472 rev 11.0");
  EXPECT_EQ(sff8472_compliance(8), "SFF-8472 rev 12.3");
  EXPECT_EQ(sff8472_compliance(9), "SFF-8472 rev 12.4");
  EXPECT_EQ(sff8472_compliance(10), "reserved (0x0a)");
}

TEST(Codes, VdmTypeKnown) {
  auto age = vdm_type(1);
  ASSERT_TRUE(age);
  EXPECT_EQ(age->name, "laser_age");
  EXPECT_EQ(age->encoding, VdmEncoding::U16);
  EXPECT_DOUBLE_EQ(age->scale, 0.01);
  EXPECT_EQ(age->unit, "ratio");

  auto tec = vdm_type(2);
  ASSERT_TRUE(tec);
  EXPECT_EQ(tec->name, "tec_current");
  EXPECT_EQ(tec->encoding, VdmEncoding::S16);
  EXPECT_DOUBLE_EQ(tec->scale * 32767.0, 1.0);
  EXPECT_EQ(tec->unit, "ratio");

  auto freq = vdm_type(3);
  ASSERT_TRUE(freq);
  EXPECT_EQ(freq->name, "laser_frequency_error");
  EXPECT_EQ(freq->encoding, VdmEncoding::S16);
  EXPECT_DOUBLE_EQ(freq->scale, 10e6);
  EXPECT_EQ(freq->unit, "hertz");

  auto temp = vdm_type(4);
  ASSERT_TRUE(temp);
  EXPECT_EQ(temp->name, "laser_temperature");
  EXPECT_EQ(temp->encoding, VdmEncoding::S16);
  EXPECT_DOUBLE_EQ(temp->scale, 1.0 / 256.0);
  EXPECT_EQ(temp->unit, "celsius");

  const std::vector<std::pair<uint8_t, std::string>> snr_ltp = {
      {5, "esnr_media_input"}, {6, "esnr_host_input"}, {7, "ltp_media_input"},
      {8, "ltp_host_input"}};
  for (const auto& [id, name] : snr_ltp) {
    auto t = vdm_type(id);
    ASSERT_TRUE(t) << int(id);
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->encoding, VdmEncoding::U16);
    EXPECT_DOUBLE_EQ(t->scale, 1.0 / 256.0);
    EXPECT_EQ(t->unit, "decibels");
  }
}

TEST(Codes, VdmTypeBerAndErroredFrames) {
  const std::vector<std::pair<uint8_t, std::string>> f16_types = {
      {9, "pre_fec_ber_min_media"},        {10, "pre_fec_ber_min_host"},
      {11, "pre_fec_ber_max_media"},       {12, "pre_fec_ber_max_host"},
      {13, "pre_fec_ber_avg_media"},       {14, "pre_fec_ber_avg_host"},
      {15, "pre_fec_ber_current_media"},   {16, "pre_fec_ber_current_host"},
      {17, "errored_frames_min_media"},    {18, "errored_frames_min_host"},
      {19, "errored_frames_max_media"},    {20, "errored_frames_max_host"},
      {21, "errored_frames_avg_media"},    {22, "errored_frames_avg_host"},
      {23, "errored_frames_current_media"}, {24, "errored_frames_current_host"}};
  for (const auto& [id, name] : f16_types) {
    auto t = vdm_type(id);
    ASSERT_TRUE(t) << int(id);
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->encoding, VdmEncoding::F16);
    EXPECT_EQ(t->scale, 1.0);
    EXPECT_EQ(t->unit, "ratio");
  }
}

TEST(Codes, VdmTypeCoverageAndUnknown) {
  for (int id = 1; id <= 34; ++id) EXPECT_TRUE(vdm_type(static_cast<uint8_t>(id))) << id;
  for (int id = 77; id <= 84; ++id) EXPECT_TRUE(vdm_type(static_cast<uint8_t>(id))) << id;
  EXPECT_FALSE(vdm_type(0));
  EXPECT_FALSE(vdm_type(35));
  EXPECT_FALSE(vdm_type(76));
  EXPECT_FALSE(vdm_type(85));
  EXPECT_FALSE(vdm_type(0xFF));

  auto vcc = vdm_type(77);
  ASSERT_TRUE(vcc);
  EXPECT_EQ(vcc->unit, "volts");
  EXPECT_DOUBLE_EQ(vcc->scale, 100e-6);
  auto els = vdm_type(84);
  ASSERT_TRUE(els);
  EXPECT_EQ(els->encoding, VdmEncoding::S16);
}

TEST(Codes, VdmTypeNamesAreSnakeCaseAndUnique) {
  std::vector<std::string> seen;
  for (int id = 0; id < 256; ++id) {
    auto t = vdm_type(static_cast<uint8_t>(id));
    if (!t) continue;
    ASSERT_FALSE(t->name.empty());
    ASSERT_FALSE(t->unit.empty());
    EXPECT_GT(t->scale, 0.0);
    for (char c : t->name) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << t->name;
    }
    for (const auto& s : seen) EXPECT_NE(s, t->name);
    seen.push_back(t->name);
  }
}

TEST(Codes, VdmF16) {
  EXPECT_EQ(vdm_f16(f16(24, 5)), 5.0);
  EXPECT_EQ(vdm_f16(f16(15, 1000)), 1e-6);
  EXPECT_EQ(vdm_f16(f16(24, 0)), 0.0);
  EXPECT_EQ(vdm_f16(0x0000), 0.0);
  EXPECT_EQ(vdm_f16(f16(25, 12)), 120.0);
  EXPECT_EQ(vdm_f16(f16(31, 2047)), 2047e7);  // largest value
  EXPECT_EQ(vdm_f16(f16(14, 2047)), 2047e-10);
  EXPECT_EQ(vdm_f16(f16(18, 123)), 1.23e-4);
  EXPECT_EQ(vdm_f16(f16(2, 7)), 7e-22);
  EXPECT_EQ(vdm_f16(f16(1, 7)), 7e-23);  // 10^23 is not an exact double
  EXPECT_EQ(vdm_f16(f16(0, 1)), 1e-24);  // smallest non-zero value
  EXPECT_EQ(vdm_f16(f16(0, 2047)), 2047e-24);
  // Exponent and mantissa fields do not bleed into each other.
  EXPECT_EQ(vdm_f16(0x07FF), 2047e-24);
  EXPECT_EQ(vdm_f16(0xF800), 0.0);
}

TEST(Codes, VdmF16MatchesFormulaForEveryRaw) {
  for (unsigned raw = 0; raw <= 0xFFFF; raw += 7) {
    const double m = raw & 0x7FF;
    const int e = static_cast<int>(raw >> 11);
    const double expected = m * std::pow(10.0, e - 24);
    const double got = vdm_f16(static_cast<uint16_t>(raw));
    EXPECT_NEAR(got, expected, std::abs(expected) * 1e-15) << raw;
  }
}

TEST(Codes, NeverEmptyForAnyCode) {
  const std::vector<std::pair<const char*, std::function<std::string_view(uint8_t)>>> fns = {
      {"identifier", identifier},
      {"connector", connector},
      {"host_interface", host_interface},
      {"media_type", media_type},
      {"media_interface_technology", media_interface_technology},
      {"extended_compliance", extended_compliance},
      {"module_state", module_state},
      {"data_path_state", data_path_state},
      {"module_fault_cause", module_fault_cause},
      {"config_status", config_status},
      {"sff8636_revision", sff8636_revision},
      {"sff8472_compliance", sff8472_compliance},
  };
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    for (const auto& [name, fn] : fns) {
      EXPECT_FALSE(fn(code).empty()) << name << " " << c;
      // Static text, listed or not: a report keeps the view, so each call sees the same bytes.
      EXPECT_EQ(fn(code).data(), fn(code).data()) << name << " " << c;
    }
    for (int mt = 0; mt < 256; ++mt) {
      EXPECT_FALSE(media_interface(static_cast<uint8_t>(mt), code).empty()) << mt << " " << c;
    }
  }
}

// Lane counts come from the same SFF-8024 rows as the names (Tables 4-5, 4-6, 4-7).
TEST(Codes, InterfaceLaneCounts) {
  EXPECT_EQ(host_interface_lanes(0x11), 8);  // 400GAUI-8 C2M
  EXPECT_EQ(host_interface_lanes(0x0C), 4);  // 100GAUI-4 C2M
  EXPECT_EQ(host_interface_lanes(0x4D), 2);  // 200GAUI-2-S C2M
  EXPECT_EQ(host_interface_lanes(0x05), 1);  // 25GAUI C2M
  EXPECT_EQ(host_interface_lanes(0x00), 0);  // undefined: not fixed
  EXPECT_EQ(host_interface_lanes(0x12), 0);  // reserved: not in the table
  EXPECT_EQ(media_interface_lanes(0x02, 0x1C), 4);  // SMF 400GBASE-DR4
  EXPECT_EQ(media_interface_lanes(0x02, 0x56), 8);  // SMF 800GBASE-DR8
  EXPECT_EQ(media_interface_lanes(0x01, 0x10), 8);  // MMF 400GBASE-SR8
  EXPECT_EQ(media_interface_lanes(0x01, 0x08), 10); // MMF 100GBASE-SR10
  EXPECT_EQ(media_interface_lanes(0x01, 0x1C), 0);  // MMF 128GFC-MM: not fixed here
  EXPECT_EQ(media_interface_lanes(0x03, 0x01), 0);  // copper: no media lane table
  EXPECT_EQ(media_interface_lanes(0x77, 0x01), 0);  // unknown media type
}

TEST(Codes, TechnologyClasses) {
  for (int t = 0; t < 256; ++t) {
    const auto code = static_cast<uint8_t>(t);
    EXPECT_EQ(technology_is_copper(code), t >= 0x0A && t <= 0x0F) << t;
    EXPECT_EQ(technology_is_passive_copper(code), t == 0x0A || t == 0x0B) << t;
  }
  EXPECT_EQ(module_state(code_of(ModuleState::Fault)), "ModuleFault");
  EXPECT_EQ(data_path_state(code_of(DataPathState::Activated)), "DPActivated");
}

TEST(Codes, FallbackFormatIsLowerHexTwoDigits) {
  EXPECT_EQ(identifier(0xAB), "vendor specific (0xab)");
  EXPECT_EQ(connector(0x0F), "reserved (0x0f)");
  EXPECT_EQ(extended_compliance(0xFF), "reserved (0xff)");
}

}  // namespace
}  // namespace xcvr::cmis::codes
