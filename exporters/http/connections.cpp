#include "exporters/http/connections.hpp"

#include <openssl/err.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace xcvr::exporters::detail {

using Clock = std::chrono::steady_clock;

namespace {

struct SslFree {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

// The client has closed its end (EOF or an error pending): the connection only waits to be reaped.
bool peer_closed(int fd) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  if ((p.revents & (POLLHUP | POLLERR)) != 0) return true;
  char byte = 0;
  return (p.revents & POLLIN) != 0 && ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

}  // namespace

struct ConnectionReactor::Conn {
  enum class State { Handshake, Reading, Lingering };
  enum class Where { Reactor, Worker, Closed };
  int fd = -1;
  std::unique_ptr<SSL, SslFree> ssl;
  GuardedServer* server = nullptr;
  std::string source;
  State state = State::Reading;
  Where where = Where::Reactor;
  std::string in;          // received, not yet served (a partial head, or pipelined requests)
  bool started = false;    // bytes of the current request have arrived
  bool eof = false;        // the client closed (or the connection failed)
  bool want_write = false; // TLS needs POLLOUT to go on
  bool recheck = false;    // handed back with buffered bytes: frame them before polling
  bool admitted = true;    // false: arrived while its address held its share (see admit())
  bool answering = false;  // at a worker, counted in answering_ until the reactor has it back
  bool deferred = false;   // a complete request waits for its address's share of workers
  SSL_CTX* tls = nullptr;  // handshake first (not owned)
  Clock::time_point since = Clock::now();
  Clock::time_point deadline;
  std::size_t served = 0;
};

ConnectionReactor::ConnectionReactor(const TransportLimits& limits, WorkerPool& pool,
                                     const std::atomic<bool>& stopping)
    : limits_(limits), framing_(framing_limits(limits)), pool_(pool), stopping_(stopping) {
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  thread_ = std::thread([this] { run(); });
}

ConnectionReactor::~ConnectionReactor() {
  stop();
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void ConnectionReactor::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void ConnectionReactor::adopt(int fd, GuardedServer* server, SSL_CTX* tls) {
  auto c = std::make_shared<Conn>();
  c->fd = fd;
  c->server = server;
  c->tls = tls;
  int port = 0;
  address_of(fd, true, c->source, port);
  c->deadline = c->since + limits_.request_timeout;  // handshake and first head together
  {
    std::lock_guard lock(mutex_);
    if (stopped_) {
      ::close(fd);
      return;
    }
    std::size_t& mine = per_source_[c->source];
    // At its share: the reactor decides, after reaping connections that client already closed
    // (a scraper reconnecting right after a burst of its own must not be refused for ghosts).
    c->admitted = mine < std::max<std::size_t>(1, limits_.max_connections_per_source);
    if (c->admitted) {
      ++mine;
      ++stats_.open;
    } else if (mine == 0) {
      per_source_.erase(c->source);
    }
  }
  if (c->admitted && !start_tls(*c)) return;
  {
    std::lock_guard lock(mutex_);
    incoming_.push_back(std::move(c));
  }
  wake();
}

bool ConnectionReactor::start_tls(Conn& c) {
  if (c.tls == nullptr) return true;
  c.ssl.reset(SSL_new(c.tls));
  if (!c.ssl || SSL_set_fd(c.ssl.get(), c.fd) != 1) {
    close_conn(c);
    return false;
  }
  SSL_set_accept_state(c.ssl.get());
  c.state = Conn::State::Handshake;
  return true;
}

bool ConnectionReactor::admit(Conn& c) {
  for (const auto& other : conns_) {
    if (other->where == Conn::Where::Reactor && other->source == c.source && peer_closed(other->fd)) {
      close_conn(*other);
    }
  }
  {
    std::lock_guard lock(mutex_);
    std::size_t& mine = per_source_[c.source];
    if (mine >= std::max<std::size_t>(1, limits_.max_connections_per_source)) {
      ++stats_.refused;
      ::close(c.fd);
      c.fd = -1;
      c.where = Conn::Where::Closed;
      return false;
    }
    ++mine;
    ++stats_.open;
    c.admitted = true;
  }
  return start_tls(c);
}

void ConnectionReactor::close_conn(Conn& c) {
  if (c.fd < 0) return;
  c.ssl.reset();
  ::close(c.fd);
  c.fd = -1;
  c.where = Conn::Where::Closed;
  if (!c.admitted) return;  // never counted
  std::lock_guard lock(mutex_);
  --stats_.open;
  if (auto it = per_source_.find(c.source); it != per_source_.end() && --it->second == 0) {
    per_source_.erase(it);
  }
}

// After a final response or an error answer: send close_notify / FIN, then read and drop what
// the client still sends until it closes or `linger` passes. Closing with unread input would
// make the kernel send RST, which can destroy the response before the client reads it.
void ConnectionReactor::begin_linger(Conn& c) {
  if (c.ssl && c.state != Conn::State::Handshake) {
    ERR_clear_error();
    SSL_shutdown(c.ssl.get());
  }
  ::shutdown(c.fd, SHUT_WR);
  c.state = Conn::State::Lingering;
  c.in.clear();
  c.want_write = false;
  c.deadline = Clock::now() + limits_.linger;
}

void ConnectionReactor::step(const ConnPtr& c) {
  if (c->state == Conn::State::Handshake) {
    ERR_clear_error();
    const int r = SSL_accept(c->ssl.get());
    if (r != 1) {
      const int err = SSL_get_error(c->ssl.get(), r);
      if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
        c->want_write = err == SSL_ERROR_WANT_WRITE;
        return;
      }
      ERR_clear_error();
      close_conn(*c);  // not TLS (e.g. plain HTTP), or a bad handshake
      return;
    }
    c->state = Conn::State::Reading;
  }
  c->want_write = false;
  // Read what is there, never more than one request's budget (the framer decides at that size).
  std::array<char, 16384> buf{};
  const bool linger = c->state == Conn::State::Lingering;
  while (!c->eof && (linger || c->in.size() < framing_.max_request_bytes)) {
    const std::size_t want = linger ? buf.size() : std::min(buf.size(), framing_.max_request_bytes - c->in.size());
    ssize_t r = 0;
    if (c->ssl && !linger) {
      ERR_clear_error();
      r = SSL_read(c->ssl.get(), buf.data(), static_cast<int>(want));
      if (r <= 0) {
        const int err = SSL_get_error(c->ssl.get(), static_cast<int>(r));
        if (err == SSL_ERROR_WANT_READ) break;
        if (err == SSL_ERROR_WANT_WRITE) {
          c->want_write = true;
          break;
        }
        c->eof = true;
        break;
      }
    } else {
      r = ::recv(c->fd, buf.data(), want, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (r <= 0) {
        c->eof = true;
        break;
      }
    }
    if (!linger) c->in.append(buf.data(), static_cast<std::size_t>(r));
  }
  if (linger) {
    if (c->eof) close_conn(*c);
    return;
  }
  advance(c);
}

void ConnectionReactor::advance(const ConnPtr& c) {
  if (c->in.empty()) {
    if (c->eof) close_conn(*c);
    return;
  }
  if (!c->started) {
    c->started = true;
    if (c->served > 0) c->deadline = Clock::now() + limits_.request_timeout;
  }
  Framed f = frame_request(c->in, framing_);
  if (f.kind == Framed::Kind::Incomplete) {
    if (c->eof) close_conn(*c);
    return;
  }
  if (f.kind == Framed::Kind::Error) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.framing_errors;
    }
    // Best effort, without waiting: the answer is small and the socket buffer empty.
    const std::string reply = error_response(f.status);
    if (c->ssl) {
      ERR_clear_error();
      SSL_write(c->ssl.get(), reply.data(), static_cast<int>(reply.size()));
    } else {
      [[maybe_unused]] const ssize_t n = ::send(c->fd, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    begin_linger(*c);
    return;
  }
  std::size_t& answering = answering_[c->source];
  if (answering >= std::max<std::size_t>(1, limits_.max_answering_per_source)) {
    if (!c->deferred) {
      c->deferred = true;
      // Its head arrived in time: it waits for its turn however long its address's answers take
      // (the admission caps bound how many wait).
      c->deadline = Clock::time_point::max();
      std::lock_guard lock(mutex_);
      ++stats_.deferred;
    }
    return;  // answered() goes on with it
  }
  ++answering;
  c->deferred = false;
  c->answering = true;
  c->where = Conn::Where::Worker;
  std::erase(conns_, c);  // a worker owns it now; give_back() returns it
  pool_.submit([this, c, request = std::move(f)] { work(c, request); });
}

void ConnectionReactor::answered(const Conn& c) {
  if (auto it = answering_.find(c.source); it != answering_.end() && --it->second == 0) answering_.erase(it);
  for (const ConnPtr& waiting : conns_) {
    if (waiting->deferred && waiting->where == Conn::Where::Reactor && waiting->source == c.source) {
      const ConnPtr next = waiting;  // advance() takes it out of conns_
      advance(next);                 // dispatched (its request is complete): the share is full again
      return;
    }
  }
}

// On a worker: answer the request, then hand the connection back for the next one (or to close).
void ConnectionReactor::work(const ConnPtr& c, const Framed& request) {
  const bool last = stopping_.load() || ++c->served >= std::max<std::size_t>(1, limits_.keep_alive_max_requests);
  const bool keep = !stopping_.load() && c->server->serve_framed(c->fd, c->ssl.get(), request, last);
  c->in.erase(0, request.consumed);
  if (keep) {
    c->started = false;
    c->deadline = Clock::now() + limits_.keep_alive_timeout;
    c->recheck = !c->in.empty();
  } else {
    begin_linger(*c);
  }
  give_back(c);
}

void ConnectionReactor::give_back(const ConnPtr& c) {
  {
    std::lock_guard lock(mutex_);
    if (!stopped_) {
      c->where = Conn::Where::Reactor;
      incoming_.push_back(c);
      wake();
      return;
    }
  }
  close_conn(*c);
}

void ConnectionReactor::evict_over_cap() {
  const std::size_t cap = std::max<std::size_t>(1, limits_.max_connections);
  for (;;) {
    std::map<std::string, std::size_t> counts;
    {
      std::lock_guard lock(mutex_);
      if (stats_.open <= cap) return;
      counts = per_source_;
    }
    // The victim comes from the address holding the most connections (a flood, not the lone
    // scraper); within it: lingering, idle between requests, mid-handshake, mid-head; oldest first.
    auto rank = [](const Conn& c) {
      if (c.state == Conn::State::Lingering) return 0;
      if (c.state == Conn::State::Reading && !c.started) return 1;
      if (c.state == Conn::State::Handshake) return 2;
      return 3;
    };
    auto better = [&](const Conn& a, const Conn& b) {  // a is the better victim
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      return a.since < b.since;
    };
    std::size_t most = 0;
    for (const auto& [source, n] : counts) most = std::max(most, n);
    ConnPtr victim;
    for (const auto& c : conns_) {
      if (c->where == Conn::Where::Reactor && counts[c->source] == most && (!victim || better(*c, *victim))) {
        victim = c;
      }
    }
    // Only the heaviest address pays; if all of its connections are being answered, the cap
    // is exceeded until they come back (soon), rather than closing someone else's.
    if (!victim) return;
    close_conn(*victim);
    std::lock_guard lock(mutex_);
    ++stats_.evicted;
  }
}

void ConnectionReactor::run() {
  std::vector<pollfd> fds;
  std::vector<ConnPtr> polled;
  for (;;) {
    std::vector<ConnPtr> arrived;
    {
      std::lock_guard lock(mutex_);
      if (stopped_) break;
      arrived.swap(incoming_);
    }
    for (auto& c : arrived) {
      if (c->answering) {  // back from a worker (open or closed)
        c->answering = false;
        answered(*c);
      }
      if (c->fd < 0 || (!c->admitted && !admit(*c))) continue;
      conns_.push_back(c);
      if (c->recheck) {
        c->recheck = false;
        advance(c);
      }
    }
    evict_over_cap();

    const auto now = Clock::now();
    auto next = now + Millis(200);
    fds.assign(1, pollfd{wake_fd_, POLLIN, 0});
    polled.clear();
    for (const auto& c : conns_) {
      if (c->where != Conn::Where::Reactor) continue;
      if (now >= c->deadline) {
        if (c->state != Conn::State::Lingering) {
          std::lock_guard lock(mutex_);
          ++stats_.timed_out;
        }
        close_conn(*c);
        continue;
      }
      next = std::min(next, c->deadline);
      if (c->deferred) continue;  // read nothing more until it is answered (no spin on a full buffer)
      fds.push_back(pollfd{c->fd, static_cast<short>(c->want_write ? POLLOUT : POLLIN), 0});
      polled.push_back(c);
    }
    const auto wait = std::chrono::duration_cast<Millis>(next - now).count() + 1;
    const int r = ::poll(fds.data(), fds.size(), static_cast<int>(wait));
    if (r > 0) {
      if (fds[0].revents != 0) {
        uint64_t drained = 0;
        [[maybe_unused]] const ssize_t n = ::read(wake_fd_, &drained, sizeof drained);
      }
      for (std::size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents != 0 && polled[i - 1]->where == Conn::Where::Reactor) step(polled[i - 1]);
      }
    }
    std::erase_if(conns_, [](const ConnPtr& c) { return c->where == Conn::Where::Closed; });
  }
  for (auto& c : conns_) {
    if (c->where == Conn::Where::Reactor) close_conn(*c);
  }
  conns_.clear();
  std::vector<ConnPtr> left;
  {
    std::lock_guard lock(mutex_);
    left.swap(incoming_);
  }
  for (auto& c : left) close_conn(*c);
}

void ConnectionReactor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
}

ConnectionStats ConnectionReactor::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace xcvr::exporters::detail
