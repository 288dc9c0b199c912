#include "drivers/netlink/netdev_watch.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <utility>

#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/transport.hpp"

namespace xcvr::netlink {

NetdevWatch::NetdevWatch(std::string sysfs_net) : sysfs_net_(std::move(sysfs_net)) {
  int error = 0;
  fd_ = open_link_notifications(error);
  if (fd_ < 0) error_ = "rtnetlink link notifications: " + drivers::errno_text(error);
  known_ = physical_netdevs(sysfs_net_);
}

NetdevWatch::~NetdevWatch() {
  if (fd_ >= 0) ::close(fd_);
}

bool NetdevWatch::drain() {
  bool any = false;
  std::array<char, 8192> buf;
  for (;;) {
    const ssize_t n = ::recv(fd_, buf.data(), buf.size(), MSG_DONTWAIT);
    if (n > 0) {
      any = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // ENOBUFS: notifications were dropped (a burst) — look again all the same.
    if (n < 0 && errno == ENOBUFS) {
      any = true;
      continue;
    }
    return any;  // EAGAIN: nothing more pending
  }
}

bool NetdevWatch::changed(double now) {
  if (fd_ < 0 || drain()) settle_until_ = now + kSettleSeconds;
  if (fd_ >= 0 && now > settle_until_) return false;
  std::vector<std::string> current = physical_netdevs(sysfs_net_);
  if (current == known_) return false;
  known_ = std::move(current);
  return true;
}

std::string NetdevWatch::seen() const {
  std::string names;
  for (const std::string& n : known_) names += (names.empty() ? "" : ", ") + n;
  return "physical netdevs now: " + (names.empty() ? std::string("none") : names);
}

}  // namespace xcvr::netlink
