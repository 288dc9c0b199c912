// State that survives, part 2: bounded size (file cap, serial bound with least-recently-seen
// eviction), saving at shutdown, a state_directory change on reload, and the write-failure
// counter on /metrics. HostileState.* runs under the ctest label "hostile".
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <iostream>
#include <set>

#include "aging_test_util.hpp"
#include "daemon/aging.hpp"
#include "daemon/service.hpp"
#include "exporters/metrics.hpp"

namespace xcvr::daemon {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif

// kB from /proc/self/status ("VmHWM", "VmRSS").
long status_kb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

// Resets the peak RSS (VmHWM) to the current RSS (Linux >= 4.0), so a test can measure its own peak.
bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  return static_cast<bool>(out.flush());
}

std::string entry(const std::string& serial, double last_seen) {
  return "\"" + serial + "\":{\"vendor\":\"NVIDIA\",\"part_number\":\"MMA4Z00-NS400\",\"first_seen_unix\":1.6e9," +
         "\"last_seen_unix\":" + std::to_string(last_seen) +
         ",\"lanes\":{\"1\":{\"tx_bias_amperes\":0.0065,\"tx_power_watts\":0.0011}}}";
}

TEST(HostileState, OversizedStateFileIsRefusedUnreadAndKeptAside) {
  TempDir dir;
  const fs::path file = dir.path / "aging.json";
  {  // the 145 MB file of the finding (sparse: its size is what the cap looks at, before reading)
    const int fd = ::open(file.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, 145l << 20), 0);
    ::close(fd);
  }
  CapturedLog log;
  const bool peak = reset_peak_rss();
  const long before = status_kb("VmHWM");
  AgingStore store;
  store.set_directory(dir.path.string(), kT0);
  const long grown_kb = status_kb("VmHWM") - before;
  EXPECT_EQ(store.size(), 0u);
  const auto refused = log.matching("above the cap of 16777216 bytes");
  ASSERT_EQ(refused.size(), 1u) << log.all();
  EXPECT_NE(refused[0].find("152043520 bytes"), std::string::npos) << refused[0];
  const fs::path aside = dir.path / ("aging.json.corrupt-" + std::to_string(static_cast<long long>(kT0)));
  EXPECT_NE(refused[0].find(aside.string()), std::string::npos) << refused[0];
  EXPECT_EQ(fs::file_size(aside), 145ull << 20);
  EXPECT_FALSE(fs::exists(file));
  if (peak) {
    EXPECT_LT(grown_kb, 8 * 1024) << "nothing of the refused file is read";
  }
  std::cout << "[ figure ] peak RSS growth refusing a 145 MiB state file: " << grown_kb << " kB\n";
}

TEST(HostileState, TwoHundredThousandSerialsStayBoundedLeastRecentlySeenFirst) {
  TempDir dir;
  AgingLimits limits;
  ASSERT_EQ(limits.max_entries, 4096u);
  AgingStore store("", limits);
  store.set_directory(dir.path.string(), kT0);
  const bool peak = reset_peak_rss();
  const long before = status_kb("VmHWM");
  constexpr int kSerials = 200'000;
  for (int i = 0; i < kSerials; ++i) {
    const double wall = kT0 + i * 0.001;  // 200 s of virtual time: a save every 10 s
    store.observe(module("SN" + std::to_string(i)), wall);
    if (i % 1000 == 0) store.observe(module("KEEPER"), wall);  // seen again and again: never evicted
    ASSERT_LE(store.size(), 4096u);
  }
  store.flush(kT0 + 300);
  const long grown_kb = status_kb("VmHWM") - before;
  EXPECT_EQ(store.size(), 4096u);
  EXPECT_EQ(store.write_failures(), 0u);
  const ParsedAging saved = parse_aging("aging.json", slurp(dir.path / "aging.json"));
  ASSERT_TRUE(saved.fatal.empty()) << saved.fatal;
  EXPECT_EQ(saved.entries.size(), 4096u);
  std::set<std::string> kept;
  for (const auto& [serial, b] : saved.entries) kept.insert(serial);
  EXPECT_TRUE(kept.contains("KEEPER"));
  EXPECT_TRUE(kept.contains("SN" + std::to_string(kSerials - 1)));
  EXPECT_TRUE(kept.contains("SN" + std::to_string(kSerials - 4095)));
  EXPECT_FALSE(kept.contains("SN" + std::to_string(kSerials - 4096)));  // KEEPER holds that slot
  EXPECT_FALSE(kept.contains("SN0"));
  const auto size = fs::file_size(dir.path / "aging.json");
  EXPECT_LT(size, limits.max_file_bytes / 4) << "a full store is far below the read cap";
  if (peak && !kAsan) {  // ASan's quarantine keeps freed memory resident: not the store's
    EXPECT_LT(grown_kb, 64 * 1024);
  }
  std::cout << "[ figure ] 200000 serials observed: " << store.size() << " kept, file " << size
            << " bytes, peak RSS growth " << grown_kb << " kB\n";
}

TEST(HostileState, FileWithMoreSerialsThanTheBoundKeepsTheMostRecentlySeen) {
  TempDir dir;
  std::string text = "{\"version\":2,\"modules\":{\n";
  for (int i = 0; i < 10'000; ++i) text += (i ? ",\n" : "") + entry("S" + std::to_string(i), 1.6e9 + (i * 7919) % 10'000);
  text += "\n}}\n";
  spit(dir.path / "aging.json", text);
  CapturedLog log;
  AgingStore store;
  store.set_directory(dir.path.string(), kT0);
  EXPECT_EQ(store.size(), 4096u);
  EXPECT_EQ(log.matching("10000 serials, above the bound of 4096: the 5904 least recently seen dropped").size(), 1u)
      << log.all();
  const ParsedAging saved = parse_aging("aging.json", slurp(dir.path / "aging.json"));
  ASSERT_EQ(saved.entries.size(), 4096u);
  for (const auto& [serial, b] : saved.entries) ASSERT_GE(b.last_seen_unix, 1.6e9 + 10'000 - 4096) << serial;
  EXPECT_FALSE(fs::exists(dir.path / ("aging.json.corrupt-" + std::to_string(static_cast<long long>(kT0)))))
      << "eviction by the bound is a rule, not damage";
}

TEST(HostileState, UnsavedChangesAreWrittenAtFlushAndDestruction) {
  TempDir dir;
  {
    AgingStore store;
    store.set_directory(dir.path.string(), kT0);
    store.observe(module("FIRST"), kT0);       // written at once
    store.observe(module("SECOND"), kT0 + 1);  // within the save interval: in memory only
    EXPECT_EQ(slurp(dir.path / "aging.json").find("SECOND"), std::string::npos);
    store.flush(kT0 + 2);
    EXPECT_NE(slurp(dir.path / "aging.json").find("SECOND"), std::string::npos);
    store.observe(module("THIRD"), kT0 + 3);
  }
  EXPECT_NE(slurp(dir.path / "aging.json").find("THIRD"), std::string::npos) << "the destructor flushes";
}

TEST(HostileState, DirectoryChangeSavesToTheOldMergesTheNewAndWritesThere) {
  TempDir a, b;
  // b already knows SHARED from an earlier run, with an older baseline: that one wins.
  spit(b.path / "aging.json", "{\"modules\":{" + entry("SHARED", 1.61e9) + "}}");
  AgingStore store;
  store.set_directory(a.path.string(), kT0);
  store.observe(module("SHARED", 0.013), kT0);
  store.observe(module("ONLY-A"), kT0 + 1);  // unsaved when the directory changes
  store.set_directory(b.path.string(), kT0 + 2);
  EXPECT_NE(slurp(a.path / "aging.json").find("ONLY-A"), std::string::npos) << "the old directory got what it was owed";
  EXPECT_EQ(store.path(), (b.path / "aging.json").string());
  const std::string in_b = slurp(b.path / "aging.json");
  EXPECT_NE(in_b.find("ONLY-A"), std::string::npos);
  EXPECT_NE(in_b.find("SHARED"), std::string::npos);
  // SHARED's baseline is b's (0.0065 A, first seen 1.6e9), so 0.013 A now reads as 2x.
  EXPECT_DOUBLE_EQ(store.observe(module("SHARED", 0.013), kT0 + 3).at(0).tx_bias_ratio.value(), 2.0);
  store.set_directory(b.path.string(), kT0 + 4);  // the same directory: nothing happens
  EXPECT_EQ(store.path(), (b.path / "aging.json").string());
}

// --- the service: shutdown, reload, /metrics ------------------------------------------------

std::string config_with_state(const fs::path& state) {
  return "[daemon]\nstate_directory = \"" + state.string() + "\"\n[poll]\ndynamic_interval = 1\nsettle_delay = 0\n" +
         "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"" + std::string(XCVR_TEST_DATA) +
         "/qsfp28-lr4-dell-3mfxg/raw.txt\"\n";
}

double last_seen_in(const fs::path& file) {
  const ParsedAging p = parse_aging(file.string(), slurp(file));
  return p.entries.size() == 1 ? p.entries[0].second.last_seen_unix : -1;
}

// A service on a file source whose config names `state`; time moves only when stepped.
struct ServiceRun {
  TempDir dir;
  base::VirtualClock clock{1000 * base::kSecond};
  SnapshotStore store;
  Service svc{clock, store};
  std::string start(const fs::path& state) {
    spit(dir.path / "config.toml", config_with_state(state));
    return svc.start((dir.path / "config.toml").string());
  }
  // Polls until the module has been read (a fresh engine reads it on its first cycles).
  bool step_until_read() {
    for (int i = 0; i < 3; ++i) {
      svc.engine()->step();
      if (store.current()->ports.size() == 1 && store.current()->ports[0].report) return true;
      clock.advance(base::kSecond);
    }
    return false;
  }
};

TEST(HostileState, ServiceSavesStateAtShutdown) {
  ServiceRun run;
  ASSERT_EQ(run.start(run.dir.path / "state"), "");
  ASSERT_TRUE(run.step_until_read());
  const fs::path file = run.dir.path / "state" / "aging.json";
  const double first = last_seen_in(file);
  ASSERT_GT(first, 0) << slurp(file);
  run.clock.advance(5 * base::kSecond);
  run.svc.engine()->step();
  const double seen = run.store.current()->taken_unix;
  EXPECT_EQ(last_seen_in(file), first) << "last-seen alone is not written every poll";
  run.svc.stop();
  EXPECT_EQ(last_seen_in(file), seen) << "clean shutdown writes it";
}

TEST(HostileState, ReloadHonoursAChangedStateDirectory) {
  ServiceRun run;
  const fs::path one = run.dir.path / "one", two = run.dir.path / "two";
  ASSERT_EQ(run.start(one), "");
  ASSERT_TRUE(run.step_until_read());
  run.clock.advance(base::kSecond);
  run.svc.engine()->step();
  ASSERT_TRUE(fs::exists(one / "aging.json"));
  spit(run.dir.path / "config.toml", config_with_state(two));
  ASSERT_EQ(run.svc.reload(), "");
  ASSERT_TRUE(fs::exists(two / "aging.json")) << "written to the new directory at the reload";
  const double in_one = last_seen_in(one / "aging.json");
  run.clock.advance(base::kSecond);
  ASSERT_TRUE(run.step_until_read());
  run.svc.stop();
  EXPECT_EQ(last_seen_in(one / "aging.json"), in_one) << "the old directory is left alone";
  EXPECT_EQ(last_seen_in(two / "aging.json"), run.store.current()->taken_unix);
}

TEST(HostileState, WriteFailuresAreCountedOnMetrics) {
  CapturedLog log;
  ServiceRun run;
  spit(run.dir.path / "not-a-directory", "x");
  ASSERT_EQ(run.start(run.dir.path / "not-a-directory"), "");
  ASSERT_TRUE(run.step_until_read());
  EXPECT_FALSE(log.matching("cannot save aging baselines").empty()) << log.all();
  const uint64_t failures = run.store.current()->state_write_failures_total;
  EXPECT_GE(failures, 1u);
  const std::string text = exporters::render_text(health::FleetView(*run.store.current()));
  EXPECT_NE(text.find("# TYPE transceiver_exporter_state_write_failures_total counter\n"
                      "transceiver_exporter_state_write_failures_total " + std::to_string(failures) + "\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace xcvr::daemon
