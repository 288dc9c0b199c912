// The daemon's log lines: level names (shared by --log-level and daemon.log_level), the line
// formats (text, logfmt, json; timestamps in UTC), sd-daemon priority prefixes when stderr is the
// journal, and which level is in force (the command line's, else the config's).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <spdlog/formatter.h>
#include <spdlog/spdlog.h>

namespace xcvr::daemon::logging {

// The accepted level words, quietest last: the one list both the option and the key check.
inline constexpr std::array<std::string_view, 7> kLevelNames = {"trace", "debug", "info", "warn",
                                                                "error", "critical", "off"};
std::optional<spdlog::level::level_enum> parse_level(std::string_view name);
std::string level_names();  // "trace, debug, info, warn, error, critical, off"

enum class Format { Text, Logfmt, Json };
inline constexpr std::array<std::string_view, 3> kFormatNames = {"text", "logfmt", "json"};
std::optional<Format> parse_format(std::string_view name);
std::string format_names();  // "text, logfmt, json"

struct LineOptions {
  Format format = Format::Text;
  // stderr is the journal: each line starts with its sd-daemon priority ("<4>"), and the text
  // format leaves out the timestamp (journald stamps every line itself).
  bool journal = false;
};

// True when `fd` is the stream $JOURNAL_STREAM ("<device>:<inode>", systemd.exec(5)) names:
// what systemd sets for a service whose stderr goes to the journal. A redirect or a pipe keeps
// the variable but not the device and inode, so it is told apart.
bool is_journal_stream(int fd, const char* journal_stream_env);

// "2026-12-07T04:31:12.345Z": RFC 3339, UTC, milliseconds.
std::string utc_timestamp(spdlog::log_clock::time_point t);
// <N> of sd-daemon(3) for an spdlog level (trace and debug are 7).
int journal_priority(spdlog::level::level_enum level);

// Formats a line ("\n" included) as `options` say; usable in any spdlog sink.
class LineFormatter final : public spdlog::formatter {
 public:
  explicit LineFormatter(LineOptions options) : options_(options) {}
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<LineFormatter>(options_); }

 private:
  LineOptions options_;
};

// Makes the default logger write `options`' lines to stderr (flushed per line).
void install_stderr_logger(LineOptions options);

// The level from the command line: set now and kept over every later config level (nullopt:
// none given, the config's applies again).
void set_command_line_level(std::optional<spdlog::level::level_enum> level);
// The config's daemon.log_level (a start, a reload), unless the command line gave one.
void apply_config_level(std::string_view name);

}  // namespace xcvr::daemon::logging
