// Follows netdevs that appear, disappear or are renamed, for netlink sources that discover their
// ports: an rtnetlink socket in RTMGRP_LINK (RTM_NEWLINK / RTM_DELLINK), read without blocking.
//
// A notification only says "look again": what counts is the set of physical netdevs
// (physical_netdevs()), so a link flapping up and down — a NEWLINK each time — changes nothing.
// The kernel announces an unregistered netdev before its sysfs directory goes, so after any
// notification the set is compared again on every call for kSettleSeconds.
#pragma once

#include <string>
#include <vector>

#include "drivers/source_kind.hpp"

namespace xcvr::netlink {

// The netlink kind's SourceKind::watch.
class NetdevWatch final : public drivers::DiscoveryWatch {
 public:
  static constexpr double kSettleSeconds = 3.0;

  // Opens the socket and takes the current set. Without a socket (error() says why) every call
  // compares the set: slower to notice nothing, never blind.
  explicit NetdevWatch(std::string sysfs_net = "/sys/class/net");
  ~NetdevWatch();
  NetdevWatch(const NetdevWatch&) = delete;
  NetdevWatch& operator=(const NetdevWatch&) = delete;

  // True once per change of the physical netdevs since the last true. `now`: monotonic seconds.
  std::string_view what() const override { return "netdevs"; }
  bool changed(double now) override;
  std::string seen() const override;  // "physical netdevs now: eth0, eth1" ("none")
  const std::vector<std::string>& netdevs() const { return known_; }
  const std::string& error() const override { return error_; }

 private:
  bool drain();  // reads every pending notification; true if there was any (or an overrun)

  std::string sysfs_net_;
  int fd_ = -1;
  std::string error_;
  std::vector<std::string> known_;
  double settle_until_ = 0;
};

}  // namespace xcvr::netlink
