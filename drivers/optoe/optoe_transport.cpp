#include "drivers/optoe/optoe_transport.hpp"

#include "base/files/files.hpp"
#include "base/safe_file.hpp"
#include "cmis/image.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <tuple>
#include <utility>

namespace xcvr::optoe {
namespace {

using drivers::Error;
using drivers::ErrorKind;

constexpr uint16_t kHalf = cmis::kPageSize;  // the lower half of the window, and each upper page

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::optional<long> read_number(const std::string& file) {
  std::string error;
  const auto text = base::read_regular_file(file, drivers::kAttributeInput, error);
  long v = 0;
  if (!text || std::sscanf(text->c_str(), "%ld", &v) != 1) return std::nullopt;
  return v;
}

bool is_dir(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string_view layout_name(OptoeLayout layout) {
  switch (layout) {
    case OptoeLayout::Auto: return "auto";
    case OptoeLayout::OneAddress: return "one-address";
    case OptoeLayout::TwoAddress: return "two-address";
    case OptoeLayout::SxCore: return "sx_core";
  }
  return "unknown";
}

OptoeTransport::OptoeTransport(OptoePortConfig config)
    : config_(std::move(config)), layout_(config_.layout) {}

OptoeTransport::~OptoeTransport() {
  if (fd_ >= 0) ::close(fd_);
}

void OptoeTransport::resolve() {
  if (resolved_) return;
  resolved_ = true;
  const std::string dir = parent_of(config_.path);
  if (layout_ == OptoeLayout::Auto) {
    if (is_dir(config_.path + "/eeprom/pages")) {
      layout_ = OptoeLayout::SxCore;
    } else {
      const auto dev_class = read_number(dir + "/dev_class");
      layout_ = dev_class && *dev_class == 2 ? OptoeLayout::TwoAddress : OptoeLayout::OneAddress;
    }
  }
  banks_ = 1;
  if (config_.banks >= 0) {
    banks_ = std::max(1, config_.banks);
  } else if (layout_ == OptoeLayout::OneAddress) {
    banks_ = static_cast<int>(std::max(1L, read_number(dir + "/max_bank_size").value_or(0)));
  } else if (layout_ == OptoeLayout::SxCore) {
    banks_ = 1;
    while (banks_ < 8 && is_dir(config_.path + "/bank" + std::to_string(banks_) + "/eeprom/pages")) {
      ++banks_;
    }
  }
}

OptoeLayout OptoeTransport::layout() {
  resolve();
  return layout_;
}

int OptoeTransport::banks() {
  resolve();
  return banks_;
}

std::string OptoeTransport::domain() const {
  if (!config_.domain.empty()) return config_.domain;
  if (config_.layout == OptoeLayout::SxCore || is_dir(config_.path + "/eeprom/pages")) {
    // Every module of one ASIC goes through its firmware: .../sx_core/asic0
    const auto asic = config_.path.find("/asic");
    if (asic != std::string::npos) {
      return config_.path.substr(0, config_.path.find('/', asic + 1));
    }
    return config_.path;
  }
  // .../i2c-7/7-0050/eeprom or /sys/bus/i2c/devices/7-0050/eeprom -> i2c-7
  const std::string dir = parent_of(config_.path);
  const std::string client = dir.substr(dir.find_last_of('/') + 1);
  const auto dash = client.find('-');
  if (dash != std::string::npos && dash > 0 &&
      client.find_first_not_of("0123456789") == dash) {
    return "i2c-" + client.substr(0, dash);
  }
  return config_.path;
}

std::string OptoeTransport::describe() const {
  const bool sx = config_.layout == OptoeLayout::SxCore;
  std::string d = (sx ? "sx_core " : "optoe ") + config_.path;
  if (!config_.port.empty()) d += " (" + config_.port + ")";
  return d;
}

std::string OptoeTransport::where(const drivers::ReadRequest& r) const {
  return drivers::describe_read(describe(), r.device, r.bank, r.page, r.offset);
}

Error OptoeTransport::errno_error(int err, const std::string& what) const {
  static constexpr drivers::ErrnoHint kOptoe[] = {
      {ENXIO, "no module answering"},
      {ENODEV, "no module answering"},
      {ENOENT, "is the optoe device instantiated (echo optoe3 0x50 > /sys/bus/i2c/devices/i2c-N/new_device)?"},
  };
  static constexpr drivers::ErrnoHint kSxCore[] = {
      {ENXIO, "no module answering"},
      {ENODEV, "no module answering"},
      {ENOENT, "sx_core does not expose this page"},
  };
  return drivers::errno_error(err, what, layout_ == OptoeLayout::SxCore ? std::span(kSxCore) : std::span(kOptoe));
}

std::variant<FileSpan, Error> OptoeTransport::locate(const drivers::ReadRequest& r) {
  resolve();
  const bool lower = r.offset < kHalf;
  const uint64_t in_half = lower ? r.offset : r.offset - kHalf;
  // Pages below 10h are the same in every bank (CMIS); only 10h-FFh are banked.
  const uint8_t bank = r.page < 0x10 ? 0 : r.bank;
  auto unsupported = [&](const std::string& why) {
    return Error{ErrorKind::Unsupported, where(r) + ": " + why};
  };
  switch (layout_) {
    case OptoeLayout::Auto:
    case OptoeLayout::OneAddress: {
      if (r.device != 0x50) return unsupported("a one-address optoe device has no A2h");
      if (lower) return FileSpan{config_.path, r.offset};
      if (bank >= banks_) {
        return unsupported("optoe maps " + std::to_string(banks_) +
                           " bank(s) (sysfs max_bank_size); bank " + std::to_string(bank) +
                           " is not reachable");
      }
      return FileSpan{config_.path, (static_cast<uint64_t>(bank) * 256 + r.page) * kHalf + r.offset};
    }
    case OptoeLayout::TwoAddress: {
      if (bank != 0) return unsupported("SFF-8472 has no banks");
      if (r.device == 0x50) {
        if (!lower && r.page != 0) return unsupported("SFF-8472 A0h has no pages");
        return FileSpan{config_.path, r.offset};
      }
      if (r.device != 0x51) return unsupported("no such device address");
      if (lower) return FileSpan{config_.path, 256 + in_half};
      return FileSpan{config_.path, 384 + static_cast<uint64_t>(r.page) * kHalf + in_half};
    }
    case OptoeLayout::SxCore: {
      const std::string pages = config_.path + "/eeprom/pages/";
      if (r.device == 0x51) {
        if (!lower && r.page != 0) return unsupported("sx_core exposes A2h page 0 only");
        return FileSpan{pages + "0/i2c-0x51/data", r.offset};
      }
      if (r.device != 0x50) return unsupported("no such device address");
      if (lower || r.page == 0) return FileSpan{pages + "0/i2c-0x50/data", r.offset};
      if (bank != 0) {
        if (r.page > 0x1F || bank >= banks_) {
          return unsupported("sx_core exposes no bank " + std::to_string(bank) + " for this page");
        }
        return FileSpan{config_.path + "/bank" + std::to_string(bank) + "/eeprom/pages/" +
                            std::to_string(r.page) + "/data",
                        in_half};
      }
      return FileSpan{pages + std::to_string(r.page) + "/data", in_half};
    }
  }
  return unsupported("unknown layout");
}

std::optional<std::string> OptoeTransport::missing() {
  return files::missing_path(config_.path, layout_ == OptoeLayout::SxCore ? "sx_core module directory" : "optoe file");
}

drivers::Presence OptoeTransport::presence() {
  resolve();
  if (layout_ == OptoeLayout::SxCore) {
    if (const auto v = read_number(config_.path + "/present")) {
      if (*v == 1) return drivers::Presence::Present;
      if (*v == 0) return drivers::Presence::Absent;
      return drivers::Presence::Unknown;  // 2: error, see statuserror
    }
  }
  // optoe has no presence file: a 1-byte read answers ENXIO from an empty cage. While reads
  // succeed the module is taken as present without another bus access; the next read's ENXIO
  // (an Absent error) reports a removal.
  if (last_read_ok_) return drivers::Presence::Present;
  uint8_t b = 0;
  const auto err = read({cmis::kDeviceA0, 0, 0, 0, 1}, std::span<uint8_t>(&b, 1));
  if (!err) return drivers::Presence::Present;
  return err->kind == ErrorKind::Absent ? drivers::Presence::Absent : drivers::Presence::Unknown;
}

std::optional<Error> OptoeTransport::read(const drivers::ReadRequest& r, std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) return drivers::bad_request(r, where(r));
  const bool lower = r.offset < kHalf;
  auto located = locate(r);
  if (auto* e = std::get_if<Error>(&located)) return *e;
  const FileSpan span = std::get<FileSpan>(located);

  int fd = -1;
  const bool keep = span.file == config_.path;  // the optoe eeprom file stays open
  if (keep && fd_ >= 0) {
    fd = fd_;
  } else {
    // O_NONBLOCK, then fstat: a FIFO named as eeprom must not block the domain's worker.
    fd = ::open(span.file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return errno_error(errno, where(r) + ": open " + span.file);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return Error{ErrorKind::Unsupported, where(r) + ": " + span.file + " is not a regular (sysfs) file"};
    }
    if (keep) fd_ = fd;
  }
  ++counters_.transactions;
  counters_.bytes += 3 + r.length;
  if (!lower && r.page != 0) {
    const bool banked = r.bank != 0 && r.page >= 0x10;
    counters_.transactions += 2;
    counters_.bytes += banked ? 8 : 6;
  }
  std::size_t done = 0;
  int err = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done,
                              static_cast<off_t>(span.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0) break;  // EOF: past what the driver maps for this module
    done += static_cast<std::size_t>(n);
  }
  if (!keep) ::close(fd);
  last_read_ok_ = err == 0 && done == out.size();
  if (err != 0) {
    if (keep && (err == ENODEV || err == EBADF)) {  // the device went away: reopen next time
      ::close(fd_);
      fd_ = -1;
    }
    Error e = errno_error(err, where(r) + ": read " + span.file + " at " +
                                   std::to_string(span.offset));
    if (err == EIO && layout_ == OptoeLayout::SxCore &&
        read_number(config_.path + "/present").value_or(1) == 0) {
      e.kind = ErrorKind::Absent;  // sx_core answers EIO for an empty cage
    }
    return e;
  }
  if (done < out.size()) {
    return Error{ErrorKind::Unsupported,
                 where(r) + ": page not available — " + span.file + " returned " +
                     std::to_string(done) + " of " + std::to_string(out.size()) +
                     " bytes at offset " + std::to_string(span.offset) +
                     " (unpaged module, or a page the driver does not map)"};
  }
  return std::nullopt;
}

namespace {

struct ClientAddress {
  int bus = 0;
  unsigned address = 0;
};
// {11, 0x50} of "11-0050"; nullopt for anything else (adapters "i2c-11", drivers' own entries).
std::optional<ClientAddress> client_address(const std::string& entry) {
  ClientAddress a;
  char tail = 0;
  if (std::sscanf(entry.c_str(), "%d-%4x%c", &a.bus, &a.address, &tail) != 2) return std::nullopt;
  return a;
}

std::string trimmed_attribute(const std::string& file) {
  std::string error;
  auto text = base::read_regular_file(file, drivers::kAttributeInput, error).value_or("");
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

}  // namespace

EepromDiscovery discover_optoe(const std::string& i2c_devices, const std::string& sx_core,
                               const std::vector<std::string>& drivers, const SonicPortMap* sonic) {
  EepromDiscovery out;
  std::error_code ec;
  // Sorted by (0, bus, address) for i2c clients, then (1 + asic, module, 0) for sx_core modules.
  std::vector<std::pair<std::tuple<int, int, unsigned>, DiscoveredEeprom>> by_key;
  for (const auto& entry : std::filesystem::directory_iterator(i2c_devices, ec)) {
    const std::string dir = entry.path().string();
    const auto at = client_address(entry.path().filename().string());
    if (!at) continue;
    ++out.looked_at;
    const std::string driver = trimmed_attribute(dir + "/name");
    if (std::find(drivers.begin(), drivers.end(), driver) == drivers.end()) continue;
    if (files::missing_path(dir + "/eeprom", "eeprom")) continue;
    DiscoveredEeprom d;
    if (auto named = name_from_port_name(trimmed_attribute(dir + "/port_name"), sonic)) {
      d.name = std::move(*named);
    } else {
      d.name = (driver.rfind("optoe", 0) == 0 ? std::string("optoe") : driver) + "-" + std::to_string(at->bus);
      if (at->address != 0x50) {
        char suffix[8];
        std::snprintf(suffix, sizeof suffix, "-%02x", at->address & 0xffu);
        d.name += suffix;
      }
    }
    d.config.path = dir + "/eeprom";
    d.config.port = d.name;
    by_key.push_back({{0, at->bus, at->address}, std::move(d)});
  }
  for (const auto& asic : std::filesystem::directory_iterator(sx_core, ec)) {
    int a = 0;
    if (std::sscanf(asic.path().filename().c_str(), "asic%d", &a) != 1 || !is_dir(asic.path().string())) continue;
    std::error_code inner;
    for (const auto& module : std::filesystem::directory_iterator(asic.path(), inner)) {
      int m = 0;
      char tail = 0;
      if (std::sscanf(module.path().filename().c_str(), "module%d%c", &m, &tail) != 1 || !is_dir(module.path().string())) continue;
      ++out.looked_at;
      DiscoveredEeprom d;
      d.name = (a == 0 ? "" : "asic" + std::to_string(a) + "-") + "module" + std::to_string(m);
      d.config.path = module.path().string();
      d.config.layout = OptoeLayout::SxCore;
      d.config.port = d.name;
      by_key.push_back({{a + 1, m, 0}, std::move(d)});
    }
  }
  std::sort(by_key.begin(), by_key.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto& [key, d] : by_key) out.found.push_back(std::move(d));
  return out;
}

}  // namespace xcvr::optoe
