#include "tests/support/emulated_i2c_syscalls.hpp"

#include <algorithm>
#include <array>
#include <cerrno>

namespace xcvr::i2c {

using emulator::I2cMsg;
using emulator::I2cStatus;

EmulatedI2cSyscalls::EmulatedI2cSyscalls(emulator::EmulatedBus& bus, int cage,
                                         std::string device_path, unsigned long funcs)
    : bus_(&bus), cage_(cage), device_path_(std::move(device_path)), funcs_(funcs),
      nack_errno_(ENXIO) {}

void EmulatedI2cSyscalls::inject(Op op, int errno_value, int times, int skip) {
  injections_.push_back({op, errno_value, times, skip});
}

int EmulatedI2cSyscalls::calls(Op op) const {
  const auto it = calls_.find(op);
  return it == calls_.end() ? 0 : it->second;
}

int EmulatedI2cSyscalls::injected(Op op) {
  ++calls_[op];
  for (Injection& inj : injections_) {
    if (inj.op != op || inj.times <= 0) continue;
    if (inj.skip > 0) {
      --inj.skip;
      return 0;
    }
    --inj.times;
    return -inj.errno_value;
  }
  return 0;
}

int EmulatedI2cSyscalls::status_errno(I2cStatus status) const {
  switch (status) {
    case I2cStatus::Ok: return 0;
    case I2cStatus::Nack: return -nack_errno_;
    case I2cStatus::Timeout: return -ETIMEDOUT;
    case I2cStatus::Invalid: return -EINVAL;
  }
  return -EIO;
}

int EmulatedI2cSyscalls::open(const char* path, int flags, mode_t mode) {
  if (path != device_path_) return real_.open(path, flags, mode);
  if (const int e = injected(Op::Open)) return e;
  ++open_fds_;
  return next_fd_++;
}

int EmulatedI2cSyscalls::close(int fd) {
  if (!is_device_fd(fd)) return real_.close(fd);
  address_.erase(fd);
  --open_fds_;
  return 0;
}

int EmulatedI2cSyscalls::mkdir(const char* path, mode_t mode) { return real_.mkdir(path, mode); }

int EmulatedI2cSyscalls::flock(int fd, int operation) {
  if (const int e = injected(Op::Flock)) return e;
  if (is_device_fd(fd)) return 0;
  return real_.flock(fd, operation);
}

int EmulatedI2cSyscalls::funcs(int fd, unsigned long& out) {
  if (!is_device_fd(fd)) return -ENOTTY;
  if (const int e = injected(Op::Funcs)) return e;
  out = funcs_;
  return 0;
}

int EmulatedI2cSyscalls::set_address(int fd, uint16_t address) {
  if (!is_device_fd(fd)) return -ENOTTY;
  if (const int e = injected(Op::SetAddress)) return e;
  if (address > 0x7F) return -EINVAL;
  if (std::find(busy_.begin(), busy_.end(), address) != busy_.end()) return -EBUSY;
  address_[fd] = address;
  return 0;
}

int EmulatedI2cSyscalls::rdwr(int fd, std::span<i2c_msg> msgs) {
  if (!is_device_fd(fd)) return -ENOTTY;
  if (const int e = injected(Op::Rdwr)) return e;
  if ((funcs_ & I2C_FUNC_I2C) == 0) return -EOPNOTSUPP;  // i2c-dev: adapter has no master_xfer
  if (msgs.empty() || msgs.size() > 42) return -EINVAL;  // I2C_RDWR_IOCTL_MAX_MSGS
  std::vector<I2cMsg> wire;
  for (const i2c_msg& m : msgs) {
    if (m.addr != msgs[0].addr || (m.flags & ~I2C_M_RD) != 0 || m.len > 8192) return -EINVAL;
    if ((m.flags & I2C_M_RD) != 0) {
      wire.push_back(I2cMsg::read(std::span<uint8_t>(m.buf, m.len)));
    } else {
      wire.push_back(I2cMsg::write(std::span<const uint8_t>(m.buf, m.len)));
    }
  }
  const I2cStatus s = bus_->transfer(cage_, static_cast<uint8_t>(msgs[0].addr), wire);
  if (s != I2cStatus::Ok) return status_errno(s);
  return static_cast<int>(msgs.size());
}

int EmulatedI2cSyscalls::smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size,
                               i2c_smbus_data* data) {
  if (!is_device_fd(fd)) return -ENOTTY;
  const bool is_read = read_write == I2C_SMBUS_READ;
  if (const int e = injected(is_read ? Op::SmbusRead : Op::SmbusWrite)) return e;
  const auto it = address_.find(fd);
  if (it == address_.end()) return -EINVAL;  // no I2C_SLAVE yet
  const auto addr = static_cast<uint8_t>(it->second);
  unsigned long need = 0;
  switch (size) {
    case I2C_SMBUS_BYTE_DATA:
      need = is_read ? I2C_FUNC_SMBUS_READ_BYTE_DATA : I2C_FUNC_SMBUS_WRITE_BYTE_DATA;
      break;
    case I2C_SMBUS_WORD_DATA:
      need = is_read ? I2C_FUNC_SMBUS_READ_WORD_DATA : I2C_FUNC_SMBUS_WRITE_WORD_DATA;
      break;
    case I2C_SMBUS_I2C_BLOCK_DATA:
      need = is_read ? I2C_FUNC_SMBUS_READ_I2C_BLOCK : I2C_FUNC_SMBUS_WRITE_I2C_BLOCK;
      break;
    default: return -EOPNOTSUPP;
  }
  if ((funcs_ & need) == 0) return -EOPNOTSUPP;
  if (is_read) ++smbus_sizes_read_[size];
  const std::array<uint8_t, 1> cmd{command};
  I2cStatus s = I2cStatus::Ok;
  if (size == I2C_SMBUS_BYTE_DATA) {
    s = is_read ? bus_->read_byte_data(cage_, addr, command, data->byte)
                : bus_->write_byte_data(cage_, addr, command, data->byte);
  } else if (size == I2C_SMBUS_WORD_DATA) {
    std::array<uint8_t, 2> w{static_cast<uint8_t>(data->word & 0xFF),
                             static_cast<uint8_t>(data->word >> 8)};
    if (is_read) {
      std::array<I2cMsg, 2> msgs{I2cMsg::write(cmd), I2cMsg::read(w)};
      s = bus_->transfer(cage_, addr, msgs);
      if (s == I2cStatus::Ok) data->word = static_cast<__u16>(w[0] | (w[1] << 8));
    } else {
      const std::array<uint8_t, 3> bytes{command, w[0], w[1]};
      std::array<I2cMsg, 1> msgs{I2cMsg::write(bytes)};
      s = bus_->transfer(cage_, addr, msgs);
    }
  } else {
    const std::size_t n = data->block[0];
    if (n == 0 || n > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
    if (is_read) {
      s = bus_->read_i2c_block_data(cage_, addr, command, std::span<uint8_t>(data->block + 1, n));
    } else {
      std::vector<uint8_t> bytes{command};
      bytes.insert(bytes.end(), data->block + 1, data->block + 1 + n);
      std::array<I2cMsg, 1> msgs{I2cMsg::write(bytes)};
      s = bus_->transfer(cage_, addr, msgs);
    }
  }
  return status_errno(s);
}

}  // namespace xcvr::i2c
