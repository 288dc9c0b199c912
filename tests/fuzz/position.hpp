// Shared by the fuzz targets of the state directory's files: a message must begin with
// "<file>:<line>:<col>: " (the file, line and column of what was wrong).
#pragma once

#include <string>
#include <string_view>

namespace xcvr::fuzz {

inline bool has_position(const std::string& m, std::string_view file) {
  const std::string prefix = std::string(file) + ":";
  if (m.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  for (int field = 0; field < 2; ++field) {
    const std::size_t start = i;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9') ++i;
    if (i == start || i >= m.size() || m[i] != ':') return false;
    ++i;
  }
  return m.compare(i, 1, " ") == 0;
}

}  // namespace xcvr::fuzz
