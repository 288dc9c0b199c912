// Internal to drivers/emulator: toml++ helpers shared by the fault timeline and fleet loaders.
// Every error carries "source:line:column" from toml++'s source positions.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "drivers/emulator/faults.hpp"

namespace xcvr::emulator::toml_support {

// A positioned error: what() is "source:line:column: message".
struct TomlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string where(std::string_view source, const toml::node& node);
[[noreturn]] void fail(std::string_view source, const toml::node& node, const std::string& msg);

// Parses a whole document; a syntax error becomes a TomlError with its position.
toml::table parse_document(std::string_view text, std::string_view source);

// Rejects keys outside `allowed` (typos should not be silently ignored).
void expect_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                 std::string_view source);

std::optional<std::string> get_string(const toml::table& t, std::string_view key,
                                      std::string_view source);
std::optional<int64_t> get_int(const toml::table& t, std::string_view key,
                               std::string_view source);
std::optional<double> get_number(const toml::table& t, std::string_view key,
                                 std::string_view source);
// Seconds as a number, or a string with a unit (ns, us, ms, s, m, h).
std::optional<int64_t> get_duration_ns(const toml::table& t, std::string_view key,
                                       std::string_view source);

// One [[fault]] table; `bus`/`port` and `cage` are left to the caller to resolve.
struct ParsedFault {
  TimedFault event;
  int64_t duration_ns = 0;
};
ParsedFault parse_fault(const toml::table& t, std::string_view source);

}  // namespace xcvr::emulator::toml_support
