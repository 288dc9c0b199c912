// The connection reactor (internal to exporters/http/): one poll() thread that owns every accepted
// connection while it is not being answered. It does the TLS handshake, reads and frames
// request heads against deadlines (request_timeout from accept or first byte, keep-alive idle
// time between requests), answers framing errors itself, and hands only complete requests to
// the WorkerPool. So an idle, slowloris or stalled-TLS client costs one fd and a small buffer,
// never a worker. Admission: at most max_connections_per_source from one address (beyond:
// closed, once that address's connections its client already closed are reaped) and
// max_connections in all (beyond: a connection that is not being answered is closed, taken from
// the address that holds the most; done or idle ones first). Workers: at most
// max_answering_per_source requests of one address at once; its next complete request is
// deferred (not polled; its head came in time, so no deadline) until one of its answers ends.
#pragma once

#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exporters/http/connection_stats.hpp"
#include "exporters/http/transport.hpp"

namespace xcvr::exporters::detail {

class ConnectionReactor final : public SocketTaker {
 public:
  ConnectionReactor(const TransportLimits& limits, WorkerPool& pool, const std::atomic<bool>& stopping);
  ~ConnectionReactor();  // stop()
  ConnectionReactor(const ConnectionReactor&) = delete;
  ConnectionReactor& operator=(const ConnectionReactor&) = delete;

  // Takes a non-blocking accepted socket (any thread). tls: handshake first (not owned).
  void adopt(int fd, GuardedServer* server, SSL_CTX* tls) override;

  // Closes every connection it holds and joins its thread; connections that workers hand back
  // afterwards are closed at once. Idempotent.
  void stop();

  ConnectionStats stats() const;

 private:
  struct Conn;
  using ConnPtr = std::shared_ptr<Conn>;

  void run();
  void step(const ConnPtr& c);
  void advance(const ConnPtr& c);
  void work(const ConnPtr& c, const Framed& request);
  void give_back(const ConnPtr& c);
  void answered(const Conn& c);  // reactor thread: c's answer ended; a deferred one of its address goes on
  void begin_linger(Conn& c);
  void close_conn(Conn& c);
  bool start_tls(Conn& c);  // false: failed, closed
  bool admit(Conn& c);      // over its address's share: reap, then take it or refuse it
  void evict_over_cap();
  void wake();

  const TransportLimits& limits_;
  const FramingLimits framing_;
  WorkerPool& pool_;
  const std::atomic<bool>& stopping_;

  mutable std::mutex mutex_;                  // guards everything below but conns_
  std::vector<ConnPtr> incoming_;             // adopted or handed back, not yet polled
  std::map<std::string, std::size_t> per_source_;
  ConnectionStats stats_;
  bool stopped_ = false;

  std::vector<ConnPtr> conns_;  // reactor thread only
  std::map<std::string, std::size_t> answering_;  // reactor thread only: per address, at a worker
  int wake_fd_ = -1;
  std::thread thread_;
};

}  // namespace xcvr::exporters::detail
