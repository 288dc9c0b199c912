// I2cDevTransport against the emulator through the I2cSyscalls seam: methods and fallbacks,
// paging and banks, page-0 restore, errno mapping, the bus lock, bytes on the wire, and
// invariant 1 (zero write violations on every emulated module).
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "tests/support/emulated_i2c_syscalls.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/page_select.hpp"
#include "cmis/sff8636_map.hpp"
#include "tests/support/static_read.hpp"

namespace xcvr::i2c {
namespace {

namespace fs = std::filesystem;
using drivers::ErrorKind;
using drivers::ReadRequest;
using emulator::BusConfig;
using emulator::EmulatedBus;
using emulator::EmulatedModule;
using base::VirtualClock;
using Op = EmulatedI2cSyscalls::Op;

constexpr const char* kDevice = "/dev/i2c-7";

fs::path temp_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() /
                     ("xcvr-i2c-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// One emulated cage wired straight to an adapter (no mux), a module from the catalog, the
// syscall seam over it, and a transport.
struct Rig {
  explicit Rig(const std::string& model = "qsfpdd-400g-sr8",
               unsigned long funcs = kFuncsI2cAdapter, I2cPortConfig cfg = {})
      : bus(BusConfig{"i2c-7", emulator::kFastModeHz, 1, std::nullopt, 25 * base::kMillisecond},
            clock),
        sys(bus, 0, kDevice, funcs),
        lock_dir(temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    const emulator::ModuleModel* m = emulator::find_model(model);
    if (m == nullptr) throw std::runtime_error("no model " + model);
    module = std::make_shared<EmulatedModule>(*m, clock);
    bus.insert(0, module);
    clock.advance(5 * base::kSecond);  // past power-up: module ready
    cfg.device = kDevice;
    if (cfg.lock_dir == kDefaultLockDir) cfg.lock_dir = lock_dir.string();
    transport = std::make_unique<I2cDevTransport>(cfg, sys);
  }
  ~Rig() { fs::remove_all(lock_dir); }

  std::vector<uint8_t> read(uint8_t bank, uint8_t page, uint16_t offset, uint16_t length,
                            std::optional<drivers::Error>* err = nullptr) {
    std::vector<uint8_t> out(length);
    auto e = transport->read(ReadRequest{0x50, bank, page, offset, length}, out);
    if (err != nullptr) *err = e;
    else EXPECT_FALSE(e) << e->message;
    return out;
  }
  // Writes the module has seen, as {offset, bytes...}.
  std::vector<std::vector<uint8_t>> writes() const {
    std::vector<std::vector<uint8_t>> w;
    for (const auto& r : module->writes()) {
      std::vector<uint8_t> one{r.offset};
      one.insert(one.end(), r.bytes().begin(), r.bytes().end());
      w.push_back(one);
    }
    return w;
  }
  uint64_t wire_bytes() const {
    const auto s = bus.stats();
    return s.address_bytes + s.bytes_written + s.bytes_read;
  }

  VirtualClock clock;
  EmulatedBus bus;
  EmulatedI2cSyscalls sys;
  fs::path lock_dir;
  std::shared_ptr<EmulatedModule> module;
  std::unique_ptr<I2cDevTransport> transport;
};

cmis::ModuleImage read_static(drivers::Transport& t) { return test::read_static(t); }

void expect_no_violations(const EmulatedModule& m) {
  EXPECT_EQ(m.violations(), 0u);
  for (const auto& w : m.writes()) {
    const bool page_only = w.offset == 127 && w.bytes().size() == 1;
    const bool bank_page = w.offset == 126 && w.bytes().size() == 2;
    EXPECT_TRUE(page_only || bank_page) << "write at " << int(w.offset) << " of "
                                        << w.bytes().size() << " bytes";
  }
}

// ---------------------------------------------------------------------------------------------
// Methods

TEST(TransportI2c, ProbesFunctionalityAndPicksI2cRdwr) {
  Rig rig;
  ASSERT_FALSE(rig.transport->open());
  EXPECT_EQ(rig.transport->method(), I2cMethod::I2cRdwr);
  EXPECT_EQ(rig.sys.calls(Op::Funcs), 1);
  EXPECT_EQ(rig.sys.calls(Op::SetAddress), 1);  // the busy-address check, even for I2C_RDWR
  EXPECT_EQ(rig.transport->domain(), kDevice);
  EXPECT_EQ(rig.transport->describe(), "i2c /dev/i2c-7 0x50");
}

TEST(TransportI2c, LowerPageReadIsOneCombinedTransferWithoutPageSelect) {
  Rig rig;
  const auto lower = rig.read(0, 0, 0, 128);
  EXPECT_EQ(lower[0], 0x18);  // QSFP-DD identifier
  EXPECT_EQ(rig.sys.calls(Op::Rdwr), 1);
  EXPECT_EQ(rig.bus.stats().transactions, 1u);
  EXPECT_TRUE(rig.module->writes().empty());
  // 2 address bytes + 1 offset byte + 128 data bytes.
  EXPECT_EQ(rig.transport->counters().bytes, 131u);
  EXPECT_EQ(rig.transport->counters().transactions, 1u);
  EXPECT_EQ(rig.transport->counters().bytes, rig.wire_bytes());
}

TEST(TransportI2c, FullStaticReadDecodesTheCatalogModule) {
  for (const auto funcs : {kFuncsI2cAdapter, kFuncsSmbusOnly}) {
    Rig rig("qsfpdd-400g-sr8", funcs);
    const auto image = read_static(*rig.transport);
    const auto report = cmis::decode(image);
    const auto& model = *emulator::find_model("qsfpdd-400g-sr8");
    EXPECT_EQ(report.id.vendor_name, model.vendor_name);
    EXPECT_EQ(report.id.part_number, model.part_number);
    EXPECT_EQ(report.id.serial, model.serial_number);
    EXPECT_EQ(report.lanes.size(), 8u);
    expect_no_violations(*rig.module);
    EXPECT_EQ(rig.module->selected_page(), 0);  // restored after the upper pages
    EXPECT_EQ(rig.transport->counters().bytes, rig.wire_bytes());
    EXPECT_EQ(rig.transport->counters().transactions, rig.bus.stats().transactions);
  }
}

TEST(TransportI2c, StaticPagesMatchTheEmulatorsOwnTransport) {
  Rig rig;
  emulator::EmulatorTransport reference(rig.bus, 0);
  for (const uint8_t page : {uint8_t{0x00}, uint8_t{0x01}, uint8_t{0x02}}) {  // static pages: no live bytes
    const auto got = rig.read(0, page, 128, 128);
    std::vector<uint8_t> want(128);
    ASSERT_FALSE(reference.read(ReadRequest{0x50, 0, page, 128, 128}, want));
    EXPECT_EQ(got, want) << "page " << int(page);
  }
}

TEST(TransportI2c, SmbusI2cBlockPathWhenAdapterLacksI2cFunc) {
  Rig rig("qsfpdd-400g-sr8", kFuncsSmbusOnly);
  const auto page1 = rig.read(0, 0x01, 128, 128);
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusI2cBlock);
  EXPECT_EQ(rig.sys.calls(Op::Rdwr), 0);
  // 128 bytes in four 32-byte blocks + the 1-byte block read-back of page select.
  EXPECT_EQ(rig.sys.smbus_sizes_read().at(I2C_SMBUS_I2C_BLOCK_DATA), 5);
  EXPECT_EQ(rig.sys.smbus_sizes_read().count(I2C_SMBUS_BYTE_DATA), 0u);
  std::vector<uint8_t> want(128);
  emulator::EmulatorTransport reference(rig.bus, 0);
  ASSERT_FALSE(reference.read(ReadRequest{0x50, 0, 0x01, 128, 128}, want));
  EXPECT_EQ(page1, want);
  expect_no_violations(*rig.module);
}

TEST(TransportI2c, WordFallbackWhenI2cBlockIsAbsent) {
  const unsigned long funcs = I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA;
  Rig rig("qsfpdd-400g-sr8", funcs);
  const auto id = rig.read(0, 0x00, 129, 16);  // vendor name: 8 word reads
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusWord);
  EXPECT_EQ(rig.sys.smbus_sizes_read().at(I2C_SMBUS_WORD_DATA), 8);
  const std::string vendor(id.begin(), id.end());
  EXPECT_EQ(vendor.substr(0, emulator::find_model("qsfpdd-400g-sr8")->vendor_name.size()),
            emulator::find_model("qsfpdd-400g-sr8")->vendor_name);
  // Odd length: words then one byte read for the tail.
  const auto odd = rig.read(0, 0x00, 129, 5);
  EXPECT_EQ(std::vector<uint8_t>(id.begin(), id.begin() + 5), odd);
  EXPECT_EQ(rig.sys.smbus_sizes_read().at(I2C_SMBUS_WORD_DATA), 10);
}

TEST(TransportI2c, WordFallbackOddTailWithoutByteReadsStaysInTheHalf) {
  Rig rig("qsfpdd-400g-sr8", I2C_FUNC_SMBUS_WORD_DATA);
  const auto full = rig.read(0, 0, 0, 4);
  const auto tail = rig.read(0, 0, 0, 3);
  EXPECT_EQ(std::vector<uint8_t>(full.begin(), full.begin() + 3), tail);
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusWord);
  // Without SMBus byte writes the 1-byte page select cannot be sent (a word write would also
  // write byte 126, a password byte on SFF-8636): upper pages are unsupported on such an adapter.
  std::optional<drivers::Error> err;
  rig.read(0, 0x11, 128, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Unsupported);
  EXPECT_NE(err->message.find("page 11h"), std::string::npos) << err->message;
  expect_no_violations(*rig.module);
}

TEST(TransportI2c, ByteFallbackWhenOnlyByteDataExists) {
  Rig rig("qsfpdd-400g-sr8", I2C_FUNC_SMBUS_BYTE_DATA);
  const auto v = rig.read(0, 0x11, 128, 10);
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusByte);
  EXPECT_EQ(rig.sys.smbus_sizes_read().at(I2C_SMBUS_BYTE_DATA), 10 + 1);  // + read-back
  std::vector<uint8_t> want(10);
  emulator::EmulatorTransport reference(rig.bus, 0);
  ASSERT_FALSE(reference.read(ReadRequest{0x50, 0, 0x11, 128, 10}, want));
  EXPECT_EQ(v[0], want[0]);  // data-path states: stable once the module is up
  expect_no_violations(*rig.module);
}

TEST(TransportI2c, EopnotsuppAtRunTimeDemotesToTheNextMethod) {
  Rig rig;  // advertises I2C, but the adapter has a quirk
  rig.sys.inject(Op::Rdwr, EOPNOTSUPP);
  const auto lower = rig.read(0, 0, 0, 64);
  EXPECT_EQ(lower[0], 0x18);
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusI2cBlock);
  rig.sys.inject(Op::SmbusRead, EOPNOTSUPP);
  rig.read(0, 0, 0, 4);
  EXPECT_EQ(rig.transport->method(), I2cMethod::SmbusWord);
}

TEST(TransportI2c, AdapterWithoutReadsIsUnsupported) {
  Rig rig("qsfpdd-400g-sr8", I2C_FUNC_SMBUS_QUICK);
  auto e = rig.transport->open();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
}

// ---------------------------------------------------------------------------------------------
// Paging, banks, restore, read-back

TEST(TransportI2c, UpperPageSelectsReadsBackAndRestoresPageZero) {
  Rig rig;
  rig.read(0, 0x11, 128, 74);
  EXPECT_EQ(rig.writes(), (std::vector<std::vector<uint8_t>>{{127, 0x11}, {127, 0x00}}));
  EXPECT_EQ(rig.module->selected_page(), 0);
  // select, read-back, data, restore
  EXPECT_EQ(rig.bus.stats().transactions, 4u);
  expect_no_violations(*rig.module);
}

TEST(TransportI2c, UpperPageZeroNeedsNoSelectOnceTheRestingStateIsKnown) {
  Rig rig;
  rig.read(0, 0x00, 128, 128);  // first: unknown state, explicit select of page 0
  EXPECT_EQ(rig.writes(), (std::vector<std::vector<uint8_t>>{{127, 0x00}}));
  rig.read(0, 0x00, 128, 128);
  rig.read(0, 0x01, 128, 128);
  rig.read(0, 0x00, 128, 128);
  EXPECT_EQ(rig.writes(), (std::vector<std::vector<uint8_t>>{
                              {127, 0x00}, {127, 0x01}, {127, 0x00}}));
}

TEST(TransportI2c, RestoreOffKeepsThePageAndLooksBeforeWriting) {
  I2cPortConfig cfg;
  cfg.restore_page0 = false;
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  rig.read(0, 0x11, 128, 74);
  rig.read(0, 0x11, 128, 74);
  EXPECT_EQ(rig.writes(), (std::vector<std::vector<uint8_t>>{{127, 0x11}}));
  EXPECT_EQ(rig.module->selected_page(), 0x11);
  // Someone else moves the page: the look-before-write notices.
  ASSERT_EQ(rig.bus.write_byte_data(0, 0x50, 127, 0x02), emulator::I2cStatus::Ok);
  rig.read(0, 0x11, 128, 74);
  EXPECT_EQ(std::vector<uint8_t>(rig.module->writes().back().bytes().begin(), rig.module->writes().back().bytes().end()), std::vector<uint8_t>{0x11});
  expect_no_violations(*rig.module);
}

emulator::ModuleModel sixteen_lane_model() {
  emulator::ModuleModel m = *emulator::find_model("qsfpdd-400g-sr8");
  m.key = "test-16-lane";
  m.host_lanes = 16;
  m.media_lanes = 16;
  for (auto& a : m.applications) {
    a.host_lanes = 16;
    a.media_lanes = 16;
  }
  return m;
}

TEST(TransportI2c, BankChangeIsOneTwoByteWriteAt126) {
  Rig rig;
  auto model = sixteen_lane_model();
  rig.module = std::make_shared<EmulatedModule>(model, rig.clock);
  rig.bus.insert(0, rig.module);
  rig.clock.advance(5 * base::kSecond);
  const auto bank1 = rig.read(1, 0x11, 128, 74);
  EXPECT_EQ(rig.writes(), (std::vector<std::vector<uint8_t>>{{126, 1, 0x11}, {126, 0, 0}}));
  std::vector<uint8_t> want(74);
  emulator::EmulatorTransport reference(rig.bus, 0);
  ASSERT_FALSE(reference.read(ReadRequest{0x50, 1, 0x11, 128, 74}, want));
  EXPECT_EQ(bank1[0], want[0]);  // data-path state of lanes 9-10
  expect_no_violations(*rig.module);
}

TEST(TransportI2c, FullStaticReadOfASixteenLaneModuleCoversBothBanks) {
  for (const unsigned long funcs : {kFuncsI2cAdapter, kFuncsSmbusOnly,
                                    static_cast<unsigned long>(I2C_FUNC_SMBUS_BYTE_DATA |
                                                               I2C_FUNC_SMBUS_WORD_DATA)}) {
    Rig rig("qsfpdd-400g-sr8", funcs);
    rig.module = std::make_shared<EmulatedModule>(sixteen_lane_model(), rig.clock);
    rig.bus.insert(0, rig.module);
    rig.clock.advance(5 * base::kSecond);
    const auto image = read_static(*rig.transport);
    EXPECT_TRUE(image.has({0x50, 1, 0x11}));
    EXPECT_EQ(cmis::decode(image).lanes.size(), 16u);
    bool two_byte = false;
    for (const auto& w : rig.module->writes()) two_byte |= w.offset == 126;
    EXPECT_TRUE(two_byte);
    EXPECT_EQ(rig.module->selected_bank(), 0);
    EXPECT_EQ(rig.module->selected_page(), 0);
    expect_no_violations(*rig.module);
  }
}

// A module that ignores the select while on another page: what it reads back is neither the
// page asked for nor the 00h of an unsupported page (CMIS 5.3 §8.2.15) — Corrupt.
TEST(TransportI2c, PageNotTakenIsCorruptNamingThePage) {
  I2cPortConfig cfg;
  cfg.restore_page0 = false;  // page 11h stays selected after the first read
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  std::optional<drivers::Error> err;
  rig.read(0, 0x11, 128, 8, &err);
  ASSERT_FALSE(err) << err->message;
  rig.module->faults().page_select_ignored = true;
  rig.read(0, 0x02, 128, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Corrupt);
  EXPECT_NE(err->message.find("page 02h"), std::string::npos) << err->message;
  EXPECT_NE(err->message.find("reads back page 11h"), std::string::npos) << err->message;
  expect_no_violations(*rig.module);
}

// An unsupported page reads back 00h: the path cannot read that page (Unsupported), as the
// emulator's own transport decides (drivers/page_select.hpp) — the poller leaves it out.
TEST(TransportI2c, UnsupportedPageReadsBackZeroAndIsUnsupported) {
  Rig rig;
  std::optional<drivers::Error> err;
  rig.read(0, 0x9F, 128, 8, &err);  // CDB page: not on this module
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Unsupported);
  EXPECT_NE(err->message.find("page 9Fh"), std::string::npos) << err->message;
  EXPECT_NE(err->message.find("does not support the page"), std::string::npos) << err->message;
}

TEST(TransportI2c, PostWriteDelayIsSpentAfterEachSelect) {
  I2cPortConfig cfg;
  cfg.post_write_delay_us = 250;
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  rig.read(0, 0x11, 128, 8);
  EXPECT_EQ(rig.sys.slept_us(), 500u);  // after the select and after the restore
}

TEST(TransportI2c, RejectsReadsCrossingTheHalfPage) {
  Rig rig;
  std::vector<uint8_t> out(10);
  auto e = rig.transport->read(ReadRequest{0x50, 0, 0, 120, 10}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_EQ(rig.bus.stats().transactions, 0u);
}

TEST(TransportI2c, SfpDiagnosticsAddressIsTheNextAddress) {
  Rig rig;
  std::vector<uint8_t> out(1);
  auto e = rig.transport->read(ReadRequest{0x51, 0, 0, 0, 1}, out);  // nothing at 0x51 here
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Absent);
  EXPECT_NE(e->message.find("device 51h"), std::string::npos) << e->message;
}

// ---------------------------------------------------------------------------------------------
// errno paths

struct ErrnoCase {
  Op op;
  int err;
  ErrorKind kind;
  const char* text;
};

TEST(TransportI2c, ErrnoMapping) {
  const std::vector<ErrnoCase> cases{
      {Op::Rdwr, ENXIO, ErrorKind::Absent, "ENXIO"},
      {Op::Rdwr, EREMOTEIO, ErrorKind::Absent, "EREMOTEIO"},
      {Op::Rdwr, ETIMEDOUT, ErrorKind::Timeout, "ETIMEDOUT"},
      {Op::Rdwr, EAGAIN, ErrorKind::Busy, "EAGAIN"},
      {Op::Rdwr, EIO, ErrorKind::Busy, "EIO"},
      {Op::Rdwr, EACCES, ErrorKind::Permission, "EACCES"},
      {Op::Rdwr, EPERM, ErrorKind::Permission, "EPERM"},
      {Op::Rdwr, EPROTO, ErrorKind::Corrupt, "EPROTO"},
      {Op::SetAddress, EBUSY, ErrorKind::Permission, "optoe"},
      {Op::Open, ENOENT, ErrorKind::Unsupported, "modprobe i2c-dev"},
      {Op::Open, EACCES, ErrorKind::Permission, "group i2c"},
      {Op::Funcs, ENOTTY, ErrorKind::Busy, "I2C_FUNCS"},
  };
  for (const auto& c : cases) {
    Rig rig;
    rig.sys.inject(c.op, c.err);
    std::optional<drivers::Error> err;
    rig.read(0, 0, 0, 16, &err);
    ASSERT_TRUE(err) << c.text;
    EXPECT_EQ(err->kind, c.kind) << c.text << ": " << err->message;
    EXPECT_NE(err->message.find(c.text), std::string::npos) << err->message;
    EXPECT_NE(err->message.find("/dev/i2c-7"), std::string::npos) << err->message;
    // The next read works again (reopened if needed).
    rig.read(0, 0, 0, 16);
  }
}

TEST(TransportI2c, MissingDeviceNodeMessage) {
  Rig rig;
  rig.sys.inject(Op::Open, ENOENT);
  auto e = rig.transport->open();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message,
            "/dev/i2c-7: No such file or directory — is i2c-dev loaded (modprobe i2c-dev)?");
}

TEST(TransportI2c, EmptyCageIsAbsentAndNackMidSequenceIsNack) {
  Rig rig;
  rig.bus.remove(0);
  std::optional<drivers::Error> err;
  rig.read(0, 0, 0, 1, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Absent);
  EXPECT_NE(err->message.find("lower page offset 0"), std::string::npos) << err->message;

  Rig busy;
  // The page write is acknowledged, then the module NACKs the read-back (busy writing).
  busy.sys.inject(Op::Rdwr, ENXIO, 1, 1);
  busy.read(0, 0x11, 128, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Nack) << err->message;
  EXPECT_TRUE(drivers::is_retryable(err->kind));
  EXPECT_NE(err->message.find("page 11h"), std::string::npos) << err->message;
  // It still tried to put page 0 back.
  EXPECT_EQ(std::vector<uint8_t>(busy.module->writes().back().bytes().begin(), busy.module->writes().back().bytes().end()), std::vector<uint8_t>{0});
}

TEST(TransportI2c, TimeoutOnStuckBusIsTimeoutAndRetryable) {
  Rig rig;
  rig.bus.stick(INT64_MAX);
  std::optional<drivers::Error> err;
  rig.read(0, 0, 0, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Timeout);
  EXPECT_TRUE(drivers::is_retryable(err->kind));
  EXPECT_NE(err->message.find("ETIMEDOUT"), std::string::npos);
}

TEST(TransportI2c, NackFromAnOccupiedCageIsNackWhenThePresencePinSaysPresent) {
  const fs::path dir = temp_dir("presence");
  const fs::path pin = dir / "qsfp_modprsL";
  std::ofstream(pin) << "0\n";  // active low: present
  I2cPortConfig cfg;
  cfg.presence_file = pin.string();
  cfg.presence_active_low = true;
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  EXPECT_EQ(rig.transport->presence(), drivers::Presence::Present);
  rig.bus.set_cage_faults(0, emulator::CageFaults{true, 0, 0});
  std::optional<drivers::Error> err;
  rig.read(0, 0, 0, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Nack);
  std::ofstream(pin) << "1\n";
  EXPECT_EQ(rig.transport->presence(), drivers::Presence::Absent);
  rig.read(0, 0, 0, 8, &err);
  EXPECT_EQ(err->kind, ErrorKind::Absent);
  fs::remove_all(dir);
}

TEST(TransportI2c, PresenceWithoutAFileIsUnknown) {
  Rig rig;
  EXPECT_EQ(rig.transport->presence(), drivers::Presence::Unknown);
}

TEST(TransportI2c, EbusyWhenAKernelDriverOwnsTheAddress) {
  Rig rig;
  rig.sys.set_busy_addresses({0x50});
  std::optional<drivers::Error> err;
  rig.read(0, 0, 0, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Permission);
  EXPECT_NE(err->message.find("optoe source"), std::string::npos) << err->message;
  EXPECT_EQ(rig.bus.stats().transactions, 0u);  // nothing on the wire behind the driver's back
}

// ---------------------------------------------------------------------------------------------
// Bus lock

TEST(TransportI2c, LockFileIsCreatedPerBus) {
  I2cPortConfig cfg;
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  const fs::path nested = rig.lock_dir / "sub";
  I2cPortConfig cfg2;
  cfg2.device = kDevice;
  cfg2.lock_dir = nested.string();
  I2cDevTransport t(cfg2, rig.sys);
  std::vector<uint8_t> out(4);
  ASSERT_FALSE(t.read(ReadRequest{0x50, 0, 0, 0, 4}, out));
  EXPECT_TRUE(fs::exists(nested / "i2c-7.lock"));
  EXPECT_EQ(t.lock_path(), (nested / "i2c-7.lock").string());
}

TEST(TransportI2c, LockHeldByAnotherFdMakesTheReadWaitThenBusy) {
  I2cPortConfig cfg;
  cfg.lock_timeout_ms = 5;
  Rig rig("qsfpdd-400g-sr8", kFuncsI2cAdapter, cfg);
  rig.read(0, 0, 0, 1);  // creates the lock file
  const std::string path = rig.transport->lock_path();
  const int other = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(other, 0);
  ASSERT_EQ(::flock(other, LOCK_EX | LOCK_NB), 0);
  const auto before = rig.bus.stats().transactions;
  std::optional<drivers::Error> err;
  rig.read(0, 0x11, 128, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Busy);
  EXPECT_NE(err->message.find("held by another process"), std::string::npos) << err->message;
  EXPECT_EQ(rig.bus.stats().transactions, before);  // nothing on the wire without the lock
  EXPECT_GE(rig.sys.slept_us(), 5000u);
  ::flock(other, LOCK_UN);
  rig.read(0, 0x11, 128, 8);
  ::close(other);
}

TEST(TransportI2c, LockIsHeldDuringTheSequenceAndExcludesAnotherProcess) {
  // A second process tries the lock while the transport is between its page select and its
  // read: the seam's sleep (post-write delay) is the moment to look.
  struct Probe final : public EmulatedI2cSyscalls {
    using EmulatedI2cSyscalls::EmulatedI2cSyscalls;
    std::string lock_path;
    int child_status = -1;
    void sleep_us(uint32_t us) override {
      EmulatedI2cSyscalls::sleep_us(us);
      if (child_status != -1 || lock_path.empty()) return;
      const pid_t pid = ::fork();
      if (pid == 0) {
        const int fd = ::open(lock_path.c_str(), O_RDONLY);
        const bool got = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
        ::_exit(got ? 0 : 1);
      }
      ::waitpid(pid, &child_status, 0);
    }
  };
  VirtualClock clock;
  EmulatedBus bus(BusConfig{"i2c-7", emulator::kFastModeHz, 1, std::nullopt, 0}, clock);
  auto module = std::make_shared<EmulatedModule>(*emulator::find_model("qsfpdd-400g-sr8"), clock);
  bus.insert(0, module);
  Probe sys(bus, 0, kDevice);
  const fs::path dir = temp_dir("excl");
  I2cPortConfig cfg;
  cfg.device = kDevice;
  cfg.lock_dir = dir.string();
  cfg.post_write_delay_us = 1;
  I2cDevTransport t(cfg, sys);
  sys.lock_path = t.lock_path();
  std::vector<uint8_t> out(8);
  ASSERT_FALSE(t.read(ReadRequest{0x50, 0, 0x11, 128, 8}, out));
  ASSERT_TRUE(WIFEXITED(sys.child_status));
  EXPECT_EQ(WEXITSTATUS(sys.child_status), 1) << "the other process got the lock mid-sequence";
  // And after the read the lock is free again.
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(t.lock_path().c_str(), O_RDONLY);
    ::_exit(fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  fs::remove_all(dir);
}

TEST(TransportI2c, TwoTransportsOnOneBusShareTheLockFile) {
  Rig rig;
  I2cPortConfig cfg;
  cfg.device = kDevice;
  cfg.lock_dir = rig.lock_dir.string();
  cfg.lock_timeout_ms = 3;
  I2cDevTransport second(cfg, rig.sys);
  EXPECT_EQ(second.lock_path(), rig.transport->lock_path());
  rig.read(0, 0, 0, 1);
  // Hold the first transport's lock by hand through its own lock file path.
  const int fd = ::open(rig.transport->lock_path().c_str(), O_RDONLY);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  std::vector<uint8_t> out(1);
  auto e = second.read(ReadRequest{0x50, 0, 0, 0, 1}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Busy);
  ::close(fd);
  EXPECT_FALSE(second.read(ReadRequest{0x50, 0, 0, 0, 1}, out));
}

// ---------------------------------------------------------------------------------------------
// Bytes on the bus: one steady-state poll of a CMIS module's dynamic state

TEST(TransportI2c, BytesOnTheBusPerDynamicPoll) {
  // cmis::dynamic_reads on an 8-lane CMIS module: lower 0-25 (26 bytes) and page 11h
  // 128-201 (74 bytes). Counting as the emulator does: one address byte per message.
  //
  // I2C_RDWR path, restore on (default):
  //   lower 0-25      {addr, off}{addr, 26 bytes}        1 transaction   2 + 1 + 26 = 29 bytes
  //   select 11h      {addr, 127, 0x11}                  1 transaction   1 + 2      =  3 bytes
  //   read-back 127   {addr, 127}{addr, 1 byte}          1 transaction   2 + 1 + 1  =  4 bytes
  //   11h 128-201     {addr, 128}{addr, 74 bytes}        1 transaction   2 + 1 + 74 = 77 bytes
  //   restore page 0  {addr, 127, 0x00}                  1 transaction   1 + 2      =  3 bytes
  //                                                      5 transactions            116 bytes
  // SMBus path (I2C-block reads of <= 32 bytes; byte-data write for the select; the read-back
  // is a 1-byte I2C-block read, the same wire bytes as a byte-data read):
  //   lower 0-25      one block of 26                    1 transaction   3 + 26     = 29 bytes
  //   select 11h      write byte data                    1 transaction              =  3 bytes
  //   read-back 127   1-byte block read                  1 transaction   3 + 1      =  4 bytes
  //   11h 128-201     blocks of 32 + 32 + 10             3 transactions  3*3 + 74   = 83 bytes
  //   restore page 0  write byte data                    1 transaction              =  3 bytes
  //                                                      7 transactions            122 bytes
  // Restore off (the page stays on 11h, checked by a read-back before each poll):
  //   I2C_RDWR: 29 + 4 + 77 = 110 bytes in 3 transactions.
  // Wire clocks (bus.hpp): 9 per byte + START and STOP per transaction + 1 repeated START per
  // two-message transaction: RDWR 9*116 + 2*5 + 3 = 1057 (2.64 ms at 400 kHz); SMBus
  // 9*122 + 2*7 + 5 = 1117 (2.79 ms); restore off 9*110 + 2*3 + 3 = 999 (2.50 ms).
  struct Case {
    unsigned long funcs;
    bool restore;
    uint64_t transactions;
    uint64_t bytes;
    uint64_t clocks;
  };
  for (const Case c : {Case{kFuncsI2cAdapter, true, 5, 116, 1057},
                       Case{kFuncsSmbusOnly, true, 7, 122, 1117},
                       Case{kFuncsI2cAdapter, false, 3, 110, 999}}) {
    I2cPortConfig cfg;
    cfg.restore_page0 = c.restore;
    Rig rig("qsfpdd-400g-sr8", c.funcs, cfg);
    const auto image = read_static(*rig.transport);
    const auto plan = cmis::dynamic_reads(image);
    ASSERT_EQ(plan.size(), 2u);
    ASSERT_EQ(cmis::plan_bytes(plan), 100u);
    auto poll = [&] {
      for (const auto& r : plan) {
        const uint8_t page =
            static_cast<uint8_t>(r.page.page == cmis::kLowerPage ? 0 : r.page.page);
        rig.read(r.page.bank, page, r.offset, r.length);
      }
    };
    poll();  // the first poll after the static read may differ (restore off: page moves)
    const auto before = rig.transport->counters();
    rig.bus.reset_stats();
    poll();
    const auto after = rig.transport->counters();
    EXPECT_EQ(after.transactions - before.transactions, c.transactions) << c.funcs;
    EXPECT_EQ(after.bytes - before.bytes, c.bytes) << c.funcs;
    EXPECT_EQ(rig.bus.stats().transactions, c.transactions);
    EXPECT_EQ(rig.wire_bytes(), c.bytes);
    EXPECT_EQ(rig.bus.stats().clocks, c.clocks);
    expect_no_violations(*rig.module);
  }
}

}  // namespace
}  // namespace xcvr::i2c

namespace xcvr::i2c {
namespace {

// The select registers both paged transports write come from the tables' rows; SFF-8636 pages
// with the same byte, so one write serves both specs.
TEST(TransportI2c, SelectRegistersAreTheTablesRows) {
  EXPECT_EQ(drivers::bank_select_offset(), 126);
  EXPECT_EQ(drivers::page_select_offset(), 127);
  EXPECT_EQ(cmis::sff8636_field(cmis::Sff8636Field::PageSelect).offset, drivers::page_select_offset());
}

}  // namespace
}  // namespace xcvr::i2c
