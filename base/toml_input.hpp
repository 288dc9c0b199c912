// Every TOML document we read (config, catalog, fleet, scenarios) goes through parse_toml():
// toml++ 3.3 recurses once per dotted-key part and table-header part, so `a.a.a… = 1` with
// 50 000 parts overflows the stack (a segfault, not a parse error). A pre-pass refuses
// documents nested deeper than kMaxTomlDepth, lines longer than kMaxTomlLineBytes or keys
// longer than kMaxTomlKeyParts, with the line and column, before toml++ sees them.
#pragma once

#include <cstddef>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "base/text_position.hpp"

namespace xcvr::base {

// Tables, dotted-key parts, inline tables and arrays together, from the document root.
inline constexpr int kMaxTomlDepth = 64;
inline constexpr int kMaxTomlKeyParts = 16;
inline constexpr std::size_t kMaxTomlLineBytes = 64 * 1024;

// toml::parse with the limits above; throws toml::parse_error (with line:column) either way.
toml::table parse_toml(std::string_view text, std::string_view origin);

// The one duration grammar of every TOML file we read: a decimal number (at most 18 digits and
// dots) with an optional unit ns, us, ms, s (the default), m or h -> seconds. nullopt otherwise
// ("5 s", "5d", "", "s").
std::optional<double> parse_duration(std::string_view text);

// What TomlTable throws: the node's position and a message naming the key ("poll.interval: ...").
struct TomlInvalid {
  toml::source_region where;
  std::string message;
};

// "file:line:column" of a position; `origin` when toml++ recorded no path.
std::string toml_location(const toml::source_region& where, std::string_view origin = {});

// Throws TomlInvalid at `at`: for checks beyond a value's type (a range, a name that must exist).
[[noreturn]] void toml_fail(const toml::node& at, std::string message);

// The TextError of what parse_toml or TomlTable threw (any other exception propagates), and its
// one line "file:line:column: message". Call inside a catch block.
TextError toml_error(std::string_view origin);
std::string toml_error_text(std::string_view origin);

// The one strict reader of a TOML table (config, catalog, emulator fleets and fault timelines):
// typed accessors that throw TomlInvalid at the offending node, and unknown keys refused —
// either up front with allow() or, after reading, with finish() (every key an accessor asked
// for counts as known).
class TomlTable {
 public:
  TomlTable(const toml::table& t, std::string name) : t_(t), name_(std::move(name)) {}

  const toml::node* node(std::string_view key);  // nullptr when absent; marks the key read
  std::optional<std::string> str(std::string_view key);
  std::optional<bool> boolean(std::string_view key);
  std::optional<double> number(std::string_view key);  // an integer or a float
  std::optional<double> number_in(std::string_view key, double lo, double hi);  // NaN is outside
  std::optional<int64_t> integer(std::string_view key, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX);
  std::optional<double> duration(std::string_view key);  // seconds, or a parse_duration() string
  // A duration within [min_s, max_s] ("must be between 1 s and 1 h"); `zero_is_off` also allows
  // 0 (the feature is off). The bounds keep absurd values (1e-10 s, 1e308 s) out: they would
  // spin a thread or overflow a timer.
  std::optional<double> duration_in(std::string_view key, double min_s, double max_s, bool zero_is_off = false);
  std::vector<std::string> strings(std::string_view key);  // an array of strings; {} when absent
  std::optional<std::pair<double, double>> range(std::string_view key, double lo, double hi);  // [min, max]
  const toml::table* subtable(std::string_view key);
  const toml::array* tables(std::string_view key);  // [[key]]: an array of tables

  void allow(std::initializer_list<std::string_view> keys) const;  // refuses any other key
  void finish() const;                                             // refuses any key not read
  [[noreturn]] void fail(const toml::node* at, std::string_view key, const std::string& expected) const;

  const toml::source_region& where() const { return t_.source(); }
  const toml::table& raw() const { return t_; }
  const std::string& name() const { return name_; }

 private:
  const toml::table& t_;
  std::string name_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace xcvr::base
