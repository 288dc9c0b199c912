// Emulated module memory semantics, observed through EmulatorTransport (and the raw bus where
// the point is what a misbehaving host would see).
#include <gtest/gtest.h>

#include <memory>

#include "cmis/cmis_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

using cmis::CmisField;
using cmis::cmis_field;
using drivers::ErrorKind;

struct Rig {
  explicit Rig(const ModuleModel& model, int cages = 1)
      : bus(BusConfig{"bus0", kFastModeHz, cages, std::nullopt, 25 * kMillisecond}, clock),
        transport(bus, 0, "port1") {
    module = std::make_shared<EmulatedModule>(model, clock);
    bus.insert(0, module);
  }
  explicit Rig(std::string_view key) : Rig(*find_model(key)) {}

  cmis::ModuleImage read(std::initializer_list<cmis::PageKey> halves) {
    ImageRead r = read_image(transport, std::vector<cmis::PageKey>(halves));
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].second.message);
    return r.image;
  }
  std::optional<drivers::Error> read_upper(uint8_t bank, uint8_t page, std::span<uint8_t> out) {
    return transport.read({0x50, bank, page, 128, static_cast<uint16_t>(out.size())}, out);
  }
  // Raw bus access for what a misbehaving host would do.
  uint8_t raw_byte(uint8_t offset) {
    uint8_t v = 0;
    EXPECT_EQ(bus.read_byte_data(0, kModuleAddress, offset, v), I2cStatus::Ok);
    return v;
  }
  void raw_write(std::initializer_list<uint8_t> offset_then_data) {
    std::vector<uint8_t> bytes(offset_then_data);
    I2cMsg msg[1] = {I2cMsg::write(bytes)};
    ASSERT_EQ(bus.transfer(0, kModuleAddress, msg), I2cStatus::Ok);
  }
  void settle(double seconds = 1.0) { clock.advance(static_cast<int64_t>(seconds * 1e9)); }

  VirtualClock clock;
  EmulatedBus bus;
  EmulatorTransport transport;
  std::shared_ptr<EmulatedModule> module;
};

constexpr cmis::PageKey kLower{0x50, 0, cmis::kLowerPage};
constexpr cmis::PageKey kPage00{0x50, 0, 0x00};
constexpr cmis::PageKey kPage02{0x50, 0, 0x02};
constexpr cmis::PageKey kPage11{0x50, 0, 0x11};

ModuleModel sixteen_lane_model() {
  ModuleModel m = *find_model("qsfpdd-400g-sr8");
  m.key = "test-16-lane";
  m.host_lanes = m.media_lanes = 16;
  return m;
}

TEST(EmulatorMemory, LowerMemoryNeedsNoPageSelect) {
  Rig rig("qsfpdd-400g-sr8");
  uint8_t buf[26];
  ASSERT_FALSE(rig.transport.read({0x50, 0, 0, 0, 26}, buf));
  EXPECT_EQ(buf[0], 0x18);  // QSFP-DD identifier
  EXPECT_EQ(rig.transport.page_select_writes(), 0u);
  EXPECT_TRUE(rig.module->writes().empty());
  EXPECT_EQ(rig.bus.stats().transactions, 1u);
}

TEST(EmulatorMemory, PageSelectWrittenOnlyWhenThePageChanges) {
  Rig rig("qsfpdd-400g-sr8");
  rig.settle();
  uint8_t buf[74];
  ASSERT_FALSE(rig.read_upper(0, 0x11, buf));
  ASSERT_FALSE(rig.read_upper(0, 0x11, buf));
  EXPECT_EQ(rig.transport.page_select_writes(), 1u);
  ASSERT_FALSE(rig.read_upper(0, 0x02, buf));
  ASSERT_FALSE(rig.read_upper(0, 0x11, buf));
  EXPECT_EQ(rig.transport.page_select_writes(), 3u);
  EXPECT_EQ(rig.module->violations(), 0u);
  for (const WriteRecord& w : rig.module->writes()) {
    EXPECT_EQ(w.offset, 127);
    EXPECT_EQ(w.bytes().size(), 1u);
  }
}

TEST(EmulatorMemory, UnsupportedPageReadsBackZeroAndShowsPage00) {
  Rig rig("qsfpdd-400g-sr8");
  uint8_t buf[16];
  const auto e = rig.read_upper(0, 0x05, buf);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_EQ(rig.raw_byte(127), 0);
  EXPECT_EQ(rig.raw_byte(128), 0x18);  // page 00h: identifier copy
  // The transport knows the module is on page 00h now: no further select for page 00h.
  ASSERT_FALSE(rig.read_upper(0, 0x00, buf));
  EXPECT_EQ(rig.transport.page_select_writes(), 1u);
}

TEST(EmulatorMemory, FlatMemoryModuleIgnoresPaging) {
  Rig rig("qsfpdd-400g-dac");
  uint8_t buf[16];
  const auto e = rig.read_upper(0, 0x11, buf);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  rig.raw_write({127, 0x02});
  EXPECT_EQ(rig.raw_byte(127), 0);
  EXPECT_EQ(rig.raw_byte(128), 0x18);
  cmis::ModuleImage img = rig.read({kLower, kPage00});
  EXPECT_EQ(cmis::read_uint(img, cmis_field(CmisField::FlatMemory)), 1u);
  EXPECT_EQ(cmis::read_ascii(img, cmis_field(CmisField::PartNumber)), "QDD-400G-CU2M-E");
}

TEST(EmulatorMemory, BankedPagesReachLanesNineToSixteen) {
  Rig rig(sixteen_lane_model());
  rig.settle();
  cmis::ModuleImage img = rig.read({kLower, {0x50, 0, 0x01}, {0x50, 1, 0x11}, kPage11});
  EXPECT_EQ(cmis::read_uint(img, cmis_field(CmisField::BanksSupported)), 1u);
  const auto lane9 = cmis::read_scaled(img, cmis_field(CmisField::RxPower), 9);
  const auto lane1 = cmis::read_scaled(img, cmis_field(CmisField::RxPower), 1);
  ASSERT_TRUE(lane9 && lane1);
  EXPECT_NEAR(*lane9, rig.module->model().lane.rx_power_w, 0.1 * *lane9);
  EXPECT_NEAR(*lane1, rig.module->model().lane.rx_power_w, 0.1 * *lane1);
  // Bank 1 then bank 0: two 2-byte writes at 126, never anything else.
  int bank_writes = 0;
  for (const WriteRecord& w : rig.module->writes()) {
    EXPECT_FALSE(w.violation);
    if (w.offset == 126) ++bank_writes;
  }
  EXPECT_EQ(bank_writes, 2);
  EXPECT_EQ(rig.module->violations(), 0u);
}

TEST(EmulatorMemory, BankTakesEffectOnlyWithThePageWrite) {
  Rig rig(sixteen_lane_model());
  rig.raw_write({127, 0x11});
  rig.raw_write({126, 1});  // bank alone: pending, and a violation of invariant 1
  EXPECT_EQ(rig.raw_byte(126), 0);
  EXPECT_EQ(rig.module->violations(), 1u);
  rig.raw_write({127, 0x11});
  EXPECT_EQ(rig.raw_byte(126), 1);
  EXPECT_EQ(rig.module->selected_bank(), 1);
  rig.raw_write({126, 5, 0x11});  // bank 5 is not supported: back to page 00h, bank 0
  EXPECT_EQ(rig.raw_byte(126), 0);
  EXPECT_EQ(rig.raw_byte(127), 0);
}

TEST(EmulatorMemory, SequentialReadWrapsWithinItsHalf) {
  Rig rig("qsfpdd-400g-sr8");
  rig.raw_write({127, 0x01});
  uint8_t wrapped[16];
  ASSERT_EQ(rig.bus.read_i2c_block_data(0, kModuleAddress, 248, wrapped), I2cStatus::Ok);
  uint8_t tail[8], head[8];
  ASSERT_EQ(rig.bus.read_i2c_block_data(0, kModuleAddress, 248, tail), I2cStatus::Ok);
  ASSERT_EQ(rig.bus.read_i2c_block_data(0, kModuleAddress, 128, head), I2cStatus::Ok);
  EXPECT_TRUE(std::equal(tail, tail + 8, wrapped));
  EXPECT_TRUE(std::equal(head, head + 8, wrapped + 8));
  // Lower half: 120..127 then 0..7 (byte 127 is page select, 1 here).
  uint8_t lower[16];
  ASSERT_EQ(rig.bus.read_i2c_block_data(0, kModuleAddress, 120, lower), I2cStatus::Ok);
  EXPECT_EQ(lower[7], 0x01);
  EXPECT_EQ(lower[8], 0x18);
}

TEST(EmulatorMemory, TransportRejectsReadsAcrossTheHalf) {
  Rig rig("qsfpdd-400g-sr8");
  uint8_t buf[16];
  const auto e = rig.transport.read({0x50, 0, 0, 120, 16}, buf);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_EQ(rig.bus.stats().transactions, 0u);
}

TEST(EmulatorMemory, ReadOnlyBytesIgnoreWritesAndEveryWriteIsRecorded) {
  Rig rig("qsfpdd-400g-sr8");
  const uint16_t pn = cmis_field(CmisField::PartNumber).offset;
  rig.raw_write({127, 0x00});
  rig.raw_write({static_cast<uint8_t>(pn), 'X', 'Y'});
  EXPECT_EQ(rig.raw_byte(static_cast<uint8_t>(pn)), 'Q');
  ASSERT_EQ(rig.module->writes().size(), 2u);
  EXPECT_FALSE(rig.module->writes()[0].violation);
  EXPECT_TRUE(rig.module->writes()[1].violation);
  EXPECT_EQ(rig.module->writes()[1].offset, pn);
  EXPECT_EQ(rig.module->violations(), 1u);
}

TEST(EmulatorMemory, ControlBytesTakeEffectButStillCountAsViolations) {
  Rig rig("qsfpdd-400g-sr8");
  rig.settle();
  const cmis::Field& low_power = cmis_field(CmisField::LowPwrRequestSw);
  const cmis::Field& state = cmis_field(CmisField::ModuleState);
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), state), 3u);  // ModuleReady
  rig.raw_write({static_cast<uint8_t>(low_power.offset), static_cast<uint8_t>(1u << low_power.shift)});
  rig.clock.advance(2 * kMillisecond);
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), state), 1u);  // ModuleLowPwr
  EXPECT_EQ(rig.module->violations(), 1u);
}

TEST(EmulatorMemory, LatchedFlagClearsOnReadAndReRaisesWhilePresent) {
  Rig rig("qsfpdd-400g-sr8");
  rig.settle();
  const cmis::Field& los = cmis_field(CmisField::FlagRxLos);
  rig.bus.with_module(0, [](EmulatedModule& m) {
    m.faults().rx_los.set(1);  // lane 2
    m.update();
  });
  EXPECT_EQ(cmis::read_uint(rig.read({kPage11}), los, 2), 1u);
  const cmis::ModuleImage again = rig.read({kPage11});
  EXPECT_EQ(cmis::read_uint(again, los, 2), 1u);  // cleared by the read, raised again: present
  EXPECT_EQ(cmis::read_uint(again, los, 1), 0u);
  rig.clock.advance(2 * kMillisecond);
  rig.bus.with_module(0, [](EmulatedModule& m) {
    m.update();  // still present: latches again...
    m.faults().rx_los.reset(1);
    m.update();  // ...then goes away before the host reads
  });
  EXPECT_EQ(cmis::read_uint(rig.read({kPage11}), los, 2), 1u);  // latched while it was present
  EXPECT_EQ(cmis::read_uint(rig.read({kPage11}), los, 2), 0u);  // cleared by that read
}

TEST(EmulatorMemory, TransientConditionBetweenReadsStaysLatched) {
  Rig rig("qsfpdd-400g-sr8");
  rig.settle();
  const cmis::Field& fault = cmis_field(CmisField::FlagTxFault);
  rig.read({kPage11});
  rig.bus.with_module(0, [](EmulatedModule& m) {
    m.faults().tx_fault.set(0);
    m.update();  // seen by the module...
    m.faults().tx_fault.reset(0);
    m.update();  // ...and gone before the host reads
  });
  const cmis::ModuleImage img = rig.read({kPage11});
  EXPECT_EQ(cmis::read_uint(img, fault, 1), 1u);
  EXPECT_EQ(cmis::read_uint(rig.read({kPage11}), fault, 1), 0u);
}

TEST(EmulatorMemory, ModuleLevelFlagsClearOnReadOfTheLowerPage) {
  Rig rig("qsfpdd-400g-sr8");
  const cmis::Field& changed = cmis_field(CmisField::FlagModuleStateChanged);
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), changed), 1u);  // MgmtInit -> LowPwr
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), changed), 0u);
}

TEST(EmulatorMemory, Sff8636LatchedFlagsInLowerMemory) {
  Rig rig("qsfp28-100g-sr4");
  rig.settle();
  const cmis::Field& los = cmis::sff8636_field(cmis::Sff8636Field::FlagRxLos);
  rig.bus.with_module(0, [](EmulatedModule& m) {
    m.faults().rx_los.set(3);  // lane 4
    m.update();
    m.faults().rx_los.reset(3);
    m.update();
  });
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), los, 4), 1u);
  EXPECT_EQ(cmis::read_uint(rig.read({kLower}), los, 4), 0u);
}

TEST(EmulatorMemory, Sff8636PagingAndUnsupportedPages) {
  Rig rig("qsfp28-100g-sr4");
  uint8_t buf[8];
  ASSERT_FALSE(rig.read_upper(0, 0x03, buf));
  const auto e = rig.read_upper(0, 0x02, buf);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_EQ(rig.raw_byte(127), 0);
  EXPECT_EQ(rig.module->violations(), 0u);
}

}  // namespace
}  // namespace xcvr::emulator
