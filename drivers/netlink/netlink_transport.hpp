// NetlinkTransport: module memory of a host NIC's cage through the kernel's ethtool
// generic-netlink family (ETHTOOL_MSG_MODULE_EEPROM_GET, kernel >= 5.13), the default source on
// hosts. Needs CAP_NET_ADMIN.
//
// Requests follow the kernel's rules (net/ethtool/eeprom.c): lower memory is {offset 0-127,
// page 0, bank 0}; an upper page is {offset 128-255, page P, bank K}; length 1-128, never across
// byte 128. The driver does the page selects. A reply shorter than asked is Corrupt.
//
// Banks: mlx5 (ConnectX) copies the bank into nothing — a bank>0 request silently returns bank
// 0's bytes — so bank > 0 is Unsupported (lanes 9+ unavailable, not wrong) unless the port is
// configured with trust_banks for a driver that honours it.
//
// Socket I/O is behind NetlinkChannel so tests can play the kernel; the reply parsing is the
// pure parse_module_eeprom_reply() (netlink_reply.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "drivers/netlink/netlink_channel.hpp"
#include "drivers/netlink/netlink_reply.hpp"
#include "drivers/transport.hpp"

namespace xcvr::netlink {

class CarrierSource;

struct NetlinkPortConfig {
  std::string netdev;         // "enp59s0f0np0"
  std::string port;           // the exporter's port name, for messages
  std::string domain;         // override; default: the netdev's PCI device (or the netdev)
  bool trust_banks = false;   // the driver honours ETHTOOL_A_MODULE_EEPROM_BANK
  std::string sysfs_net = "/sys/class/net";
};

class NetlinkTransport final : public drivers::Transport {
 public:
  using ChannelFactory = std::function<std::unique_ptr<NetlinkChannel>(int& error)>;
  // `carrier`: where the netdev's carrier is read (the process-wide CarrierWatch by default;
  // none when a test's `factory` plays the kernel and gives no carrier source).
  explicit NetlinkTransport(NetlinkPortConfig config, ChannelFactory factory = {}, CarrierSource* carrier = nullptr);

  std::string domain() const override;
  std::string describe() const override;
  // A 1-byte read of the lower page: Present, Absent (ENODEV/no module), else Unknown.
  drivers::Presence presence() override;
  std::optional<std::string> missing() override;  // the netdev, as <sysfs_net>/<netdev>
  std::optional<drivers::Error> read(const drivers::ReadRequest& request,
                                     std::span<uint8_t> out) override;
  // transactions: netlink requests; bytes: the requests' data bytes plus an estimate of the
  // module-bus overhead (3 bytes per read, 6 for a page select and restore) — the firmware's
  // own traffic is not visible from here.
  drivers::BusCounters counters() const override { return counters_; }
  // FEC statistics (corrected / uncorrectable blocks, corrected bits; per lane where the
  // driver gives them), the link-down count where the kernel counts it (netlink_link.hpp) and
  // the netdev's carrier with its count of losses (carrier.hpp): 3 netlink requests. Counters
  // the driver does not report are absent; none at all is Unsupported, and the poller stops
  // asking.
  std::variant<drivers::LinkHealth, drivers::Error> read_link_health() override;

 private:
  // Feeds each received datagram to `take` (done, or an error) until done.
  std::optional<drivers::Error> ensure_open();
  std::optional<drivers::Error> exchange(const std::vector<uint8_t>& request, const TakeReply& take);
  // One ethtool request of a link read, counted in `out`: build(family, seq, netdev) makes it,
  // parse(bytes, seq) reads each datagram of the reply, merge(reply) keeps what came.
  template <typename Reply, typename Build, typename Parse, typename Merge>
  std::optional<drivers::Error> ask(Build build, Parse parse, Merge merge, drivers::LinkHealth& out);
  std::string where(const drivers::ReadRequest& r) const;

  NetlinkPortConfig config_;
  ChannelFactory factory_;
  CarrierSource* carrier_ = nullptr;
  std::unique_ptr<NetlinkChannel> channel_;
  uint16_t family_id_ = 0;
  uint32_t seq_ = 0;
  drivers::BusCounters counters_;
};

// Netdevs under sysfs_net that carry a module interface: physical ones (with a `device` link;
// lo, bridges, veth, bonds, dummies have none) whose driver answers a 1-byte read of the lower
// page with the byte, or with "no module" (an empty cage: a module plugged in later is read).
// A driver that cannot read module memory (EOPNOTSUPP), or any other answer, skips the netdev.
struct DiscoveredNetdev {
  std::string netdev;
  std::string domain;  // PCI device, e.g. "pci:0000:3b:00.0"
};
struct NetdevDiscovery {
  std::vector<DiscoveredNetdev> found;
  std::vector<std::string> skipped;  // "eth2: <why>", for the log: what was looked at
};
NetdevDiscovery discover_netdevs(const std::string& sysfs_net = "/sys/class/net",
                                 NetlinkTransport::ChannelFactory factory = {});
// The physical netdevs under sysfs_net (those with a `device` link), sorted; nothing is asked.
std::vector<std::string> physical_netdevs(const std::string& sysfs_net = "/sys/class/net");

// The netdev's PCI device from /sys/class/net/<if>/device ("pci:0000:3b:00.0"), or "".
std::string netdev_pci_device(const std::string& sysfs_net, const std::string& netdev);

}  // namespace xcvr::netlink
