// One netlink socket and one request/reply exchange over it: what the ethtool transport
// (NETLINK_GENERIC) and the carrier watch (NETLINK_ROUTE) share. Socket I/O is behind
// NetlinkChannel so tests can play the kernel.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "drivers/transport.hpp"

namespace xcvr::netlink {

// One netlink socket (NETLINK_GENERIC for ethtool, NETLINK_ROUTE for carrier). send/recv
// return bytes or -errno.
class NetlinkChannel {
 public:
  virtual ~NetlinkChannel() = default;
  virtual int send(std::span<const uint8_t> message) = 0;
  virtual int recv(std::span<uint8_t> buffer) = 0;  // one datagram; -EAGAIN on timeout
};

// libmnl: mnl_socket_open(protocol), NETLINK_EXT_ACK + NETLINK_CAP_ACK, a receive timeout.
// nullptr and the errno when the socket cannot be opened.
std::unique_ptr<NetlinkChannel> open_netlink_channel(int& error, int recv_timeout_ms = 2000,
                                                     int protocol = NETLINK_GENERIC);

// One request and its reply: sends `request`, then feeds each datagram to `take` (done, or an
// error) until done. `broken` is set when the socket failed (the caller reopens it).
using TakeReply = std::function<std::variant<bool, drivers::Error>(std::span<const uint8_t>)>;
std::optional<drivers::Error> exchange_on(NetlinkChannel& channel, const std::vector<uint8_t>& request,
                                          const TakeReply& take, bool& broken);

// A non-blocking rtnetlink socket subscribed to link notifications (RTMGRP_LINK: RTM_NEWLINK
// and RTM_DELLINK of every netdev), what the netdev and carrier watches follow. -1 and `error`
// (an errno) when it cannot be opened.
int open_link_notifications(int& error);

}  // namespace xcvr::netlink
