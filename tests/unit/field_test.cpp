#include <gtest/gtest.h>

#include "cmis/cmis_map.hpp"

namespace xcvr::cmis {
namespace {

ModuleImage image_with(PageKey key) {
  ModuleImage img;
  PageBytes zero{};
  img.set_page(key, zero);
  return img;
}

// 01h:142 bits 1-0 (reference digest §4): 0 -> bank 0, 1 -> banks 0-1, 2 -> banks 0-3, and the
// reserved 3 promises nothing beyond bank 0.
TEST(Field, CmisBankCountFromBanksSupported) {
  static_assert(cmis_bank_count(0) == 1 && cmis_bank_count(1) == 2 && cmis_bank_count(2) == 4);
  EXPECT_EQ(cmis_bank_count(3), 1);
}

TEST(Field, LocatesBankedLaneWords) {
  const Field& f = cmis_field(CmisField::RxPower);
  auto l1 = locate(f, 1);
  ASSERT_TRUE(l1);
  EXPECT_EQ(l1->offset, 186);
  EXPECT_EQ(l1->page.bank, 0);
  auto l9 = locate(f, 9);
  ASSERT_TRUE(l9);
  EXPECT_EQ(l9->offset, 186);
  EXPECT_EQ(l9->page.bank, 1);
  EXPECT_EQ(l9->page.page, 0x11);
  EXPECT_FALSE(locate(f, 33));
  EXPECT_FALSE(locate(f, 0));
}

TEST(Field, PackedNibblesLowNibbleIsOddLane) {
  ModuleImage img = image_with({kDeviceA0, 0, 0x11});
  const Field& f = cmis_field(CmisField::DataPathState);
  ASSERT_TRUE(write_uint(img, f, 4, 1));
  ASSERT_TRUE(write_uint(img, f, 2, 2));
  ASSERT_TRUE(write_uint(img, f, 7, 3));
  EXPECT_EQ(img.byte(kDeviceA0, 0, 0x11, 128), 0x24);
  EXPECT_EQ(img.byte(kDeviceA0, 0, 0x11, 129), 0x07);
  EXPECT_EQ(read_uint(img, f, 2), 2u);
}

TEST(Field, SignedWordsRoundTrip) {
  ModuleImage img = image_with({kDeviceA0, 0, kLowerPage});
  const Field& t = cmis_field(CmisField::Temperature);
  ASSERT_TRUE(write_scaled(img, t, -5.5));
  EXPECT_EQ(img.byte(kDeviceA0, 0, 0, 14), 0xFA);
  EXPECT_EQ(img.byte(kDeviceA0, 0, 0, 15), 0x80);
  EXPECT_DOUBLE_EQ(*read_scaled(img, t), -5.5);
}

TEST(Field, AbsentPageReadsNothing) {
  ModuleImage img = image_with({kDeviceA0, 0, kLowerPage});
  EXPECT_FALSE(read_uint(img, cmis_field(CmisField::VendorName)));
  EXPECT_FALSE(read_ascii(img, cmis_field(CmisField::VendorName)));
  EXPECT_FALSE(write_uint(img, cmis_field(CmisField::TxPower), 1, 1));
}

TEST(Field, EveryRowFitsItsHalfPage) {
  for (const Field& f : cmis_fields()) {
    const int lanes = f.lanes.count == 0 ? 1 : f.lanes.count;
    for (int lane = 1; lane <= lanes; ++lane) {
      auto loc = locate(f, lane);
      ASSERT_TRUE(loc) << f.name;
      const int base = loc->page.page == kLowerPage ? 0 : 128;
      EXPECT_GE(loc->offset, base) << f.name;
      EXPECT_LE(loc->offset + f.size, base + 128) << f.name << " lane " << lane;
      if (f.type == Type::Bits) {
        EXPECT_LE(loc->shift + f.width, 8) << f.name;
      }
    }
  }
}

}  // namespace
}  // namespace xcvr::cmis
