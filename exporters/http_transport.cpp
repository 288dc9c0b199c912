#include "exporters/http_transport.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

namespace xcvr::exporters::detail {

using Clock = std::chrono::steady_clock;

// ---- WorkerPool -------------------------------------------------------------------------

WorkerPool::WorkerPool(std::size_t threads, std::size_t max_connections)
    : max_in_flight_(std::max(max_connections, threads)) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, threads); ++i) {
    threads_.emplace_back([this] { run(); });
  }
}

WorkerPool::~WorkerPool() { shutdown(); }

void WorkerPool::submit(std::function<void()> job) {
  std::unique_lock lock(mutex_);
  space_cv_.wait(lock, [&] { return stopping_ || in_flight_ < max_in_flight_; });
  if (stopping_) {  // listener is going away: the job only closes its socket
    lock.unlock();
    job();
    return;
  }
  jobs_.push_back(std::move(job));
  ++in_flight_;
  ++queued_;
  work_cv_.notify_one();
}

void WorkerPool::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping and drained
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
    --queued_;
    lock.unlock();
    job();
    lock.lock();
    --in_flight_;
    space_cv_.notify_one();
  }
}

void WorkerPool::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  work_cv_.notify_all();
  space_cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

// ---- TLS context ------------------------------------------------------------------------

SslCtxPtr make_tls_context(const std::string& cert_file, const std::string& key_file,
                           const std::string& min_version, std::string& error) {
  int version = 0;
  if (min_version.empty() || min_version == "TLS12") version = TLS1_2_VERSION;
  else if (min_version == "TLS13") version = TLS1_3_VERSION;
  else {
    error = "unsupported TLS min_version \"" + min_version + "\" (use TLS12 or TLS13)";
    return nullptr;
  }
  SslCtxPtr ctx(SSL_CTX_new(TLS_server_method()));
  if (!ctx) {
    error = "cannot create TLS context";
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx.get(), version);
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                     SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  ERR_clear_error();
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), cert_file.c_str()) != 1) {
    error = "cannot load TLS certificate " + cert_file;
  } else if (SSL_CTX_use_PrivateKey_file(ctx.get(), key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot load TLS key " + key_file;
  } else if (SSL_CTX_check_private_key(ctx.get()) != 1) {
    error = "TLS key " + key_file + " does not match certificate " + cert_file;
  } else {
    return ctx;
  }
  if (const unsigned long e = ERR_get_error(); e != 0) {
    std::array<char, 256> buf{};
    ERR_error_string_n(e, buf.data(), buf.size());
    error += std::string(": ") + buf.data();
  }
  ERR_clear_error();
  return nullptr;
}

// ---- ConnStream -------------------------------------------------------------------------

namespace {

// Waits until `fd` is ready for `events`, the deadline passes, or the server stops. Polls in
// short slices so a stopping server is noticed quickly.
bool wait_fd(int fd, short events, Clock::time_point deadline, const std::atomic<bool>& stopping) {
  for (;;) {
    const auto now = Clock::now();
    if (now >= deadline || stopping.load()) return false;
    const auto left = std::chrono::duration_cast<Millis>(deadline - now).count() + 1;
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 200)));
    if (r > 0) return true;  // ready, or an error the next I/O call will report
    if (r < 0 && errno != EINTR) return false;
  }
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  const int r = peer ? ::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len)
                     : ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  if (r != 0) return;
  std::array<char, INET6_ADDRSTRLEN> buf{};
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &a->sin_addr, buf.data(), buf.size());
    port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &a->sin6_addr, buf.data(), buf.size());
    port = ntohs(a->sin6_port);
  }
  ip = buf.data();
}

}  // namespace

class ConnStream : public httplib::Stream {
 public:
  ConnStream(int fd, SSL* ssl, const TransportLimits& limits, const std::atomic<bool>& stopping)
      : fd_(fd), ssl_(ssl), limits_(limits), stopping_(stopping) {}
  // In memory: `input` is what the client sent before closing; responses go to `output`.
  ConnStream(std::string_view input, std::string& output, const TransportLimits& limits,
             const std::atomic<bool>& stopping)
      : fd_(-1), ssl_(nullptr), limits_(limits), stopping_(stopping), input_(input), output_(&output) {}

  using httplib::Stream::write;

  void begin_request() {
    request_bytes_ = 0;
    request_deadline_ = Clock::now() + limits_.request_timeout;
    status_ = 0;
  }
  // Status code of the response written for the current request (0 if none yet).
  int status() const { return status_; }
  bool has_pending() const { return off_ < len_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0); }
  bool in_memory() const { return output_ != nullptr; }

  bool is_readable() const override {
    if (has_pending()) return true;
    if (in_memory()) return !input_.empty();
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(limits_.read_timeout.count())) > 0;
  }
  bool is_writable() const override {
    if (in_memory()) return true;
    pollfd p{fd_, POLLOUT, 0};
    return ::poll(&p, 1, static_cast<int>(limits_.write_timeout.count())) > 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (off_ == len_) {
      if (request_bytes_ >= limits_.max_request_bytes) return -1;  // too large: refuse
      const ssize_t n = fill(std::min(Clock::now() + limits_.read_timeout, request_deadline_));
      if (n <= 0) return n;
    }
    const std::size_t n = std::min(size, len_ - off_);
    std::memcpy(ptr, buf_.data() + off_, n);
    off_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    // httplib writes the status line with one call; remember the code (see serve()).
    if (status_ == 0 && size >= 12 && std::memcmp(ptr, "HTTP/1.", 7) == 0) {
      status_ = (ptr[9] - '0') * 100 + (ptr[10] - '0') * 10 + (ptr[11] - '0');
    }
    if (in_memory()) {
      output_->append(ptr, size);
      return static_cast<ssize_t>(size);
    }
    const auto deadline = Clock::now() + limits_.write_timeout;
    const int len = static_cast<int>(std::min<size_t>(size, INT_MAX));
    for (;;) {
      if (ssl_ != nullptr) {
        ERR_clear_error();
        const int r = SSL_write(ssl_, ptr, len);
        if (r > 0) return r;
        if (!wait_ssl(SSL_get_error(ssl_, r), deadline)) return -1;
      } else {
        const ssize_t r = ::send(fd_, ptr, size, MSG_NOSIGNAL);
        if (r >= 0) return r;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
        if (!wait_fd(fd_, POLLOUT, deadline, stopping_)) return -1;
      }
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address_of(fd_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address_of(fd_, false, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  // One recv/SSL_read into the buffer, never past the request's byte budget.
  ssize_t fill(Clock::time_point deadline) {
    const std::size_t want = std::min(buf_.size(), limits_.max_request_bytes - request_bytes_);
    off_ = len_ = 0;
    if (in_memory()) {  // what a recv() of `want` bytes would return; 0 at the client's close
      len_ = std::min(want, input_.size());
      std::memcpy(buf_.data(), input_.data(), len_);
      input_.remove_prefix(len_);
      request_bytes_ += len_;
      return static_cast<ssize_t>(len_);
    }
    for (;;) {
      ssize_t r = 0;
      if (ssl_ != nullptr) {
        ERR_clear_error();
        r = SSL_read(ssl_, buf_.data(), static_cast<int>(want));
        if (r <= 0) {
          const int err = SSL_get_error(ssl_, static_cast<int>(r));
          if (err == SSL_ERROR_ZERO_RETURN) return 0;
          if (!wait_ssl(err, deadline)) return -1;
          continue;
        }
      } else {
        r = ::recv(fd_, buf_.data(), want, 0);
        if (r == 0) return 0;
        if (r < 0) {
          if (errno == EINTR) continue;
          if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
          if (!wait_fd(fd_, POLLIN, deadline, stopping_)) return -1;
          continue;
        }
      }
      len_ = static_cast<std::size_t>(r);
      request_bytes_ += len_;
      return r;
    }
  }

  bool wait_ssl(int err, Clock::time_point deadline) {
    if (err == SSL_ERROR_WANT_READ) return wait_fd(fd_, POLLIN, deadline, stopping_);
    if (err == SSL_ERROR_WANT_WRITE) return wait_fd(fd_, POLLOUT, deadline, stopping_);
    return false;
  }

  int fd_;
  SSL* ssl_;
  const TransportLimits& limits_;
  const std::atomic<bool>& stopping_;
  std::array<char, 4096> buf_{};
  std::size_t off_ = 0, len_ = 0;
  std::size_t request_bytes_ = 0;
  Clock::time_point request_deadline_ = Clock::now();
  int status_ = 0;
  std::string_view input_;          // in memory: bytes not yet "received"
  std::string* output_ = nullptr;   // in memory: bytes "sent"
};

// ---- GuardedServer ----------------------------------------------------------------------

GuardedServer::GuardedServer(const TransportLimits& limits, WorkerPool* pool, SSL_CTX* tls,
                             const std::atomic<bool>& stopping)
    : limits_(limits), pool_(pool), tls_(tls), stopping_(stopping) {
  struct PoolQueue : httplib::TaskQueue {
    explicit PoolQueue(WorkerPool& p) : pool(p) {}
    void enqueue(std::function<void()> fn) override { pool.submit(std::move(fn)); }
    void shutdown() override {}  // the pool outlives the listener; HttpServer shuts it down
    WorkerPool& pool;
  };
  if (pool_ != nullptr) new_task_queue = [this] { return new PoolQueue(*pool_); };
  // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second daemon share the port.
  set_socket_options([](socket_t fd) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  set_keep_alive_max_count(std::max<std::size_t>(1, limits.keep_alive_max_requests));
  set_keep_alive_timeout(std::max<time_t>(1, static_cast<time_t>(limits.keep_alive_timeout.count() / 1000)));
  set_payload_max_length(limits.max_request_bytes);
}

// Before the first request we wait as long as a request may take; between requests only the
// keep-alive time, and not at all while other connections wait for a worker.
bool GuardedServer::wait_for_request(int fd, ConnStream& stream, bool first) {
  if (stream.has_pending()) return true;
  if (stream.in_memory()) return stream.is_readable();
  const auto deadline = Clock::now() + (first ? limits_.request_timeout : limits_.keep_alive_timeout);
  while (Clock::now() < deadline) {
    if (stopping_.load() || svr_sock_ == INVALID_SOCKET) return false;
    if (!first && pool_ != nullptr && pool_->has_waiting()) return false;
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, 50);
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
  return false;
}

bool GuardedServer::serve(ConnStream& stream) {
  bool ok = false;
  const std::size_t max_requests = std::max<std::size_t>(1, limits_.keep_alive_max_requests);
  for (std::size_t n = 0; n < max_requests; ++n) {
    if (!wait_for_request(stream.socket(), stream, n == 0)) break;
    stream.begin_request();
    bool closed = false;
    ok = process_request(stream, n + 1 == max_requests, closed, nullptr);
    // After an error response the rest of the stream cannot be trusted (an unread body, a
    // request cut at the size limit): close instead of parsing on.
    if (!ok || closed || stream.status() >= 400) break;
  }
  return ok;
}

namespace {

struct SslFree {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

std::unique_ptr<SSL, SslFree> tls_accept(SSL_CTX* ctx, int fd, Clock::time_point deadline,
                                         const std::atomic<bool>& stopping) {
  std::unique_ptr<SSL, SslFree> ssl(SSL_new(ctx));
  if (!ssl || SSL_set_fd(ssl.get(), fd) != 1) return nullptr;
  for (;;) {
    ERR_clear_error();
    const int r = SSL_accept(ssl.get());
    if (r == 1) return ssl;
    const int err = SSL_get_error(ssl.get(), r);
    const short events = err == SSL_ERROR_WANT_READ ? POLLIN : err == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
    if (events == 0 || !wait_fd(fd, events, deadline, stopping)) {
      ERR_clear_error();
      return nullptr;  // not TLS (e.g. plain HTTP), bad handshake, or too slow
    }
  }
}

}  // namespace

std::string GuardedServer::serve_buffer(std::string_view input) {
  std::string output;
  ConnStream stream(input, output, limits_, stopping_);
  // httplib stops writing a content provider's body (/metrics) once svr_sock_ is invalid, its
  // "shutting down" test; an offline server has no listener, so a stand-in (never an fd that
  // is used) marks it as serving for the call.
  socket_t listener = INVALID_SOCKET;
  if (pool_ == nullptr) listener = svr_sock_.exchange(INT_MAX);
  serve(stream);
  if (pool_ == nullptr) svr_sock_ = listener;
  return output;
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  ::fcntl(sock, F_SETFD, FD_CLOEXEC);
  ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  bool ok = false;
  if (svr_sock_ != INVALID_SOCKET && !stopping_.load()) {
    if (tls_ != nullptr) {
      auto ssl = tls_accept(tls_, sock, Clock::now() + limits_.request_timeout, stopping_);
      if (ssl) {
        ConnStream stream(sock, ssl.get(), limits_, stopping_);
        ok = serve(stream);
        if (ok) SSL_shutdown(ssl.get());  // best effort close_notify; never wait for the peer's
      }
    } else {
      ConnStream stream(sock, nullptr, limits_, stopping_);
      ok = serve(stream);
    }
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

// ---- listen addresses -------------------------------------------------------------------

std::optional<ListenAddress> parse_listen_address(std::string_view text, std::string& error) {
  ListenAddress out;
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find("]:");
    if (close == std::string_view::npos) {
      error = "listen address \"" + std::string(text) + "\": expected [ipv6]:port";
      return std::nullopt;
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.substr(0, colon).find(':') != std::string_view::npos) {
      error = "listen address \"" + std::string(text) + "\": expected host:port, [ipv6]:port or :port";
      return std::nullopt;
    }
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  const bool digits = !port.empty() && port.size() <= 5 &&
                      std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoi(std::string(port)) > 65535) {
    error = "listen address \"" + std::string(text) + "\": bad port";
    return std::nullopt;
  }
  out.port = std::stoi(std::string(port));
  out.all_addresses = host.empty();
  out.host = host.empty() ? "::" : std::string(host);
  return out;
}

}  // namespace xcvr::exporters::detail
