#include <gtest/gtest.h>

#include <random>

#include "cmis/cmis_map.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"

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

// BankLanes is read_uint / read_scaled with the page lookups hoisted out of the lane loop: for
// every per-lane row of every table, every bank and every lane, on random bytes, it reads what
// they read (and nothing for a lane of another bank), with some pages missing.
TEST(Field, BankLanesReadWhatReadUintReads) {
  std::mt19937 rng(20261204);
  for (int round = 0; round < 4; ++round) {
    ModuleImage img;
    for (uint8_t device : {kDeviceA0, kDeviceA2}) {
      for (uint8_t bank = 0; bank < 4; ++bank) {
        for (int16_t page = kLowerPage; page <= 0x2F; ++page) {
          if ((page == kLowerPage && bank != 0) || rng() % 5 == 0) continue;  // some absent
          PageBytes bytes;
          for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
          img.set_page({device, bank, page}, bytes);
        }
      }
    }
    int compared = 0;
    for (const auto table : {cmis_fields(), sff8636_fields(), sff8472_fields()}) {
      for (const Field& f : table) {
        if (f.lanes.count == 0 || f.type == Type::Ascii || f.type == Type::Bytes) continue;
        const int banks = f.lanes.per_bank == 0 ? 1 : (f.lanes.count + f.lanes.per_bank - 1) / f.lanes.per_bank;
        for (int bank = 0; bank <= banks; ++bank) {  // one past the last: reads nothing
          const BankLanes lanes(img, f, bank);
          for (int lane = 0; lane <= f.lanes.count + 1; ++lane) {
            const auto loc = locate(f, lane);
            const bool in_bank = loc && (f.lanes.per_bank == 0 ? bank == 0 : (lane - 1) / f.lanes.per_bank == bank);
            SCOPED_TRACE(std::string(f.name) + " bank " + std::to_string(bank) + " lane " + std::to_string(lane));
            EXPECT_EQ(lanes.uint(lane), in_bank ? read_uint(img, f, lane) : std::nullopt);
            EXPECT_EQ(lanes.scaled(lane), in_bank ? read_scaled(img, f, lane) : std::nullopt);
            compared += in_bank && read_uint(img, f, lane).has_value();
          }
        }
      }
    }
    EXPECT_GT(compared, 500);  // the comparison saw values, not only absences
  }
}

}  // namespace
}  // namespace xcvr::cmis
