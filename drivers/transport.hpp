// Transport: the one seam through which module memory is read. Every source (emulator, i2c-dev,
// optoe, ethtool netlink, InfiniBand MCIA, dump files) implements it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "base/files/files.hpp"
#include "base/safe_file.hpp"
#include "cmis/image.hpp"
#include "drivers/link_health.hpp"

namespace xcvr::drivers {

// A sysfs attribute or a platform's one-line file (a presence file, an sx_core or SONiC
// attribute), read through base/safe_file.
inline constexpr base::InputKind kAttributeInput{"attribute file (sysfs)", std::size_t{4} << 10};

enum class ErrorKind {
  Absent,       // no module in the cage (ENXIO, EREMOTEIO, NACK from an empty cage)
  Busy,         // retryable: bus busy or arbitration lost (EBUSY, EAGAIN, EIO)
  Timeout,      // retryable: the transfer timed out (ETIMEDOUT, clock stretching, no reply)
  Nack,         // retryable: an occupied cage's module did not acknowledge (resetting, hung)
  Unsupported,  // the path cannot do this (page/bank not reachable, EOPNOTSUPP)
  Permission,   // EACCES/EPERM, missing capability
  Corrupt,      // bytes came back but cannot be right (page select not taken, short read)
};
std::string_view error_kind_name(ErrorKind kind);  // "absent", "busy", ... (metric label values)
bool is_retryable(ErrorKind kind);
// The one errno map for module-memory access (i2c-dev, optoe/sx_core sysfs, ethtool netlink).
// `present`: the cage is known to hold a module, so a NACK (ENXIO, EREMOTEIO) means a module
// that did not answer (Nack) rather than an empty cage (Absent).
// `opening`: the errno came from opening a device or port (umad_open_port), where ENOENT,
// EINVAL and ENXIO say that device or port is not on this host (Absent).
ErrorKind kind_of_errno(int err, bool present, bool opening = false);
// "No such device or address (ENXIO)": strerror with the symbolic name, for every message that
// carries an errno (the one definition is the files layer's).
using files::errno_text;

// "<source> [device 51h] page 11h [bank 1] offset 136" (or "lower page"): where a read went,
// for error messages that name the port and page.
std::string describe_read(std::string source, uint8_t device, uint8_t bank, uint8_t page,
                          uint16_t offset);

struct Error {
  ErrorKind kind;
  std::string message;  // names the port, page and offset
};

// What a path tells an operator about an errno: the hint after " — " in its messages ("is i2c-dev
// loaded (modprobe i2c-dev)?"). Each transport keeps its table of them.
struct ErrnoHint {
  int err;
  std::string_view hint;
};

// The one shape of an errno error: the kind from kind_of_errno(err, present, opening) and the
// message "<what>: <strerror> (<NAME>)[: <detail>][ — <hint>]", the hint being the first row of
// `hints` for err ("" or no row: none). `what` "" leaves out "<what>: ".
struct ErrnoContext {
  bool present = false;
  bool opening = false;
  std::string_view detail;  // what the kernel added (netlink extack)
};
Error errno_error(int err, std::string_view what, std::span<const ErrnoHint> hints = {}, ErrnoContext context = {});
// Appends " — <hint>" to the message (a hint that depends on more than the errno).
void add_hint(Error& error, std::string_view hint);

// A read of `length` bytes at `offset` (0-255) of the window of {device, bank, page}. Reads
// never cross byte 128: offset < 128 reads lower memory (page/bank ignored), otherwise the upper
// page. `length` ≤ 128.
struct ReadRequest {
  uint8_t device = cmis::kDeviceA0;
  uint8_t bank = 0;
  uint8_t page = 0;
  uint16_t offset = 0;
  uint16_t length = 0;
};

// Every transport's first check: a non-empty read within one half-page whose buffer has
// `length` bytes. When it fails, bad_request() is the Unsupported error naming `where` (built
// only then: the check runs on every poll).
bool request_fits(const ReadRequest& request, std::size_t buffer_size);
Error bad_request(const ReadRequest& request, const std::string& where);

enum class Presence { Present, Absent, Unknown };

// What a transport has put on its bus so far (monotonic), for the bus-cost metrics.
struct BusCounters {
  uint64_t bytes = 0;         // bytes on the wire, address and offset bytes included
  uint64_t transactions = 0;  // START..STOP sequences (or MADs, netlink requests)
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Ports sharing a serialization domain (an i2c bus or mux tree, a NIC, an IB target) are
  // polled one at a time; different domains run in parallel.
  virtual std::string domain() const = 0;
  // Human description for messages: "i2c /dev/i2c-3 0x50", "emulator bus0/port2".
  virtual std::string describe() const = 0;
  // Cheap presence check (a GPIO/sysfs file, a 1-byte read, or Unknown).
  virtual Presence presence() = 0;
  // What the port's configuration names that does not exist on this host — a netdev, an i2c
  // bus device, an optoe file, a presence file — as one sentence naming it, or nullopt. Not an
  // empty cage: the port cannot be watched until the host or the config changes. A stat, no bus
  // traffic; asked while a port shows nothing (empty, failing, misconfigured).
  virtual std::optional<std::string> missing() { return std::nullopt; }
  // Fills `out` (size == request.length) or returns the error.
  virtual std::optional<Error> read(const ReadRequest& request, std::span<uint8_t> out) = 0;
  // Traffic this transport caused; transports that cannot tell return zeros.
  virtual BusCounters counters() const { return {}; }
  // Error counters of the link(s) this module carries (drivers/link_health.hpp), read on the
  // link-health interval through the same bus, domain and politeness as module reads.
  // Unsupported where the path has none (i2c, optoe, dump files).
  virtual std::variant<LinkHealth, Error> read_link_health() {
    return Error{ErrorKind::Unsupported, describe() + ": no link counters on this path"};
  }
};

}  // namespace xcvr::drivers
