// Helpers for the InfiniBand MAD tests: hex vectors and byte-for-byte comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace xcvr::ib::test {

// "01 0a ff" (whitespace and '|' ignored) -> bytes.
inline std::vector<uint8_t> hex(const std::string& text) {
  std::vector<uint8_t> out;
  int nibble = -1;
  for (char c : text) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) continue;
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<uint8_t>(nibble << 4 | v));
      nibble = -1;
    }
  }
  return out;
}

// A 256-byte MAD: `parts` placed at their offsets, zeros elsewhere.
inline std::vector<uint8_t> mad_with(std::initializer_list<std::pair<std::size_t, std::vector<uint8_t>>> parts) {
  std::vector<uint8_t> m(256, 0);
  for (const auto& [at, bytes] : parts) {
    for (std::size_t i = 0; i < bytes.size() && at + i < m.size(); ++i) m[at + i] = bytes[i];
  }
  return m;
}

// Byte-for-byte equality that names every differing offset.
inline ::testing::AssertionResult same_bytes(std::span<const uint8_t> actual, std::span<const uint8_t> expected) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "size " << actual.size() << " != expected " << expected.size();
  }
  std::string diff;
  int shown = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] == expected[i]) continue;
    if (shown++ < 16) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "\n  byte %zu (0x%02zx): got 0x%02x, want 0x%02x", i, i, actual[i], expected[i]);
      diff += buf;
    }
  }
  if (shown == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << shown << " bytes differ:" << diff;
}

}  // namespace xcvr::ib::test
