// Coding verdicts of every real module dump in tests/data (parsed with the dump parser, decoded,
// verified), each with the reason it is the right answer; and `xcvrctl verify` end to end:
// exit codes, the report, and bad input (garbage, truncated, blank, missing) exiting 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cmis/decode.hpp"
#include "coding/catalog.hpp"
#include "coding/coding.hpp"
#include "dumpfile/dump_parser.hpp"
#include "tests/support/run_command.hpp"

namespace xcvr {
namespace {

using coding::CheckStatus;

constexpr double kNow = 1767268800;  // 2026-01-01 12:00 UTC

std::string data(const std::string& rel) { return std::string(XCVR_TEST_DATA) + "/" + rel; }
std::string catalog_dir() { return std::string(XCVR_TEST_DATA) + "/../../config/catalog"; }

const coding::Catalog& shipped_catalog() {
  static const coding::Catalog catalog = [] {
    auto r = coding::load_catalog({catalog_dir()});
    if (auto* e = std::get_if<coding::CatalogError>(&r)) ADD_FAILURE() << e->to_string();
    return std::get_if<coding::Catalog>(&r) ? std::get<coding::Catalog>(r) : coding::Catalog{};
  }();
  return catalog;
}

// The IEEE MA-L entries of these modules' OUIs, as Debian ieee-data 20220827 lists them
// (coding_catalog_test compares them with the installed registry when there is one).
const std::map<std::string, std::string>& registry_entries() {
  static const std::map<std::string, std::string> e = {
      {"00:02:c9", "Mellanox Technologies, Inc."}, {"00:90:65", "FINISAR CORPORATION"},
      {"00:01:9c", "JDS Uniphase Inc."},          {"00:1f:22", "Source Photonics, Inc."},
      {"44:7c:7f", "Innolight Technology Corporation"}, {"00:09:3a", "Molex CMS"},
      {"00:06:f6", "Cisco Systems, Inc"},          {"20:1b:c9", "Juniper Networks"},
  };
  return e;
}

const coding::OuiRegistry& registry() {
  static const coding::OuiRegistry r = [] {
    coding::OuiRegistry reg;
    for (const auto& [oui, org] : registry_entries()) reg.add(oui, org);
    return reg;
  }();
  return r;
}

coding::ModuleVerdict verify_dump(const std::string& dir) {
  auto parsed = dumpfile::parse_file(data(dir + "/raw.txt"));
  if (auto* err = std::get_if<dumpfile::ParseError>(&parsed)) {
    ADD_FAILURE() << dir << ": " << err->message;
    return {};
  }
  const cmis::ModuleImage& image = std::get<dumpfile::ParsedDump>(parsed).image;
  EXPECT_TRUE(coding::looks_like_module(image)) << dir;
  coding::VerifyContext ctx;
  ctx.catalog = &shipped_catalog();
  ctx.oui = &registry();
  ctx.now_unix = kNow;
  return coding::verify_module_detailed(image, cmis::decode(image), ctx);
}

struct Expected {
  const char* dir;
  std::set<std::string> fail;
  std::set<std::string> warn;
  const char* catalog;  // entry used, "" none
  const char* why;      // why this verdict is the right answer
};

const std::vector<Expected> kDumps = {
    {"osfp800g-credo-aec-xai01-port0", {}, {"vendor_oui"}, "",
     "OUI 9a:ad:ca is in no MA-L registry and has its U/L bit set: an IEEE CID (whose registry Debian "
     "does not ship) or a locally administered value. Nothing ties it to Credo, nor rules it out: "
     "unverifiable is a warning, not a failure. The cable's lane monitors read 0, but page 01h byte "
     "160 does not advertise them, so that is consistent."},
    {"osfp800g-credo-aec-xai03-port21", {}, {"vendor_oui"}, "", "Second unit of the same Credo cable: same OUI."},
    {"osfp800g-juniper-dr8-xai01-port40", {}, {"app_advertisement"}, "",
     "Application descriptors 9 and 10 (page 01h) advertise 200GAUI-2 with media interface 00h, which "
     "SFF-8024 calls undefined: a host cannot tell what those applications put on the fiber. The host "
     "side is well formed and the custom media code E0h of descriptors 7-8 is the vendor's right, so "
     "this warns rather than fails."},
    {"qsfp-dac-molex-1110401054", {}, {}, "",
     "A passive DAC without DOM: transmitter technology 0Ah (copper), no monitors advertised and none "
     "read non-zero, no page 03h; both checksums verify, the OUI is Molex's."},
    {"qsfp28-cwdm4-lumentum-lq210cr-caa1", {}, {}, "qsfp28-100g-cwdm4",
     "OUI 00:01:9c is registered to JDS Uniphase, of which Lumentum was part until 2015; the built-in "
     "lumentum vendor entry says so. LC connector and 1311 nm fit the CWDM4 profile."},
    {"qsfp28-lr4-dell-3mfxg", {}, {}, "qsfp28-100g-lr4",
     "Dell is a rebrander: OUI 00:1f:22 belongs to the maker, Source Photonics. 1310 nm and LC fit "
     "100GBASE-LR4."},
    {"qsfp28-psm4-innolight-tr-vc13t-n00", {}, {}, "",
     "Clean: Innolight's own OUI, PSM4 compliance with a 1310 nm DFB. Rx power reads 0.1 uW, not "
     "exactly 0. No catalog profile for PSM4."},
    {"qsfp28-sr4-finisar-ftlc9551repm", {}, {}, "qsfp28-100g-sr4", "Clean Finisar SR4: MPO, 850 nm."},
    {"qsfp28-sr4-mellanox-mma1b00-mlxsw", {}, {"date_code"}, "qsfp28-100g-sr4",
     "The lot code bytes after the date 180703 are 00h 00h; SFF-8636 fields are ASCII, padded with "
     "spaces. A cosmetic miscoding, so a warning. Lane monitors read 0 (the port was down: no lane is "
     "biased), which is not inconsistent."},
    {"qsfp56-dac-mellanox-mcp1650-v001e30", {}, {}, "",
     "A passive DAC without DOM (technology 0Ah, 200GBASE-CR4 compliance): nothing to contradict."},
    {"qsfpdd-cu-cisco-68-103205-02", {"app_advertisement", "media_type"}, {}, "",
     "Application descriptors 1-7 are empty (host ID 00h) and only descriptor 8 is used, with host lane "
     "assignment 00h and media ID 00h: CMIS lists start at descriptor 1 and end with FFh, and an "
     "application no host lane may start is unusable (the list sonic-platform-common stopped early "
     "on). And media type 03h (passive copper) contradicts media interface technology 00h (850 nm "
     "VCSEL); its connector byte is 00h (unknown)."},
    {"qsfpdd-dac-mellanox-mcp1660-w00ae30", {}, {}, "",
     "Flat-memory CMIS 3.0 DAC: eight well-formed copper applications, class 1 with 0.25 W; no page "
     "01h, so monitor checks have nothing to compare."},
    {"sfp28-sr-finisar-ftlf8536p4bcl", {}, {}, "",
     "A0h only: both A0h checksums verify; the A2h diagnostics were not captured, so the monitor and "
     "threshold checks skip instead of guessing."},
    {"sfpplus-sr-finisar-ftlx8571d3bcl", {}, {}, "",
     "Clean SFP+ with A2h: CC_DMI verifies, thresholds ordered and plausible (78 C high alarm)."},
};

TEST(CodingRealDumps, EveryDumpInTestDataHasAnAssertedVerdict) {
  std::set<std::string> listed;
  for (const Expected& e : kDumps) listed.insert(e.dir);
  for (const auto& de : std::filesystem::directory_iterator(XCVR_TEST_DATA)) {
    if (!de.is_directory() || !std::filesystem::exists(de.path() / "raw.txt")) continue;
    EXPECT_TRUE(listed.contains(de.path().filename().string())) << de.path() << " has no coding verdict here";
  }
}

TEST(CodingRealDumps, Verdicts) {
  for (const Expected& e : kDumps) {
    SCOPED_TRACE(std::string(e.dir) + " -- " + e.why);
    const coding::ModuleVerdict v = verify_dump(e.dir);
    std::set<std::string> fail, warn;
    std::string all;
    for (const auto& r : v.results) {
      if (r.status == CheckStatus::Fail) fail.insert(r.check);
      if (r.status == CheckStatus::Warn) warn.insert(r.check);
      if (r.status == CheckStatus::Fail || r.status == CheckStatus::Warn) all += r.check + ": " + r.message() + "\n";
    }
    EXPECT_EQ(fail, e.fail) << all;
    EXPECT_EQ(warn, e.warn) << all;
    EXPECT_EQ(v.catalog_key, e.catalog);
    // Every problem names the bytes it read.
    for (const auto& f : v.findings()) {
      EXPECT_NE(f.message.find("byte"), std::string::npos) << f.check << ": " << f.message;
    }
  }
}

TEST(CodingRealDumps, CiscoFindingsNameTheDescriptors) {
  const auto v = verify_dump("qsfpdd-cu-cisco-68-103205-02");
  const std::string apps = v.find("app_advertisement")->message();
  EXPECT_NE(apps.find("descriptors 1, 2, 3, 4, 5, 6, 7 before descriptor 8"), std::string::npos) << apps;
  EXPECT_NE(apps.find("lower page byte 114 (app_host_interface lane 8)"), std::string::npos) << apps;
  EXPECT_NE(apps.find("host lane assignment is 00h"), std::string::npos) << apps;
  const std::string media = v.find("media_type")->message();
  EXPECT_NE(media.find("lower page byte 85 (media_type)"), std::string::npos) << media;
  EXPECT_NE(media.find("page 00h byte 212 (media_interface_technology)"), std::string::npos) << media;
}

TEST(CodingRealDumps, WithoutARegistryTheOuiIsUnverifiableNotAFailure) {
  auto parsed = dumpfile::parse_file(data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  const cmis::ModuleImage& image = std::get<dumpfile::ParsedDump>(parsed).image;
  const coding::OuiRegistry missing = coding::OuiRegistry::load("/nonexistent/ieee-data");
  EXPECT_FALSE(missing.available());
  coding::VerifyContext ctx;
  ctx.oui = &missing;
  ctx.now_unix = kNow;
  const auto v = coding::verify_module_detailed(image, cmis::decode(image), ctx);
  const auto* r = v.find("vendor_oui");
  EXPECT_EQ(r->status, CheckStatus::Warn);
  EXPECT_NE(r->message().find("unverifiable"), std::string::npos) << r->message();
  EXPECT_NE(r->message().find("/nonexistent/ieee-data"), std::string::npos) << r->message();
  // No catalog: the catalog checks skip, they do not fail.
  EXPECT_EQ(v.find("catalog_media")->status, CheckStatus::Skip);
  ctx.oui = nullptr;
  EXPECT_EQ(coding::verify_module_detailed(image, cmis::decode(image), ctx).find("vendor_oui")->status, CheckStatus::Warn);
}

TEST(CodingRealDumps, DateInTheFutureFails) {
  auto parsed = dumpfile::parse_file(data("osfp800g-juniper-dr8-xai01-port40/raw.txt"));
  const cmis::ModuleImage& image = std::get<dumpfile::ParsedDump>(parsed).image;
  coding::VerifyContext ctx;
  ctx.now_unix = 1735732800;  // 2025-01-01: the module says it was made 2025-08-26
  const auto v = coding::verify_module_detailed(image, cmis::decode(image), ctx);
  const auto* r = v.find("date_code");
  EXPECT_EQ(r->status, CheckStatus::Fail);
  EXPECT_NE(r->message().find("2025-08-26, which is in the future"), std::string::npos) << r->message();
}

// ----- xcvrctl verify end to end ----------------------------------------------------------------

using CliRun = test::CommandResult;

CliRun xcvrctl(const std::string& args) {
  return test::run_command(std::string(XCVRCTL_PATH) + " verify " + args + " --now 2026-01-01 2>&1");
}

std::string temp_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / ("coding_cli_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

TEST(CodingCli, CleanModuleExitsZero) {
  const CliRun r = xcvrctl("--file " + data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS  checksum_cc_base"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("generic profile 'qsfp28-100g-sr4'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Result   : PASS"), std::string::npos) << r.out;
}

TEST(CodingCli, FailuresExitOneAndNameTheBytes) {
  const CliRun r = xcvrctl("--file " + data("qsfpdd-cu-cisco-68-103205-02/raw.txt"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL  app_advertisement"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower page byte 114 (app_host_interface lane 8)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Result   : FAIL"), std::string::npos) << r.out;
}

TEST(CodingCli, WarningsAloneExitZeroUnlessStrict) {
  const std::string file = data("osfp800g-juniper-dr8-xai01-port40/raw.txt");
  const CliRun r = xcvrctl("--file " + file);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("WARN  app_advertisement"), std::string::npos) << r.out;
  EXPECT_EQ(xcvrctl("--strict --file " + file).code, 1);
}

TEST(CodingCli, JsonReport) {
  const CliRun r = xcvrctl("--json --file " + data("qsfpdd-cu-cisco-68-103205-02/raw.txt"));
  EXPECT_EQ(r.code, 1);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["summary"]["result"], "FAIL");
  EXPECT_EQ(j["summary"]["exit_code"], 1);
  EXPECT_EQ(j["module"]["vendor"]["part_number"], "68-103205-02") << j["module"].dump();
  bool found = false;
  for (const auto& c : j["checks"]) {
    if (c["check"] == "app_advertisement") {
      found = true;
      EXPECT_EQ(c["status"], "fail");
      EXPECT_FALSE(c["details"].empty());
    }
  }
  EXPECT_TRUE(found);
}

TEST(CodingCli, SiteCatalogOverridesByPartNumber) {
  // A site catalog claims the Finisar SR4 part and pins its vendor and a platform rule.
  const std::string dir = std::filesystem::temp_directory_path() / ("coding_site_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/90-site.toml") << "[part.\"FTLC9551REPM\"]\n"
                                          "source = \"site test\"\n"
                                          "identifier = 0x11\n"
                                          "connector = 0x07\n"  // wrong on purpose: it is MPO
                                          "vendor_names = [\"FINISAR CORP\"]\n"
                                          "[[part.\"FTLC9551REPM\".rule]]\n"
                                          "field = \"vendor_revision\"\n"
                                          "one_of = [\"A0\"]\n"
                                          "why = \"site qualifies revision A0 only\"\n";
  const CliRun r = xcvrctl("--catalog " + catalog_dir() + " --catalog " + dir + " --file " +
                        data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("part 'FTLC9551REPM'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  catalog_media"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("page 00h byte 130 (connector) is 0x0c (MPO 1x12); the catalog expects 0x07 (LC)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  catalog_vendor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  catalog_rule"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CodingCli, BadCatalogExitsTwoNamingFileLineColumn) {
  const std::string bad = temp_file("bad.toml", "[part.\"X\"]\nstyle = \"round-top\"\n");
  const CliRun r = xcvrctl("--catalog " + bad + " --file " + data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(bad + ":2:"), std::string::npos) << r.out;
  std::filesystem::remove(bad);
}

TEST(CodingCli, GarbageExitsTwoNamingTheProblem) {
  const std::string garbage = temp_file("garbage.txt", "this is not a module dump\nnor is this line\n");
  const CliRun r = xcvrctl("--file " + garbage);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(garbage), std::string::npos) << r.out;
  std::filesystem::remove(garbage);
}

TEST(CodingCli, TruncatedDumpExitsTwo) {
  // The first 9 rows of a 16-row dump: the lower half is incomplete.
  std::ifstream in(data("qsfpdd-cu-cisco-68-103205-02/raw.txt"));
  std::string line, head;
  for (int i = 0; i < 9 && std::getline(in, line); ++i) head += line + "\n";
  const std::string cut = temp_file("truncated.txt", head);
  const CliRun r = xcvrctl("--file " + cut);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(cut), std::string::npos) << r.out;
  std::filesystem::remove(cut);
}

TEST(CodingCli, BlankEepromExitsTwo) {
  const std::string blank = temp_file("blank.bin", std::string(256, '\xff'));
  const CliRun r = xcvrctl("--file " + blank);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("all 0xFF"), std::string::npos) << r.out;
  std::filesystem::remove(blank);
}

TEST(CodingCli, MissingFileAndBadArgumentsExitTwo) {
  CliRun r = xcvrctl("--file /nonexistent/dump.txt");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("/nonexistent/dump.txt"), std::string::npos) << r.out;
  r = xcvrctl("");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("exactly one of --file"), std::string::npos) << r.out;
  r = xcvrctl("--style round-top --file " + data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST(CodingCli, ReadsALiveModuleThroughOptoe) {
  // An optoe eeprom file of an unpaged read (lower + page 00h), as the kernel driver exposes it.
  auto parsed = dumpfile::parse_file(data("qsfp28-sr4-finisar-ftlc9551repm/raw.txt"));
  const cmis::ModuleImage& image = std::get<dumpfile::ParsedDump>(parsed).image;
  std::string bytes;
  for (const cmis::PageKey key : {cmis::PageKey{0x50, 0, cmis::kLowerPage}, cmis::PageKey{0x50, 0, 0x00}}) {
    const auto* e = image.find(key);
    ASSERT_NE(e, nullptr);
    bytes.append(e->bytes.begin(), e->bytes.end());
  }
  const std::string eeprom = temp_file("eeprom", bytes);
  const CliRun r = xcvrctl("--optoe " + eeprom);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Source   : optoe"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FTLC9551REPM"), std::string::npos) << r.out;
  std::filesystem::remove(eeprom);
}

}  // namespace
}  // namespace xcvr
