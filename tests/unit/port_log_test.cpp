// Per-port rate-limited logging: a port failing every poll logs a bounded number of lines, says
// how many it dropped, and never silences another port. Virtual time throughout.
#include <gtest/gtest.h>

#include <spdlog/sinks/ringbuffer_sink.h>

#include <regex>

#include "daemon/port_log.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using testing_support::Fleet;

// Sum of the "(N similar messages suppressed)" counts in `lines`.
uint64_t suppressed_in(const std::vector<std::string>& lines) {
  static const std::regex re(R"(\((\d+) similar messages suppressed\))");
  uint64_t n = 0;
  std::smatch m;
  for (const std::string& l : lines) {
    if (std::regex_search(l, m, re)) n += std::stoull(m[1].str());
  }
  return n;
}

TEST(PortLog, BurstThenOneLinePerRefillWithASuppressedCount) {
  std::vector<std::string> lines;
  // One token per 16 s (exact in binary, so the arithmetic below is too).
  PortLog log("sw/p1", LogLimit{5, 1.0 / 16},
              [&](spdlog::level::level_enum, const std::string& l) { lines.push_back(l); });
  for (int i = 0; i < 1000; ++i) log.log(spdlog::level::warn, "busy", 100.0 + i, "read failed");
  // 1000 s of one error a second: the burst of 5 (t = 0-4), then t = 16, 32, ..., 992.
  ASSERT_EQ(lines.size(), 5u + 999u / 16u);
  EXPECT_EQ(lines[0], "port sw/p1: read failed");
  EXPECT_EQ(lines[5], "port sw/p1: read failed (11 similar messages suppressed)");
  EXPECT_EQ(lines[6], "port sw/p1: read failed (15 similar messages suppressed)");
  // Every error is a line or suppressed; all but the latest suppressed ones are reported.
  EXPECT_EQ(lines.size() + log.suppressed_total(), 1000u);
  EXPECT_EQ(log.suppressed_total() - suppressed_in(lines), 7u);  // t = 993-999, not yet reported
}

TEST(PortLog, KindsHaveTheirOwnBuckets) {
  std::vector<std::string> lines;
  PortLog log("p", LogLimit{1, 0}, [&](spdlog::level::level_enum, const std::string& l) { lines.push_back(l); });
  EXPECT_TRUE(log.log(spdlog::level::warn, "busy", 0, "a"));
  EXPECT_FALSE(log.log(spdlog::level::warn, "busy", 1, "b"));
  EXPECT_TRUE(log.log(spdlog::level::warn, "nack", 2, "c"));  // a different failure still shows
  EXPECT_EQ(lines.size(), 2u);
}

// Captures spdlog's default logger for the life of the object.
struct CapturedLog {
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> ring = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100000);
  std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
  CapturedLog() {
    auto logger = std::make_shared<spdlog::logger>("capture", ring);
    logger->set_pattern("%v");
    logger->set_level(spdlog::level::info);
    spdlog::set_default_logger(logger);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous); }
  std::vector<std::string> lines_of(const std::string& port) const {
    std::vector<std::string> out;
    for (const std::string& l : ring->last_formatted()) {
      if (l.rfind("port " + port + ": ", 0) == 0) out.push_back(l);
    }
    return out;
  }
};

TEST(PortLog, ThousandErrorsOnOnePortStayBoundedAndOtherPortsStillLog) {
  CapturedLog cap;
  Fleet f(2, 1);
  f.run_for(4.0);
  f.buses[1]->stick(INT64_MAX);
  const double t0 = f.clock.monotonic();
  uint64_t errors = 0;
  while (errors < 1000) {
    f.run_for(20.0);
    errors = f.port("sw/b1c0").read_errors_total.at("timeout");
  }
  const double elapsed = f.clock.monotonic() - t0;
  const auto failing = [&] {
    std::vector<std::string> out;
    for (const std::string& l : cap.lines_of("sw/b1c0")) {
      if (l.find("read failed (timeout)") != std::string::npos) out.push_back(l);
    }
    return out;
  }();
  // Default limit: a burst of 5, then one line a minute of (virtual) time.
  const LogLimit limit;
  EXPECT_GE(failing.size(), 5u);
  EXPECT_LE(static_cast<double>(failing.size()), limit.burst + elapsed * limit.refill_per_second + 1);
  EXPECT_LT(failing.size(), 100u) << "of " << errors << " errors";
  EXPECT_LE(failing.size() + suppressed_in(failing), errors);
  EXPECT_GT(suppressed_in(failing), 0u);

  // The healthy port logged its insertion; when it fails too, its first error is not swallowed.
  EXPECT_EQ(cap.lines_of("sw/b0c0").size(), 1u);
  f.buses[0]->stick(INT64_MAX);
  f.run_for(2.0);
  const auto other = cap.lines_of("sw/b0c0");
  ASSERT_GE(other.size(), 2u);
  EXPECT_NE(other[1].find("read failed (timeout)"), std::string::npos) << other[1];
}

}  // namespace
}  // namespace xcvr::daemon
