// Coding verification in the poll engine, on the emulator in virtual time: a verdict per port
// after each static read (never per dynamic poll), cage-style rules per port group, the fleet
// checks on published snapshots, and what /metrics, /api/v1/modules and the landing page show.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

#include "daemon/coding_setup.hpp"
#include "daemon/service.hpp"
#include "emulator/faults.hpp"
#include "emulator/fleet.hpp"
#include "exporters/api_json.hpp"
#include "exporters/landing_page.hpp"
#include "exporters/metrics.hpp"
#include "health/health.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

namespace fs = std::filesystem;
using emulator::FaultKind;
using testing_support::Fleet;
using testing_support::make_module;
using testing_support::TransportPath;

const fs::path kSourceDir = fs::path(XCVR_TEST_DATA) / ".." / "..";

// The shipped catalog and the registry entries the emulated modules carry, as the IEEE lists
// them (coding_catalog_test checks them against the installed registry): hermetic.
std::shared_ptr<CodingSetup> coding_setup(std::vector<CageStyleRule> styles = {}) {
  auto setup = std::make_shared<CodingSetup>();
  auto loaded = coding::load_catalog({(kSourceDir / "config" / "catalog").string()});
  if (auto* e = std::get_if<coding::CatalogError>(&loaded)) ADD_FAILURE() << e->to_string();
  if (auto* c = std::get_if<Catalog>(&loaded)) setup->catalog = std::make_shared<const Catalog>(std::move(*c));
  auto oui = std::make_shared<OuiRegistry>();
  oui->add("00:02:c9", "Mellanox Technologies, Inc.");
  oui->add("ac:de:48", "Private");
  setup->oui = std::move(oui);
  setup->cage_styles = std::move(styles);
  return setup;
}

// check id -> severity of a port's findings.
std::map<std::string, std::string> findings(const PortSnapshot& p) {
  std::map<std::string, std::string> out;
  for (const CodingFinding& f : p.coding) out[f.check] = std::string(check_status_name(f.severity));
  return out;
}

// port -> check of every transceiver_coding_check_failed series.
std::set<std::pair<std::string, std::string>> failed_series(const Snapshot& s) {
  const auto e = xcvr::testing::parse_exposition(exporters::render_text(health::FleetView(s)));
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& sample : e.find("transceiver_coding_check_failed")) {
    EXPECT_EQ(sample.value, 1.0);
    out.emplace(sample.labels.at("port"), sample.labels.at("check"));
  }
  return out;
}

void inject(Fleet& f, int bus, int cage, FaultKind kind) {
  emulator::FaultInjector injector(*f.buses[static_cast<std::size_t>(bus)]);
  emulator::Fault fault;
  fault.kind = kind;
  ASSERT_EQ(injector.apply(cage, fault), std::nullopt);
}

TEST(CodingEngine, MiscodingFaultShowsOnExactlyThatPortAndCheck) {
  Fleet f(2, 2, "osfp-400g-sr4-flat", 720, TransportPath::Emulator, coding_setup());
  f.run_for(4.0);
  for (const PortSnapshot& p : f.store.current()->ports) {
    ASSERT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
    EXPECT_TRUE(p.coding.empty()) << p.port << ": " << p.coding.front().check;  // clean NVIDIA-coded units
    EXPECT_EQ(f.engine->port(p.port)->verifications(), 1u) << p.port;
  }
  EXPECT_TRUE(failed_series(*f.store.current()).empty());

  // The page 00h checksum goes bad in one module. Dynamic polls do not re-verify: the verdict
  // is the static read's, and the next static read (here SIGUSR1's) finds the defect.
  inject(f, 1, 0, FaultKind::BadChecksum);
  f.run_for(5.0);
  EXPECT_TRUE(f.port("sw/b1c0").coding.empty());
  EXPECT_EQ(f.engine->port("sw/b1c0")->verifications(), 1u);
  f.engine->request_reverify_all();
  f.run_for(2.0);
  const auto snap = f.store.current();
  for (const PortSnapshot& p : snap->ports) {
    EXPECT_EQ(f.engine->port(p.port)->verifications(), 2u) << p.port;
    if (p.port != "sw/b1c0") {
      EXPECT_TRUE(p.coding.empty()) << p.port;
    }
  }
  const PortSnapshot& bad = f.port("sw/b1c0");
  EXPECT_EQ(findings(bad), (std::map<std::string, std::string>{{"checksum_00h", "fail"}}));
  EXPECT_NE(bad.coding[0].message.find("page 00h"), std::string::npos) << bad.coding[0].message;
  EXPECT_EQ(failed_series(*snap), (std::set<std::pair<std::string, std::string>>{{"sw/b1c0", "checksum_00h"}}));
  EXPECT_TRUE(xcvr::testing::parse_exposition(exporters::render_text(health::FleetView(*snap)))
                  .find("transceiver_coding_check_warning").empty());

  // The API carries the verdict; the landing page marks the port miscoded, and only it.
  const auto json = exporters::port_json(*snap, bad, health::assess(bad));
  EXPECT_EQ(json.at("health"), "miscoded");
  ASSERT_EQ(json.at("coding").size(), 1u);
  EXPECT_EQ(json.at("coding")[0].at("check"), "checksum_00h");
  EXPECT_EQ(json.at("coding")[0].at("severity"), "fail");
  const std::string html = exporters::landing_page_html(health::FleetView(*snap), {});
  EXPECT_NE(html.find("sw/b1c0: miscoded"), std::string::npos);
  for (const char* clean : {"sw/b0c0", "sw/b0c1", "sw/b1c1"}) {
    EXPECT_NE(html.find(std::string(clean) + ": ok"), std::string::npos) << clean;
  }

  // Unplugged, the verdict goes with the module.
  f.buses[1]->remove(0);
  f.run_for(2.0);
  EXPECT_TRUE(f.port("sw/b1c0").coding.empty());
  EXPECT_TRUE(failed_series(*f.store.current()).empty());
}

TEST(CodingEngine, StaticReverifyCyclesReverifyAndNothingElseDoes) {
  Fleet f(1, 1, "qsfpdd-400g-lr4", /*reverify_cycles=*/5, TransportPath::Emulator, coding_setup());
  f.run_for(4.0);
  ASSERT_EQ(f.engine->port("sw/b0c0")->verifications(), 1u);
  // A non-NVIDIA emulated unit: the IEEE example OUI AC:DE:48 is registered "Private" and
  // cannot be tied to "EMULATED OPTICS" — a warning, exported as such, not a failure.
  EXPECT_EQ(findings(f.port("sw/b0c0")), (std::map<std::string, std::string>{{"vendor_oui", "warn"}}));
  inject(f, 0, 0, FaultKind::ThresholdsOutOfOrder);
  f.run_for(5.5);  // the fifth dynamic cycle is a static re-read
  EXPECT_EQ(f.engine->port("sw/b0c0")->verifications(), 2u);
  EXPECT_EQ(findings(f.port("sw/b0c0")),
            (std::map<std::string, std::string>{{"vendor_oui", "warn"}, {"thresholds_ordered", "fail"}}));
}

TEST(CodingEngine, ModuleStyleFollowsTheCageGroups) {
  // Quantum-2-like switch cages (IHS: finned-top) on bus 0, ConnectX-7-like cages with riding
  // heat sinks (RHS: flat-top) on bus 1; each gets one right and one wrong module.
  Fleet f(2, 2, nullptr, 720, TransportPath::Emulator,
          coding_setup({{"sw/b0*", "finned-top"}, {"sw/b1*", "flat-top"}}));
  f.buses[0]->insert(0, make_module("osfp-400g-sr4-flat", f.clock, 1));    // wrong: no fins
  f.buses[0]->insert(1, make_module("osfp-800g-2xsr4-finned", f.clock, 2));
  f.buses[1]->insert(0, make_module("osfp-400g-sr4-flat", f.clock, 3));
  f.buses[1]->insert(1, make_module("osfp-800g-2xsr4-finned", f.clock, 4));  // wrong: does not fit
  f.run_for(4.0);
  const auto snap = f.store.current();
  EXPECT_EQ(failed_series(*snap), (std::set<std::pair<std::string, std::string>>{{"sw/b0c0", "module_style"},
                                                                                 {"sw/b1c1", "module_style"}}));
  const std::string& msg = f.port("sw/b0c0").coding.at(0).message;
  EXPECT_NE(msg.find("MMA4Z00-NS400"), std::string::npos) << msg;
  EXPECT_NE(msg.find("flat-top module"), std::string::npos) << msg;
  EXPECT_TRUE(f.port("sw/b0c1").coding.empty());
  EXPECT_TRUE(f.port("sw/b1c0").coding.empty());
}

TEST(CodingEngine, SameSerialInTwoCagesIsFlaggedOnBoth) {
  Fleet f(2, 2, nullptr, 720, TransportPath::Emulator, coding_setup());
  f.buses[0]->insert(0, make_module("osfp-400g-sr4-flat", f.clock, 41));
  f.buses[0]->insert(1, make_module("osfp-400g-sr4-flat", f.clock, 42));
  f.buses[1]->insert(1, make_module("osfp-400g-sr4-flat", f.clock, 41));  // a copy of b0c0's coding
  f.run_for(4.0);
  const auto snap = f.store.current();
  EXPECT_EQ(failed_series(*snap), (std::set<std::pair<std::string, std::string>>{{"sw/b0c0", "serial_duplicate"},
                                                                                 {"sw/b1c1", "serial_duplicate"}}));
  EXPECT_NE(f.port("sw/b0c0").coding.at(0).message.find("also in sw/b1c1"), std::string::npos)
      << f.port("sw/b0c0").coding.at(0).message;
  EXPECT_NE(f.port("sw/b1c1").coding.at(0).message.find("also in sw/b0c0"), std::string::npos);
  // The shared serial identifies neither laser: no drift on either (a copy would show drift
  // against the original's baseline); the module with its own serial has its drift.
  EXPECT_TRUE(f.port("sw/b0c0").aging.empty());
  EXPECT_TRUE(f.port("sw/b1c1").aging.empty());
  EXPECT_FALSE(f.port("sw/b0c1").aging.empty());
  // The copy leaves: the original is clean again.
  f.buses[1]->remove(1);
  f.run_for(2.0);
  EXPECT_TRUE(failed_series(*f.store.current()).empty());
  EXPECT_FALSE(f.port("sw/b0c0").aging.empty());
}

// One daemon "run": a cage holding `module`, the engine's aging store at `state_file`.
PortSnapshot run_once(const std::string& state_file, const emulator::ModuleModel& module) {
  base::VirtualClock clock{1000 * base::kSecond};
  emulator::BusConfig bc;
  bc.cages = 1;
  emulator::EmulatedBus bus(bc, clock);
  bus.insert(0, std::make_shared<emulator::EmulatedModule>(module, clock));
  Config config;
  config.poll.dynamic_interval_s = 1;
  config.poll.settle_delay_s = 1;
  SnapshotStore store;
  AgingStore aging(state_file);
  std::vector<PortSpec> ports;
  ports.push_back({PortIdentity{"cx7-1", "", "emulator", "OSFP", {}, {}}, std::make_unique<emulator::EmulatorTransport>(bus, 0, "cx7-1")});
  PollEngine engine(config, std::move(ports), clock, store, aging, coding_setup());
  while (clock.monotonic() < 1004) {
    engine.step();
    clock.advance(base::kSecond / 2);
  }
  return store.current()->ports.at(0);
}

TEST(CodingEngine, SerialRecodedAcrossRunsIsFlagged) {
  const fs::path dir = fs::temp_directory_path() / ("xcvr-coding-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string state = (dir / "aging.json").string();
  const emulator::ModuleModel original = emulator::unit_of(*emulator::find_model("osfp-400g-sr4-flat"), 7);
  EXPECT_TRUE(run_once(state, original).coding.empty());
  EXPECT_TRUE(run_once(state, original).coding.empty());  // the same module again: fine
  // The same serial comes back coded as the switch-side part (a reflashed EEPROM).
  emulator::ModuleModel recoded = original;
  recoded.part_number = "MMA4Z00-NS";
  const PortSnapshot p = run_once(state, recoded);
  const auto f = findings(p);
  ASSERT_TRUE(f.contains("serial_recoded")) << ::testing::PrintToString(f);
  EXPECT_EQ(f.at("serial_recoded"), "fail");
  for (const CodingFinding& c : p.coding) {
    if (c.check == "serial_recoded") {
      EXPECT_NE(c.message.find("first seen as NVIDIA MMA4Z00-NS400"), std::string::npos) << c.message;
    }
  }
  fs::remove_all(dir);
}

TEST(CodingEngine, DemoFleetWithTheCatalogFindsOnlyWhatItWasBuiltWith) {
  auto loaded = load_config_file((kSourceDir / "config" / "demo-exporter.toml").string());
  ASSERT_TRUE(std::holds_alternative<Config>(loaded)) << std::get<ConfigError>(loaded).to_string();
  const Config config = std::get<Config>(loaded);
  auto from_config = load_coding_setup(config);
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const CodingSetup>>(from_config)) << std::get<std::string>(from_config);
  auto setup = std::make_shared<CodingSetup>(*std::get<std::shared_ptr<const CodingSetup>>(from_config));
  ASSERT_NE(setup->catalog, nullptr) << "the shipped catalog is found from a build tree";
  ASSERT_EQ(setup->cage_styles.size(), 2u) << "demo-exporter.toml names the Quantum-2's and the GPU host's cages";
  setup->oui = coding_setup()->oui;  // hermetic

  auto fleet = emulator::load_fleet_file((kSourceDir / "config" / "demo.toml").string(), emulator::ClockMode::Virtual);
  ASSERT_NE(fleet.fleet, nullptr) << fleet.error;
  std::vector<PortSpec> ports;
  for (const emulator::FleetPort& p : fleet.fleet->ports()) {
    ports.push_back({PortIdentity{p.name, "", "emulator", p.cage_form, {}, {}},
                     std::make_unique<emulator::EmulatorTransport>(*p.bus, p.cage, p.name)});
  }
  base::VirtualClock& clock = *fleet.fleet->virtual_clock();
  SnapshotStore store;
  AgingStore aging("");
  PollEngine engine(config, std::move(ports), clock, store, aging, setup);
  const double end = clock.monotonic() + 8;
  while (clock.monotonic() < end) {
    engine.step();
    clock.advance(base::kSecond / 4);
  }
  const auto snap = store.current();
  int verified = 0;
  for (const PortSnapshot& p : snap->ports) {
    SCOPED_TRACE(p.port);
    if (p.presence == PortPresence::Absent) continue;
    ASSERT_EQ(daemon::port_state_name(p.state), "ok");
    ++verified;
    const std::string vendor = p.report->id.vendor_name;
    std::map<std::string, std::string> want;
    if (p.port == "spine-01/swp20") {
      // Its fault: vendor name NUL-padded and a BEL in the serial, OUI zeroed (unverifiable),
      // date code "2024-1-1".
      want = {{"vendor_ascii", "fail"}, {"vendor_oui", "warn"}, {"date_code", "fail"}};
    } else if (vendor != "NVIDIA") {
      // "EMULATED OPTICS" units carry the IEEE example OUI, registered "Private": unverifiable.
      want = {{"vendor_oui", "warn"}};
    }
    // Everything else is clean: catalog entries and generic profiles match, finned-top units
    // sit in the Quantum-2's cages and flat-top ones on the GPU host's NICs, serials are unique.
    EXPECT_EQ(findings(p), want);
  }
  EXPECT_EQ(verified, 103);  // 108 cages (64 + 32 + 8 + 2 + 2), 5 empty
  EXPECT_EQ(failed_series(*snap), (std::set<std::pair<std::string, std::string>>{
                                      {"spine-01/swp20", "vendor_ascii"}, {"spine-01/swp20", "date_code"}}));
}

// Service: the catalog and registry come from the config, at start and at reload.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-coding-svc-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

std::string config_text(const TempDir& dir, const std::string& extra_daemon_keys) {
  return "[daemon]\nstate_directory = \"" + (dir.path / "state").string() + "\"\n" + extra_daemon_keys +
         "[poll]\ndynamic_interval = 1\nsettle_delay = 0\n[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\n"
         "path = \"" + std::string(XCVR_TEST_DATA) + "/qsfp28-lr4-dell-3mfxg/raw.txt\"\n"
         "[[cage_style]]\nports = \"a\"\nstyle = \"flat-top\"\n";
}

TEST(CodingService, CatalogErrorsStopTheStartAndKeepTheRunningConfigOnReload) {
  TempDir dir;
  dir.write("site/50-site.toml", "[part.\"X1\"]\nidentifier = 0x11\n");
  const std::string config = dir.write("config.toml", config_text(dir, "catalog = [\"site\"]\noui_registry = \"no-registry\"\n"));
  base::VirtualClock clock{1000 * base::kSecond};
  SnapshotStore store;
  Service svc(clock, store);
  ASSERT_EQ(svc.start(config), "");
  ASSERT_NE(svc.coding(), nullptr);
  ASSERT_NE(svc.coding()->catalog, nullptr);
  EXPECT_NE(svc.coding()->catalog->find_part("X1"), nullptr);
  // No registry: a warning at start, never a refusal.
  EXPECT_FALSE(svc.coding()->oui->available());
  ASSERT_EQ(svc.coding()->warnings.size(), 1u);
  EXPECT_NE(svc.coding()->warnings[0].find("OUI registry unavailable"), std::string::npos) << svc.coding()->warnings[0];
  ASSERT_EQ(svc.coding()->cage_styles.size(), 1u);
  svc.engine()->step();  // insertion
  clock.advance(base::kSecond);
  svc.engine()->step();  // static read
  const PortSnapshot& a = store.current()->ports.at(0);
  ASSERT_NE(a.report, nullptr);
  // The Dell module's verdict arrived with its static read; vendor_oui is unverifiable.
  EXPECT_EQ(findings(a).count("vendor_oui"), 1u);
  EXPECT_EQ(findings(a).at("vendor_oui"), "warn");

  // A broken site catalog: the reload is refused, naming file:line:col, the old setup stays.
  dir.write("site/50-site.toml", "[part.\"X1\"]\nidentifier = \"QSFP\"\n");
  const std::string err = svc.reload();
  EXPECT_NE(err.find("50-site.toml:2:"), std::string::npos) << err;
  EXPECT_EQ(svc.reloads_failed(), 1u);
  EXPECT_NE(svc.coding()->catalog->find_part("X1"), nullptr);
  // And at start nothing runs.
  Service fresh(clock, store);
  EXPECT_NE(fresh.start(config).find("50-site.toml:2:"), std::string::npos);
  // A named catalog that does not exist is an error too (a typo, not a degradation).
  const std::string typo = dir.write("typo.toml", config_text(dir, "catalog = \"no-such-dir\"\n"));
  EXPECT_NE(fresh.start(typo).find("no-such-dir: no such file or directory"), std::string::npos);
}

}  // namespace
}  // namespace xcvr::daemon
