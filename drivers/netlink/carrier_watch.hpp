// The carrier of netdevs, live: one process-wide rtnetlink watcher. A thread follows RTM_NEWLINK
// notifications (RTMGRP_LINK) and stamps each on arrival into a CarrierTimeline; a link read asks
// the kernel for the netdev's carrier and its carrier_down_count (RTM_GETLINK) and adds the
// timeline's view. Started by the first netlink port that reads its link; its thread stops at
// exit.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "drivers/carrier_timeline.hpp"
#include "drivers/link_health.hpp"
#include "drivers/netlink/carrier.hpp"
#include "drivers/netlink/netlink_channel.hpp"

namespace xcvr::netlink {

struct CarrierReading {
  drivers::LinkCarrier carrier;
  std::optional<uint32_t> down_count;  // absent on kernels before 4.16
  uint64_t bytes = 0;                  // request and reply bytes
};

// Where a netdev's carrier comes from (tests play the kernel with their own).
class CarrierSource {
 public:
  virtual ~CarrierSource() = default;
  virtual std::variant<CarrierReading, drivers::Error> read(const std::string& netdev) = 0;
};

class CarrierWatch final : public CarrierSource {
 public:
  static CarrierWatch& instance();
  ~CarrierWatch() override;
  CarrierWatch(const CarrierWatch&) = delete;
  CarrierWatch& operator=(const CarrierWatch&) = delete;

  // The netdev's carrier and down count from the kernel; its last loss from the timeline (a
  // netdev not followed yet starts being followed from this state). Without the notification
  // socket the count and state still come; the times do not.
  std::variant<CarrierReading, drivers::Error> read(const std::string& netdev) override;

 private:
  CarrierWatch();
  void run();

  std::mutex mutex_;  // timeline_
  drivers::CarrierTimeline timeline_;
  std::mutex request_mutex_;  // request_, seq_
  std::unique_ptr<NetlinkChannel> request_;
  uint32_t seq_ = 0;
  int events_fd_ = -1;
  int wake_fd_ = -1;
  std::thread thread_;
};

}  // namespace xcvr::netlink
