// Runs inside a qemu VM of Debian's kernel (tests/qemu/run_qemu_i2c_test.sh): I2cDevTransport
// against the real Linux i2c stack — i2c-dev over i2c-stub at 0x50, its bytes 128-255 banked by
// the value of byte 127, i.e. paged like a module.
//
// Each invocation is one phase; the init script reloads i2c-stub between phases with a
// different `functionality` mask so each SMBus read method meets the real kernel:
//   word   functionality = byte data + word data      -> SMBus word reads, full decode
//   byte   functionality = byte data                  -> SMBus byte reads, full decode
//   block  stub default (with I2C-block)              -> SMBus I2C-block reads, lower + page 00h
//          (i2c-stub ignores its banks for I2C-block transfers: "banked chips don't use I2C
//          block transfers", drivers/i2c/i2c-stub.c — so upper pages other than 00h cannot be
//          checked on this path)
//   absent nothing at the address                     -> ENODEV (i2c-stub; real adapters say
//          ENXIO) -> Absent
//   ebusy  at24 bound at 0x50                         -> EBUSY on I2C_SLAVE -> Permission
// The stub is seeded by this program's setup code (not the transport) with SMBus writes:
// a byte write of 127 selects the stub bank, then word writes put {b[x], b[x+1]} at every
// register x, so byte, word and I2C-block reads all see EEPROM-like data.
// Prints "XCVR-QEMU phase <name>: PASS" or "...: FAIL <why>" and exits 0 or 1.
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include <i2c/smbus.h>
}

#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "drivers/emulator/bus.hpp"
#include "drivers/emulator/catalog.hpp"
#include "drivers/emulator/emulator_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/module_reader.hpp"

namespace {

using namespace xcvr;

constexpr const char* kBus = "/dev/i2c-0";
constexpr const char* kModel = "qsfpdd-400g-sr8";
std::string g_phase = "?";
std::vector<std::string> g_failures;

void check(bool ok, const std::string& what) {
  std::printf("  %s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) g_failures.push_back(what);
}

// The daemon's static read (drivers/module_reader.hpp), every page required.
std::optional<drivers::Error> read_static(drivers::Transport& t, cmis::ModuleImage& image) {
  drivers::UnreachablePages unreachable;
  drivers::ReadResult r = drivers::read_static(t, image, unreachable, {0, 0});
  if (!r.error && !r.skipped.empty()) return r.skipped.front();
  return std::move(r.error);
}

// The module the stub will impersonate: a catalog QSFP-DD, powered up, read through the
// emulator so its live bytes (temperature, lane powers, states) are a real snapshot.
cmis::ModuleImage source_image() {
  emulator::VirtualClock clock;
  emulator::EmulatedBus bus({"src", emulator::kFastModeHz, 1, std::nullopt, 0}, clock);
  bus.insert(0, std::make_shared<emulator::EmulatedModule>(*emulator::find_model(kModel), clock));
  clock.advance(10 * emulator::kSecond);
  emulator::EmulatorTransport t(bus, 0);
  cmis::ModuleImage image;
  if (auto e = read_static(t, image)) {
    std::printf("source read failed: %s\n", e->message.c_str());
  }
  return image;
}

int open_bus(uint16_t address) {
  const int fd = ::open(kBus, O_RDWR);
  if (fd < 0) {
    std::printf("open %s: %s\n", kBus, std::strerror(errno));
    return -1;
  }
  if (::ioctl(fd, I2C_SLAVE, static_cast<unsigned long>(address)) < 0) {
    std::printf("I2C_SLAVE: %s\n", std::strerror(errno));
    ::close(fd);
    return -1;
  }
  return fd;
}

// Test setup, not the transport: writes the image into i2c-stub's registers.
bool seed_stub(const cmis::ModuleImage& image) {
  const int fd = open_bus(0x50);
  if (fd < 0) return false;
  bool ok = true;
  auto seed_half = [&](const cmis::PageBytes& bytes, int base) {
    for (int i = 0; i < 128; ++i) {
      const unsigned lo = bytes[static_cast<std::size_t>(i)];
      const unsigned hi = i + 1 < 128 ? bytes[static_cast<std::size_t>(i + 1)] : 0;
      if (base + i == 127) continue;  // the page register: written with byte writes only
      ok &= i2c_smbus_write_word_data(fd, static_cast<uint8_t>(base + i),
                                      static_cast<uint16_t>(lo | (hi << 8))) >= 0;
    }
  };
  for (const auto& e : image.entries()) {
    if (e.key.device != 0x50 || e.key.bank != 0) continue;
    if (e.key.page == cmis::kLowerPage) {
      seed_half(e.bytes, 0);
    } else {
      ok &= i2c_smbus_write_byte_data(fd, 127, static_cast<uint8_t>(e.key.page)) >= 0;
      seed_half(e.bytes, 128);
    }
  }
  ok &= i2c_smbus_write_byte_data(fd, 127, 0) >= 0;
  ::close(fd);
  return ok;
}

// Raw byte reads of the stub (after the transport ran): nothing but byte 127 may have changed.
bool stub_matches(const cmis::ModuleImage& image, std::string& why) {
  const int fd = open_bus(0x50);
  if (fd < 0) return false;
  bool ok = true;
  for (const auto& e : image.entries()) {
    if (e.key.device != 0x50 || e.key.bank != 0) continue;
    const int base = e.key.page == cmis::kLowerPage ? 0 : 128;
    if (base == 128) i2c_smbus_write_byte_data(fd, 127, static_cast<uint8_t>(e.key.page));
    for (int i = 0; i < 128 && ok; ++i) {
      if (base + i == 127) continue;
      const int v = i2c_smbus_read_byte_data(fd, static_cast<uint8_t>(base + i));
      if (v != e.bytes[static_cast<std::size_t>(i)]) {
        why = cmis::page_name(e.key) + " byte " + std::to_string(base + i) + " is " +
              std::to_string(v) + ", seeded " + std::to_string(e.bytes[static_cast<std::size_t>(i)]);
        ok = false;
      }
    }
  }
  i2c_smbus_write_byte_data(fd, 127, 0);
  ::close(fd);
  return ok;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

void compare_reports(const cmis::ModuleReport& want, const cmis::ModuleReport& got, bool lanes) {
  check(!got.id.vendor_name.empty() && got.id.vendor_name == want.id.vendor_name,
        "vendor '" + got.id.vendor_name + "'");
  check(!got.id.part_number.empty() && got.id.part_number == want.id.part_number,
        "part number '" + got.id.part_number + "'");
  check(got.id.serial == want.id.serial, "serial '" + got.id.serial + "'");
  const bool temp_ok = got.temperature_celsius && want.temperature_celsius &&
                       near(*got.temperature_celsius, *want.temperature_celsius) &&
                       *got.temperature_celsius > 0 && *got.temperature_celsius < 90;
  check(temp_ok, "temperature " + (got.temperature_celsius ? std::to_string(*got.temperature_celsius) : "-") +
                     " C");
  if (!lanes) return;
  check(got.lanes.size() == 8 && want.lanes.size() == 8,
        "8 lanes (got " + std::to_string(got.lanes.size()) + ")");
  for (std::size_t i = 0; i < std::min(got.lanes.size(), want.lanes.size()); ++i) {
    const auto& g = got.lanes[i];
    const auto& w = want.lanes[i];
    const bool ok = g.rx_power_watts && w.rx_power_watts && near(*g.rx_power_watts, *w.rx_power_watts) &&
                    *g.rx_power_watts > 0 && g.tx_power_watts && w.tx_power_watts &&
                    near(*g.tx_power_watts, *w.tx_power_watts) && *g.tx_power_watts > 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "lane %d rx %.1f uW tx %.1f uW", g.lane,
                  g.rx_power_watts ? *g.rx_power_watts * 1e6 : -1.0, g.tx_power_watts ? *g.tx_power_watts * 1e6 : -1.0);
    check(ok, buf);
  }
}

i2c::I2cPortConfig port(uint8_t address = 0x50) {
  i2c::I2cPortConfig cfg;
  cfg.device = kBus;
  cfg.address = address;
  cfg.port = "vm-port1";
  return cfg;  // default lock dir: /run/lock/transceiver-exporter, created on first use
}

void phase_full(i2c::I2cMethod expect_method) {
  const cmis::ModuleImage src = source_image();
  const cmis::ModuleReport want = cmis::decode(src);
  check(seed_stub(src), "seeded i2c-stub with " + std::to_string(src.entries().size()) + " half-pages");
  i2c::I2cDevTransport t(port());
  cmis::ModuleImage image;
  const auto err = read_static(t, image);
  check(!err, "static read through " + std::string(kBus) + (err ? ": " + err->message : ""));
  check(t.method() == expect_method,
        "method " + std::string(i2c::i2c_method_name(t.method())));
  check(image.entries().size() == src.entries().size(),
        std::to_string(image.entries().size()) + " half-pages read");
  for (const auto& e : src.entries()) {
    const auto* got = image.find(e.key);
    bool same = got != nullptr;
    for (std::size_t i = 0; same && i < 128; ++i) {
      if (e.key.page == cmis::kLowerPage && i == 127) continue;
      same = got->bytes[i] == e.bytes[i];
    }
    check(same, "page " + cmis::page_name(e.key) + " identical");
  }
  compare_reports(want, cmis::decode(image), true);
  check(::access(t.lock_path().c_str(), F_OK) == 0, "bus lock file " + t.lock_path());

  // One steady-state dynamic poll: what the daemon puts on this bus every interval.
  const auto plan = cmis::dynamic_reads(image);
  const auto before = t.counters();
  drivers::UnreachablePages unreachable;
  const drivers::ReadResult polled = drivers::read_ranges(t, plan, image, unreachable, {0, 0});
  const bool poll_ok = !polled.error && polled.skipped.empty();
  const auto after = t.counters();
  check(poll_ok, "dynamic poll: " + std::to_string(after.transactions - before.transactions) +
                     " transactions, " + std::to_string(after.bytes - before.bytes) +
                     " bytes on the wire (" + std::to_string(cmis::plan_bytes(plan)) +
                     " data bytes)");
  std::string why;
  check(stub_matches(src, why), "stub memory unchanged except byte 127 " + why);
}

void phase_block() {
  const cmis::ModuleImage src = source_image();
  const cmis::ModuleReport want = cmis::decode(src);
  check(seed_stub(src), "seeded i2c-stub");
  i2c::I2cDevTransport t(port());
  cmis::ModuleImage image;
  for (const auto& [page, offset] : std::vector<std::pair<int16_t, uint16_t>>{
           {cmis::kLowerPage, 0}, {0x00, 128}}) {
    std::vector<uint8_t> buf(128);
    const auto err = t.read({0x50, 0, static_cast<uint8_t>(page < 0 ? 0 : page), offset, 128}, buf);
    check(!err, "read " + cmis::page_name({0x50, 0, page}) + (err ? ": " + err->message : ""));
    image.set_page({0x50, 0, page}, buf);
  }
  check(t.method() == i2c::I2cMethod::SmbusI2cBlock,
        "method " + std::string(i2c::i2c_method_name(t.method())));
  compare_reports(want, cmis::decode(image), false);
}

void phase_absent() {
  i2c::I2cDevTransport t(port(0x52));  // nothing answers at 0x52
  std::vector<uint8_t> buf(1);
  const auto err = t.read({0x50, 0, 0, 0, 1}, buf);
  check(err && err->kind == drivers::ErrorKind::Absent,
        "empty address -> " + (err ? std::string(drivers::error_kind_name(err->kind)) + ": " +
                                         err->message
                                   : std::string("no error")));
}

void phase_ebusy() {
  i2c::I2cDevTransport t(port());
  std::vector<uint8_t> buf(1);
  const auto err = t.read({0x50, 0, 0, 0, 1}, buf);
  check(err && err->kind == drivers::ErrorKind::Permission &&
            err->message.find("optoe") != std::string::npos,
        "at24 bound at 0x50 -> " +
            (err ? std::string(drivers::error_kind_name(err->kind)) + ": " + err->message
                 : std::string("no error")));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s word|byte|block|absent|ebusy\n", argv[0]);
    return 2;
  }
  g_phase = argv[1];
  std::printf("XCVR-QEMU phase %s\n", g_phase.c_str());
  if (g_phase == "word") phase_full(i2c::I2cMethod::SmbusWord);
  else if (g_phase == "byte") phase_full(i2c::I2cMethod::SmbusByte);
  else if (g_phase == "block") phase_block();
  else if (g_phase == "absent") phase_absent();
  else if (g_phase == "ebusy") phase_ebusy();
  else g_failures.push_back("unknown phase");
  if (g_failures.empty()) {
    std::printf("XCVR-QEMU phase %s: PASS\n", g_phase.c_str());
    return 0;
  }
  std::printf("XCVR-QEMU phase %s: FAIL %s\n", g_phase.c_str(), g_failures.front().c_str());
  return 1;
}
