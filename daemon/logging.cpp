#include "daemon/logging.hpp"

#include <sys/stat.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <spdlog/sinks/stdout_sinks.h>

namespace xcvr::daemon::logging {

namespace {

std::atomic<bool> level_from_command_line{false};

void append(spdlog::memory_buf_t& dest, std::string_view s) { dest.append(s.data(), s.data() + s.size()); }

// Length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs, no surrogates).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (i + n > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  }
  return n;
}

// A JSON string (also a valid logfmt value): quotes, backslashes and control characters escaped,
// bytes that are not UTF-8 replaced by U+FFFD so that a JSON parser takes every line.
void append_quoted(spdlog::memory_buf_t& dest, std::string_view s) {
  dest.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(s, i);
      append(dest, n == 0 ? std::string_view("\\ufffd") : s.substr(i, n));
      i += n == 0 ? 1 : n;
      continue;
    }
    switch (c) {
      case '"': append(dest, "\\\""); break;
      case '\\': append(dest, "\\\\"); break;
      case '\n': append(dest, "\\n"); break;
      case '\r': append(dest, "\\r"); break;
      case '\t': append(dest, "\\t"); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char esc[16];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          append(dest, esc);
        } else {
          dest.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  dest.push_back('"');
}

}  // namespace

std::optional<spdlog::level::level_enum> parse_level(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (kLevelNames[i] == name) return static_cast<spdlog::level::level_enum>(i);  // spdlog's order
  }
  return std::nullopt;
}
static_assert(spdlog::level::trace == 0 && spdlog::level::warn == 3 && spdlog::level::off == 6);

template <std::size_t N>
std::string joined(const std::array<std::string_view, N>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::string level_names() { return joined(kLevelNames); }
std::string format_names() { return joined(kFormatNames); }

std::optional<Format> parse_format(std::string_view name) {
  for (std::size_t i = 0; i < kFormatNames.size(); ++i) {
    if (kFormatNames[i] == name) return static_cast<Format>(i);
  }
  return std::nullopt;
}

bool is_journal_stream(int fd, const char* env) {
  if (env == nullptr) return false;
  const std::string_view v(env);
  const std::size_t colon = v.find(':');
  if (colon == std::string_view::npos) return false;
  uintmax_t dev = 0, ino = 0;
  const auto number = [](std::string_view s, uintmax_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
  };
  if (!number(v.substr(0, colon), dev) || !number(v.substr(colon + 1), ino)) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  return static_cast<uintmax_t>(st.st_dev) == dev && static_cast<uintmax_t>(st.st_ino) == ino;
}

std::string utc_timestamp(spdlog::log_clock::time_point t) {
  const auto ms = std::chrono::floor<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  char out[96];  // room for any int: -O3 checks the worst case
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms - static_cast<int64_t>(seconds) * 1000));
  return out;
}

int journal_priority(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::critical: return 2;  // LOG_CRIT
    case spdlog::level::err: return 3;
    case spdlog::level::warn: return 4;
    case spdlog::level::info: return 6;
    default: return 7;  // debug, trace
  }
}

void LineFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  const char priority[] = {'<', static_cast<char>('0' + journal_priority(msg.level)), '>'};
  const std::string_view prefix(priority, options_.journal ? sizeof priority : 0);
  append(dest, prefix);
  const std::string_view level(spdlog::level::to_string_view(msg.level).data(),
                               spdlog::level::to_string_view(msg.level).size());
  const std::string_view text(msg.payload.data(), msg.payload.size());
  switch (options_.format) {
    case Format::Text:
      if (!options_.journal) {
        dest.push_back('[');
        append(dest, utc_timestamp(msg.time));
        append(dest, "] ");
      }
      dest.push_back('[');
      append(dest, level);
      append(dest, "] ");
      // journald files each line apart: a continuation line keeps the message's priority.
      for (std::size_t start = 0;;) {
        const std::size_t end = text.find('\n', start);
        append(dest, text.substr(start, end == std::string_view::npos ? end : end + 1 - start));
        if (end == std::string_view::npos) break;
        append(dest, prefix);
        start = end + 1;
      }
      break;
    case Format::Logfmt:
    case Format::Json: {
      // The same three fields; only the punctuation around them differs.
      const bool json = options_.format == Format::Json;
      append(dest, json ? "{\"ts\":\"" : "ts=");
      append(dest, utc_timestamp(msg.time));
      append(dest, json ? "\",\"level\":\"" : " level=");
      append(dest, level);
      append(dest, json ? "\",\"msg\":" : " msg=");
      append_quoted(dest, text);
      if (json) dest.push_back('}');
      break;
    }
  }
  dest.push_back('\n');
}

void install_stderr_logger(LineOptions options) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();  // flushes every line
  sink->set_formatter(std::make_unique<LineFormatter>(options));
  auto logger = std::make_shared<spdlog::logger>("transceiver_exporter", std::move(sink));
  logger->set_level(spdlog::get_level());
  spdlog::set_default_logger(std::move(logger));
}

void set_command_line_level(std::optional<spdlog::level::level_enum> level) {
  level_from_command_line = level.has_value();
  if (level) spdlog::set_level(*level);
}

void apply_config_level(std::string_view name) {
  if (level_from_command_line) return;
  if (const auto level = parse_level(name)) spdlog::set_level(*level);
}

}  // namespace xcvr::daemon::logging
