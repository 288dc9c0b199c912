// Every TOML document we read (config, catalog, fleet, scenarios) goes through parse_toml():
// toml++ 3.3 recurses once per dotted-key part and table-header part, so `a.a.a… = 1` with
// 50 000 parts overflows the stack (a segfault, not a parse error). A pre-pass refuses
// documents nested deeper than kMaxTomlDepth, lines longer than kMaxTomlLineBytes or keys
// longer than kMaxTomlKeyParts, with the line and column, before toml++ sees them.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include <toml++/toml.h>

namespace xcvr::drivers {

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

}  // namespace xcvr::drivers
