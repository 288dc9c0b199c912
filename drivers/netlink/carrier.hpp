// A netdev's carrier through rtnetlink (NETLINK_ROUTE), as pure parsers and a pure timeline
// (fuzzed by tests/fuzz/fuzz_netlink_reply.cpp):
//
// - the count: the kernel's own carrier_down_count (IFLA_CARRIER_DOWN_COUNT, Linux >= 4.16) in
//   the RTM_NEWLINK that answers RTM_GETLINK. The kernel counts every loss of carrier however
//   short (one that comes and goes between two polls) and keeps counting across a restart of
//   this daemon: it is the truth for "how many flaps".
// - the times: RTM_NEWLINK notifications (RTMGRP_LINK) followed live, each stamped on arrival,
//   give when the last loss began and how long it lasted. The kernel does not timestamp them.
#pragma once

#include <cstdint>
#include <map>
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

// When a netdev's carrier last went down and for how long, from notifications in the order
// they arrived, each with the monotonic and Unix seconds of its arrival.
//
// A loss and its return each come as a notification, except when the kernel folds a flap into
// one (the link watcher batches non-urgent events): the down count then moved while the carrier
// reads up both times. That flap is counted by the kernel all the same; its duration is unknown
// and the last duration is then withheld rather than reported from an older flap.
class CarrierTimeline {
 public:
  static constexpr std::size_t kMaxNetdevs = 4096;  // a host's netdevs; beyond, new names are not followed

  struct View {
    bool down_now = false;
    std::optional<double> last_down_seconds;  // the last loss that ended, as timed
    std::optional<double> last_down_unix;     // when the last (or current) loss began
  };

  void on_message(const LinkMessage& m, double mono, double unix_s);
  void on_deleted(const std::string& ifname) { by_name_.erase(ifname); }
  std::optional<View> view(const std::string& ifname) const;
  std::size_t followed() const { return by_name_.size(); }

 private:
  struct Entry {
    std::optional<bool> carrier;
    std::optional<uint32_t> down_count;
    std::optional<double> down_since_mono;
    View view;
  };
  std::map<std::string, Entry> by_name_;
};

}  // namespace xcvr::netlink
