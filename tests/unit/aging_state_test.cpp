// State that survives (issue 16 item 4): aging baselines on a full, read-only or hostile state
// directory. HostileState.* runs under the ctest label "hostile" (tests/CMakeLists.txt).
//
// Write failures are injected two ways: through the FileSyscalls seam (the errno a full or
// read-only file system returns, on any machine), and, where the test runs as root with
// CAP_SYS_ADMIN, by the real kernel: a 64 KiB tmpfs filled to the last block (ENOSPC) and a
// read-only bind mount (EROFS, which stops root where chmod 0555 does not).
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "aging_test_util.hpp"
#include "daemon/aging.hpp"
#include "base/files/files.hpp"

namespace xcvr::daemon {
namespace {

// A file system that fails chosen calls with a chosen errno; everything else is the kernel.
struct FaultyFiles : files::RealFileSyscalls {
  int write_errno = 0;   // write(2) of file content
  int create_errno = 0;  // open(2) with O_CREAT and mkdir(2) of a missing directory
  int rename_errno = 0;  // rename(2) and renameat2(2)
  int calls_failed = 0;
  int fail(int e) {
    ++calls_failed;
    return -e;
  }
  int open(const char* path, int flags, mode_t mode) override {
    if (create_errno && (flags & O_CREAT)) return fail(create_errno);
    return RealFileSyscalls::open(path, flags, mode);
  }
  ssize_t write(int fd, const void* buf, std::size_t n) override {
    if (write_errno) return fail(write_errno);
    return RealFileSyscalls::write(fd, buf, n);
  }
  int rename(const char* from, const char* to) override {
    return rename_errno ? fail(rename_errno) : RealFileSyscalls::rename(from, to);
  }
  int rename_noreplace(const char* from, const char* to) override {
    return rename_errno ? fail(rename_errno) : RealFileSyscalls::rename_noreplace(from, to);
  }
  int mkdir(const char* path, mode_t mode) override {
    struct stat st {};
    if (create_errno && ::stat(path, &st) != 0) return fail(create_errno);
    return RealFileSyscalls::mkdir(path, mode);
  }
};

// --- write failures -------------------------------------------------------------------------

TEST(HostileState, FullDiskIsLoggedCountedRetriedAndKeepsTheOldFile) {
  TempDir dir;
  FaultyFiles sys;
  CapturedLog log;
  AgingStore store("", {}, sys);
  store.set_directory(dir.path.string(), kT0);
  store.observe(module("OLD-1"), kT0);
  const fs::path file = dir.path / "aging.json";
  const std::string before = slurp(file);
  ASSERT_NE(before.find("\"OLD-1\""), std::string::npos);

  sys.write_errno = ENOSPC;
  store.observe(module("NEW-1"), kT0 + 20);  // a new serial: written at once, fails
  EXPECT_EQ(store.write_failures(), 1u);
  const auto errors = log.matching("cannot save aging baselines");
  ASSERT_EQ(errors.size(), 1u) << log.all();
  EXPECT_NE(errors[0].find(dir.path.string()), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("ENOSPC"), std::string::npos) << errors[0];
  EXPECT_EQ(slurp(file), before);                                  // the old file is intact
  EXPECT_EQ(names_in(dir.path), std::vector<std::string>{"aging.json"});  // no temp file left

  store.observe(module("NEW-2"), kT0 + 21);  // within the save interval: no new attempt
  EXPECT_EQ(store.write_failures(), 1u);
  for (int i = 1; i <= 5; ++i) store.observe(module("NEW-2"), kT0 + 20 + 10.0 * i);  // retried every 10 s
  EXPECT_EQ(store.write_failures(), 6u);
  EXPECT_EQ(log.matching("cannot save aging baselines").size(), 1u) << "rate-limited: one line per 300 s";

  sys.write_errno = 0;  // space again: the next attempt writes everything kept in memory
  store.observe(module("NEW-2"), kT0 + 80);
  EXPECT_EQ(store.write_failures(), 6u);
  EXPECT_EQ(log.matching("again after 6 failed writes").size(), 1u) << log.all();
  const std::string after = slurp(file);
  for (const char* s : {"OLD-1", "NEW-1", "NEW-2"}) EXPECT_NE(after.find(s), std::string::npos) << s;
}

TEST(HostileState, ReadOnlyDirectoryIsLoggedAndCountedNotSilent) {
  TempDir dir;
  FaultyFiles sys;
  sys.create_errno = EROFS;
  sys.rename_errno = EROFS;
  CapturedLog log;
  AgingStore store("", {}, sys);
  store.set_directory((dir.path / "state").string(), kT0);  // cannot even be created
  EXPECT_EQ(log.matching("state directory").size(), 1u) << log.all();
  store.observe(module("RO-1"), kT0);
  EXPECT_EQ(store.write_failures(), 1u);
  const auto errors = log.matching("cannot save aging baselines");
  ASSERT_EQ(errors.size(), 1u) << log.all();
  EXPECT_NE(errors[0].find("EROFS"), std::string::npos) << errors[0];
  EXPECT_DOUBLE_EQ(store.observe(module("RO-1", 0.0130), kT0 + 1).at(0).tx_bias_ratio.value(), 2.0) << "drift still computed";
  EXPECT_FALSE(fs::exists(dir.path / "state"));
}

// #39 item 4: the save at shutdown is the last chance. Its failure is logged even when the rate
// limit hid the failures before it, it says the unsaved baselines are lost (not "kept and
// retried"), it is counted, and the destructor's flush after it does not say it twice.
TEST(HostileState, FailedSaveAtShutdownIsLoggedWhateverTheThrottleAndCounted) {
  TempDir dir;
  FaultyFiles sys;
  CapturedLog log;
  {
    AgingStore store("", {}, sys);
    store.set_directory(dir.path.string(), kT0);
    sys.write_errno = EROFS;
    store.observe(module("LOST-1"), kT0 + 20);  // fails: logged (the first in 300 s)
    store.observe(module("LOST-2"), kT0 + 40);  // fails: within the rate limit, not logged
    ASSERT_EQ(store.write_failures(), 2u);
    ASSERT_EQ(log.matching("cannot save aging baselines").size(), 1u) << log.all();
    store.flush(kT0 + 45);  // shutdown, 25 s after the logged failure
    EXPECT_EQ(store.write_failures(), 3u) << "counted";
    const auto last = log.matching("at shutdown");
    ASSERT_EQ(last.size(), 1u) << log.all();
    EXPECT_EQ(last[0].rfind("error ", 0), 0u) << last[0];
    EXPECT_NE(last[0].find("EROFS"), std::string::npos) << last[0];
    EXPECT_NE(last[0].find("is lost"), std::string::npos) << last[0];
    EXPECT_NE(last[0].find("3 failures in a row, 1 of them not logged"), std::string::npos) << last[0];
    EXPECT_EQ(last[0].find("retried"), std::string::npos) << "nothing is retried after shutdown: " << last[0];
  }  // the destructor flushes again: nothing new was observed, so no second line
  EXPECT_EQ(log.matching("at shutdown").size(), 1u) << log.all();
  EXPECT_EQ(slurp(dir.path / "aging.json").find("LOST-1"), std::string::npos);
}

// A mount made by this test in a fresh directory, undone at the end.
struct TestMount {
  fs::path at;
  std::string skip;  // why the kernel refused (not root, no CAP_SYS_ADMIN): the seam tests cover it
  TestMount(const fs::path& dir, const char* source, const char* type, unsigned long flags, const char* data)
      : at(dir) {
    if (::mount(source, at.c_str(), type, flags, data) != 0) skip = std::string("mount: ") + std::strerror(errno);
  }
  bool remount_read_only() {
    return ::mount(nullptr, at.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
  }
  ~TestMount() {
    if (skip.empty()) ::umount2(at.c_str(), MNT_DETACH);
  }
};

TEST(HostileState, FullTmpfsRealKernel) {
  TempDir dir;
  const fs::path mnt = dir.path / "mnt";
  fs::create_directories(mnt);
  TestMount m(mnt, "tmpfs", "tmpfs", 0, "size=64k,mode=0755");
  if (!m.skip.empty()) GTEST_SKIP() << m.skip;
  CapturedLog log;
  AgingStore store;
  store.set_directory(mnt.string(), kT0);
  store.observe(module("SMALL-1"), kT0);
  const std::string before = slurp(mnt / "aging.json");
  ASSERT_FALSE(before.empty());
  {  // fill the file system to the last block
    std::ofstream filler(mnt / "filler", std::ios::binary);
    const std::string block(4096, 'x');
    for (int i = 0; i < 64 && filler.write(block.data(), block.size()); ++i) filler.flush();
  }
  for (int i = 0; i < 50; ++i) store.observe(module("FILL-" + std::to_string(i)), kT0 + 20);  // ≈ 16 KB
  EXPECT_GE(store.write_failures(), 1u);
  const auto errors = log.matching("cannot save aging baselines");
  ASSERT_FALSE(errors.empty()) << log.all();
  EXPECT_NE(errors[0].find("ENOSPC"), std::string::npos) << errors[0];
  EXPECT_EQ(slurp(mnt / "aging.json"), before);
  const uint64_t failures = store.write_failures();
  fs::remove(mnt / "filler");
  store.flush(kT0 + 40);
  EXPECT_EQ(store.write_failures(), failures) << log.all();
  EXPECT_NE(slurp(mnt / "aging.json").find("FILL-49"), std::string::npos);
}

TEST(HostileState, ReadOnlyBindMountRealKernel) {
  TempDir dir;
  const fs::path mnt = dir.path / "ro";
  fs::create_directories(mnt);
  spit(mnt / "aging.json", "{\"modules\":{}}");
  TestMount m(mnt, mnt.c_str(), nullptr, MS_BIND, nullptr);
  if (!m.skip.empty()) GTEST_SKIP() << m.skip;
  ASSERT_TRUE(m.remount_read_only()) << std::strerror(errno);
  CapturedLog log;
  AgingStore store;
  store.set_directory(mnt.string(), kT0);
  store.observe(module("RO-2"), kT0);
  EXPECT_EQ(store.write_failures(), 1u);
  const auto errors = log.matching("cannot save aging baselines");
  ASSERT_EQ(errors.size(), 1u) << log.all();
  EXPECT_NE(errors[0].find("EROFS"), std::string::npos) << errors[0];
  EXPECT_EQ(slurp(mnt / "aging.json"), "{\"modules\":{}}");
}

// --- loading damaged files -----------------------------------------------------------------

const char* kThreeEntries =
    "{\"version\":2,\"modules\":{\n"
    "\"A\":{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":100,\"lanes\":{\"1\":{\"tx_bias_amperes\":0.006}}},\n"
    "\"B\":{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":100,\"lanes\":{\"1\":{\"tx_bias_amperes\":\"x\"}}},\n"
    "\"C\":{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":100,\"lanes\":{\"1\":{\"tx_bias_amperes\":0.005}}}\n"
    "}}\n";

// A store pointed at a fresh directory whose aging.json holds `text`, its log captured.
struct LoadedFrom {
  TempDir dir;
  CapturedLog log;
  AgingStore store;
  explicit LoadedFrom(const std::string& text) {
    spit(dir.path / "aging.json", text);
    store.set_directory(dir.path.string(), kT0);
  }
};

TEST(HostileState, OneBadEntryDropsThatEntryOnlyAndTheFileIsKeptAside) {
  LoadedFrom loaded(kThreeEntries);
  auto& [dir, log, store] = loaded;
  EXPECT_EQ(store.size(), 2u);
  const auto dropped = log.matching("entry dropped");
  ASSERT_EQ(dropped.size(), 1u) << log.all();
  EXPECT_NE(dropped[0].find((dir.path / "aging.json").string() + ":3:1: modules entry 2 (serial \"B\")"), std::string::npos)
      << dropped[0];
  EXPECT_NE(dropped[0].find("tx_bias_amperes"), std::string::npos) << dropped[0];
  // The original, byte for byte, beside the rewritten file with the two good entries.
  const std::string aside = "aging.json.corrupt-" + std::to_string(static_cast<long long>(kT0));
  EXPECT_EQ(names_in(dir.path), (std::vector<std::string>{"aging.json", aside}));
  EXPECT_EQ(slurp(dir.path / aside), kThreeEntries);
  const std::string now = slurp(dir.path / "aging.json");
  EXPECT_NE(now.find("\"A\""), std::string::npos);
  EXPECT_NE(now.find("\"C\""), std::string::npos);
  EXPECT_EQ(now.find("\"B\""), std::string::npos);
  // The surviving baselines are the loaded ones.
  cmis::ModuleReport a = module("A", 0.012);
  a.id.vendor_name = "V";
  a.id.part_number = "P";
  EXPECT_DOUBLE_EQ(store.observe(a, kT0 + 1).at(0).tx_bias_ratio.value(), 2.0);
}

TEST(HostileState, EveryKindOfBadEntryIsDroppedAlone) {
  const std::string ok = "{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{}}";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"5", "not an object"},
      {"{\"vendor\":1,\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{}}", "\"vendor\" is not a string"},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"lanes\":{}}", "first_seen_unix"},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":-5,\"lanes\":{}}", "first_seen_unix"},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":[]}", "\"lanes\""},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{\"0\":{}}}", "lane \"0\""},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{\"1x\":{}}}", "lane \"1x\""},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{\"1\":{\"tx_bias_amperes\":0}}}", "plausible"},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{\"1\":{\"tx_power_watts\":1e308}}}", "plausible"},
      {"{\"vendor\":\"V\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{\"1\":{\"rx\":1}}}", "unknown key"},
      {"{\"vendor\":\"V\\u0007\",\"part_number\":\"P\",\"first_seen_unix\":1,\"lanes\":{}}", "control"},
  };
  for (const auto& [entry, why] : bad) {
    SCOPED_TRACE(entry);
    const std::string text = "{\"modules\":{\n\"GOOD1\":" + ok + ",\n\"BAD\":" + entry + ",\n\"GOOD2\":" + ok + "}}";
    const ParsedAging p = parse_aging("f.json", text);
    EXPECT_TRUE(p.fatal.empty()) << p.fatal;
    ASSERT_EQ(p.entries.size(), 2u);
    EXPECT_EQ(p.entries[0].first, "GOOD1");
    EXPECT_EQ(p.entries[1].first, "GOOD2");
    ASSERT_EQ(p.dropped.size(), 1u);
    EXPECT_EQ(p.dropped[0].rfind("f.json:3:1: modules entry 2 (serial \"BAD\"): ", 0), 0u) << p.dropped[0];
    EXPECT_NE(p.dropped[0].find(why), std::string::npos) << p.dropped[0];
  }
  const ParsedAging twice = parse_aging("f.json", "{\"modules\":{\"S\":" + ok + ",\"S\":" + ok + "}}");
  EXPECT_EQ(twice.entries.size(), 1u);
  ASSERT_EQ(twice.dropped.size(), 1u);
  EXPECT_NE(twice.dropped[0].find("appears twice"), std::string::npos);
}

TEST(HostileState, ThousandsOfBadEntriesDoNotFloodTheLog) {
  std::string text = "{\"modules\":{";
  for (int i = 0; i < 5000; ++i) text += (i ? ",\n" : "\n") + std::string("\"S") + std::to_string(i) + "\":5";
  LoadedFrom loaded(text + "}}");
  EXPECT_EQ(loaded.store.size(), 0u);
  EXPECT_EQ(loaded.log.matching("entry dropped").size(), 20u);
  EXPECT_EQ(loaded.log.matching("4980 more bad entries dropped (not logged)").size(), 1u) << loaded.log.all();
}

// A state file that is (a link to) another file: the error names the position, never the other
// file's bytes (the parser's "last read: 'root:x:0:0'" put them in the log).
TEST(HostileState, AnUnparseableFileIsNamedByPositionNotByItsContent) {
  const ParsedAging p = parse_aging("f.json", "root:$6$secret-hash:19000:0:99999:7:::\n");
  EXPECT_NE(p.fatal.find("f.json:1:"), std::string::npos) << p.fatal;
  EXPECT_EQ(p.fatal.find("root"), std::string::npos) << p.fatal;
  EXPECT_EQ(p.fatal.find("secret"), std::string::npos) << p.fatal;
}

TEST(HostileState, UnparseableFileIsKeptAsideAndNeverOverwritten) {
  for (const std::string garbage : {"not json at all {", "[1,2,3]", "{\"modules\":[1]}", "{\"other\":{}}", ""}) {
    SCOPED_TRACE(garbage);
    LoadedFrom loaded(garbage);
    auto& [dir, log, store] = loaded;
    EXPECT_EQ(store.size(), 0u);
    const std::string aside = "aging.json.corrupt-" + std::to_string(static_cast<long long>(kT0));
    ASSERT_TRUE(fs::exists(dir.path / aside)) << log.all();
    EXPECT_EQ(slurp(dir.path / aside), garbage);
    EXPECT_EQ(log.matching("the file is kept as " + (dir.path / aside).string()).size(), 1u) << log.all();
    store.observe(module("FRESH"), kT0 + 1);
    store.flush(kT0 + 2);
    EXPECT_EQ(slurp(dir.path / aside), garbage) << "never overwritten by later saves";
    EXPECT_NE(slurp(dir.path / "aging.json").find("FRESH"), std::string::npos);
  }
}

TEST(HostileState, TruncatedFileKeepsTheEntriesBeforeTheCut) {
  const std::string text = std::string(kThreeEntries).substr(0, std::string(kThreeEntries).find("\"C\"") + 30);
  LoadedFrom loaded(text);
  auto& [dir, log, store] = loaded;
  EXPECT_EQ(store.size(), 1u) << "A kept, B bad, C cut off";
  const auto fatal = log.matching("the rest of the file is not readable");
  ASSERT_EQ(fatal.size(), 1u) << log.all();
  EXPECT_NE(fatal[0].find((dir.path / "aging.json").string() + ":4:"), std::string::npos) << fatal[0];
  EXPECT_EQ(slurp(dir.path / ("aging.json.corrupt-" + std::to_string(static_cast<long long>(kT0)))), text);
}

TEST(HostileState, CorruptFileThatCannotBeMovedAsideIsNeverOverwritten) {
  TempDir dir;
  spit(dir.path / "aging.json", "garbage");
  FaultyFiles sys;
  sys.rename_errno = EROFS;
  CapturedLog log;
  AgingStore store("", {}, sys);
  store.set_directory(dir.path.string(), kT0);
  EXPECT_EQ(log.matching("never overwritten").size(), 1u) << log.all();
  sys.rename_errno = 0;  // even once renames work again, this file is not replaced
  store.observe(module("X"), kT0 + 1);
  store.flush(kT0 + 100);
  EXPECT_EQ(slurp(dir.path / "aging.json"), "garbage");
  EXPECT_EQ(store.write_failures(), 2u);
  EXPECT_FALSE(log.matching("not writing").empty()) << log.all();
}

TEST(HostileState, StateFileThatIsAFifoOrDirectoryIsRefusedWithoutBlocking) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path / "aging.json").c_str(), 0600), 0);
  CapturedLog log;
  {
    AgingStore store;
    store.set_directory(dir.path.string(), kT0);  // would block forever on a FIFO without O_NONBLOCK
    EXPECT_EQ(log.matching("not a regular file").size(), 1u) << log.all();
    store.observe(module("X"), kT0);
    EXPECT_EQ(store.write_failures(), 1u);
  }
  struct stat st {};
  ASSERT_EQ(::stat((dir.path / "aging.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

}  // namespace
}  // namespace xcvr::daemon
