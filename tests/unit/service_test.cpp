// Service: load, SIGHUP-style reload (good and bad), file sources end to end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon/service.hpp"

namespace xcvr::daemon {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-svc-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(counter++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
  static inline int counter = 0;
};

std::string file_source(const std::vector<std::pair<std::string, std::string>>& ports) {
  std::string s = "[poll]\ndynamic_interval = 1\nsettle_delay = 0\n[[source]]\ntype = \"file\"\n";
  for (const auto& [name, dir] : ports) {
    s += "[[source.port]]\nname = \"" + name + "\"\npath = \"" + std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt\"\n";
  }
  return s;
}

TEST(Service, ReloadAppliesAGoodConfigAndKeepsTheOldOneOnABadOne) {
  TempDir dir;
  dir.write("config.toml", "[daemon]\nstate_directory = \"" + (dir.path / "state").string() + "\"\n" +
                               file_source({{"a", "qsfp28-lr4-dell-3mfxg"}}));
  base::VirtualClock clock{1000 * base::kSecond};
  SnapshotStore store;
  Service svc(clock, store);
  ASSERT_EQ(svc.start((dir.path / "config.toml").string()), "");
  svc.engine()->step();
  clock.advance(base::kSecond);
  svc.engine()->step();
  ASSERT_EQ(store.current()->ports.size(), 1u);
  EXPECT_EQ(store.current()->ports[0].report->id.part_number, "3MFXG");

  // A broken config: the running one stays, the failure is counted and named.
  dir.write("config.toml", file_source({{"a", "qsfp28-lr4-dell-3mfxg"}}) + "bogus_key = 1\n");
  const std::string err = svc.reload();
  EXPECT_NE(err.find("config.toml:"), std::string::npos) << err;
  EXPECT_NE(err.find("unknown key 'bogus_key'"), std::string::npos) << err;
  EXPECT_EQ(svc.reloads_failed(), 1u);
  clock.advance(base::kSecond);
  svc.engine()->step();
  EXPECT_EQ(store.current()->ports.size(), 1u);
  EXPECT_FALSE(store.current()->last_config_reload_ok);
  EXPECT_EQ(store.current()->config_reload_failures_total, 1u);

  // A config whose source cannot be built (missing dump) is refused the same way.
  dir.write("config.toml", file_source({{"a", "no-such-dump"}}));
  EXPECT_NE(svc.reload().find("cannot open"), std::string::npos);
  EXPECT_EQ(svc.reloads_failed(), 2u);

  // A good one replaces the port set.
  dir.write("config.toml", file_source({{"x", "sfp28-sr-finisar-ftlf8536p4bcl"}, {"y", "qsfp28-sr4-finisar-ftlc9551repm"}}));
  EXPECT_EQ(svc.reload(), "");
  EXPECT_EQ(svc.reloads_attempted(), 3u);  // attempts, failed ones included
  svc.engine()->step();
  clock.advance(base::kSecond);
  svc.engine()->step();
  const auto snap = store.current();
  ASSERT_EQ(snap->ports.size(), 2u);
  EXPECT_TRUE(snap->last_config_reload_ok);
  EXPECT_EQ(snap->config_reloads_total, 3u);
  for (const auto& p : snap->ports) {
    ASSERT_NE(p.report, nullptr) << p.port;
    EXPECT_EQ(daemon::port_state_name(p.state), "ok") << p.port;
  }
}

TEST(Service, StartRefusesABadConfigWithItsLocation) {
  TempDir dir;
  dir.write("config.toml", "[poll]\ndynamic_interval = \"fast\"\n");
  base::VirtualClock clock{1000 * base::kSecond};
  SnapshotStore store;
  Service svc(clock, store);
  const std::string err = svc.start((dir.path / "config.toml").string());
  EXPECT_NE(err.find("config.toml:2:20:"), std::string::npos) << err;
  EXPECT_EQ(svc.engine(), nullptr);
}

TEST(Service, RealThreadsPollAndStopCleanly) {
  TempDir dir;
  dir.write("config.toml", "[daemon]\nstate_directory = \"" + (dir.path / "state").string() + "\"\n" +
                               file_source({{"a", "osfp800g-juniper-dr8-xai01-port40"}}));
  base::SteadyClock clock;
  SnapshotStore store;
  Service svc(clock, store);
  ASSERT_EQ(svc.start((dir.path / "config.toml").string()), "");
  svc.run();
  // Wait (bounded) for the first good read; no timing assertion, just progress.
  for (int i = 0; i < 500 && (store.current()->ports.empty() || !store.current()->ports[0].report); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  svc.stop();
  ASSERT_FALSE(store.current()->ports.empty());
  ASSERT_NE(store.current()->ports[0].report, nullptr);
  EXPECT_EQ(store.current()->ports[0].report->id.part_number, "740-174932");
  EXPECT_TRUE(fs::exists(dir.path / "state" / "aging.json"));
}

}  // namespace
}  // namespace xcvr::daemon
