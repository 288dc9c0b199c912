// Every published dump in tests/data parses, decodes, verifies its checksums, and agrees with
// every value its decoded.txt publishes that we decode (to the published rounding).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "cmis/decode.hpp"
#include "dumpfile/dump_parser.hpp"

namespace xcvr {
namespace {

using cmis::ModuleReport;

std::vector<uint8_t> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ModuleReport decode_dump(const std::string& dir, const std::string& file = "raw.txt") {
  const auto bytes = slurp(std::string(XCVR_TEST_DATA) + "/" + dir + "/" + file);
  EXPECT_FALSE(bytes.empty()) << dir;
  auto parsed = dumpfile::parse(bytes);
  if (auto* err = std::get_if<dumpfile::ParseError>(&parsed)) {
    ADD_FAILURE() << dir << ": " << err->message;
    return {};
  }
  return cmis::decode(std::get<dumpfile::ParsedDump>(parsed).image);
}

const cmis::Application* app(const ModuleReport& r, int index) {
  for (const auto& a : r.applications) {
    if (a.index == index) return &a;
  }
  return nullptr;
}

struct DumpCase {
  const char* dir;
  cmis::Spec spec;
  const char* vendor;
  const char* part_number;
  const char* serial;
  std::vector<const char*> checksummed;  // pages whose checksum must be present and verify
};

class RealDump : public ::testing::TestWithParam<DumpCase> {};

TEST_P(RealDump, DecodesIdentityAndChecksums) {
  const DumpCase& c = GetParam();
  const ModuleReport r = decode_dump(c.dir);
  EXPECT_EQ(r.spec, c.spec);
  EXPECT_EQ(r.id.vendor_name, c.vendor);
  EXPECT_EQ(r.id.part_number, c.part_number);
  EXPECT_EQ(r.id.serial, c.serial);
  for (const char* page : c.checksummed) {
    bool found = false;
    for (const auto& ck : r.checksums) {
      if (ck.page != page) continue;
      found = true;
      EXPECT_TRUE(ck.ok()) << c.dir << " " << page << " stored " << int(ck.stored) << " computed "
                           << int(ck.computed);
    }
    EXPECT_TRUE(found) << c.dir << ": no checksum for " << page;
  }
  for (const auto& ck : r.checksums) EXPECT_TRUE(ck.ok()) << c.dir << " " << ck.page;
  EXPECT_TRUE(r.problems.empty()) << c.dir << ": " << (r.problems.empty() ? "" : r.problems[0]);
}

using S = cmis::Spec;
INSTANTIATE_TEST_SUITE_P(
    AllDumps, RealDump,
    ::testing::Values(
        DumpCase{"osfp800g-credo-aec-xai01-port0", S::Cmis, "Credo", "CAC845301A2NC2XA", "BL8J4455150007V", {"00h", "01h", "02h"}},
        DumpCase{"osfp800g-credo-aec-xai03-port21", S::Cmis, "Credo", "CAC845301A2NC2XA", "BL8J4455150002L", {"00h", "01h", "02h"}},
        DumpCase{"osfp800g-juniper-dr8-xai01-port40", S::Cmis, "JUNIPER-1G1", "740-174932", "1G1TK1AA350AZ", {"00h", "01h", "02h"}},
        DumpCase{"qsfp-dac-molex-1110401054", S::Sff8636, "Molex Inc.", "1110401054", "611030929", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp28-cwdm4-lumentum-lq210cr-caa1", S::Sff8636, "LUMENTUM", "LQ210CR-CAA1", "FF4250500019-Q", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp28-lr4-dell-3mfxg", S::Sff8636, "DELL", "3MFXG", "CN03MFXG56I0001", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp28-psm4-innolight-tr-vc13t-n00", S::Sff8636, "INNOLIGHT", "TR-VC13T-N00", "INGAT6650079", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp28-sr4-finisar-ftlc9551repm", S::Sff8636, "FINISAR CORP", "FTLC9551REPM", "XU90TRP", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp28-sr4-mellanox-mma1b00-mlxsw", S::Sff8636, "Mellanox", "MMA1B00-SS1", "MT1834FT03846", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfp56-dac-mellanox-mcp1650-v001e30", S::Sff8636, "Mellanox", "MCP1650-V001E30", "MT2010VS08329", {"CC_BASE", "CC_EXT"}},
        DumpCase{"qsfpdd-cu-cisco-68-103205-02", S::Cmis, "CISCO", "68-103205-02", "FAB261100CQ", {"00h"}},
        DumpCase{"qsfpdd-dac-mellanox-mcp1660-w00ae30", S::Cmis, "Mellanox", "MCP1660-W00AE30", "MT2019VS04795", {"00h"}},
        DumpCase{"sfp28-sr-finisar-ftlf8536p4bcl", S::Sff8472, "FINISAR CORP.", "FTLF8536P4BCL", "UWB04VY", {"CC_BASE", "CC_EXT"}},
        DumpCase{"sfpplus-sr-finisar-ftlx8571d3bcl", S::Sff8472, "FINISAR CORP.", "FTLX8571D3BCL", "AUJ0RCJ", {"CC_BASE", "CC_EXT", "CC_DMI"}}),
    [](const auto& param_info) {
      std::string name = param_info.param.dir;
      for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

// decoded.txt: "Module firmware revision: 0.13", "Module HW revision: 1.2", "CMIS version: 0x51",
// "Module State Machine: active_ready", "DP 0: dp_ready", the advertised-applications table, and
// the inventory line "REV 01 740-174932 1G1TK1AA350AZ".
TEST(RealDumpJuniperDr8, MatchesPublishedDecode) {
  const ModuleReport r = decode_dump("osfp800g-juniper-dr8-xai01-port40");
  EXPECT_EQ(r.id.identifier.code, 0x19u);
  EXPECT_EQ(r.spec_revision, "5.1");
  EXPECT_EQ(r.id.firmware, "0.13");
  EXPECT_EQ(r.id.hardware_revision, "1.2");
  EXPECT_EQ(r.id.revision, "01");
  ASSERT_TRUE(r.module_state);
  EXPECT_EQ(r.module_state->name, "ModuleReady");
  ASSERT_EQ(r.lanes.size(), 8u);
  for (const auto& l : r.lanes) EXPECT_EQ(l.data_path_state, "DPActivated") << l.lane;
  struct Row { int sel, host, media, host_lanes, media_lanes, host_assign, media_assign; };
  const Row rows[] = {{1, 79, 28, 4, 4, 17, 17}, {2, 80, 28, 4, 4, 17, 17},  {3, 75, 20, 1, 1, 255, 255},
                      {4, 76, 20, 1, 1, 255, 255}, {5, 81, 86, 8, 8, 1, 1},   {6, 82, 86, 8, 8, 1, 1},
                      {7, 77, 224, 2, 2, 85, 85},  {8, 78, 224, 2, 2, 85, 85}};
  // Junos printed AppSel 1-8 (lower memory); page 01h 223-230 adds descriptors 9 and 10 before
  // the 0xFF terminator, which that CLI does not print.
  ASSERT_EQ(r.applications.size(), 10u);
  for (const Row& row : rows) {
    const auto* a = app(r, row.sel);
    ASSERT_NE(a, nullptr) << row.sel;
    EXPECT_EQ(a->host_interface.code, static_cast<uint32_t>(row.host));
    EXPECT_EQ(a->media_interface.code, static_cast<uint32_t>(row.media));
    EXPECT_EQ(a->host_lane_count, row.host_lanes);
    EXPECT_EQ(a->media_lane_count, row.media_lanes);
    EXPECT_EQ(a->host_lane_assignment, row.host_assign);
    EXPECT_EQ(a->media_lane_assignment, row.media_assign);
  }
  EXPECT_EQ(r.applications[0].host_interface.name, "400GAUI-4-S C2M");
  EXPECT_EQ(r.applications[0].media_interface.name, "400GBASE-DR4");
  EXPECT_EQ(r.applications[4].media_interface.name, "800GBASE-DR8");
  // "57 degrees C" is the chassis' integer reading from a separate command: truncated, it
  // agrees with this dump's 57.93 °C.
  ASSERT_TRUE(r.temperature_celsius);
  EXPECT_EQ(std::floor(*r.temperature_celsius), 57.0);
}

// decoded.txt: FW 1.4, HW 10.0, CMIS 0x50, active_ready, DP0/DP1 dp_ready, six applications
// (100G/200G/400G AUI -> "AOC with BER < 10^(-6)", media code 4).
TEST(RealDumpCredoAec, MatchesPublishedDecode) {
  for (const char* dir : {"osfp800g-credo-aec-xai01-port0", "osfp800g-credo-aec-xai03-port21"}) {
    const ModuleReport r = decode_dump(dir);
    EXPECT_EQ(r.spec_revision, "5.0") << dir;
    EXPECT_EQ(r.id.firmware, "1.4") << dir;
    EXPECT_EQ(r.id.hardware_revision, "10.0") << dir;
    ASSERT_TRUE(r.module_state);
    EXPECT_EQ(r.module_state->name, "ModuleReady");
    for (const auto& l : r.lanes) EXPECT_EQ(l.data_path_state, "DPActivated") << dir << l.lane;
  }
  const ModuleReport r = decode_dump("osfp800g-credo-aec-xai01-port0");
  ASSERT_TRUE(r.media_type);
  EXPECT_EQ(r.media_type->code, 0x04u);  // active cable
  const int hosts[] = {75, 76, 77, 78, 79, 80};
  const int lanes[] = {1, 1, 2, 2, 4, 4};
  const int assign[] = {255, 255, 85, 85, 17, 17};
  ASSERT_GE(r.applications.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    const auto* a = app(r, i + 1);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->host_interface.code, static_cast<uint32_t>(hosts[i]));
    EXPECT_EQ(a->media_interface.code, 4u);
    EXPECT_EQ(a->host_lane_count, lanes[i]);
    EXPECT_EQ(a->media_lane_count, lanes[i]);
    EXPECT_EQ(a->host_lane_assignment, assign[i]);
  }
  // An electrical cable has no optical monitors: lane powers are absent or zero, never NaN.
  for (const auto& l : r.lanes) {
    if (l.rx_power_watts) {
      EXPECT_EQ(*l.rx_power_watts, 0.0);
    }
  }
}

// decoded.txt: the 14 threshold lines ethtool printed for this cable.
TEST(RealDumpMellanoxSr4, MatchesPublishedThresholds) {
  const ModuleReport r = decode_dump("qsfp28-sr4-mellanox-mma1b00-mlxsw");
  const auto& t = r.thresholds;
  ASSERT_TRUE(t.count("tx_bias_amperes"));
  EXPECT_NEAR(*t.at("tx_bias_amperes").high_alarm, 8.500e-3, 0.5e-6);
  EXPECT_NEAR(*t.at("tx_bias_amperes").low_alarm, 5.492e-3, 0.5e-6);
  EXPECT_NEAR(*t.at("tx_bias_amperes").high_warning, 8.000e-3, 0.5e-6);
  EXPECT_NEAR(*t.at("tx_bias_amperes").low_warning, 6.000e-3, 0.5e-6);
  ASSERT_TRUE(t.count("tx_power_watts"));
  EXPECT_NEAR(*t.at("tx_power_watts").high_alarm, 3.4673e-3, 0.5e-7);
  EXPECT_NEAR(*t.at("tx_power_watts").low_alarm, 0.0724e-3, 0.5e-7);
  EXPECT_NEAR(*t.at("tx_power_watts").high_warning, 1.7378e-3, 0.5e-7);
  EXPECT_NEAR(*t.at("tx_power_watts").low_warning, 0.1445e-3, 0.5e-7);
  ASSERT_TRUE(t.count("temperature_celsius"));
  EXPECT_NEAR(*t.at("temperature_celsius").high_alarm, 80.0, 0.005);
  EXPECT_NEAR(*t.at("temperature_celsius").low_alarm, -10.0, 0.005);
  EXPECT_NEAR(*t.at("temperature_celsius").high_warning, 70.0, 0.005);
  EXPECT_NEAR(*t.at("temperature_celsius").low_warning, 0.0, 0.005);
  ASSERT_TRUE(t.count("supply_voltage_volts"));
  EXPECT_NEAR(*t.at("supply_voltage_volts").high_alarm, 3.5, 0.00005);
  EXPECT_NEAR(*t.at("supply_voltage_volts").low_alarm, 3.1, 0.00005);
}

// decoded.txt (ONL sff_db .info): module type per the *_PROPERTIES macro.
TEST(RealDumpOnl, ModuleTypesMatch) {
  const std::pair<const char*, uint32_t> cases[] = {
      {"qsfp28-sr4-finisar-ftlc9551repm", 0x02},     // 100GBASE-SR4
      {"qsfp28-lr4-dell-3mfxg", 0x03},               // 100GBASE-LR4
      {"qsfp28-cwdm4-lumentum-lq210cr-caa1", 0x06},  // 100G-CWDM4
      {"qsfp28-psm4-innolight-tr-vc13t-n00", 0x07},  // 100G-PSM4
      {"sfp28-sr-finisar-ftlf8536p4bcl", 0x02},      // 25GBASE-SR
  };
  for (const auto& [dir, code] : cases) {
    const ModuleReport r = decode_dump(dir);
    ASSERT_TRUE(r.extended_compliance) << dir;
    EXPECT_EQ(r.extended_compliance->code, code) << dir;
  }
  EXPECT_EQ(decode_dump("qsfp28-lr4-dell-3mfxg").id.identifier.code, 0x11u);  // "QSFP28"
}

// The two mlxsw dumps are two reads of one cable: same identity, different live monitors.
TEST(RealDumpMellanoxSr4, BeforePatchDumpIsTheSameModule) {
  const ModuleReport a = decode_dump("qsfp28-sr4-mellanox-mma1b00-mlxsw");
  const ModuleReport b = decode_dump("qsfp28-sr4-mellanox-mma1b00-mlxsw", "raw_first_dump_256B_before_patch.txt");
  EXPECT_EQ(a.id.serial, b.id.serial);
  ASSERT_TRUE(a.temperature_celsius && b.temperature_celsius);
  EXPECT_NEAR(*b.temperature_celsius, 42.6, 0.05);  // source.md: ≈ 42.6 °C / 3.3454 V
  EXPECT_NEAR(*a.temperature_celsius, 39.47, 0.005);
  EXPECT_TRUE(b.thresholds.empty());  // 256 bytes: no page 03h
}

}  // namespace
}  // namespace xcvr
