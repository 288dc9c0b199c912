// I2cSyscalls: the thin seam between I2cDevTransport and the kernel's i2c-dev interface.
//
// Every call returns 0 (or a non-negative count) on success and -errno on failure, so a test
// implementation can inject any errno without touching the global errno. The real
// implementation (RealI2cSyscalls) is a line or two per call over open(2), ioctl(2) with
// <linux/i2c-dev.h>'s requests (I2C_RDWR, I2C_SMBUS, ...) and flock(2); the test
// implementation (EmulatedI2cSyscalls, tests/support/emulated_i2c_syscalls.hpp) answers the
// same calls from an EmulatedBus cage.
#pragma once

#include <linux/i2c.h>
#include <sys/types.h>

#include <cstdint>
#include <span>

namespace xcvr::i2c {

class I2cSyscalls {
 public:
  virtual ~I2cSyscalls() = default;

  // --- files (the bus device node and the lock file) ---
  virtual int open(const char* path, int flags, mode_t mode) = 0;  // fd or -errno
  virtual int close(int fd) = 0;
  virtual int mkdir(const char* path, mode_t mode) = 0;  // -EEXIST when it exists
  virtual int flock(int fd, int operation) = 0;         // LOCK_EX | LOCK_NB, LOCK_UN

  // --- i2c-dev ioctls ---
  virtual int funcs(int fd, unsigned long& out) = 0;           // I2C_FUNCS
  virtual int set_address(int fd, uint16_t address) = 0;       // I2C_SLAVE (EBUSY: driver bound)
  virtual int rdwr(int fd, std::span<i2c_msg> msgs) = 0;       // I2C_RDWR, combined transfer
  // I2C_SMBUS: read_write I2C_SMBUS_READ/WRITE, size I2C_SMBUS_BYTE_DATA/WORD_DATA/
  // I2C_BLOCK_DATA (block[0] = length), as i2c_smbus_access() takes them.
  virtual int smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size,
                    i2c_smbus_data* data) = 0;

  // --- time ---
  virtual void sleep_us(uint32_t microseconds) = 0;
};

// The kernel: open(2), ioctl(2), flock(2), nanosleep.
class RealI2cSyscalls : public I2cSyscalls {
 public:
  int open(const char* path, int flags, mode_t mode) override;
  int close(int fd) override;
  int mkdir(const char* path, mode_t mode) override;
  int flock(int fd, int operation) override;
  int funcs(int fd, unsigned long& out) override;
  int set_address(int fd, uint16_t address) override;
  int rdwr(int fd, std::span<i2c_msg> msgs) override;
  int smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size,
            i2c_smbus_data* data) override;
  void sleep_us(uint32_t microseconds) override;
};

// A process-wide RealI2cSyscalls.
I2cSyscalls& real_i2c_syscalls();

}  // namespace xcvr::i2c
