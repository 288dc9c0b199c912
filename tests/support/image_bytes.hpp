// Builds module images byte by byte at spec offsets, for decoder tests that must not go
// through our own Field tables (a wrong table row could otherwise pass its own test).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "cmis/image.hpp"

namespace xcvr::cmis::test {

// Writes `bytes` at spec offset `offset` (0-127 lower memory, 128-255 upper page) of
// {0x50, bank, page}, creating the half-page zero-filled if needed.
inline void put(ModuleImage& m, int16_t page, uint16_t offset, std::initializer_list<uint8_t> bytes,
                uint8_t bank = 0) {
  const PageKey key{kDeviceA0, bank, page};
  if (!m.has(key)) m.set_page(key, PageBytes{});
  ASSERT_TRUE(m.update(key, offset, std::vector<uint8_t>(bytes))) << "offset " << offset;
}

// Big-endian 16-bit value.
inline void put16(ModuleImage& m, int16_t page, uint16_t offset, uint16_t value, uint8_t bank = 0) {
  put(m, page, offset, {static_cast<uint8_t>(value >> 8), static_cast<uint8_t>(value & 0xFF)}, bank);
}

// `text` padded with `pad` to `width` bytes.
inline void put_ascii(ModuleImage& m, int16_t page, uint16_t offset, std::size_t width,
                      std::string_view text, char pad = ' ') {
  for (std::size_t i = 0; i < width; ++i) {
    const char c = i < text.size() ? text[i] : pad;
    put(m, page, static_cast<uint16_t>(offset + i), {static_cast<uint8_t>(c)});
  }
}

}  // namespace xcvr::cmis::test
