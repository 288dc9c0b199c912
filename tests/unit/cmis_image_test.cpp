// ModuleImage's page index: find() answers from an index for the pages decoders read (lower and
// 00h-3Fh, banks 0-3, A0h and A2h) and by a scan for every other key; both must agree with the
// stored entries through adds, replacements, erases, copies and a hostile number of pages.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "cmis/image.hpp"

namespace xcvr::cmis {
namespace {

PageBytes filled(uint8_t v) {
  PageBytes b;
  b.fill(v);
  return b;
}

// What find() must return: the entry with that key, found by walking entries().
const ModuleImage::Entry* walk(const ModuleImage& image, const PageKey& key) {
  for (const auto& e : image.entries()) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

TEST(CmisImage, IndexedAndScannedKeysAreFoundAfterEveryChange) {
  // Indexed (lower, 00h, 3Fh, bank 3, A2h) and not (bank 4, page 40h and FFh, device 0x52).
  const std::vector<PageKey> keys = {
      {kDeviceA0, 0, kLowerPage}, {kDeviceA0, 0, 0x00}, {kDeviceA0, 0, 0x3F}, {kDeviceA0, 3, 0x11},
      {kDeviceA2, 0, kLowerPage}, {kDeviceA2, 0, 0x02}, {kDeviceA0, 4, 0x11}, {kDeviceA0, 0, 0x40},
      {kDeviceA0, 1, 0xFF},       {0x52, 0, 0x00}};
  std::mt19937 rng(7);
  ModuleImage image;
  for (int step = 0; step < 2000; ++step) {
    const PageKey& key = keys[rng() % keys.size()];
    if (rng() % 3 == 0) image.erase(key);
    else image.set_page(key, filled(static_cast<uint8_t>(step)));
    const ModuleImage copy = image;  // the index is positions, so a copy's index is valid too
    for (const PageKey& k : keys) {
      ASSERT_EQ(image.find(k), walk(image, k)) << page_name(k) << " at step " << step;
      ASSERT_EQ(copy.find(k), walk(copy, k)) << page_name(k) << " in the copy at step " << step;
    }
  }
  image.clear();
  for (const PageKey& k : keys) EXPECT_EQ(image.find(k), nullptr);
}

TEST(CmisImage, TooManyPagesForTheIndexAreStillFound) {
  ModuleImage image;  // 4 banks x 256 pages: far beyond what a module has, as a hostile dump can
  for (int bank = 0; bank < 4; ++bank) {
    for (int page = 0; page < 256; ++page) {
      image.set_page({kDeviceA0, static_cast<uint8_t>(bank), static_cast<int16_t>(page)}, filled(static_cast<uint8_t>(page)));
    }
  }
  ASSERT_GE(image.entries().size(), 255u);
  for (const PageKey k : {PageKey{kDeviceA0, 0, 0x00}, PageKey{kDeviceA0, 3, 0x3F}, PageKey{kDeviceA0, 2, 0xC0}}) {
    const auto* e = image.find(k);
    ASSERT_NE(e, nullptr) << page_name(k);
    EXPECT_EQ(e->key, k);
    EXPECT_EQ(e->bytes[0], static_cast<uint8_t>(k.page));
  }
  EXPECT_EQ(image.find({kDeviceA0, 0, kLowerPage}), nullptr);
  image.erase({kDeviceA0, 0, 0x00});  // back under the limit: indexed again
  for (int bank = 0; bank < 4; ++bank) {
    for (int page = 1; page < 256; ++page) image.erase({kDeviceA0, static_cast<uint8_t>(bank), static_cast<int16_t>(page)});
  }
  image.set_page({kDeviceA0, 0, 0x11}, filled(0x11));
  ASSERT_NE(image.find({kDeviceA0, 0, 0x11}), nullptr);
  EXPECT_EQ(image.find({kDeviceA0, 0, 0x11})->bytes[5], 0x11);
  EXPECT_EQ(image.find({kDeviceA0, 0, 0x00}), nullptr);
}

}  // namespace
}  // namespace xcvr::cmis
