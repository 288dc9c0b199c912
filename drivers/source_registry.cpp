// The registry of source types: one line per type. Its folder (drivers/<transport>/, emulator/,
// dumpfile/) defines the kind (settings, TOML keys, factory, discovery, xcvrctl flags); the
// config, the daemon and xcvrctl iterate this table and name no type themselves. The order is
// the order of `--help`, of `xcvrctl discover` and of messages. Its own library (xcvr_sources):
// the one place that links every source.
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
      &netlink::kNetlinkSource,
      &ib::kIbSource,
  };
  return kKinds;
}

std::string source_type_list() {
  std::string out;
  for (const SourceKind* k : source_kinds()) out += (out.empty() ? "" : ", ") + std::string(k->type);
  return out;
}

const SourceKind* source_kind(std::string_view type) {
  for (const SourceKind* k : source_kinds()) {
    if (k->type == type) return k;
  }
  return nullptr;
}

}  // namespace xcvr::drivers
