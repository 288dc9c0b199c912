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
//   seed-flat, then at24 bound at 0x50 (as a platform binds it to a cage): optoe discovery with
//          drivers = ["24c02"] finds 0-0050/eeprom in the real sysfs tree (and the default
//          optoe drivers do not), and OptoeTransport reads the flat module through at24
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

#include "cmis/read_plan.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/optoe/optoe_transport.hpp"
#include "tests/qemu/vm_support.hpp"

namespace {

using namespace xcvr;
using vmtest::check;

constexpr const char* kBus = "/dev/i2c-0";
constexpr const char* kModel = "qsfpdd-400g-sr8";
constexpr const char* kFlatModel = "qsfpdd-400g-dac";  // passive copper: flat memory

cmis::ModuleImage source_image() { return vmtest::source_image(kModel); }
using vmtest::read_static;

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
  vmtest::compare_pages(src, image);
  vmtest::compare_reports(want, cmis::decode(image), true);
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
  vmtest::compare_reports(want, cmis::decode(image), false);
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

// The seeded module (flat memory: lower + page 00h, all a 24c02 holds) through at24's own
// eeprom file: optoe discovery finds it only when told at24's driver name, and reads it.
void phase_at24() {
  const cmis::ModuleImage src = vmtest::source_image(kFlatModel);
  const optoe::EepromDiscovery optoe_only = optoe::discover_optoe();
  check(optoe_only.found.empty() && optoe_only.looked_at >= 1,
        "default drivers (optoe1/2/3): nothing found, " + std::to_string(optoe_only.looked_at) + " i2c clients looked at");
  const optoe::EepromDiscovery d = optoe::discover_optoe(optoe::kSysI2cDevices, optoe::kSysSxCore, {"24c02"});
  check(d.found.size() == 1 && d.found[0].name == "24c02-0" &&
            d.found[0].config.path == optoe::kSysI2cDevices + "/0-0050/eeprom",
        "drivers = [\"24c02\"]: found " + (d.found.empty() ? std::string("nothing") : d.found[0].name + " " + d.found[0].config.path));
  if (d.found.empty()) return;
  optoe::OptoeTransport t(d.found[0].config);
  cmis::ModuleImage image;
  const auto err = read_static(t, image);
  check(!err, "static read through " + d.found[0].config.path + (err ? ": " + err->message : ""));
  vmtest::compare_pages(src, image);
  vmtest::compare_reports(cmis::decode(src), cmis::decode(image), false);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s word|byte|block|absent|ebusy|seed-flat|at24\n", argv[0]);
    return 2;
  }
  const std::string phase = argv[1];
  std::printf("XCVR-QEMU phase %s\n", phase.c_str());
  if (phase == "word") phase_full(i2c::I2cMethod::SmbusWord);
  else if (phase == "byte") phase_full(i2c::I2cMethod::SmbusByte);
  else if (phase == "block") phase_block();
  else if (phase == "absent") phase_absent();
  else if (phase == "ebusy") phase_ebusy();
  else if (phase == "seed-flat") check(seed_stub(vmtest::source_image(kFlatModel)), "seeded i2c-stub with " + std::string(kFlatModel));
  else if (phase == "at24") phase_at24();
  else check(false, "unknown phase");
  return vmtest::verdict(phase);
}
