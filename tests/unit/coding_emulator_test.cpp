// Coding checks against the emulator: every clean catalog model passes (no fail), every
// miscoding fault is caught by exactly the checks it is meant to trip and by no other, module
// style against the cage, and the fleet checks (duplicate serial, re-coded serial).
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <memory>
#include <set>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "daemon/aging.hpp"
#include "coding/catalog.hpp"
#include "coding/coding.hpp"
#include "daemon/coding_setup.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/faults.hpp"
#include "emulator/image_reader.hpp"
#include "emulator/model.hpp"

namespace xcvr {
namespace {

using coding::CheckStatus;
using emulator::FaultKind;

constexpr double kNow = 1767268800;  // 2026-01-01 12:00 UTC

const coding::Catalog& shipped_catalog() {
  static const coding::Catalog catalog = [] {
    auto r = coding::load_catalog({std::string(XCVR_TEST_DATA) + "/../../config/catalog"});
    if (auto* e = std::get_if<coding::CatalogError>(&r)) ADD_FAILURE() << e->to_string();
    return std::get_if<coding::Catalog>(&r) ? std::get<coding::Catalog>(r) : coding::Catalog{};
  }();
  return catalog;
}

// The registry entries these modules need, as the IEEE lists them (coding_catalog_test checks
// them against the installed registry): hermetic, whatever the machine has installed.
const coding::OuiRegistry& registry() {
  static const coding::OuiRegistry r = [] {
    coding::OuiRegistry reg;
    reg.add("00:02:c9", "Mellanox Technologies, Inc.");
    reg.add("ac:de:48", "Private");
    return reg;
  }();
  return r;
}

struct Module {
  cmis::ModuleImage image;
  cmis::ModuleReport report;
};

// One cage with a model, read the way the catalog round-trip test reads it.
class Rig {
 public:
  explicit Rig(const emulator::ModuleModel& model)
      : model_(model),
        bus_(emulator::BusConfig{"bus0", emulator::kFastModeHz, 1, std::nullopt, 25 * base::kMillisecond}, clock_),
        injector_(bus_) {
    bus_.insert(0, std::make_shared<emulator::EmulatedModule>(model, clock_));
    clock_.advance(2 * base::kSecond);  // past power-up and data-path init
  }
  Module read(bool expect_clean = true) {
    emulator::EmulatorTransport t(bus_, 0);
    const bool cmis = model_.spec == cmis::Spec::Cmis;
    const auto halves = emulator::standard_halves(cmis, model_.flat_memory, (model_.host_lanes + 7) / 8);
    emulator::ImageRead r = emulator::read_image(t, halves);
    if (expect_clean) {
      EXPECT_TRUE(r.errors.empty()) << model_.key;
    }
    cmis::ModuleReport rep = cmis::decode(r.image);
    return {std::move(r.image), std::move(rep)};
  }
  std::optional<std::string> apply(FaultKind kind) {
    emulator::Fault f;
    f.kind = kind;
    return injector_.apply(0, f);
  }

 private:
  emulator::ModuleModel model_;
  base::VirtualClock clock_;
  emulator::EmulatedBus bus_;
  emulator::FaultInjector injector_;
};

coding::VerifyContext context(std::optional<std::string> style = std::nullopt) {
  coding::VerifyContext ctx;
  ctx.catalog = &shipped_catalog();
  ctx.oui = &registry();
  ctx.now_unix = kNow;
  ctx.required_style = std::move(style);
  return ctx;
}

std::string dump(const coding::ModuleVerdict& v) {
  std::string out;
  for (const auto& r : v.results) {
    if (r.status == CheckStatus::Fail || r.status == CheckStatus::Warn) {
      out += "  " + std::string(coding::check_status_name(r.status)) + " " + r.check + ": " + r.message() + "\n";
    }
  }
  return out;
}

// check id -> "status: message" of every warn/fail.
std::map<std::string, std::string> problems(const coding::ModuleVerdict& v) {
  std::map<std::string, std::string> out;
  for (const auto& f : v.findings()) out[f.check] = std::string(check_status_name(f.severity)) + ": " + f.message;
  return out;
}

// Checks whose findings appeared or changed from `before` to `after`.
std::set<std::string> changed(const coding::ModuleVerdict& before, const coding::ModuleVerdict& after) {
  const auto a = problems(before), b = problems(after);
  std::set<std::string> out;
  for (const auto& [id, text] : b) {
    const auto it = a.find(id);
    if (it == a.end() || it->second != text) out.insert(id);
  }
  for (const auto& [id, text] : a) {
    if (!b.contains(id)) out.insert(id + " (cleared)");
  }
  return out;
}

TEST(CodingEmulator, EveryCleanCatalogModelPasses) {
  for (const emulator::ModuleModel& m : emulator::catalog()) {
    SCOPED_TRACE(m.key);
    Rig rig(m);
    const Module mod = rig.read();
    const auto v = coding::verify_module_detailed(mod.image, mod.report, context());
    EXPECT_NE(v.worst(), CheckStatus::Fail) << dump(v);
    // The only tolerated warning: the IEEE's example OUI AC:DE:48, registered as "Private",
    // which the non-NVIDIA models carry; it cannot be tied to "EMULATED OPTICS".
    for (const auto& f : v.findings()) {
      EXPECT_EQ(f.check, "vendor_oui") << f.message;
      EXPECT_NE(f.message.find("Private"), std::string::npos) << f.message;
    }
  }
}

TEST(CodingEmulator, CatalogEntriesApplyToTheirModels) {
  const std::map<std::string, std::string> want = {
      {"osfp-400g-sr4-flat", "MMA4Z00-NS400"},  {"osfp-800g-2xsr4-finned", "MMA4Z00-NS"},
      {"qsfpdd-400g-sr8", "qsfpdd-400g-sr8"},   {"qsfpdd-400g-dr4", "qsfpdd-400g-dr4"},
      {"qsfpdd-400g-fr4", "qsfpdd-400g-fr4"},   {"qsfpdd-400g-lr4", "qsfpdd-400g-lr4"},
      {"qsfp28-100g-sr4", "qsfp28-100g-sr4"},   {"qsfp28-100g-lr4", "qsfp28-100g-lr4"},
      {"qsfpdd-400g-dac", ""},                  {"osfp-800g-aec", ""}};
  for (const auto& [key, entry] : want) {
    SCOPED_TRACE(key);
    Rig rig(*emulator::find_model(key));
    const Module mod = rig.read();
    const auto v = coding::verify_module_detailed(mod.image, mod.report, context());
    EXPECT_EQ(v.catalog_key, entry);
    if (entry.empty()) continue;
    // Every catalog check that the entry sets was run and passed.
    for (const char* id : {"catalog_identifier", "catalog_media"}) {
      const auto* r = v.find(id);
      ASSERT_NE(r, nullptr) << id;
      EXPECT_EQ(r->status, CheckStatus::Pass) << id << ": " << r->message();
    }
  }
}

struct FaultCase {
  FaultKind kind;
  std::set<std::string> cmis_checks;     // intended checks on CMIS models
  std::set<std::string> sff8636_checks;  // and on SFF-8636 models
};

// Each miscoding fault of the emulator and the checks meant to catch it.
const std::vector<FaultCase> kFaults = {
    // XORs the first part-number byte, checksum left stale: the page checksum, nothing else (the
    // part number is then unknown to the catalog, which skips rather than reports).
    {FaultKind::CorruptByte, {"checksum_00h"}, {"checksum_cc_base"}},
    // The first page checksum off by one.
    {FaultKind::BadChecksum, {"checksum_00h"}, {"checksum_cc_base"}},
    // Vendor name "nvidia" NUL-padded and serial with a BEL byte (vendor_ascii), OUI zeroed
    // (vendor_oui), date code "2024-1-1" (date_code); checksums recomputed.
    {FaultKind::MiscodedVendor, {"vendor_ascii", "vendor_oui", "date_code"}, {"vendor_ascii", "vendor_oui", "date_code"}},
    // Temperature high/low alarm and rx power high/low warning swapped; checksums recomputed.
    {FaultKind::ThresholdsOutOfOrder, {"thresholds_ordered"}, {"thresholds_ordered"}},
    // Identifier byte 0x5A (reserved); its page 00h copy stays sound.
    {FaultKind::GarbageIdentifier, {"identifier"}, {"identifier"}},
};

TEST(CodingEmulator, EachMiscodingFaultTripsExactlyItsChecks) {
  for (const emulator::ModuleModel& m : emulator::catalog()) {
    const Module clean = Rig(m).read();
    const auto baseline = coding::verify_module_detailed(clean.image, clean.report, context());
    for (const FaultCase& fc : kFaults) {
      SCOPED_TRACE(m.key + " / " + std::string(emulator::fault_kind_name(fc.kind)));
      Rig rig(m);
      ASSERT_EQ(rig.apply(fc.kind), std::nullopt);
      const Module bad = rig.read();
      const auto v = coding::verify_module_detailed(bad.image, bad.report, context());
      std::set<std::string> want = m.spec == cmis::Spec::Cmis ? fc.cmis_checks : fc.sff8636_checks;
      // A flat-memory module has no threshold page: the fault finds nothing to swap.
      if (fc.kind == FaultKind::ThresholdsOutOfOrder && m.flat_memory) want.clear();
      EXPECT_EQ(changed(baseline, v), want) << dump(v);
      for (const std::string& id : want) {
        const auto* r = v.find(id);
        ASSERT_NE(r, nullptr) << id;
        EXPECT_TRUE(r->status == CheckStatus::Fail || r->status == CheckStatus::Warn) << id;
      }
    }
  }
}

TEST(CodingEmulator, FaultFindingsNameTheBytes) {
  Rig rig(*emulator::find_model("osfp-400g-sr4-flat"));
  ASSERT_EQ(rig.apply(FaultKind::MiscodedVendor), std::nullopt);
  const Module bad = rig.read();
  const auto f = problems(coding::verify_module_detailed(bad.image, bad.report, context()));
  EXPECT_NE(f.at("vendor_ascii").find("page 00h byte 166-181 (serial_number)"), std::string::npos) << f.at("vendor_ascii");
  EXPECT_NE(f.at("vendor_ascii").find("NUL-padded"), std::string::npos);
  EXPECT_EQ(f.at("vendor_ascii").rfind("fail", 0), 0u);
  EXPECT_NE(f.at("vendor_oui").find("page 00h byte 145-147 (vendor_oui) is 00:00:00"), std::string::npos);
  EXPECT_NE(f.at("date_code").find("page 00h byte 182-189 (date_code) is \"2024-1-1\""), std::string::npos);

  Rig rig2(*emulator::find_model("qsfp28-100g-lr4"));
  ASSERT_EQ(rig2.apply(FaultKind::GarbageIdentifier), std::nullopt);
  const Module garbage = rig2.read();
  const auto v = coding::verify_module_detailed(garbage.image, garbage.report, context());
  EXPECT_NE(v.find("identifier")->message().find("lower page byte 0 (identifier) is 0x5a"), std::string::npos)
      << v.find("identifier")->message();
  ASSERT_EQ(v.notes.size(), 1u);
  EXPECT_NE(v.notes[0].find("SFF-8636"), std::string::npos);
  EXPECT_EQ(v.catalog_key, "qsfp28-100g-lr4");  // still matched, as the copy says

  Rig rig3(*emulator::find_model("qsfpdd-400g-lr4"));
  ASSERT_EQ(rig3.apply(FaultKind::ThresholdsOutOfOrder), std::nullopt);
  const Module swapped = rig3.read();
  const auto t = problems(coding::verify_module_detailed(swapped.image, swapped.report, context()));
  EXPECT_NE(t.at("thresholds_ordered").find("page 02h bytes 128-135 (temperature thresholds): high alarm -5.00 C"),
            std::string::npos)
      << t.at("thresholds_ordered");
  EXPECT_NE(t.at("thresholds_ordered").find("page 02h bytes 192-199 (rx power thresholds)"), std::string::npos);
}

TEST(CodingEmulator, AllFfModuleIsNotModuleMemory) {
  Rig rig(*emulator::find_model("qsfpdd-400g-sr8"));
  ASSERT_EQ(rig.apply(FaultKind::AllFF), std::nullopt);
  const Module m = rig.read(/*expect_clean=*/false);  // upper pages fail their page-select read-back
  std::string why;
  EXPECT_FALSE(coding::looks_like_module(m.image, &why));
  EXPECT_NE(why.find("all 0xFF"), std::string::npos) << why;
  // verify_module itself still answers (no crash) and fails the identifier.
  const auto v = coding::verify_module_detailed(m.image, m.report, context());
  EXPECT_EQ(v.find("identifier")->status, CheckStatus::Fail);
}

TEST(CodingEmulator, ModuleStyleAgainstTheCage) {
  const Module flat = Rig(*emulator::find_model("osfp-400g-sr4-flat")).read();
  const Module finned = Rig(*emulator::find_model("osfp-800g-2xsr4-finned")).read();
  // A flat-top MMA4Z00-NS400 in an air-cooled Quantum-2 switch cage: module_style, nothing else.
  const auto in_switch = coding::verify_module_detailed(flat.image, flat.report, context("finned-top"));
  const auto f = problems(in_switch);
  ASSERT_EQ(f.size(), 1u) << dump(in_switch);
  EXPECT_NE(f.at("module_style").find("part 'MMA4Z00-NS400'"), std::string::npos);
  EXPECT_NE(f.at("module_style").find("flat-top module"), std::string::npos);
  EXPECT_NE(f.at("module_style").find("page 00h byte 148-163 (part_number)"), std::string::npos);
  // Where it belongs: a ConnectX-7 cage with a riding heat sink.
  EXPECT_EQ(coding::verify_module_detailed(flat.image, flat.report, context("flat-top")).find("module_style")->status,
            CheckStatus::Pass);
  // And the twin-port finned-top module: right in the switch, wrong on the NIC.
  EXPECT_EQ(coding::verify_module_detailed(finned.image, finned.report, context("finned-top")).find("module_style")->status,
            CheckStatus::Pass);
  EXPECT_EQ(coding::verify_module_detailed(finned.image, finned.report, context("flat-top")).find("module_style")->status,
            CheckStatus::Fail);
  // No requirement: nothing to judge.
  EXPECT_EQ(coding::verify_module_detailed(flat.image, flat.report, context()).find("module_style")->status,
            CheckStatus::Skip);
}

TEST(CodingEmulator, CageStyleRulesUseGlobs) {
  const std::vector<daemon::CageStyleRule> rules = {{"q2-*", "finned-top"}, {"cx7-*", "rhs"}};
  EXPECT_EQ(daemon::required_style_for("q2-leaf1/p3", rules), "finned-top");
  EXPECT_EQ(daemon::required_style_for("cx7-gpu4", rules), "flat-top");
  EXPECT_EQ(daemon::required_style_for("spine/p1", rules), std::nullopt);
  EXPECT_EQ(coding::parse_style("IHS"), "finned-top");
  EXPECT_EQ(coding::parse_style("round-top"), std::nullopt);
}

TEST(CodingEmulator, SerialInTwoCagesIsAFleetFinding) {
  const Module a = Rig(*emulator::find_model("qsfpdd-400g-dr4")).read();
  const Module b = Rig(*emulator::find_model("qsfpdd-400g-fr4")).read();
  auto ra = std::make_shared<cmis::ModuleReport>(a.report);
  auto rb = std::make_shared<cmis::ModuleReport>(b.report);
  auto clone = std::make_shared<cmis::ModuleReport>(a.report);  // a copied serial
  std::vector<coding::FleetPort> ports = {{"p1", ra}, {"p2", rb}, {"p3", clone}, {"p4", nullptr}};
  const auto f = coding::verify_fleet(ports, nullptr);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].port, "p1");
  EXPECT_EQ(f[1].port, "p3");
  EXPECT_EQ(f[0].finding.check, "serial_duplicate");
  EXPECT_EQ(f[0].finding.severity, CheckStatus::Fail);
  EXPECT_NE(f[0].finding.message.find("also in p3"), std::string::npos) << f[0].finding.message;
  // Distinct serials: nothing.
  ports.pop_back();
  ports.erase(ports.begin() + 2);
  EXPECT_TRUE(coding::verify_fleet(ports, nullptr).empty());
}

// #39: counterfeit batches share one serial. Each port's finding names three others and counts
// the rest, so 10,000 ports of one serial cost findings linear in the ports (the full list on
// every port made 10,000 such ports hold ~3 GB and a landing page of hundreds of MB).
TEST(HostileCoding, TenThousandPortsOfOneSerialGiveFindingsLinearInThePorts) {
  const auto report = std::make_shared<cmis::ModuleReport>(Rig(*emulator::find_model("qsfpdd-400g-dr4")).read().report);
  const auto findings_bytes = [&](std::size_t n) {
    std::vector<coding::FleetPort> ports;
    for (std::size_t i = 0; i < n; ++i) ports.push_back({"spine-01/swp" + std::to_string(i + 1), report});
    const auto f = coding::verify_fleet(ports, nullptr);
    EXPECT_EQ(f.size(), n);
    std::size_t bytes = 0;
    for (const auto& x : f) bytes += x.finding.message.size();
    return std::make_pair(bytes, f);
  };
  const auto [small_bytes, small] = findings_bytes(100);
  const auto [big_bytes, big] = findings_bytes(10'000);
  // Per port, 10,000 ports cost what 100 do, within the longer port names and counts.
  EXPECT_LT(static_cast<double>(big_bytes) / 10'000, 1.1 * static_cast<double>(small_bytes) / 100);
  const std::string& m = big.front().finding.message;
  EXPECT_NE(m.find("also in spine-01/swp2, spine-01/swp3, spine-01/swp4 and 9996 more (10000 ports in all)"),
            std::string::npos) << m;
  EXPECT_NE(big.back().finding.message.find("also in spine-01/swp1, "), std::string::npos);
}

TEST(CodingEmulator, SerialRecodedAcrossRunsIsAFleetFinding) {
  const Module m = Rig(*emulator::find_model("osfp-400g-sr4-flat")).read();
  daemon::AgingStore aging("");  // in memory: what the state directory would remember
  aging.observe(m.report, kNow - 86400);
  auto same = std::make_shared<cmis::ModuleReport>(m.report);
  std::vector<coding::FleetPort> ports = {{"cx7-1", same}};
  EXPECT_TRUE(coding::verify_fleet(ports, &aging).empty());
  // The same serial comes back coded as a different part.
  auto recoded = std::make_shared<cmis::ModuleReport>(m.report);
  recoded->id.part_number = "MMA4Z00-NS";
  ports = {{"cx7-1", recoded}};
  const auto f = coding::verify_fleet(ports, &aging);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].finding.check, "serial_recoded");
  EXPECT_NE(f[0].finding.message.find("MMA4Z00-NS400"), std::string::npos) << f[0].finding.message;

  // add_fleet_findings: appends to the snapshot's findings, one per check id.
  std::vector<daemon::PortSnapshot> snaps(2);
  snaps[0].port = "cx7-1";
  snaps[0].report = recoded;
  snaps[0].presence = daemon::PortPresence::Present;
  snaps[0].coding = {{"date_code", coding::CheckStatus::Warn, "x"}};
  snaps[1].port = "cx7-2";
  snaps[1].report = recoded;
  snaps[1].presence = daemon::PortPresence::Present;
  snaps[1].stale = true;  // stale ports take no part
  daemon::add_fleet_findings(snaps, &aging);
  ASSERT_EQ(snaps[0].coding.size(), 2u);
  EXPECT_EQ(snaps[0].coding[1].check, "serial_recoded");
  EXPECT_TRUE(snaps[1].coding.empty());
  daemon::add_fleet_findings(snaps, &aging);
  EXPECT_EQ(snaps[0].coding.size(), 2u);
}

TEST(CodingEmulator, FindingsMatchTheDetailedVerdict) {
  Rig rig(*emulator::find_model("qsfp28-100g-sr4"));
  ASSERT_EQ(rig.apply(FaultKind::BadChecksum), std::nullopt);
  const Module m = rig.read();
  const auto findings = coding::verify_module(m.image, m.report, context());
  const auto v = coding::verify_module_detailed(m.image, m.report, context());
  ASSERT_EQ(findings.size(), v.findings().size());
  for (const auto& f : findings) {
    EXPECT_NE(coding::find_check(f.check), nullptr) << f.check;
    EXPECT_TRUE(f.severity == CheckStatus::Fail || f.severity == CheckStatus::Warn);
  }
}

// Single-byte miscodings made on a clean emulated image (checksums recomputed, so only the
// coding itself is wrong), each caught by the check that owns it.
class CodingEdited : public ::testing::Test {
 protected:
  void SetUp() override { m_ = Rig(*emulator::find_model("osfp-400g-sr4-flat")).read(); }
  void set(cmis::CmisField f, uint32_t value, int lane = 1) {
    ASSERT_TRUE(cmis::write_uint(m_.image, cmis::cmis_field(f), value, lane));
  }
  coding::ModuleVerdict verify() {
    emulator::fix_checksums(m_.image, cmis::Spec::Cmis);
    m_.report = cmis::decode(m_.image);
    return coding::verify_module_detailed(m_.image, m_.report, context());
  }
  Module m_;
};

TEST_F(CodingEdited, PowerClassBelowTheMaximumPowerFails) {
  set(cmis::CmisField::PowerClass, 1);  // class 2: <= 3.5 W, but 8 W advertised
  const auto v = verify();
  EXPECT_EQ(v.find("power_class")->status, CheckStatus::Fail) << v.find("power_class")->message();
  EXPECT_NE(v.find("power_class")->message().find("page 00h byte 201 (max_power) advertises 8 W"), std::string::npos)
      << v.find("power_class")->message();
  set(cmis::CmisField::PowerClass, 7);  // class 8 for 8 W: more than needed
  EXPECT_EQ(verify().find("power_class")->status, CheckStatus::Warn);
}

TEST_F(CodingEdited, MaximumPowerOutsideTheCatalogRangeFails) {
  set(cmis::CmisField::MaxPower, 30);  // 7.5 W: below the 8-9 W NVIDIA gives for MMA4Z00-NS400
  const auto v = verify();
  EXPECT_EQ(v.find("catalog_power")->status, CheckStatus::Fail) << v.find("catalog_power")->message();
  EXPECT_EQ(v.find("power_class")->status, CheckStatus::Pass);
}

TEST_F(CodingEdited, LaneCountThatDisagreesWithTheInterfaceFails) {
  set(cmis::CmisField::AppHostLaneCount, 8, 1);  // 400GAUI-4-S uses 4 host lanes
  const auto v = verify();
  const auto* r = v.find("app_advertisement");
  EXPECT_EQ(r->status, CheckStatus::Fail);
  EXPECT_NE(r->message().find("400GAUI-4-S C2M uses 4 host lanes but the descriptor says 8"), std::string::npos) << r->message();
  EXPECT_EQ(v.find("catalog_applications")->status, CheckStatus::Fail);  // no 4-lane SR4 application left
}

TEST_F(CodingEdited, UnterminatedEmptyDescriptorsFail) {
  set(cmis::CmisField::AppHostInterface, 0x00, 1);  // descriptor 1 undefined, 2 still used
  const auto v = verify();
  const auto* r = v.find("app_advertisement");
  EXPECT_EQ(r->status, CheckStatus::Fail);
  EXPECT_NE(r->message().find("descriptor 1 before descriptor 2"), std::string::npos) << r->message();
}

TEST_F(CodingEdited, MediaTypeThatContradictsTheTechnologyFails) {
  set(cmis::CmisField::MediaType, 0x02);  // SMF, with an 850 nm VCSEL and 850 nm
  const auto v = verify();
  const auto* r = v.find("media_type");
  EXPECT_EQ(r->status, CheckStatus::Fail);
  EXPECT_NE(r->message().find("page 00h byte 212 (media_interface_technology) is 0x00 (850 nm VCSEL)"), std::string::npos)
      << r->message();
}

TEST_F(CodingEdited, ThresholdsAllZeroAreNotImplemented) {
  for (auto f : {cmis::CmisField::TempHighAlarm, cmis::CmisField::TempLowAlarm, cmis::CmisField::TempHighWarning,
                 cmis::CmisField::TempLowWarning}) {
    set(f, 0);
  }
  const auto v = verify();
  EXPECT_EQ(v.find("thresholds_plausible")->status, CheckStatus::Warn) << v.find("thresholds_plausible")->message();
  EXPECT_NE(v.find("thresholds_plausible")->message().find("page 02h bytes 128-135 (temperature thresholds) are all zero"),
            std::string::npos);
  EXPECT_EQ(v.find("thresholds_ordered")->status, CheckStatus::Pass);
}

TEST_F(CodingEdited, ImplausibleThresholdFails) {
  set(cmis::CmisField::TempLowAlarm, 65536 - 100 * 256);  // -100 C (S16): below any module's range
  const auto v = verify();
  const auto* r = v.find("thresholds_plausible");
  EXPECT_EQ(r->status, CheckStatus::Fail);
  EXPECT_NE(r->message().find("low alarm -100.00 C"), std::string::npos) << r->message();
}

TEST_F(CodingEdited, AdvertisedMonitorReadingZeroOnActiveLanesFails) {
  for (int lane = 1; lane <= 4; ++lane) set(cmis::CmisField::RxPower, 0, lane);
  const auto v = verify();
  const auto* r = v.find("monitor_consistency");
  EXPECT_EQ(r->status, CheckStatus::Fail) << r->message();
  EXPECT_NE(r->message().find("page 01h byte 160 bit 2 (rx_power_monitor_supported)"), std::string::npos) << r->message();
  // With Rx LOS on every lane, zero is the right reading.
  for (int lane = 1; lane <= 4; ++lane) set(cmis::CmisField::FlagRxLos, 1, lane);
  EXPECT_EQ(verify().find("monitor_consistency")->status, CheckStatus::Pass);
}

TEST_F(CodingEdited, UnadvertisedMonitorReadingValuesWarns) {
  set(cmis::CmisField::TxPowerMonitorSupported, 0);
  const auto v = verify();
  const auto* r = v.find("monitor_consistency");
  EXPECT_EQ(r->status, CheckStatus::Warn) << r->message();
  EXPECT_NE(r->message().find("does not advertise the tx power monitor"), std::string::npos) << r->message();
}

// Invariant 5: hostile bytes give findings, never a crash, whatever the identifier claims.
TEST(CodingRobustness, RandomImagesNeverCrash) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> byte(0, 255);
  const std::vector<cmis::PageKey> pages = {{0x50, 0, cmis::kLowerPage}, {0x50, 0, 0x00}, {0x50, 0, 0x01},
                                            {0x50, 0, 0x02},           {0x50, 0, 0x03}, {0x50, 0, 0x11},
                                            {0x51, 0, cmis::kLowerPage}};
  const std::array<int, 6> identifiers = {0x18, 0x19, 0x11, 0x03, 0x5A, 0xFF};
  for (int i = 0; i < 300; ++i) {
    cmis::ModuleImage img;
    for (const auto& key : pages) {
      if (i % 7 == 0 && key.page == 0x01) continue;  // some without page 01h
      std::array<uint8_t, cmis::kPageSize> b{};
      for (auto& x : b) x = static_cast<uint8_t>(byte(rng));
      img.set_page(key, b);
    }
    const uint8_t id = static_cast<uint8_t>(identifiers[static_cast<std::size_t>(i) % identifiers.size()]);
    cmis::write_uint(img, cmis::cmis_field(cmis::CmisField::Identifier), id);
    if (i % 2 == 0) cmis::write_uint(img, cmis::cmis_field(cmis::CmisField::IdentifierCopy), id);
    const cmis::ModuleReport r = cmis::decode(img);
    const auto v = coding::verify_module_detailed(img, r, context(i % 3 == 0 ? std::optional<std::string>("finned-top") : std::nullopt));
    ASSERT_FALSE(v.results.empty());
    for (const auto& res : v.results) {
      EXPECT_FALSE(res.details.empty()) << res.check;
      EXPECT_NE(coding::find_check(res.check), nullptr) << res.check;
    }
    (void)coding::looks_like_module(img);
  }
}

}  // namespace
}  // namespace xcvr
