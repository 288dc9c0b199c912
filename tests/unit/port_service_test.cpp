// Flags counted as events (rising edges over polls and the confirming re-read of latched flags),
// ports and lanes configured out of service reaching the snapshots, and the data path of each
// lane of a twin-port module from the emulator's memory to the `data_path` label.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cmis/cmis_map.hpp"
#include "daemon/sources.hpp"
#include "exporters/metrics.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using testing_support::Fleet;

const FlagHistory* history(const PortSnapshot& p, const std::string& flag, int lane) {
  for (const FlagHistory& f : p.flags) {
    if (f.flag == flag && f.lane == lane) return &f;
  }
  return nullptr;
}
uint64_t flag_total(const PortSnapshot& p, const std::string& flag, int lane) {
  const FlagHistory* h = history(p, flag, lane);
  return h != nullptr ? h->raised_total : 0;
}

void set_rx_los(Fleet& f, bool on) {
  f.buses[0]->with_module(0, [on](emulator::EmulatedModule& m) {
    if (on) m.faults().rx_los.set(0);
    else m.faults().rx_los.reset(0);
    m.update();
  });
}

TEST(FlagEvents, APersistingLosCountsOnceHoweverManyPolls) {
  Fleet f(1, 1);
  f.run_for(4.0);
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 0u);
  set_rx_los(f, true);
  f.buses[0]->reset_stats();
  for (int i = 0; i < 1000; ++i) f.run_for(1.0);  // 1000 polls, LOS up throughout
  const PortSnapshot& p = f.port("sw/b0c0");
  EXPECT_EQ(flag_total(p, "rx_los", 1), 1u);
  EXPECT_EQ(flag_total(p, "rx_power_low_alarm", 1), 1u);  // the dark lane's power flags too
  EXPECT_EQ(flag_total(p, "rx_los", 2), 0u);
  // The confirming re-read costs only the raised flag bytes (11h 147-152 here) per poll.
  const double per_poll = static_cast<double>(f.buses[0]->stats().bytes_read) / 1000;
  std::printf("bytes per poll with a persisting LOS: %.1f (100 when healthy)\n", per_poll);
  EXPECT_GT(per_poll, 100.0);
  EXPECT_LE(per_poll, 110.0);
  // It ends, and a second outage is a second event.
  set_rx_los(f, false);
  f.run_for(3.0);
  const FlagHistory* los = history(f.port("sw/b0c0"), "rx_los", 1);
  ASSERT_NE(los, nullptr);
  EXPECT_GT(los->last_cleared_unix, los->last_seen_unix);
  set_rx_los(f, true);
  f.run_for(3.0);
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 2u);
}

TEST(FlagEvents, Sff8636LatchesCountAsEventsToo) {
  Fleet f(1, 1, "qsfp28-100g-sr4");
  f.run_for(4.0);
  set_rx_los(f, true);
  for (int i = 0; i < 100; ++i) f.run_for(1.0);  // persisting
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 1u);
  set_rx_los(f, false);
  f.run_for(1.0);  // the poll that sees it end (an end and a new start in one interval are one)
  for (int i = 0; i < 100; ++i) {
    set_rx_los(f, true);  // transients between polls
    set_rx_los(f, false);
    f.run_for(1.0);
  }
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 101u);
}

TEST(FlagEvents, FlappingEveryOtherPollCountsEachFlap) {
  Fleet f(1, 1);
  f.run_for(4.0);
  for (int i = 0; i < 1000; ++i) {
    set_rx_los(f, i % 2 == 0);  // up for one poll, down for the next
    f.run_for(1.0);
  }
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 500u);
}

TEST(FlagEvents, TransientsBetweenPollsStillCountOneEach) {
  Fleet f(1, 1);
  f.run_for(4.0);
  for (int i = 0; i < 200; ++i) {
    set_rx_los(f, true);   // rises and falls between two polls: only the latch remembers it
    set_rx_los(f, false);
    f.run_for(1.0);
  }
  set_rx_los(f, true);  // then a persisting one: one more
  for (int i = 0; i < 200; ++i) f.run_for(1.0);
  EXPECT_EQ(flag_total(f.port("sw/b0c0"), "rx_los", 1), 201u);
}

// ---- out of service ---------------------------------------------------------------------------

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-svc-lanes-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

Config parse_ok(const std::string& text, const std::string& origin) {
  auto r = parse_config(text, origin);
  if (auto* e = std::get_if<ConfigError>(&r)) ADD_FAILURE() << e->to_string();
  return std::holds_alternative<Config>(r) ? std::get<Config>(r) : Config{};
}

TEST(PortService, ConfiguredServiceArrivesInEverySnapshotOfThePort) {
  TempDir dir;
  dir.write("fleet.toml",
            "[[system]]\nname = \"q2\"\n[[system.bus]]\ncage_form = \"OSFP\"\n"
            "modules = [\"osfp-800g-2xsr4-finned\", \"osfp-800g-2xsr4-finned\", \"\"]\n"
            "[[system.bus]]\ncage_form = \"QSFP28\"\nmodules = [\"qsfp28-100g-sr4\"]\n");
  std::string text =
      "[[source]]\ntype = \"emulator\"\nfleet = \"fleet.toml\"\nclock = \"wallclock\"\n"
      "[[source.port]]\nname = \"q2/port1\"\nunused_lanes = \"5-8\"\n"
      "[[source.port]]\nname = \"q2/port3\"\nin_service = false\n";
  const Config c = parse_ok(text, dir.write("config.toml", text));
  auto built = build_sources(c);
  ASSERT_TRUE(std::holds_alternative<BuiltSources>(built)) << std::get<SourceError>(built).message;
  const PollConfig poll;
  std::map<std::string, PortSnapshot> snaps;
  for (PortSpec& spec : std::get<BuiltSources>(built).ports) {
    PortPoller poller(spec.id, std::move(spec.transport), poll);
    snaps[poller.name()] = poller.snapshot(0);
  }
  ASSERT_EQ(snaps.size(), 4u);
  EXPECT_TRUE(snaps["q2/port1"].in_service);
  EXPECT_EQ(snaps["q2/port1"].unused_lanes, (std::vector<int>{5, 6, 7, 8}));
  EXPECT_TRUE(snaps["q2/port2"].in_service);
  EXPECT_TRUE(snaps["q2/port2"].unused_lanes.empty());
  EXPECT_FALSE(snaps["q2/port3"].in_service);  // an empty cage out of service
  EXPECT_EQ(daemon::port_state_name(snaps["q2/port3"].state), "empty");

  // The fleet decides which ports exist, and their cages: a name it lacks, or lane 5 of the
  // QSFP28 cage, refuses to start with the entry's location.
  for (const auto& [entry, expected] :
       {std::pair<std::string, std::string>{"name = \"q2/port9\"\nin_service = false\n", "no such port"},
        {"name = \"q2/port4\"\nunused_lanes = [4, 5]\n", "lanes are 1-4 on a QSFP28 port"}}) {
    const std::string bad = "[[source]]\ntype = \"emulator\"\nfleet = \"fleet.toml\"\n[[source.port]]\n" + entry;
    auto refused = build_sources(parse_ok(bad, dir.write("bad.toml", bad)));
    ASSERT_TRUE(std::holds_alternative<SourceError>(refused)) << entry;
    const std::string& message = std::get<SourceError>(refused).message;
    EXPECT_NE(message.find("bad.toml:4:1: "), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(PortService, ListedPortsCarryTheirServiceIntoPolledSnapshots) {
  TempDir dir;
  std::string dump;
  for (const auto& e : fs::directory_iterator(XCVR_TEST_DATA)) {
    if (fs::exists(e.path() / "raw.txt")) {
      dump = (e.path() / "raw.txt").string();
      break;
    }
  }
  ASSERT_FALSE(dump.empty());
  const std::string text = "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"d1\"\ncage = \"OSFP\"\npath = \"" + dump +
                           "\"\nunused_lanes = [2, \"7-8\"]\n[[source.port]]\nname = \"d2\"\npath = \"" + dump +
                           "\"\nin_service = false\n";
  Config c = parse_ok(text, dir.write("config.toml", text));
  c.poll.settle_delay_s = 0;
  auto built = build_sources(c);
  ASSERT_TRUE(std::holds_alternative<BuiltSources>(built)) << std::get<SourceError>(built).message;
  auto& ports = std::get<BuiltSources>(built).ports;
  ASSERT_EQ(ports.size(), 2u);
  for (PortSpec& spec : ports) {
    PortPoller poller(spec.id, std::move(spec.transport), c.poll);
    for (int i = 0; i < 3; ++i) poller.poll(i, 1.77e9 + i);  // insertion, read
    const PortSnapshot s = poller.snapshot(3);
    EXPECT_EQ(s.presence, PortPresence::Present) << s.port;
    if (s.port == "d1") {
      EXPECT_TRUE(s.in_service);
      EXPECT_EQ(s.unused_lanes, (std::vector<int>{2, 7, 8}));
    } else {
      EXPECT_FALSE(s.in_service);
      EXPECT_TRUE(s.unused_lanes.empty());
    }
  }
}

// ---- split ports: data path per lane ---------------------------------------------------------

TEST(DataPath, TwinPortModuleLabelsItsLanesWithTheirDataPath) {
  Fleet f(1, 2, nullptr);
  f.buses[0]->insert(0, testing_support::make_module("osfp-800g-2xsr4-finned", f.clock, 1));
  f.buses[0]->insert(1, testing_support::make_module("qsfpdd-400g-sr8", f.clock, 2));
  f.run_for(5.0);
  const PortSnapshot& twin = f.port("sw/b0c0");
  ASSERT_NE(twin.report, nullptr);
  ASSERT_EQ(twin.report->lanes.size(), 8u);
  for (const cmis::LaneReport& l : twin.report->lanes) EXPECT_EQ(l.data_path, l.lane <= 4 ? 1 : 2) << l.lane;

  const testing::Exposition e = testing::parse_exposition(exporters::render_text(health::FleetView(*f.store.current())));
  for (int lane = 1; lane <= 8; ++lane) {
    const auto twin_rx = e.find("transceiver_lane_rx_power_watts", {{"port", "sw/b0c0"}, {"lane", std::to_string(lane)}});
    ASSERT_EQ(twin_rx.size(), 1u) << lane;  // a label, not another series
    EXPECT_EQ(twin_rx.front().labels.at("data_path"), lane <= 4 ? "1" : "2");
    const auto state = e.find("transceiver_lane_data_path_state", {{"port", "sw/b0c0"}, {"lane", std::to_string(lane)}});
    ASSERT_EQ(state.size(), 1u);
    EXPECT_EQ(state.front().labels.at("data_path"), lane <= 4 ? "1" : "2");
    const auto sr8 = e.find("transceiver_lane_tx_bias_amperes", {{"port", "sw/b0c1"}, {"lane", std::to_string(lane)}});
    ASSERT_EQ(sr8.size(), 1u);
    EXPECT_EQ(sr8.front().labels.at("data_path"), "1");  // one 400G data path over 8 lanes
  }
  // Steady-state polls keep it (the Active Control Set is read with the static pages).
  f.run_for(20.0);
  EXPECT_EQ(f.port("sw/b0c0").report->lanes[7].data_path, 2);

  // The host reconfigures the module as one 8-lane data path: it deinitializes lanes 5-8,
  // rewrites their DataPathID to 0 and brings them back. The data-path state changes make the
  // poller re-read the static pages, Active Control Set included.
  const auto reconfigure = [&](bool deinit) {
    f.buses[0]->with_module(0, [&](emulator::EmulatedModule& m) {
      for (int lane = 5; lane <= 8; ++lane) {
        cmis::write_uint(m.memory(), cmis::cmis_field(cmis::CmisField::DataPathDeinit), deinit ? 1 : 0, lane);
        cmis::write_uint(m.memory(), cmis::cmis_field(cmis::CmisField::ActiveDataPathId), 0, lane);
      }
      m.update();
    });
  };
  reconfigure(true);
  f.run_for(3.0);
  EXPECT_EQ(f.port("sw/b0c0").report->lanes[7].data_path_state, "DPDeactivated");
  reconfigure(false);
  f.run_for(3.0);
  for (const cmis::LaneReport& l : f.port("sw/b0c0").report->lanes) EXPECT_EQ(l.data_path, 1) << l.lane;
}

}  // namespace
}  // namespace xcvr::daemon
