// When a netdev's carrier last went down and for how long: the timeline the netlink path keeps
// from the kernel's link notifications (drivers/netlink/carrier_watch.hpp), and the emulator
// from its links' state (emulator/link.hpp). Pure: fuzzed with the rtnetlink parser
// (tests/fuzz/fuzz_netlink_reply.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace xcvr::drivers {

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

  // The netdev's carrier and the kernel's count of its losses (when it gives one), as of a
  // notification that arrived at `mono` / `unix_s` seconds.
  void on_state(const std::string& ifname, bool carrier, std::optional<uint32_t> down_count, double mono,
                double unix_s);
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

}  // namespace xcvr::drivers
