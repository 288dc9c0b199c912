// EmulatedBus wire-time accounting and I2C-level behaviour.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"

namespace xcvr::emulator {
namespace {

std::shared_ptr<EmulatedModule> sr8(Clock& clock) {
  return std::make_shared<EmulatedModule>(*find_model("qsfpdd-400g-sr8"), clock);
}

BusConfig direct(uint32_t hz) { return BusConfig{"bus0", hz, 1, std::nullopt, 25 * kMillisecond}; }

TEST(EmulatorBus, PageWritePlusOffsetWriteAnd74ByteReadCostsExactClocks) {
  for (const uint32_t hz : {kStandardModeHz, kFastModeHz, kFastModePlusHz}) {
    VirtualClock clock;
    EmulatedBus bus(direct(hz), clock);
    bus.insert(0, sr8(clock));
    const int64_t t0 = clock.now_ns();
    ASSERT_EQ(bus.write_byte_data(0, kModuleAddress, 127, 0x11), I2cStatus::Ok);
    uint8_t offset[1] = {154};
    uint8_t data[74];
    I2cMsg msgs[2] = {I2cMsg::write(offset), I2cMsg::read(data)};
    ASSERT_EQ(bus.transfer(0, kModuleAddress, msgs), I2cStatus::Ok);
    // Page write: START + addr + 2 bytes + STOP = 1 + 9 + 18 + 1 = 29 clocks.
    // Offset write + read: START + addr + 1 byte + rSTART + addr + 74 bytes + STOP
    //   = 1 + 9 + 9 + 1 + 9 + 666 + 1 = 696 clocks.
    const uint64_t clocks = 29 + 696;
    const BusStats s = bus.stats();
    EXPECT_EQ(s.clocks, clocks);
    EXPECT_EQ(s.transactions, 2u);
    EXPECT_EQ(s.address_bytes, 3u);
    EXPECT_EQ(s.bytes_written, 3u);
    EXPECT_EQ(s.bytes_read, 74u);
    const int64_t expected_ns = static_cast<int64_t>(clocks * 1'000'000'000ull / hz);
    EXPECT_EQ(s.wire_ns, expected_ns);
    EXPECT_EQ(clock.now_ns() - t0, expected_ns);
    if (hz == kFastModeHz) {
      EXPECT_EQ(expected_ns, 1'812'500);
    }
  }
}

TEST(EmulatorBus, TransactionClockFormula) {
  uint8_t w[1], r[128];
  const I2cMsg two[2] = {I2cMsg::write(w), I2cMsg::read(r)};
  EXPECT_EQ(EmulatedBus::transaction_clocks(two), 1u + 18 + 1 + 9 + 9 * 128 + 1);
  const I2cMsg one[1] = {I2cMsg::write(w)};
  EXPECT_EQ(EmulatedBus::transaction_clocks(one), 1u + 18 + 1);
}

TEST(EmulatorBus, EmptyCageNacksAndIsAbsent) {
  VirtualClock clock;
  EmulatedBus bus(direct(kFastModeHz), clock);
  EmulatorTransport t(bus, 0);
  uint8_t buf[4];
  const auto e = t.read({0x50, 0, 0, 0, 4}, buf);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, drivers::ErrorKind::Absent);
  EXPECT_EQ(t.presence(), drivers::Presence::Absent);
  const BusStats s = bus.stats();
  EXPECT_EQ(s.nacks, 1u);
  EXPECT_EQ(s.clocks, 11u);  // START + address + STOP
  EXPECT_EQ(clock.now_ns(), 11 * 2500);
}

TEST(EmulatorBus, MuxChannelSelectChargedOnlyWhenTheCageChanges) {
  VirtualClock clock;
  EmulatedBus bus(BusConfig{"bus0", kFastModeHz, 4, 0x70, 25 * kMillisecond}, clock);
  bus.insert(0, sr8(clock));
  bus.insert(2, sr8(clock));
  uint8_t v = 0;
  ASSERT_EQ(bus.read_byte_data(0, kModuleAddress, 0, v), I2cStatus::Ok);
  ASSERT_EQ(bus.read_byte_data(0, kModuleAddress, 0, v), I2cStatus::Ok);
  ASSERT_EQ(bus.read_byte_data(2, kModuleAddress, 0, v), I2cStatus::Ok);
  const BusStats s = bus.stats();
  EXPECT_EQ(s.mux_selects, 2u);
  EXPECT_EQ(s.transactions, 3u);
  const uint64_t read1 = 1 + 18 + 1 + 9 + 9 + 1;  // offset write + 1-byte read
  EXPECT_EQ(s.clocks, 3 * read1 + 2 * 20);
}

TEST(EmulatorBus, SmbusHelpers) {
  VirtualClock clock;
  EmulatedBus bus(direct(kFastModeHz), clock);
  bus.insert(0, sr8(clock));
  uint8_t id = 0;
  ASSERT_EQ(bus.read_byte_data(0, kModuleAddress, 0, id), I2cStatus::Ok);
  EXPECT_EQ(id, 0x18);
  uint8_t block[32];
  EXPECT_EQ(bus.read_i2c_block_data(0, kModuleAddress, 128, block), I2cStatus::Ok);
  uint8_t too_big[33];
  EXPECT_EQ(bus.read_i2c_block_data(0, kModuleAddress, 128, too_big), I2cStatus::Invalid);
  EXPECT_EQ(bus.read_byte_data(0, 0x51, 0, id), I2cStatus::Nack);  // nothing at 0x51 on QSFP-DD
}

TEST(EmulatorBus, TransportReadsWithTheMinimalTransactions) {
  VirtualClock clock;
  EmulatedBus bus(direct(kFastModeHz), clock);
  bus.insert(0, sr8(clock));
  EmulatorTransport t(bus, 0);
  uint8_t buf[74];
  ASSERT_FALSE(t.read({0x50, 0, 0x11, 128, 74}, buf));
  // page write (29) + read-back of byte 127 (1+18+1+9+9+1 = 39) + offset write + 74 B (696)
  EXPECT_EQ(bus.stats().clocks, 29u + 39 + 696);
  EXPECT_EQ(bus.stats().transactions, 3u);
  bus.reset_stats();
  ASSERT_FALSE(t.read({0x50, 0, 0x11, 128, 74}, buf));
  EXPECT_EQ(bus.stats().clocks, 696u);
  EXPECT_EQ(t.domain(), "bus0");
}

TEST(EmulatorBus, RealTimeModeSleepsTheWireTime) {
  SteadyClock clock;
  EmulatedBus bus(direct(kStandardModeHz), clock);
  bus.insert(0, sr8(clock));
  uint8_t data[32];
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(bus.read_i2c_block_data(0, kModuleAddress, 0, data), I2cStatus::Ok);
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  // 1 + 18 + 1 + 9 + 288 + 1 = 318 clocks at 100 kHz = 3.18 ms: a lower bound only.
  EXPECT_GE(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count(), 3'180'000);
}

TEST(EmulatorBus, CagesBehindOneBusAreSerialized) {
  // Two pollers on two cages of one bus: in real time their wire times add up (one mutex per
  // bus holds across the sleep), so the elapsed time is at least the sum.
  SteadyClock clock;
  EmulatedBus bus(BusConfig{"bus0", kFastModePlusHz, 2, std::nullopt, 25 * kMillisecond}, clock);
  bus.insert(0, sr8(clock));
  bus.insert(1, sr8(clock));
  const auto poll = [&](int cage) {
    EmulatorTransport t(bus, cage);
    uint8_t buf[128];
    for (int i = 0; i < 10; ++i) EXPECT_FALSE(t.read({0x50, 0, 0, 0, 128}, buf));
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::thread a(poll, 0), b(poll, 1);
  a.join();
  b.join();
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  const BusStats s = bus.stats();
  EXPECT_EQ(s.transactions, 20u);
  EXPECT_EQ(s.bytes_read, 20u * 128);
  EXPECT_GE(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count(), s.wire_ns);
}

}  // namespace
}  // namespace xcvr::emulator
