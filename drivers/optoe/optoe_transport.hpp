// OptoeTransport: module memory through a kernel driver's sysfs files — never a write.
//
// optoe (SONiC / ONL; `echo optoe1|optoe2|optoe3 0x50 > /sys/bus/i2c/devices/i2c-N/new_device`)
// exposes one binary `eeprom` file per module with the pages laid out linearly; the driver does
// the page selects (and restores page 0) itself. Layouts, by dev_class:
//   one-address (optoe1 SFF-8636, optoe3 CMIS): bytes 0-127 lower memory; upper page P byte B
//     (128-255) at P*128 + B.
//   CMIS banks (SONiC's optoe bank patch, sysfs max_bank_size = number of banks > 0): upper page
//     P of bank K byte B at (K*256 + P)*128 + B (bank 0 is the plain layout above). Pages below
//     10h are not banked and always read from bank 0.
//   two-address (optoe2 SFP): A0h bytes 0-255 at 0-255; A2h lower at 256-383; A2h upper page P
//     at 384 + P*128 + (B-128).
// A read that comes back short (EOF: the page is beyond what the driver maps for this module,
// e.g. an unpaged module trimmed to 256 bytes) is Unsupported for that page.
//
// NVIDIA Spectrum switches (sx_core, not optoe) expose per-page files under the module's
// directory /sys/module/sx_core/asic<A>/module<N>:
//   eeprom/pages/0/i2c-0x50/data   256 bytes: lower memory + upper page 00h
//   eeprom/pages/0/i2c-0x51/data   256 bytes: SFF-8472 A2h
//   eeprom/pages/<P>/data          128 bytes: upper page P (P in decimal)
//   bank<K>/eeprom/pages/<P>/data  CMIS banked pages 10h-1Fh of bank K on newer SDKs
//   present                        1 present, 0 empty, 2 error
//
// Errors: ENXIO -> Absent (optoe returns it at once when nothing answers); ETIMEDOUT (optoe's
// retry window expired), EIO, EAGAIN -> Busy; EACCES/EPERM -> Permission; a missing file ->
// Unsupported naming the path; short read -> Unsupported for that page.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/optoe/sonic_port_map.hpp"
#include "drivers/transport.hpp"

namespace xcvr::optoe {

enum class OptoeLayout {
  Auto,        // from the sysfs dev_class / max_bank_size files beside `eeprom` (1/3: one, 2: two)
  OneAddress,  // optoe1 / optoe3
  TwoAddress,  // optoe2
  SxCore,      // NVIDIA sx_core per-page files; path = the module<N> directory
};
std::string_view layout_name(OptoeLayout layout);

struct OptoePortConfig {
  std::string path;      // optoe: .../N-0050/eeprom; sx_core: .../asic0/module<N>
  OptoeLayout layout = OptoeLayout::Auto;
  int banks = -1;        // CMIS banks in the file (optoe max_bank_size); -1: read max_bank_size
  std::string port;      // the exporter's port name, for messages
  std::string domain;    // serialization-domain override
};

// The module eeproms a kernel driver exposes on this host: every i2c client under i2c_devices
// whose driver `name` is one of `drivers` (optoe1/optoe2/optoe3; platforms that bind sff8436 or
// an at24 24c02 to their cages list those) with an `eeprom` file, and every sx_core module
// directory (asic<A>/module<N>). Names, from optoe's `port_name` where the platform set one:
// a front-panel number ("port3", "Port3", "3", as SONiC platform init writes it) is the
// interface `sonic` maps it to (sonic_port_map.hpp), else "port<N>"; any other name as given
// ("Ethernet48"). Without a port_name: "optoe-<bus>" ("<driver>-<bus>" for other drivers,
// "-<addr>" appended off 0x50); sx_core: "module<N>" ("asic<A>-module<N>" past asic 0). Sorted
// by bus / module number. Nothing is read from a module.
inline const std::vector<std::string> kOptoeDrivers = {"optoe1", "optoe2", "optoe3"};
inline const std::string kSysI2cDevices = "/sys/bus/i2c/devices";
inline const std::string kSysSxCore = "/sys/module/sx_core";
struct DiscoveredEeprom {
  std::string name;  // the port name it gets
  OptoePortConfig config;
};
struct EepromDiscovery {
  std::vector<DiscoveredEeprom> found;
  int looked_at = 0;  // i2c devices and sx_core module directories examined
};
EepromDiscovery discover_optoe(const std::string& i2c_devices = kSysI2cDevices, const std::string& sx_core = kSysSxCore,
                               const std::vector<std::string>& drivers = kOptoeDrivers,
                               const SonicPortMap* sonic = nullptr);

// Where a read lands: the file and the offset in it (exposed for tests and docs).
struct FileSpan {
  std::string file;
  uint64_t offset = 0;
};

class OptoeTransport final : public drivers::Transport {
 public:
  explicit OptoeTransport(OptoePortConfig config);
  ~OptoeTransport() override;
  OptoeTransport(const OptoeTransport&) = delete;
  OptoeTransport& operator=(const OptoeTransport&) = delete;

  std::string domain() const override;
  std::string describe() const override;
  drivers::Presence presence() override;
  std::optional<std::string> missing() override;  // the eeprom file (sx_core: module directory)
  std::optional<drivers::Error> read(const drivers::ReadRequest& request,
                                     std::span<uint8_t> out) override;
  // Estimated as optoe puts it on the wire with I2C_RDWR: per read an offset write and a read
  // (3 bytes + data), plus a page write and the page-0 restore (3 bytes each) for upper pages
  // other than 00h (5 bytes each with a bank). sx_core: the same estimate.
  drivers::BusCounters counters() const override { return counters_; }

  // The layout in effect (Auto resolved at first use) and the bank count.
  OptoeLayout layout();
  int banks();
  // Maps a request to its file span, or the error (Unsupported) when the layout cannot hold it.
  std::variant<FileSpan, drivers::Error> locate(const drivers::ReadRequest& request);

 private:
  void resolve();
  std::string where(const drivers::ReadRequest& r) const;
  drivers::Error errno_error(int err, const std::string& what) const;

  OptoePortConfig config_;
  bool resolved_ = false;
  OptoeLayout layout_;
  int banks_ = 0;
  int fd_ = -1;  // the optoe eeprom file, kept open
  bool last_read_ok_ = false;
  drivers::BusCounters counters_;
};

}  // namespace xcvr::optoe
