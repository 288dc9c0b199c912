// I2cDevTransport: one module cage read through Linux i2c-dev (/dev/i2c-N), the path for
// switches and boards with no kernel driver bound at 0x50.
//
// Reads. At first use the adapter's functionality (I2C_FUNCS) picks the method:
//   I2C_FUNC_I2C               one combined I2C_RDWR per read: {write offset}{read n ≤ 128}
//   SMBUS_READ_I2C_BLOCK       SMBus I2C-block reads of ≤ 32 bytes
//   SMBUS_READ_WORD_DATA       SMBus word reads (2 bytes, low byte first), a byte read for an odd tail
//   SMBUS_READ_BYTE_DATA       SMBus byte reads
// An EOPNOTSUPP at run time (adapter quirks) demotes the transport to the next method. No read
// crosses byte 127 -> 128.
//
// Writes (invariant 1). select_page() is the only function that writes to a module: a 1-byte
// write of PageSelect (127), or — when the CMIS bank must change — one 2-byte write of
// {BankSelect, PageSelect} at 126 (CMIS 5.x 8.2.15). After it, PageSelect (and BankSelect) are
// read back; a module that did not take the page gives a Corrupt error naming the page. After
// an upper-page read the transport restores page 0 (bank 0) unless restore_page0 is off, so
// every other reader of the module (optoe-style tools, xcvrctl) finds page 0 selected. Upper
// page 00h of bank 0 is read without a select when restore is on (page 0 is the resting state,
// as optoe assumes).
//
// Locking. Every read runs under an advisory flock(2) on <lock_dir>/<bus>.lock (default
// /run/lock/transceiver-exporter/i2c-N.lock), shared by the daemon and xcvrctl, so a CLI read
// never lands between the daemon's page select and its read. Waiting for the lock is bounded
// (lock_timeout_ms, then Busy).
//
// Serialization domain. domain() is the bus device path. Each PCA954x mux channel is its own
// adapter (/dev/i2c-N) but the parent lock serializes all channels of one mux tree, so ports on
// sibling channels should be given one domain name through `domain` (e.g. "i2c-1-mux"): the
// scheduler then polls them one at a time instead of queueing them on the kernel's lock.
//
// Errors (errno -> ErrorKind): ENXIO, EREMOTEIO (address NACK) -> Absent; ETIMEDOUT, EAGAIN,
// EIO -> Busy; EOPNOTSUPP -> next method, Unsupported when none is left; EBUSY on I2C_SLAVE ->
// Permission (a kernel driver such as optoe or at24 owns the address: use the optoe source);
// EACCES, EPERM -> Permission; ENOENT on open -> Unsupported ("is i2c-dev loaded?"). A NACK in
// the middle of a sequence whose first transaction was acknowledged (e.g. right after a page
// write while the module is busy) is Busy, not Absent.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "drivers/i2c/i2c_syscalls.hpp"
#include "drivers/page_select.hpp"
#include "drivers/transport.hpp"

namespace xcvr::i2c {

inline constexpr const char* kDefaultLockDir = "/run/lock/transceiver-exporter";

struct I2cPortConfig {
  std::string device;                 // "/dev/i2c-7"
  uint8_t address = cmis::kDeviceA0;  // the module's A0h address; ReadRequest.device 0x51 = +1
  std::string port;                   // the exporter's port name, for messages (optional)
  std::string presence_file;          // optional sysfs file: "1"/"0" (ModPrsL if active-low)
  bool presence_active_low = false;
  std::string domain;                 // serialization-domain override (sibling mux channels)
  bool restore_page0 = true;          // write page 0 (bank 0) back after an upper-page read
  uint32_t post_write_delay_us = 0;   // pause after a page-select write, before the read-back
  std::string lock_dir = kDefaultLockDir;  // empty: no bus lock (tests of the lock-free path)
  uint32_t lock_timeout_ms = 2000;    // how long to wait for another process's lock
};

enum class I2cMethod { Unknown, I2cRdwr, SmbusI2cBlock, SmbusWord, SmbusByte, None };
std::string_view i2c_method_name(I2cMethod method);  // "i2c-rdwr", "smbus-i2c-block", ...

class I2cDevTransport final : public drivers::Transport {
 public:
  explicit I2cDevTransport(I2cPortConfig config, I2cSyscalls& sys = real_i2c_syscalls());
  ~I2cDevTransport() override;
  I2cDevTransport(const I2cDevTransport&) = delete;
  I2cDevTransport& operator=(const I2cDevTransport&) = delete;

  std::string domain() const override;
  std::string describe() const override;
  drivers::Presence presence() override;
  // The bus device (through the syscalls seam: an open that says ENOENT) or the presence file.
  std::optional<std::string> missing() override;
  std::optional<drivers::Error> read(const drivers::ReadRequest& request,
                                     std::span<uint8_t> out) override;
  drivers::BusCounters counters() const override { return counters_; }

  // Opens the device and probes it now (read() does so lazily); nullopt when usable.
  std::optional<drivers::Error> open();
  I2cMethod method() const { return method_; }
  unsigned long functionality() const { return funcs_; }
  const std::string& lock_path() const { return lock_path_; }
  uint64_t page_select_writes() const { return select_.writes(); }
  const I2cPortConfig& config() const { return config_; }

 private:
  struct Sequence;  // one locked page-select + read sequence (i2c_dev_transport.cpp)
  friend struct Sequence;

  void close_device();
  std::optional<drivers::Error> lock(std::string_view what);
  void unlock();
  std::optional<drivers::Error> read_locked(const drivers::ReadRequest& r, std::span<uint8_t> out);

  // The only function that writes to a module (invariant 1); `read_back`: judge what it took.
  std::optional<drivers::Error> select_page(Sequence& seq, uint8_t device, uint8_t bank, uint8_t page,
                                            bool read_back);
  std::optional<drivers::Error> restore_page0(uint8_t device);
  std::optional<drivers::Error> read_window(Sequence& seq, uint8_t device, uint8_t offset,
                                            std::span<uint8_t> out);
  int read_chunk(uint8_t address, uint8_t offset, std::span<uint8_t> out, I2cMethod method);
  int write_bytes(uint8_t address, std::span<const uint8_t> offset_then_data);
  int set_address(uint8_t address);
  uint8_t bus_address(uint8_t device) const;

  drivers::Error error_for(int neg_errno, const std::string& what, bool mid_sequence) const;
  std::string where(uint8_t device, uint8_t bank, uint8_t page, uint16_t offset) const;

  I2cPortConfig config_;
  I2cSyscalls* sys_;
  int fd_ = -1;
  int lock_fd_ = -1;
  std::string lock_path_;
  unsigned long funcs_ = 0;
  I2cMethod method_ = I2cMethod::Unknown;
  int current_address_ = -1;  // last I2C_SLAVE set on fd_
  // What the module's bank/page select hold, when known (restore off: kept across reads).
  drivers::PageSelector select_;
  drivers::BusCounters counters_;
};

}  // namespace xcvr::i2c
