// Connection handling under cpp-httplib's request parser (internal to exporters/http/).
//
// cpp-httplib 0.11 runs one thread per connection from the moment it is accepted, so idle,
// slowloris and stalled-TLS clients each hold a worker. Here httplib only accepts: every socket
// goes to the ConnectionReactor (connections.hpp), one poll() thread that does the TLS
// handshake, reads request heads against deadlines and frames them (framing.hpp). Only a
// complete request reaches a WorkerPool thread, which runs httplib's process_request on a
// ConnStream holding exactly that request and writes the response; the connection then goes
// back to the reactor to wait for the next request. Workers are thus busy only while a handler
// runs or a response is written.
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

#include "exporters/http/framing.hpp"

namespace xcvr::exporters::detail {

using Millis = std::chrono::milliseconds;

struct TransportLimits {
  std::size_t max_request_bytes = 16 * 1024;  // request line + headers + body
  Millis request_timeout{3000};               // TLS handshake + whole request head must arrive
  Millis write_timeout{10000};                // longest stall while the client reads
  Millis response_timeout{60000};             // a whole response, however it trickles out
  Millis keep_alive_timeout{5000};            // idle time between requests
  Millis linger{1000};                        // after a final response: drain, then close
  std::size_t keep_alive_max_requests = 100;
  std::size_t max_connections = 256;          // open at once (idle ones are evicted first)
  std::size_t max_connections_per_source = 128;  // per client address; beyond: refused
  // Requests of one client address answered at once; its further complete requests wait in
  // the reactor (never a worker) until one of its answers ends. So clients that never read
  // their responses hold this many workers for write_timeout, not all of them.
  std::size_t max_answering_per_source = 2;
};

class GuardedServer;

// Where GuardedServer hands each accepted socket: the ConnectionReactor (connections.hpp), which
// builds on this file (not the other way round).
class SocketTaker {
 public:
  // Takes a non-blocking accepted socket (any thread). tls: handshake first (not owned).
  virtual void adopt(int fd, GuardedServer* server, SSL_CTX* tls) = 0;

 protected:
  ~SocketTaker() = default;
};

FramingLimits framing_limits(const TransportLimits& limits);

// The numeric address and port of a socket's peer (peer) or its own end; unchanged on failure.
void address_of(int fd, bool peer, std::string& ip, int& port);

// Facts about the request the calling thread is serving (nullptr outside a request): what the
// framer kept from httplib (Range, keep-alive), for the response side in server.cpp.
const RequestFacts* current_request_facts();

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_connections);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues a job (a framed request); blocks while max_connections are queued or running.
  void submit(std::function<void()> job);
  void shutdown();  // runs what is queued, then joins the workers

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable work_cv_, space_cv_;
  std::deque<std::function<void()>> jobs_;
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

class GuardedServer : public httplib::Server {
 public:
  // reactor == nullptr: an offline server that only answers serve_buffer().
  GuardedServer(const TransportLimits& limits, SocketTaker* reactor, SSL_CTX* tls,
                const std::atomic<bool>& stopping);

  // One plain-HTTP connection whose client sent `input` and then closed, served without a socket
  // by the same framer, limits, parser and handlers as a real one (tests and fuzzing).
  // Returns every byte the server would have sent.
  std::string serve_buffer(std::string_view input);

  // Serves one framed request on a connection (fd, ssl) or into `output` (fd < 0); `last`: no
  // further request will be read. True if the connection may carry another request.
  bool serve_framed(int fd, SSL* ssl, const Framed& request, bool last, std::string* output = nullptr);

  // httplib listens with a backlog of 5: a burst of connections (a flood) would then drop SYNs
  // and delay a scraper's connect by the 1 s SYN retry. Call after binding.
  void widen_backlog();

 private:
  bool process_and_close_socket(socket_t sock) override;  // hands the socket to the reactor

  const TransportLimits& limits_;
  SocketTaker* reactor_;
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
