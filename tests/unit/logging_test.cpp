// The daemon's log lines (daemon/logging.hpp): level words, priority prefixes for the journal,
// UTC timestamps, logfmt and JSON escaping, $JOURNAL_STREAM detection; and the verdict-change
// lines (exporters/verdict_log.hpp).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <sstream>

#include <nlohmann/json.hpp>
#include <spdlog/sinks/ostream_sink.h>

#include "daemon/logging.hpp"
#include "exporters/verdict_log.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr {
namespace {

namespace logging = daemon::logging;

// 2023-11-14T22:13:20.123Z
const spdlog::log_clock::time_point kTime{std::chrono::milliseconds(1'700'000'000'123)};

std::string line(logging::LineOptions options, spdlog::level::level_enum level, std::string_view text) {
  spdlog::details::log_msg msg(kTime, spdlog::source_loc{}, "x", level, spdlog::string_view_t(text.data(), text.size()));
  spdlog::memory_buf_t buf;
  logging::LineFormatter(options).format(msg, buf);
  return std::string(buf.data(), buf.size());
}

TEST(Logging, LevelWordsAreStrict) {
  for (std::string_view name : logging::kLevelNames) EXPECT_TRUE(logging::parse_level(name)) << name;
  EXPECT_EQ(logging::parse_level("warn"), spdlog::level::warn);
  EXPECT_EQ(logging::parse_level("error"), spdlog::level::err);
  EXPECT_EQ(logging::parse_level("off"), spdlog::level::off);
  for (const char* bad : {"debgu", "", "INFO", "warning", "err", "info "}) EXPECT_FALSE(logging::parse_level(bad)) << bad;
  EXPECT_EQ(logging::level_names(), "trace, debug, info, warn, error, critical, off");
  EXPECT_EQ(logging::parse_format("json"), logging::Format::Json);
  EXPECT_FALSE(logging::parse_format("JSON"));
}

TEST(Logging, TimestampsAreUtcWhateverTheZone) {
  const char* tz = std::getenv("TZ");
  const std::string saved = tz ? tz : "";
  ::setenv("TZ", "Asia/Kolkata", 1);  // +05:30: a local-time formatter would show 03:43
  ::tzset();
  EXPECT_EQ(logging::utc_timestamp(kTime), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(line({}, spdlog::level::info, "hello"), "[2023-11-14T22:13:20.123Z] [info] hello\n");
  if (tz) ::setenv("TZ", saved.c_str(), 1);
  else ::unsetenv("TZ");
  ::tzset();
  EXPECT_EQ(logging::utc_timestamp(spdlog::log_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

TEST(Logging, JournalLinesCarryTheirPriority) {
  const logging::LineOptions journal{logging::Format::Text, true};
  EXPECT_EQ(line(journal, spdlog::level::critical, "m"), "<2>[critical] m\n");
  EXPECT_EQ(line(journal, spdlog::level::err, "config reload failed"), "<3>[error] config reload failed\n");
  EXPECT_EQ(line(journal, spdlog::level::warn, "m"), "<4>[warning] m\n");
  EXPECT_EQ(line(journal, spdlog::level::info, "m"), "<6>[info] m\n");
  EXPECT_EQ(line(journal, spdlog::level::debug, "m"), "<7>[debug] m\n");
  EXPECT_EQ(line(journal, spdlog::level::trace, "m"), "<7>[trace] m\n");
  // journald splits a text message at its line breaks: every line keeps the priority.
  EXPECT_EQ(line(journal, spdlog::level::err, "a\nb\n"), "<3>[error] a\n<3>b\n<3>\n");
  EXPECT_EQ(line({}, spdlog::level::err, "a\nb"), "[2023-11-14T22:13:20.123Z] [error] a\nb\n");
  // Structured lines keep their own timestamp; the prefix is journald's, stripped by it.
  EXPECT_EQ(line({logging::Format::Logfmt, true}, spdlog::level::warn, "m"),
            "<4>ts=2023-11-14T22:13:20.123Z level=warning msg=\"m\"\n");
  EXPECT_EQ(line({logging::Format::Json, true}, spdlog::level::err, "m"),
            "<3>{\"ts\":\"2023-11-14T22:13:20.123Z\",\"level\":\"error\",\"msg\":\"m\"}\n");
  // Not the journal: no prefix.
  EXPECT_EQ(line({logging::Format::Logfmt, false}, spdlog::level::err, "m").substr(0, 3), "ts=");
}

// Quotes, backslashes, line breaks and other control characters, UTF-8 and bytes that are not.
const std::string kHostile = std::string("port \"a\\b\"\nsecond\tline\r\x01\x1f\x7f caf\xc3\xa9 \xff\xc3(") + '\0' + "end";

TEST(Logging, LogfmtQuotesAndEscapes) {
  EXPECT_EQ(line({logging::Format::Logfmt, false}, spdlog::level::info, "config reloaded from /etc/x.toml"),
            "ts=2023-11-14T22:13:20.123Z level=info msg=\"config reloaded from /etc/x.toml\"\n");
  EXPECT_EQ(line({logging::Format::Logfmt, false}, spdlog::level::info, kHostile),
            "ts=2023-11-14T22:13:20.123Z level=info msg=\"port \\\"a\\\\b\\\"\\nsecond\\tline\\r\\u0001\\u001f\\u007f "
            "caf\xc3\xa9 \\ufffd\\ufffd(\\u0000end\"\n");
  EXPECT_EQ(line({logging::Format::Logfmt, false}, spdlog::level::info, ""),
            "ts=2023-11-14T22:13:20.123Z level=info msg=\"\"\n");
}

TEST(Logging, JsonIsOneValidObjectPerLine) {
  const std::string out = line({logging::Format::Json, false}, spdlog::level::warn, kHostile);
  ASSERT_EQ(out.back(), '\n');
  EXPECT_EQ(out.find('\n'), out.size() - 1);  // the message's line breaks are escaped
  const auto j = nlohmann::json::parse(out);   // throws on a bad escape or bad UTF-8
  EXPECT_EQ(j.at("ts"), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(j.at("level"), "warning");
  EXPECT_EQ(j.at("msg"), std::string("port \"a\\b\"\nsecond\tline\r\x01\x1f\x7f caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd(") +
                             '\0' + "end");
  // Truncated and overlong sequences and surrogates are not UTF-8 either.
  for (const char* bad : {"\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    const auto k = nlohmann::json::parse(line({logging::Format::Json, false}, spdlog::level::info, bad));
    EXPECT_EQ(k.at("msg").get<std::string>().substr(0, 3), "\xef\xbf\xbd") << bad;
  }
}

TEST(Logging, FormatterWorksInAnySink) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  sink->set_formatter(std::make_unique<logging::LineFormatter>(logging::LineOptions{logging::Format::Json, false}));
  spdlog::logger logger("t", sink);
  logger.warn("port {}: {}", "sw/p1", "hot");
  EXPECT_EQ(nlohmann::json::parse(out.str()).at("msg"), "port sw/p1: hot");
}

TEST(Logging, JournalStreamIsDetectedByDeviceAndInode) {
  char path[] = "/tmp/xcvr-journal-XXXXXX";
  const int file = ::mkstemp(path);
  ASSERT_GE(file, 0);
  ::unlink(path);
  struct stat st {};
  ASSERT_EQ(::fstat(file, &st), 0);
  const std::string env = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  EXPECT_TRUE(logging::is_journal_stream(file, env.c_str()));
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  // The variable is inherited through a redirect to a pipe: the pipe is not the journal.
  EXPECT_FALSE(logging::is_journal_stream(pipe_fds[1], env.c_str()));
  EXPECT_FALSE(logging::is_journal_stream(file, nullptr));
  for (const std::string& bad : {std::string(""), std::string(":"), env + "x", "x" + env,
                                 std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino + 1),
                                 std::to_string(st.st_dev) + std::to_string(st.st_ino)}) {
    EXPECT_FALSE(logging::is_journal_stream(file, bad.c_str())) << bad;
  }
  EXPECT_FALSE(logging::is_journal_stream(-1, env.c_str()));
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  ::close(file);
}

TEST(Logging, CommandLineLevelWinsOverTheConfig) {
  const auto saved = spdlog::get_level();
  logging::apply_config_level("debug");
  EXPECT_EQ(spdlog::get_level(), spdlog::level::debug);
  logging::set_command_line_level(spdlog::level::warn);
  logging::apply_config_level("trace");  // a reload's daemon.log_level
  EXPECT_EQ(spdlog::get_level(), spdlog::level::warn);
  logging::set_command_line_level(std::nullopt);
  logging::apply_config_level("error");
  EXPECT_EQ(spdlog::get_level(), spdlog::level::err);
  spdlog::set_level(saved);
}

// --- verdict changes ---

struct VerdictLines {
  std::vector<std::string> lines;
  exporters::VerdictLog log{[this](const std::string& l) { lines.push_back(l); }};
  daemon::Snapshot s = testing::make_fleet(3);
  void observe() {
    s.taken_unix += 1;
    log.observe(health::FleetView(s));
  }
};

TEST(VerdictLog, FirstVerdictsOnlyWhenAProblem) {
  VerdictLines v;
  v.s.ports[1].presence = daemon::PortPresence::Absent;  // empty: no problem
  v.s.ports[2].state = daemon::PortState::Stale;
  v.s.ports[2].stale = true;
  v.observe();
  ASSERT_EQ(v.lines.size(), 1u);
  EXPECT_EQ(v.lines[0].rfind("port " + v.s.ports[2].port + ": stale (no good read since ", 0), 0u) << v.lines[0];
  v.observe();  // nothing changed
  v.log.observe(health::FleetView(v.s));  // the same snapshot again
  EXPECT_EQ(v.lines.size(), 1u);
}

TEST(VerdictLog, EachChangeOnceWithItsReasons) {
  VerdictLines v;
  v.observe();
  EXPECT_TRUE(v.lines.empty());
  const std::string port = v.s.ports[0].port;
  v.s.ports[0].presence = daemon::PortPresence::Absent;
  v.observe();
  v.observe();
  ASSERT_EQ(v.lines.size(), 1u);
  EXPECT_EQ(v.lines[0], "port " + port + ": ok -> empty (no module in the cage)");
  // Inserted again: settling and reading have no verdict of their own.
  v.s.ports[0].presence = daemon::PortPresence::Present;
  v.s.ports[0].state = daemon::PortState::Settling;
  v.observe();
  v.s.ports[0].state = daemon::PortState::Reading;
  v.observe();
  EXPECT_EQ(v.lines.size(), 1u);
  v.s.ports[0].state = daemon::PortState::Ok;
  v.observe();
  ASSERT_EQ(v.lines.size(), 2u);
  EXPECT_EQ(v.lines[1], "port " + port + ": empty -> ok");
}

TEST(VerdictLog, FollowsPortsByNameWhenTheListChanges) {
  VerdictLines v;
  v.observe();
  const std::string gone = v.s.ports[0].port;
  v.s.ports.erase(v.s.ports.begin());  // a reload dropped a port and the others moved up
  v.s.ports.push_back(testing::make_port("new/p1", 7));
  v.s.ports.back().presence = daemon::PortPresence::Absent;
  v.s.ports[0].state = daemon::PortState::Stale;
  v.s.ports[0].stale = true;
  v.observe();
  ASSERT_EQ(v.lines.size(), 1u);
  EXPECT_EQ(v.lines[0].rfind("port " + v.s.ports[0].port + ": ok -> stale (", 0), 0u) << v.lines[0];
}

}  // namespace
}  // namespace xcvr
