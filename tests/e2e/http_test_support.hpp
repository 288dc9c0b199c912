// Helpers for exporter HTTP tests: a server over a SnapshotStore on an ephemeral loopback port,
// raw-socket clients for malformed and slow requests, and a shell runner.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "exporters/http/server.hpp"
#include "tests/e2e/synthetic_fleet.hpp"
#include "tests/support/run_command.hpp"

namespace xcvr::testing {

// A started HttpServer on 127.0.0.1:<ephemeral> serving `snapshot`.
struct TestServer {
  explicit TestServer(exporters::WebConfig config, daemon::Snapshot snapshot = make_rich_snapshot()) {
    if (config.listen_addresses == std::vector<std::string>{":10458"}) {
      config.listen_addresses = {"127.0.0.1:0"};
    }
    store.publish(std::make_shared<const daemon::Snapshot>(std::move(snapshot)));
    server = std::make_unique<exporters::HttpServer>(std::move(config), store);
    server->start();
    port = server->ports().at(0);
  }
  daemon::SnapshotStore store;
  std::unique_ptr<exporters::HttpServer> server;
  int port = 0;
};

// A TCP connection to 127.0.0.1:port; -1 on failure.
inline int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, const std::string& data) {
  std::size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads until the peer closes or `timeout` passes.
inline std::string read_until_close(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::array<char, 4096> buf{};
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
    if (n <= 0) break;
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  return out;
}

// Sends `request` on a fresh connection and returns everything the server sent back.
inline std::string raw_exchange(int port, const std::string& request,
                                std::chrono::milliseconds timeout = std::chrono::milliseconds(3000)) {
  const int fd = connect_loopback(port);
  if (fd < 0) return "";
  send_all(fd, request);
  std::string reply = read_until_close(fd, timeout);
  ::close(fd);
  return reply;
}

struct ShellResult {
  int status = -1;  // exit code, or -1 if the shell could not run
  std::string output;
};

inline ShellResult run_shell(const std::string& command) {  // stdout and stderr together
  test::CommandResult r = test::run_command(command + " 2>&1");
  return {r.code, std::move(r.out)};
}

inline bool have_command(const std::string& name) {
  return run_shell("command -v " + name).status == 0;
}

}  // namespace xcvr::testing
