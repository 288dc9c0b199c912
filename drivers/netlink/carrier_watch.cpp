#include "drivers/netlink/carrier_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>

#include "drivers/netlink/netlink_reply.hpp"

namespace xcvr::netlink {
namespace {

using drivers::Error;
using drivers::ErrorKind;

// When a notification arrived (or a netdev began to be followed): the timeline's two clocks.
struct Stamp {
  double mono, unix_s;
};
Stamp stamp_now() {
  const auto seconds = [](auto t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); };
  return {seconds(std::chrono::steady_clock::now()), seconds(std::chrono::system_clock::now())};
}

}  // namespace

CarrierWatch& CarrierWatch::instance() {
  static CarrierWatch watch;
  return watch;
}

CarrierWatch::CarrierWatch() {
  // Without the notification socket the count and state still come (read()); the times do not.
  int error = 0;
  events_fd_ = open_link_notifications(error);
  if (events_fd_ < 0) return;
  // A burst of notifications (a whole switch's links changing) must not be dropped.
  const int size = 1 << 20;
  ::setsockopt(events_fd_, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { run(); });
}

CarrierWatch::~CarrierWatch() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);
    thread_.join();
  }
  if (events_fd_ >= 0) ::close(events_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void CarrierWatch::run() {
  std::array<uint8_t, 32768> buf;
  for (;;) {
    pollfd fds[2] = {{events_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if ((fds[1].revents & POLLIN) != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    const ssize_t n = ::recv(events_fd_, buf.data(), buf.size(), MSG_DONTWAIT);
    const Stamp at = stamp_now();
    // ENOBUFS: notifications were dropped. The next one of each netdev carries the kernel's
    // count, and the timeline withholds a duration it could not time. A malformed one is
    // skipped: the next GETLINK of the netdev reads the kernel's state anyway.
    if (n <= 0) continue;
    auto parsed = parse_link_messages(std::span<const uint8_t>(buf.data(), static_cast<std::size_t>(n)));
    if (std::holds_alternative<Error>(parsed)) continue;
    const auto& got = std::get<LinkMessages>(parsed);
    std::lock_guard lock(mutex_);
    for (const LinkMessage& m : got.links) {
      if (m.carrier) timeline_.on_state(m.ifname, *m.carrier, m.down_count, at.mono, at.unix_s);
    }
    for (const std::string& name : got.deleted) timeline_.on_deleted(name);
  }
}

std::variant<CarrierReading, Error> CarrierWatch::read(const std::string& netdev) {
  CarrierReading out;
  std::optional<LinkMessage> found;
  {
    std::lock_guard lock(request_mutex_);
    if (!request_) {
      int error = 0;
      request_ = open_netlink_channel(error, 2000, NETLINK_ROUTE);
      if (!request_) return kernel_error({error == 0 ? EIO : error, "opening an rtnetlink socket"});
    }
    const uint32_t seq = ++seq_;
    const auto request = build_getlink_request(seq, netdev);
    out.bytes += request.size();
    const auto take = [&](std::span<const uint8_t> bytes) -> std::variant<bool, Error> {
      out.bytes += bytes.size();
      auto r = parse_link_messages(bytes, seq);
      if (auto* e = std::get_if<Error>(&r)) return *e;
      auto& got = std::get<LinkMessages>(r);
      for (LinkMessage& m : got.links) {
        if (m.ifname == netdev) found = std::move(m);
      }
      return got.done;
    };
    bool broken = false;
    auto e = exchange_on(*request_, request, take, broken);
    if (broken) request_.reset();
    if (e) {
      e->message = "rtnetlink RTM_GETLINK " + netdev + ": " + e->message;
      return *e;
    }
  }
  if (!found || !found->carrier) {
    return Error{ErrorKind::Unsupported, "rtnetlink: the kernel gave no carrier for " + netdev};
  }
  out.carrier.link = netdev;
  out.carrier.up = *found->carrier;
  out.down_count = found->down_count;
  std::lock_guard lock(mutex_);
  if (events_fd_ < 0) return out;
  if (!timeline_.view(netdev)) {
    const Stamp at = stamp_now();
    timeline_.on_state(netdev, *found->carrier, found->down_count, at.mono, at.unix_s);
  }
  if (const auto v = timeline_.view(netdev)) {
    out.carrier.last_down_seconds = v->last_down_seconds;
    out.carrier.last_down_unix = v->last_down_unix;
  }
  return out;
}

}  // namespace xcvr::netlink
