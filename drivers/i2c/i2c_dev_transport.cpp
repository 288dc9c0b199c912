#include "drivers/i2c/i2c_dev_transport.hpp"

#include <fcntl.h>
#include <sys/file.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "base/files/files.hpp"
#include "cmis/image.hpp"
#include "drivers/page_select.hpp"
#include "base/safe_file.hpp"

namespace xcvr::i2c {
namespace {

using drivers::Error;
using drivers::ErrorKind;

constexpr uint16_t kHalf = cmis::kPageSize;  // the lower half of the window, and each upper page
constexpr std::size_t kSmbusBlockMax = I2C_SMBUS_BLOCK_MAX;  // 32
constexpr uint32_t kLockPollUs = 1000;

// The next method down the SMBus fallback chain that the adapter advertises.
I2cMethod next_method(I2cMethod after, unsigned long funcs) {
  constexpr std::array<std::pair<I2cMethod, unsigned long>, 4> chain{{
      {I2cMethod::I2cRdwr, I2C_FUNC_I2C},
      {I2cMethod::SmbusI2cBlock, I2C_FUNC_SMBUS_READ_I2C_BLOCK},
      {I2cMethod::SmbusWord, I2C_FUNC_SMBUS_READ_WORD_DATA},
      {I2cMethod::SmbusByte, I2C_FUNC_SMBUS_READ_BYTE_DATA},
  }};
  bool past = after == I2cMethod::Unknown;
  for (const auto& [m, bit] : chain) {
    if (past && (funcs & bit) != 0) return m;
    if (m == after) past = true;
  }
  return I2cMethod::None;
}

std::string bus_basename(const std::string& device) {
  std::string base = device.substr(device.find_last_of('/') + 1);
  for (char& c : base) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) c = '_';
  }
  return base.empty() ? std::string("i2c") : base;
}

}  // namespace

std::string_view i2c_method_name(I2cMethod method) {
  switch (method) {
    case I2cMethod::Unknown: return "unknown";
    case I2cMethod::I2cRdwr: return "i2c-rdwr";
    case I2cMethod::SmbusI2cBlock: return "smbus-i2c-block";
    case I2cMethod::SmbusWord: return "smbus-word";
    case I2cMethod::SmbusByte: return "smbus-byte";
    case I2cMethod::None: return "none";
  }
  return "unknown";
}

// One locked sequence: knows whether the module has already acknowledged something in it.
struct I2cDevTransport::Sequence {
  bool acknowledged = false;
};

I2cDevTransport::I2cDevTransport(I2cPortConfig config, I2cSyscalls& sys)
    : config_(std::move(config)), sys_(&sys) {
  if (!config_.lock_dir.empty()) {
    lock_path_ = config_.lock_dir + "/" + bus_basename(config_.device) + ".lock";
  }
}

I2cDevTransport::~I2cDevTransport() {
  close_device();
  if (lock_fd_ >= 0) sys_->close(lock_fd_);
}

std::string I2cDevTransport::domain() const {
  return config_.domain.empty() ? config_.device : config_.domain;
}

std::string I2cDevTransport::describe() const {
  char addr[8];
  std::snprintf(addr, sizeof addr, "0x%02x", config_.address);
  std::string d = "i2c " + config_.device + " " + addr;
  if (!config_.port.empty()) d += " (" + config_.port + ")";
  return d;
}

std::string I2cDevTransport::where(uint8_t device, uint8_t bank, uint8_t page,
                                   uint16_t offset) const {
  return drivers::describe_read(describe(), device, bank, page, offset);
}

drivers::Presence I2cDevTransport::presence() {
  if (config_.presence_file.empty()) return drivers::Presence::Unknown;
  std::string error;  // a presence file that is not a regular (sysfs) file says nothing
  const auto text = base::read_regular_file(config_.presence_file, drivers::kAttributeInput, error);
  long value = 0;
  if (!text || std::sscanf(text->c_str(), "%ld", &value) != 1) return drivers::Presence::Unknown;
  const bool asserted = value != 0;
  return asserted != config_.presence_active_low ? drivers::Presence::Present
                                                 : drivers::Presence::Absent;
}

namespace {

constexpr drivers::ErrnoHint kHints[] = {
    {EACCES, "run as root or as a member of group i2c (Debian i2c-tools udev rule)"},
    {EPERM, "run as root or as a member of group i2c (Debian i2c-tools udev rule)"},
    {ENOENT, "is i2c-dev loaded (modprobe i2c-dev)?"},
    // i2c-stub says ENODEV for an address with no chip; a removed adapter says it too.
    {ENODEV, "no device at the address, or the adapter is gone"},
};

}  // namespace

Error I2cDevTransport::error_for(int neg_errno, const std::string& what, bool mid_sequence) const {
  const int e = -neg_errno;
  const bool nack = e == ENXIO || e == EREMOTEIO;
  // A NACK mid-sequence, or with the presence line asserted, comes from a module that is there.
  const bool present = nack && (mid_sequence || (!config_.presence_file.empty() &&
                                                 const_cast<I2cDevTransport*>(this)->presence() ==
                                                     drivers::Presence::Present));
  drivers::ErrnoContext context;
  context.present = present;
  Error out = drivers::errno_error(e, what, kHints, context);
  if (nack) {
    drivers::add_hint(out, mid_sequence ? "the module stopped acknowledging mid-sequence"
                           : present    ? "module present but not acknowledging"
                                        : "no module answering");
  } else if (e == EBUSY) {
    char addr[8];
    std::snprintf(addr, sizeof addr, "0x%02x", config_.address);
    out.kind = ErrorKind::Permission;  // i2c-dev's EBUSY: the address belongs to a kernel driver
    drivers::add_hint(out, std::string("a kernel driver (optoe, at24, ...) owns address ") + addr + " on " + config_.device +
                               "; read this port with the optoe source (its sysfs eeprom file) instead of i2c-dev");
  }
  return out;
}

void I2cDevTransport::close_device() {
  if (fd_ >= 0) sys_->close(fd_);
  fd_ = -1;
  current_address_ = -1;
  method_ = I2cMethod::Unknown;
  select_.forget();
}

std::optional<std::string> I2cDevTransport::missing() {
  if (fd_ < 0) {
    const int fd = sys_->open(config_.device.c_str(), O_RDWR, 0);
    if (fd == -ENOENT) {
      return "i2c bus device " + config_.device + " does not exist (is i2c-dev loaded? is the bus number right?)";
    }
    if (fd >= 0) sys_->close(fd);
  }
  if (config_.presence_file.empty()) return std::nullopt;
  return files::missing_path(config_.presence_file, "presence file");
}

std::optional<Error> I2cDevTransport::open() {
  if (fd_ >= 0) return std::nullopt;
  const int fd = sys_->open(config_.device.c_str(), O_RDWR, 0);
  if (fd < 0) {
    Error e = error_for(fd, config_.device, false);
    if (fd == -ENOENT) {
      e.message = config_.device + ": No such file or directory — is i2c-dev loaded (modprobe "
                                   "i2c-dev)?";
    }
    return e;
  }
  fd_ = fd;
  unsigned long funcs = 0;
  if (const int rc = sys_->funcs(fd_, funcs); rc < 0) {
    Error e = error_for(rc, "I2C_FUNCS", false);
    close_device();
    return e;
  }
  funcs_ = funcs;
  method_ = next_method(I2cMethod::Unknown, funcs_);
  if (method_ == I2cMethod::None) {
    close_device();
    return Error{ErrorKind::Unsupported,
                 config_.device + ": adapter offers neither I2C transfers nor SMBus reads"};
  }
  // I2C_SLAVE even on the I2C_RDWR path: it is the kernel's only check that no driver (optoe,
  // at24) owns the address, and I2C_RDWR alone would bypass that driver's page bookkeeping.
  if (const int rc = set_address(config_.address); rc < 0) {
    char what[32];
    std::snprintf(what, sizeof what, "I2C_SLAVE 0x%02x", config_.address);
    Error e = error_for(rc, what, false);
    close_device();
    return e;
  }
  return std::nullopt;
}

uint8_t I2cDevTransport::bus_address(uint8_t device) const {
  return device == cmis::kDeviceA2 ? static_cast<uint8_t>(config_.address + 1) : config_.address;
}

int I2cDevTransport::set_address(uint8_t address) {
  if (current_address_ == address) return 0;
  const int rc = sys_->set_address(fd_, address);
  if (rc >= 0) current_address_ = address;
  return rc;
}

std::optional<Error> I2cDevTransport::lock(std::string_view what) {
  if (lock_path_.empty()) return std::nullopt;
  if (lock_fd_ < 0) {
    int fd = sys_->open(lock_path_.c_str(), O_RDONLY | O_CREAT, 0644);
    if (fd == -ENOENT) {
      // Create the lock directory (and its parent) on first use; sticky and world-writable
      // like /run/lock so the daemon's user and root's xcvrctl can both create lock files.
      const std::string parent = config_.lock_dir.substr(0, config_.lock_dir.find_last_of('/'));
      if (!parent.empty()) sys_->mkdir(parent.c_str(), 01777);
      sys_->mkdir(config_.lock_dir.c_str(), 01777);
      fd = sys_->open(lock_path_.c_str(), O_RDONLY | O_CREAT, 0644);
    }
    if (fd < 0) {
      Error e = error_for(fd, "bus lock " + lock_path_, false);
      if (e.kind != ErrorKind::Permission) e.kind = ErrorKind::Busy;
      return e;
    }
    lock_fd_ = fd;
  }
  const uint32_t tries = std::max<uint32_t>(1, config_.lock_timeout_ms * 1000 / kLockPollUs);
  for (uint32_t i = 0; i < tries; ++i) {
    const int rc = sys_->flock(lock_fd_, LOCK_EX | LOCK_NB);
    if (rc == 0) return std::nullopt;
    if (rc != -EWOULDBLOCK) return error_for(rc, "bus lock " + lock_path_, false);
    sys_->sleep_us(kLockPollUs);
  }
  return Error{ErrorKind::Busy, std::string(what) + ": bus lock " + lock_path_ +
                                    " held by another process for " +
                                    std::to_string(config_.lock_timeout_ms) + " ms"};
}

void I2cDevTransport::unlock() {
  if (lock_fd_ >= 0) sys_->flock(lock_fd_, LOCK_UN);
}

int I2cDevTransport::read_chunk(uint8_t address, uint8_t offset, std::span<uint8_t> out,
                                I2cMethod method) {
  // Counted as the wire sees it: one address byte per message, the offset byte, the data.
  ++counters_.transactions;
  int rc = 0;
  std::size_t got = 0;
  if (method == I2cMethod::I2cRdwr) {
    uint8_t off = offset;
    std::array<i2c_msg, 2> msgs{{
        {address, 0, 1, &off},
        {address, I2C_M_RD, static_cast<__u16>(out.size()), out.data()},
    }};
    rc = sys_->rdwr(fd_, msgs);
    got = out.size();
  } else {
    rc = set_address(address);
    if (rc >= 0) {
      i2c_smbus_data data{};
      if (method == I2cMethod::SmbusI2cBlock) {
        data.block[0] = static_cast<uint8_t>(out.size());
        rc = sys_->smbus(fd_, I2C_SMBUS_READ, offset, I2C_SMBUS_I2C_BLOCK_DATA, &data);
        if (rc >= 0) {
          got = std::min<std::size_t>(data.block[0], out.size());
          std::copy_n(data.block + 1, got, out.begin());
        }
      } else if (method == I2cMethod::SmbusWord) {
        rc = sys_->smbus(fd_, I2C_SMBUS_READ, offset, I2C_SMBUS_WORD_DATA, &data);
        if (rc >= 0) {  // SMBus words travel low byte first: byte[offset], byte[offset + 1]
          out[0] = static_cast<uint8_t>(data.word & 0xFF);
          if (out.size() > 1) out[1] = static_cast<uint8_t>(data.word >> 8);
          got = out.size();
        }
      } else {
        rc = sys_->smbus(fd_, I2C_SMBUS_READ, offset, I2C_SMBUS_BYTE_DATA, &data);
        if (rc >= 0) {
          out[0] = data.byte;
          got = 1;
        }
      }
    }
  }
  if (rc < 0) {
    counters_.bytes += 1;  // the address byte that was not acknowledged
    return rc;
  }
  const std::size_t wire_len = method == I2cMethod::SmbusWord ? 2 : got;
  counters_.bytes += 2 + 1 + wire_len;
  return static_cast<int>(got);
}

int I2cDevTransport::write_bytes(uint8_t address, std::span<const uint8_t> bytes) {
  ++counters_.transactions;
  int rc = 0;
  if (method_ == I2cMethod::I2cRdwr) {
    std::array<uint8_t, 4> buf{};
    std::copy(bytes.begin(), bytes.end(), buf.begin());
    i2c_msg msg{address, 0, static_cast<__u16>(bytes.size()), buf.data()};
    rc = sys_->rdwr(fd_, std::span<i2c_msg>(&msg, 1));
  } else {
    rc = set_address(address);
    if (rc >= 0) {
      i2c_smbus_data data{};
      if (bytes.size() == 2 && (funcs_ & I2C_FUNC_SMBUS_WRITE_BYTE_DATA) != 0) {
        data.byte = bytes[1];
        rc = sys_->smbus(fd_, I2C_SMBUS_WRITE, bytes[0], I2C_SMBUS_BYTE_DATA, &data);
      } else if (bytes.size() == 3 && (funcs_ & I2C_FUNC_SMBUS_WRITE_I2C_BLOCK) != 0) {
        data.block[0] = 2;
        data.block[1] = bytes[1];
        data.block[2] = bytes[2];
        rc = sys_->smbus(fd_, I2C_SMBUS_WRITE, bytes[0], I2C_SMBUS_I2C_BLOCK_DATA, &data);
      } else if (bytes.size() == 3 && (funcs_ & I2C_FUNC_SMBUS_WRITE_WORD_DATA) != 0) {
        // A word write puts exactly {command, low, high} on the wire: {126, bank, page}.
        data.word = static_cast<__u16>(bytes[1] | (bytes[2] << 8));
        rc = sys_->smbus(fd_, I2C_SMBUS_WRITE, bytes[0], I2C_SMBUS_WORD_DATA, &data);
      } else {
        --counters_.transactions;
        return -EOPNOTSUPP;
      }
    }
  }
  if (rc < 0) {
    counters_.bytes += 1;
    return rc;
  }
  counters_.bytes += 1 + bytes.size();
  return 0;
}

std::optional<Error> I2cDevTransport::read_window(Sequence& seq, uint8_t device, uint8_t offset,
                                                  std::span<uint8_t> out) {
  const uint8_t address = bus_address(device);
  std::size_t done = 0;
  while (done < out.size()) {
    const auto at = static_cast<uint8_t>(offset + done);
    std::span<uint8_t> rest = out.subspan(done);
    std::size_t want = rest.size();
    int rc = 0;
    switch (method_) {
      case I2cMethod::I2cRdwr:
        rc = read_chunk(address, at, rest, method_);
        break;
      case I2cMethod::SmbusI2cBlock:
        want = std::min(want, kSmbusBlockMax);
        rc = read_chunk(address, at, rest.first(want), method_);
        break;
      case I2cMethod::SmbusWord:
        if (want >= 2) {
          rc = read_chunk(address, at, rest.first(2), method_);
        } else if ((funcs_ & I2C_FUNC_SMBUS_READ_BYTE_DATA) != 0) {
          rc = read_chunk(address, at, rest.first(1), I2cMethod::SmbusByte);
        } else {
          // Odd tail without byte reads: the word ending at this byte (re-reads one byte of
          // this same request; never reaches outside the half-page).
          std::array<uint8_t, 2> pair{};
          const bool at_half_start = at == 0 || at == kHalf;
          const auto from = static_cast<uint8_t>(at_half_start ? at : at - 1);
          rc = read_chunk(address, from, pair, method_);
          if (rc >= 0) rest[0] = at_half_start ? pair[0] : pair[1];
          rc = rc >= 0 ? 1 : rc;
        }
        break;
      case I2cMethod::SmbusByte:
        rc = read_chunk(address, at, rest.first(1), method_);
        break;
      case I2cMethod::Unknown:
      case I2cMethod::None:
        return Error{ErrorKind::Unsupported,
                     where(device, 0, 0, at) + ": adapter has no read method left"};
    }
    if (rc == -EOPNOTSUPP) {
      // Adapter quirk: demote to the next method it advertises and retry this chunk.
      const I2cMethod next = next_method(method_, funcs_);
      if (next == I2cMethod::None) return error_for(rc, "read", seq.acknowledged);
      method_ = next;
      continue;
    }
    if (rc < 0) return error_for(rc, "read", seq.acknowledged);
    if (rc == 0) {
      return Error{ErrorKind::Corrupt, "read: the adapter returned 0 of " +
                                           std::to_string(want) + " bytes"};
    }
    seq.acknowledged = true;
    done += static_cast<std::size_t>(rc);
  }
  return std::nullopt;
}

std::optional<Error> I2cDevTransport::select_page(Sequence& seq, uint8_t device, uint8_t bank, uint8_t page,
                                                  bool read_back) {
  // The one write to a module (invariant 1), through the select sequence the emulator runs too.
  const uint8_t address = bus_address(device);
  const std::string what = where(device, bank, page, kHalf) + ": page select";
  const auto write = [&](std::span<const uint8_t> bytes) -> std::optional<Error> {
    const int rc = write_bytes(address, bytes);
    if (rc < 0) {
      Error e = error_for(rc, what, seq.acknowledged);
      if (rc == -EOPNOTSUPP) {
        e.message = what + ": the adapter cannot write " + std::to_string(bytes.size() - 1) + " byte(s) at " +
                    std::to_string(bytes[0]);
      }
      return e;
    }
    seq.acknowledged = true;
    if (config_.post_write_delay_us > 0) sys_->sleep_us(config_.post_write_delay_us);
    return std::nullopt;
  };
  const auto read = [&](uint8_t offset, std::span<uint8_t> out) {
    auto e = read_window(seq, device, offset, out);
    if (e) e->message = what + " read-back: " + e->message;
    return e;
  };
  return select_.select(bank, page, write, read, read_back, where(device, bank, page, kHalf));
}

std::optional<Error> I2cDevTransport::restore_page0(uint8_t device) {
  // Back to page 0 / bank 0 for whoever reads next. No read-back: page 0 always exists.
  Sequence seq{true};
  return select_page(seq, device, 0, 0, /*read_back=*/false);  // failed: unknown, the next upper read selects
}

std::optional<Error> I2cDevTransport::read_locked(const drivers::ReadRequest& r,
                                                  std::span<uint8_t> out) {
  Sequence seq;
  const auto offset = static_cast<uint8_t>(r.offset);
  if (r.offset < kHalf) {
    if (auto e = read_window(seq, r.device, offset, out)) {
      e->message = where(r.device, r.bank, r.page, r.offset) + ": " + e->message;
      return e;
    }
    return std::nullopt;
  }

  // Upper page: make sure {bank, page} is selected.
  const bool resting = r.bank == 0 && r.page == 0;
  bool need_select = true;
  if (config_.restore_page0) {
    // Page 0 / bank 0 is the resting state every cooperating reader leaves behind.
    need_select = !(resting && select_.holds(0, 0));
  } else {
    // Others may have moved the page since our last read: look before writing.
    const bool with_bank = select_.banks_in_play(r.bank);
    std::array<uint8_t, 2> cur{};
    const auto cur_span = std::span<uint8_t>(cur).first(with_bank ? 2 : 1);
    if (auto e = read_window(seq, r.device, with_bank ? drivers::bank_select_offset() : drivers::page_select_offset(), cur_span)) {
      select_.forget();
      e->message = where(r.device, r.bank, r.page, kHalf) + ": page select look: " + e->message;
      return e;
    }
    const uint8_t cur_page = with_bank ? cur[1] : cur[0];
    const uint8_t cur_bank = with_bank ? cur[0] : 0;
    select_.assume(cur_bank, cur_page);
    need_select = cur_page != r.page || cur_bank != r.bank;
  }

  if (need_select) {
    if (auto e = select_page(seq, r.device, r.bank, r.page, /*read_back=*/true)) {
      if (config_.restore_page0 && seq.acknowledged && !resting) restore_page0(r.device);
      else if (!config_.restore_page0) select_.forget();
      return e;
    }
  }

  std::optional<Error> err = read_window(seq, r.device, offset, out);
  if (err) err->message = where(r.device, r.bank, r.page, r.offset) + ": " + err->message;
  if (config_.restore_page0 && need_select && !resting) {
    // A failed restore after a good read still returns the data; selected_ is unknown then,
    // so the next upper read (even of page 00h) selects explicitly.
    restore_page0(r.device);
  } else if (err && !config_.restore_page0) {
    select_.forget();
  }
  return err;
}

std::optional<Error> I2cDevTransport::read(const drivers::ReadRequest& r, std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) return drivers::bad_request(r, where(r.device, r.bank, r.page, r.offset));
  if (r.device != 0x50 && r.device != 0x51) {
    return Error{ErrorKind::Unsupported, where(r.device, r.bank, r.page, r.offset) +
                                             ": only devices 50h and 51h are modules"};
  }
  if (auto e = open()) {
    e->message = where(r.device, r.bank, r.page, r.offset) + ": " + e->message;
    return e;
  }
  if (auto e = lock(where(r.device, r.bank, r.page, r.offset))) return e;
  std::optional<Error> err = read_locked(r, out);
  unlock();
  if (err && (err->kind == ErrorKind::Absent || err->kind == ErrorKind::Permission)) {
    // Reopen next time: the adapter may be gone, or a driver may have been (un)bound.
    close_device();
  }
  return err;
}

}  // namespace xcvr::i2c
