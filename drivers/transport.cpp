#include "drivers/transport.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace xcvr::drivers {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Absent: return "absent";
    case ErrorKind::Busy: return "busy";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Nack: return "nack";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Permission: return "permission";
    case ErrorKind::Corrupt: return "corrupt";
  }
  return "unknown";
}

std::string_view link_counter_name(LinkCounterId id) {
  switch (id) {
    case LinkCounterId::FecCorrectedBlocks: return "fec_corrected_blocks";
    case LinkCounterId::FecUncorrectableBlocks: return "fec_uncorrectable_blocks";
    case LinkCounterId::FecCorrectedBits: return "fec_corrected_bits";
    case LinkCounterId::SymbolErrors: return "symbol_errors";
    case LinkCounterId::LinkErrorRecovery: return "error_recovery";
    case LinkCounterId::LinkDowned: return "downed";
    case LinkCounterId::RcvErrors: return "rcv_errors";
    case LinkCounterId::LocalLinkIntegrityErrors: return "local_link_integrity_errors";
    case LinkCounterId::ExcessiveBufferOverrunErrors: return "excessive_buffer_overrun_errors";
    case LinkCounterId::CarrierDown: return "carrier_down";
  }
  return "unknown";
}

std::string_view fec_bin_name(const LinkFecBin& bin, std::array<char, 16>& buffer) {
  char* end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), bin.low).ptr;
  if (bin.high != bin.low) {
    *end++ = '-';
    end = std::to_chars(end, buffer.data() + buffer.size(), bin.high).ptr;
  }
  return {buffer.data(), static_cast<std::size_t>(end - buffer.data())};
}

std::string_view link_ber_name(LinkBerId id) {
  switch (id) {
    case LinkBerId::Raw: return "raw";
    case LinkBerId::Effective: return "effective";
  }
  return "unknown";
}

bool is_retryable(ErrorKind kind) {
  return kind == ErrorKind::Busy || kind == ErrorKind::Timeout || kind == ErrorKind::Nack;
}

ErrorKind kind_of_errno(int err, bool present, bool opening) {
  if (opening && (err == ENOENT || err == EINVAL || err == ENXIO)) return ErrorKind::Absent;
  switch (err) {
    case ENXIO:
    case EREMOTEIO: return present ? ErrorKind::Nack : ErrorKind::Absent;
    case ENODEV: return ErrorKind::Absent;
    case ETIMEDOUT: return ErrorKind::Timeout;
    case EACCES:
    case EPERM: return ErrorKind::Permission;
    case EOPNOTSUPP:
    case EINVAL:
    case ERANGE:
    case ENOENT: return ErrorKind::Unsupported;
    case EPROTO:
    case EBADMSG: return ErrorKind::Corrupt;
    default: return ErrorKind::Busy;  // EBUSY, EAGAIN, EIO, EINTR and the unknown: retry
  }
}

Error errno_error(int err, std::string_view what, std::span<const ErrnoHint> hints, ErrnoContext context) {
  Error out{kind_of_errno(err, context.present, context.opening),
            (what.empty() ? std::string() : std::string(what) + ": ") + errno_text(err)};
  if (!context.detail.empty()) out.message += ": " + std::string(context.detail);
  for (const ErrnoHint& h : hints) {
    if (h.err == err) {
      add_hint(out, h.hint);
      break;
    }
  }
  return out;
}

void add_hint(Error& error, std::string_view hint) {
  if (!hint.empty()) error.message += " — " + std::string(hint);
}

std::string describe_read(std::string source, uint8_t device, uint8_t bank, uint8_t page,
                          uint16_t offset) {
  auto hex = [](unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02Xh", v & 0xFFu);
    return std::string(buf);
  };
  if (device != 0x50) source += " device " + hex(device);
  if (offset >= 128) {
    source += " page " + hex(page);
    if (bank != 0) source += " bank " + std::to_string(bank);
  } else {
    source += " lower page";
  }
  return source + " offset " + std::to_string(offset);
}

bool request_fits(const ReadRequest& r, std::size_t buffer_size) {
  const unsigned half_end = r.offset < 128 ? 128 : 256;
  return r.length != 0 && buffer_size == r.length && unsigned{r.offset} + r.length <= half_end;
}

Error bad_request(const ReadRequest& r, const std::string& where) {
  return Error{ErrorKind::Unsupported, where + ": read of " + std::to_string(r.length) +
                                           " bytes crosses a half-page or does not match the buffer"};
}

}  // namespace xcvr::drivers
