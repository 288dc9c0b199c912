// A netdev's carrier through rtnetlink (NETLINK_ROUTE), as pure parsers (fuzzed by
// tests/fuzz/fuzz_netlink_reply.cpp), whose messages drivers/carrier_timeline.hpp times:
//
// - the count: the kernel's own carrier_down_count (IFLA_CARRIER_DOWN_COUNT, Linux >= 4.16) in
//   the RTM_NEWLINK that answers RTM_GETLINK. The kernel counts every loss of carrier however
//   short (one that comes and goes between two polls) and keeps counting across a restart of
//   this daemon: it is the truth for "how many flaps".
// - the times: RTM_NEWLINK notifications (RTMGRP_LINK) followed live, each stamped on arrival,
//   give when the last loss began and how long it lasted. The kernel does not timestamp them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/transport.hpp"

namespace xcvr::netlink {

// One RTM_NEWLINK: a reply to RTM_GETLINK or a notification.
struct LinkMessage {
  int32_t ifindex = 0;
  std::string ifname;                   // IFLA_IFNAME
  std::optional<bool> carrier;          // IFLA_CARRIER
  std::optional<uint32_t> down_count;   // IFLA_CARRIER_DOWN_COUNT
  bool admin_up = false;                // IFF_UP in ifi_flags
};

// Every RTM_NEWLINK in one recv() buffer; RTM_DELLINK is returned with `deleted` set. Other
// message types are skipped. `done` as in the ethtool parsers (an ACK or NLMSG_DONE came).
struct LinkMessages {
  std::vector<LinkMessage> links;
  std::vector<std::string> deleted;  // ifnames of RTM_DELLINK
  bool done = false;
};
std::variant<LinkMessages, drivers::Error> parse_link_messages(std::span<const uint8_t> bytes,
                                                               std::optional<uint32_t> expected_seq = std::nullopt);

// RTM_GETLINK of one netdev by name, ACK wanted.
std::vector<uint8_t> build_getlink_request(uint32_t seq, const std::string& netdev);

}  // namespace xcvr::netlink
