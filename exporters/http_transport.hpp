// Connection handling under cpp-httplib's request parser (internal to exporters/).
//
// cpp-httplib 0.11 bounds a header line and the URI, but not the number of header lines, the
// total time a request may take to arrive, or the number of queued connections; its stock
// SSLServer also allows TLS 1.1. So each connection is served here instead: a GuardedServer
// overrides process_and_close_socket(), does the TLS handshake itself (our SSL_CTX), and hands
// httplib a ConnStream that refuses a request once it exceeds max_request_bytes or
// request_timeout. Workers come from one WorkerPool shared by all listeners; when it is full
// the accept loop waits (the kernel backlog absorbs bursts) and idle keep-alive connections are
// closed so queued scrapes get a worker.
#pragma once

#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>

namespace xcvr::exporters::detail {

using Millis = std::chrono::milliseconds;

struct TransportLimits {
  std::size_t max_request_bytes = 16 * 1024;  // request line + headers + body
  Millis read_timeout{5000};                  // longest silence while a request arrives
  Millis request_timeout{10000};              // whole request (and TLS handshake) must arrive
  Millis write_timeout{10000};                // longest stall while the client reads
  Millis keep_alive_timeout{5000};            // idle time between requests
  std::size_t keep_alive_max_requests = 100;
};

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_connections);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues a connection; blocks while max_connections are queued or being served.
  void submit(std::function<void()> job);
  bool has_waiting() const { return queued_.load() > 0; }
  void shutdown();  // runs what is queued, then joins the workers

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable work_cv_, space_cv_;
  std::deque<std::function<void()>> jobs_;
  std::atomic<std::size_t> queued_{0};
  std::size_t in_flight_ = 0;  // queued + running
  std::size_t max_in_flight_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
using SslCtxPtr = std::unique_ptr<SSL_CTX, SslCtxFree>;

// Server context from PEM files; min_version "TLS12" (default) or "TLS13". nullptr + error.
SslCtxPtr make_tls_context(const std::string& cert_file, const std::string& key_file,
                           const std::string& min_version, std::string& error);

class ConnStream;  // http_transport.cpp

class GuardedServer : public httplib::Server {
 public:
  // pool == nullptr: an offline server that only answers serve_buffer().
  GuardedServer(const TransportLimits& limits, WorkerPool* pool, SSL_CTX* tls,
                const std::atomic<bool>& stopping);

  // One plain-HTTP connection whose client sent `input` and then closed, served without a socket
  // by the same loop, limits, parser and handlers as a real one (tests and fuzzing).
  // Returns every byte the server would have sent.
  std::string serve_buffer(std::string_view input);

 private:
  bool process_and_close_socket(socket_t sock) override;
  bool serve(ConnStream& stream);
  bool wait_for_request(int fd, ConnStream& stream, bool first);

  const TransportLimits& limits_;
  WorkerPool* pool_;
  SSL_CTX* tls_;  // not owned; nullptr = plain HTTP
  const std::atomic<bool>& stopping_;
};

// "host:port", "[v6]:port" or ":port" (every IPv4 and IPv6 address).
struct ListenAddress {
  std::string host;  // "::" for ":port"
  int port = 0;      // 0 = any free port
  bool all_addresses = false;
};
std::optional<ListenAddress> parse_listen_address(std::string_view text, std::string& error);

}  // namespace xcvr::exporters::detail
