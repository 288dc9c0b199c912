// The steady-state decode (decode_dynamic) must equal a full decode whenever only the bytes a
// poll re-reads have changed: real CMIS dumps with randomised dynamic bytes, and the poll
// engine's own reports on emulated modules with live dynamics.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "dumpfile/dump_parser.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::cmis {
namespace {

ModuleImage load_dump(const std::string& dir) {
  std::ifstream in(std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt", std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto parsed = dumpfile::parse(bytes);
  if (auto* err = std::get_if<dumpfile::ParseError>(&parsed)) ADD_FAILURE() << dir << ": " << err->message;
  return std::get<dumpfile::ParsedDump>(parsed).image;
}

// Overwrites the bytes a steady-state poll re-reads (lower 3-25, page 11h, VDM value pages)
// with random values; identifier, revision and flat-memory bytes (0-2) are left alone.
void scramble_dynamic(ModuleImage& image, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<ModuleImage::Entry> entries = image.entries();
  for (ModuleImage::Entry& e : entries) {
    const bool lower = e.key.page == kLowerPage;
    const bool dynamic_upper = e.key.page == kCmisPageLaneStatus ||
                               (e.key.page >= kCmisPageVdmValues && e.key.page < kCmisPageVdmAdvertising);
    if (!lower && !dynamic_upper) continue;
    for (std::size_t i = lower ? 3 : 0; i < (lower ? 26 : kPageSize); ++i) {
      e.bytes[i] = static_cast<uint8_t>(byte(rng));
    }
    image.set_page(e.key, e.bytes, e.read_at_ns);
  }
}

class CmisDecodeDynamic : public ::testing::TestWithParam<const char*> {};

TEST_P(CmisDecodeDynamic, EqualsFullDecodeAfterDynamicBytesChange) {
  ModuleImage image = load_dump(GetParam());
  ModuleReport report = decode(image);  // refreshed in place across many polls
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    scramble_dynamic(image, rng);
    ASSERT_TRUE(decode_dynamic(image, report)) << "round " << round;
    ASSERT_EQ(to_json(report).dump(), to_json(decode(image)).dump()) << "round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(RealDumps, CmisDecodeDynamic,
                         ::testing::Values("osfp800g-juniper-dr8-xai01-port40", "osfp800g-credo-aec-xai01-port0",
                                           "osfp800g-credo-aec-xai03-port21", "qsfpdd-cu-cisco-68-103205-02",
                                           "qsfpdd-dac-mellanox-mcp1660-w00ae30"));

TEST(CmisDecodeDynamicRefuses, OtherSpecsAndAChangedLowerPage) {
  const ModuleImage sff = load_dump("qsfp28-sr4-mellanox-mma1b00-mlxsw");
  ModuleReport r = decode(sff);
  const std::string before = to_json(r).dump();
  EXPECT_FALSE(decode_dynamic(sff, r));
  EXPECT_EQ(to_json(r).dump(), before) << "a refused refresh must leave the report untouched";

  ModuleImage cmis = load_dump("osfp800g-juniper-dr8-xai01-port40");
  ModuleReport c = decode(cmis);
  ModuleImage::Entry lower = *cmis.find({kDeviceA0, 0, kLowerPage});
  lower.bytes[1] ^= 0x10;  // another CMIS revision: a different module or firmware
  cmis.set_page(lower.key, lower.bytes);
  EXPECT_FALSE(decode_dynamic(cmis, c));
  lower.bytes[1] ^= 0x10;
  lower.bytes[0] = 0x11;  // now a QSFP28 (SFF-8636) identifier
  cmis.set_page(lower.key, lower.bytes);
  EXPECT_FALSE(decode_dynamic(cmis, c));
}

// The engine's reports, built by in-place refreshes of reused reports, equal a full decode of
// the image they came from, poll after poll, on every emulated CMIS model.
TEST(CmisDecodeDynamicEngine, ReportsEqualAFullDecodeOfTheImage) {
  using daemon::testing_support::Fleet;
  using daemon::testing_support::make_module;
  const char* models[] = {"qsfpdd-400g-sr8", "qsfpdd-400g-dr4", "osfp-800g-2xsr4-finned",
                          "osfp-800g-aec", "qsfpdd-400g-dac", "osfp-400g-sr4-flat"};
  Fleet f(1, 6, nullptr);
  for (int c = 0; c < 6; ++c) f.buses[0]->insert(c, make_module(models[c], f.clock, static_cast<uint64_t>(c + 5)));
  f.run_for(4.0);
  for (int second = 0; second < 30; ++second) {
    f.run_for(1.0);
    for (int c = 0; c < 6; ++c) {
      const std::string name = "sw/b0c" + std::to_string(c);
      const daemon::PortSnapshot& p = f.port(name);
      ASSERT_NE(p.report, nullptr) << name;
      EXPECT_EQ(to_json(*p.report).dump(), to_json(decode(f.engine->port(name)->image())).dump())
          << models[c] << " after " << second << " s";
    }
  }
}

}  // namespace
}  // namespace xcvr::cmis
