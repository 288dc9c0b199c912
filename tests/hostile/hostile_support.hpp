// Helpers for the hostile-input suite: clients bound to a chosen loopback source address,
// response reading, and this process's resident set size.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>

#include "tests/e2e/http_test_support.hpp"

namespace xcvr::testing {

// A TCP connection to 127.0.0.1:port from `source` (any 127.x.y.z); -1 on failure.
// `receive_buffer` > 0: that SO_RCVBUF, set before connecting (a small window: a client that does
// not read then stalls the sender within a few KiB).
inline int connect_from(int port, const std::string& source, int receive_buffer = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (receive_buffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads one response with a Content-Length body (or until close / timeout).
inline std::string read_response(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    const auto end = out.find("\r\n\r\n");
    if (end != std::string::npos) {
      const auto p = out.find("\r\nContent-Length: ");
      if (p != std::string::npos && p < end) {
        const std::size_t n = std::stoul(out.substr(p + 18));
        if (out.size() >= end + 4 + n) return out;
      }
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

// VmRSS of this process in KiB (the server under test runs in it).
inline long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

}  // namespace xcvr::testing
