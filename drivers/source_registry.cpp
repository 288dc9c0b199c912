// The registry of source types: one line per type. Its folder under drivers/ defines the kind
// (settings, TOML keys, factory, xcvrctl flags); the config, the daemon and xcvrctl iterate this
// table and name no type themselves. The order is the order of `--help` and of messages.
#include "drivers/source_kind.hpp"

#include "dumpfile/file_source.hpp"
#include "emulator/emulator_source.hpp"
#include "drivers/netlink/netlink_source.hpp"
#include "drivers/i2c/i2c_source.hpp"
#include "drivers/ib/ib_source.hpp"
#include "drivers/optoe/optoe_source.hpp"

namespace xcvr::drivers {

std::span<const SourceKind* const> source_kinds() {
  static const SourceKind* const kKinds[] = {
      &emulator::kEmulatorSource,
      &dumpfile::kFileSource,
      &i2c::kI2cSource,
      &optoe::kOptoeSource,
      &ethtool::kNetlinkSource,
      &ib::kIbSource,
  };
  return kKinds;
}

}  // namespace xcvr::drivers
