// "Did you mean …?": the nearest of a few known words to one an operator typed (a config key, a
// cage kind, a port name), by edit distance; and ASCII case-insensitive comparison. Shared base:
// knows none of its callers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xcvr::base {

// ASCII case, as protocols and file formats mean it (not the locale's).
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

// A name an operator gives a port: printable ASCII without spaces, quotes or backslashes, so it
// reads the same in a log line, a label, a URL path and a shell.
inline constexpr std::string_view kPlainNameRule =
    "printable ASCII without spaces, quotes or backslashes, and not \".\" or \"..\" (a page's link would resolve it away)";
constexpr bool plain_name(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  for (const char c : s) {
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  }
  return true;
}

// `s` for a message: bytes outside printable ASCII, quotes and backslashes as \xNN, so an error
// that names what an operator wrote never carries a terminal escape sequence.
std::string shown(std::string_view s);

// Optimal string alignment distance (insertions, deletions, substitutions and transpositions
// of neighbours), ignoring ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word`, if it is near enough to be a slip (at most a third of the
// word's length, and at least 1 and at most 3 edits); ties go to the first candidate.
std::optional<std::string_view> nearest(std::string_view word, const std::vector<std::string_view>& candidates);

// " (did you mean 'x'?)", or "" when nothing is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace xcvr::base
