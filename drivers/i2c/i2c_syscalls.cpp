#include "drivers/i2c/i2c_syscalls.hpp"

#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace xcvr::i2c {
namespace {

int result(int rc) { return rc < 0 ? -errno : rc; }

}  // namespace

int RealI2cSyscalls::open(const char* path, int flags, mode_t mode) {
  return result(::open(path, flags | O_CLOEXEC, mode));
}

int RealI2cSyscalls::close(int fd) { return result(::close(fd)); }

int RealI2cSyscalls::mkdir(const char* path, mode_t mode) { return result(::mkdir(path, mode)); }

int RealI2cSyscalls::flock(int fd, int operation) {
  int rc;
  do {
    rc = ::flock(fd, operation);
  } while (rc < 0 && errno == EINTR);
  return result(rc);
}

int RealI2cSyscalls::funcs(int fd, unsigned long& out) {
  return result(::ioctl(fd, I2C_FUNCS, &out));
}

int RealI2cSyscalls::set_address(int fd, uint16_t address) {
  return result(::ioctl(fd, I2C_SLAVE, static_cast<unsigned long>(address)));
}

int RealI2cSyscalls::rdwr(int fd, std::span<i2c_msg> msgs) {
  i2c_rdwr_ioctl_data data{msgs.data(), static_cast<__u32>(msgs.size())};
  return result(::ioctl(fd, I2C_RDWR, &data));
}

int RealI2cSyscalls::smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size,
                           i2c_smbus_data* data) {
  // The I2C_SMBUS ioctl itself (what libi2c's i2c_smbus_access wraps): one call, no library.
  i2c_smbus_ioctl_data args{read_write, command, size, data};
  return result(::ioctl(fd, I2C_SMBUS, &args));
}

void RealI2cSyscalls::sleep_us(uint32_t microseconds) {
  timespec ts{static_cast<time_t>(microseconds / 1'000'000),
              static_cast<long>(microseconds % 1'000'000) * 1000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

I2cSyscalls& real_i2c_syscalls() {
  static RealI2cSyscalls real;
  return real;
}

}  // namespace xcvr::i2c
