// process_* figures from /proc/self/stat (proc(5)): a recorded line, a comm with spaces and
// parentheses, malformed lines, and this test process itself.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>

#include "drivers/process_stats.hpp"

namespace xcvr::drivers {
namespace {

// A transceiver_exporter's line as Linux 6.1 writes it (fields 1-52).
constexpr std::string_view kLine =
    "4242 (transceiver_exp) S 1 4242 4242 0 -1 4194560 2301 0 0 0 1234 567 0 0 20 0 11 0 98765 "
    "734003200 4321 18446744073709551615 1 1 0 0 0 0 0 4096 17639 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

TEST(ProcessStats, ParsesTheFieldsTheFamiliesNeed) {
  const auto s = parse_proc_stat(kLine);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->cpu_ticks, 1234 + 567);
  EXPECT_EQ(s->start_ticks, 98765);
  EXPECT_EQ(s->virtual_bytes, 734003200);
  EXPECT_EQ(s->resident_pages, 4321);
}

TEST(ProcessStats, CommMayHoldSpacesAndParentheses) {
  std::string line(kLine);
  line.replace(line.find("(transceiver_exp)"), 17, "(a) b (c) d)");
  const auto s = parse_proc_stat(line);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->resident_pages, 4321);
}

TEST(ProcessStats, MalformedLinesAreRefused) {
  for (std::string_view bad : {std::string_view(""), std::string_view("4242 transceiver S 1"),
                               std::string_view("1 (x) S 1 2 3"), std::string_view("1 (x)"),
                               std::string_view("1 (x) S 1 4242 4242 0 -1 4194560 2301 0 0 0 -5 567 0 0 20 0 11 0 1 2 3"),
                               std::string_view("1 (x) S 1 4242 4242 0 -1 4194560 2301 0 0 0 12 567 0 0 20 0 11 0 1 2 3x"),
                               std::string_view("1 (x)  S 1 4242 4242 0 -1 4194560 2301 0 0 0 12 567 0 0 20 0 11 0 1 2 3")}) {
    EXPECT_FALSE(parse_proc_stat(bad)) << bad;
  }
}

TEST(ProcessStats, ThisProcess) {
  const auto s = read_process_stats();
  ASSERT_TRUE(s);
  EXPECT_GT(s->resident_bytes, 1 << 20);
  EXPECT_GE(s->virtual_bytes, s->resident_bytes);
  EXPECT_GE(s->open_fds, 3);  // stdin, stdout, stderr
  EXPECT_GE(s->max_fds, s->open_fds);
  const double now = static_cast<double>(time(nullptr));
  EXPECT_LE(s->start_time_unix, now + 1);
  EXPECT_GT(s->start_time_unix, now - 3600);  // this test binary started within the hour
  EXPECT_EQ(read_process_stats()->start_time_unix, s->start_time_unix);  // no wobble
}

}  // namespace
}  // namespace xcvr::drivers
