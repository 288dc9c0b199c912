#include "drivers/netlink/netlink_channel.hpp"

#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>

#include <libmnl/libmnl.h>

#include "drivers/netlink/netlink_reply.hpp"

namespace xcvr::netlink {
namespace {

using drivers::Error;
using drivers::ErrorKind;

class MnlChannel final : public NetlinkChannel {
 public:
  explicit MnlChannel(mnl_socket* nl) : nl_(nl) {}
  ~MnlChannel() override { mnl_socket_close(nl_); }
  int send(std::span<const uint8_t> message) override {
    const ssize_t n = mnl_socket_sendto(nl_, message.data(), message.size());
    return n < 0 ? -errno : static_cast<int>(n);
  }
  int recv(std::span<uint8_t> buffer) override {
    ssize_t n;
    do {
      n = mnl_socket_recvfrom(nl_, buffer.data(), buffer.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EWOULDBLOCK ? -EAGAIN : -errno;
    return static_cast<int>(n);
  }

 private:
  mnl_socket* nl_;
};

}  // namespace

std::unique_ptr<NetlinkChannel> open_netlink_channel(int& error, int recv_timeout_ms, int protocol) {
  mnl_socket* nl = mnl_socket_open(protocol);
  if (nl == nullptr) {
    error = errno;
    return nullptr;
  }
  if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
    error = errno;
    mnl_socket_close(nl);
    return nullptr;
  }
  int one = 1;
  // Extended ACK: the kernel's reason in NLMSGERR_ATTR_MSG; capped: errors do not echo the
  // whole request back. Both are optional (older kernels): failures are ignored.
  mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof one);
  mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof one);
  timeval tv{recv_timeout_ms / 1000, (recv_timeout_ms % 1000) * 1000};
  setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  error = 0;
  return std::make_unique<MnlChannel>(nl);
}

std::optional<Error> exchange_on(NetlinkChannel& channel, const std::vector<uint8_t>& request, const TakeReply& take,
                                 bool& broken) {
  broken = false;
  if (const int n = channel.send(request); n < 0) {
    broken = true;
    return kernel_error({-n, "sending the request"});
  }
  std::vector<uint8_t> buf(MNL_SOCKET_BUFFER_SIZE);
  // A reply (data) message and then the ACK, or an error; each is its own datagram.
  for (int datagrams = 0; datagrams < 16; ++datagrams) {
    const int n = channel.recv(buf);
    if (n < 0) {
      if (n == -EAGAIN) return Error{ErrorKind::Timeout, "no netlink reply (timeout)"};
      broken = true;
      return kernel_error({-n, "receiving the reply"});
    }
    auto r = take(std::span<const uint8_t>(buf.data(), static_cast<std::size_t>(n)));
    if (auto* e = std::get_if<Error>(&r)) return *e;
    if (std::get<bool>(r)) return std::nullopt;
  }
  return Error{ErrorKind::Corrupt, "netlink exchange did not end"};
}

int open_link_notifications(int& error) {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
  sockaddr_nl addr{};
  addr.nl_family = AF_NETLINK;
  addr.nl_groups = RTMGRP_LINK;
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) < 0) {
    error = errno;
    if (fd >= 0) ::close(fd);
    return -1;
  }
  error = 0;
  return fd;
}

}  // namespace xcvr::netlink
