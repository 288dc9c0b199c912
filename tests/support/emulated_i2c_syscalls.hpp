// EmulatedI2cSyscalls: I2cSyscalls answered by one cage of an EmulatedBus, for tests and demos
// of the real i2c-dev code path without hardware.
//
// The bus device path opens to a pseudo file descriptor; every other path (the bus lock file and
// its directory) goes to the real file system, so flock() really locks. I2C_FUNCS returns a
// configurable functionality mask, and the ioctls behave like an adapter with that mask:
// I2C_RDWR without I2C_FUNC_I2C and SMBus sizes outside the mask fail with EOPNOTSUPP. Bus
// results map to the errno a real adapter driver returns: NACK -> ENXIO (or EREMOTEIO, as
// DesignWare adapters say), timeout -> ETIMEDOUT, malformed -> EINVAL. Any call can be made to
// fail with a chosen errno (inject()).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "emulator/bus.hpp"
#include "drivers/i2c/i2c_syscalls.hpp"

namespace xcvr::i2c {

// Functionality masks of typical adapters.
inline constexpr unsigned long kFuncsI2cAdapter = I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
inline constexpr unsigned long kFuncsSmbusOnly =  // an SMBus controller (i801-like) with I2C block
    I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_I2C_BLOCK;

class EmulatedI2cSyscalls : public I2cSyscalls {
 public:
  enum class Op { Open, Funcs, SetAddress, Rdwr, SmbusRead, SmbusWrite, Flock };

  EmulatedI2cSyscalls(emulator::EmulatedBus& bus, int cage, std::string device_path,
                      unsigned long funcs = kFuncsI2cAdapter);

  // After `skip` successful calls of `op`, the next `times` calls return -errno_value.
  void inject(Op op, int errno_value, int times = 1, int skip = 0);
  void clear_injections() { injections_.clear(); }
  void set_funcs(unsigned long funcs) { funcs_ = funcs; }
  void set_nack_errno(int errno_value) { nack_errno_ = errno_value; }  // ENXIO or EREMOTEIO
  void set_busy_addresses(std::vector<uint16_t> addresses) { busy_ = std::move(addresses); }

  // What was asked of the "kernel".
  int calls(Op op) const;
  std::map<uint32_t, int> smbus_sizes_read() const { return smbus_sizes_read_; }
  uint64_t slept_us() const { return slept_us_; }
  int open_device_fds() const { return open_fds_; }

  int open(const char* path, int flags, mode_t mode) override;
  int close(int fd) override;
  int mkdir(const char* path, mode_t mode) override;
  int flock(int fd, int operation) override;
  int funcs(int fd, unsigned long& out) override;
  int set_address(int fd, uint16_t address) override;
  int rdwr(int fd, std::span<i2c_msg> msgs) override;
  int smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size,
            i2c_smbus_data* data) override;
  void sleep_us(uint32_t microseconds) override { slept_us_ += microseconds; }

 private:
  struct Injection {
    Op op;
    int errno_value;
    int times;
    int skip;
  };
  int injected(Op op);  // 0 or -errno
  bool is_device_fd(int fd) const { return fd >= kFirstFd && fd < next_fd_; }
  int status_errno(emulator::I2cStatus status) const;

  static constexpr int kFirstFd = 1 << 20;
  emulator::EmulatedBus* bus_;
  int cage_;
  std::string device_path_;
  unsigned long funcs_;
  int nack_errno_;
  std::vector<uint16_t> busy_;
  std::vector<Injection> injections_;
  std::map<Op, int> calls_;
  std::map<int, uint16_t> address_;  // I2C_SLAVE per fd
  std::map<uint32_t, int> smbus_sizes_read_;
  int next_fd_ = kFirstFd;
  int open_fds_ = 0;
  uint64_t slept_us_ = 0;
  RealI2cSyscalls real_;
};

}  // namespace xcvr::i2c
