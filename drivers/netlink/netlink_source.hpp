// The "netlink" source: NIC-attached modules read with ethtool netlink MODULE_EEPROM_GET, listed
// (`[[source.port]] netdev = "…"`) or found (`discover`: every netdev with a module), and
// xcvrctl's --netlink IFACE (also --netdev) and --trust-banks.
#pragma once

#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::netlink {

struct NetlinkSource final : drivers::SourceSettings {
  std::vector<NetlinkPortConfig> ports;
  drivers::Discovery discovery;
  bool trust_banks = false;  // the default of its ports, and of the ports it finds

  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::string fingerprint() const override;  // a NIC added or renamed since
  std::vector<std::string> claims() const override;
  bool discovers() const override { return discovery.discover; }
  bool watches() const override { return discovery.discover; }
};

extern const drivers::SourceKind kNetlinkSource;

}  // namespace xcvr::netlink
