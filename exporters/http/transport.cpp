#include "exporters/http/transport.hpp"

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
  work_cv_.notify_one();
}

void WorkerPool::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping and drained
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
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
  // TLS 1.2: forward-secret AEAD suites only (no RSA key exchange, no CBC); TLS 1.3's are all so.
  SSL_CTX_set_cipher_list(ctx.get(), "ECDHE+AESGCM:ECDHE+CHACHA20");
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

thread_local const RequestFacts* t_facts = nullptr;

}  // namespace

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

namespace {

// httplib's view of one framed request: it reads exactly the head the framer produced (then
// EOF) and writes the response to the socket, the TLS session or, offline, a string.
class ConnStream : public httplib::Stream {
 public:
  ConnStream(int fd, SSL* ssl, std::string_view request, std::string* output,
             const TransportLimits& limits, const std::atomic<bool>& stopping)
      : fd_(fd), ssl_(ssl), limits_(limits), stopping_(stopping), input_(request), output_(output),
        response_deadline_(Clock::now() + limits.response_timeout) {}

  using httplib::Stream::write;

  // The response head said "Connection: close".
  bool said_close() const { return said_close_; }

  bool is_readable() const override { return !input_.empty(); }
  bool is_writable() const override {
    if (output_ != nullptr) return true;
    return wait_fd(fd_, POLLOUT, write_deadline(), stopping_);
  }

  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, input_.size());
    std::memcpy(ptr, input_.data(), n);
    input_.remove_prefix(n);
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    // httplib writes the status line and headers with one call: note what they promise.
    if (!head_seen_ && size >= 12 && std::memcmp(ptr, "HTTP/1.", 7) == 0) {
      head_seen_ = true;
      const std::string_view text(ptr, size);
      said_close_ = text.substr(0, text.find("\r\n\r\n")).find("\r\nConnection: close\r\n") !=
                    std::string_view::npos;
    }
    if (output_ != nullptr) {
      output_->append(ptr, size);
      return static_cast<ssize_t>(size);
    }
    const auto deadline = write_deadline();
    const int len = static_cast<int>(std::min<size_t>(size, INT_MAX));
    for (;;) {
      if (ssl_ != nullptr) {
        ERR_clear_error();
        const int r = SSL_write(ssl_, ptr, len);
        if (r > 0) return r;
        const int err = SSL_get_error(ssl_, r);
        const short events = err == SSL_ERROR_WANT_READ ? POLLIN : err == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
        if (events == 0 || !wait_fd(fd_, events, deadline, stopping_)) return -1;
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
  int fd_;
  SSL* ssl_;
  const TransportLimits& limits_;
  const std::atomic<bool>& stopping_;
  std::string_view input_;
  std::string* output_;
  Clock::time_point response_deadline_;
  // A write may stall write_timeout, and the whole response may take response_timeout: a client
  // that reads a byte now and then cannot keep a worker past it.
  Clock::time_point write_deadline() const { return std::min(Clock::now() + limits_.write_timeout, response_deadline_); }

  bool head_seen_ = false;
  bool said_close_ = false;
};

}  // namespace

const RequestFacts* current_request_facts() { return t_facts; }

FramingLimits framing_limits(const TransportLimits& l) {
  FramingLimits f;
  f.max_request_bytes = l.max_request_bytes;
  f.max_request_line = std::min(f.max_request_line, l.max_request_bytes);
  return f;
}

// ---- GuardedServer ----------------------------------------------------------------------

GuardedServer::GuardedServer(const TransportLimits& limits, SocketTaker* reactor, SSL_CTX* tls,
                             const std::atomic<bool>& stopping)
    : limits_(limits), reactor_(reactor), tls_(tls), stopping_(stopping) {
  // httplib's accept loop "queues" each socket; it goes straight to the reactor, so no
  // connection ever waits for (or holds) a worker before its request is complete.
  struct Inline : httplib::TaskQueue {
    void enqueue(std::function<void()> fn) override { fn(); }
    void shutdown() override {}
  };
  if (reactor_ != nullptr) new_task_queue = [] { return new Inline; };
  // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second daemon share the port.
  set_socket_options([](socket_t fd) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  set_keep_alive_max_count(std::max<std::size_t>(1, limits.keep_alive_max_requests));
  set_keep_alive_timeout(std::max<time_t>(1, static_cast<time_t>(limits.keep_alive_timeout.count() / 1000)));
  set_payload_max_length(limits.max_request_bytes);
}

bool GuardedServer::serve_framed(int fd, SSL* ssl, const Framed& request, bool last, std::string* output) {
  ConnStream stream(fd, ssl, request.head, output, limits_, stopping_);
  t_facts = &request.facts;
  bool closed = false;
  const bool ok = process_request(stream, last, closed, nullptr);
  t_facts = nullptr;
  return ok && !closed && !last && !stream.said_close() && request.facts.keep_alive;
}

std::string GuardedServer::serve_buffer(std::string_view input) {
  std::string output;
  // httplib stops writing a content provider's body (every body here) once svr_sock_ is
  // invalid, its "shutting down" test; an offline server has no listener, so a stand-in (never
  // an fd that is used) marks it as serving for the call.
  socket_t listener = INVALID_SOCKET;
  if (reactor_ == nullptr) listener = svr_sock_.exchange(INT_MAX);
  const FramingLimits framing = framing_limits(limits_);
  const std::size_t max_requests = std::max<std::size_t>(1, limits_.keep_alive_max_requests);
  for (std::size_t n = 0; n < max_requests; ++n) {
    const Framed f = frame_request(input, framing);
    if (f.kind == Framed::Kind::Error) output += error_response(f.status);
    if (f.kind != Framed::Kind::Ready) break;  // an error, or the client closed mid-request
    input.remove_prefix(f.consumed);
    if (!serve_framed(-1, nullptr, f, n + 1 == max_requests, &output)) break;
  }
  if (reactor_ == nullptr) svr_sock_ = listener;
  return output;
}

void GuardedServer::widen_backlog() {
  if (svr_sock_ != INVALID_SOCKET) ::listen(svr_sock_, SOMAXCONN);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  ::fcntl(sock, F_SETFD, FD_CLOEXEC);
  ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  if (reactor_ == nullptr || svr_sock_ == INVALID_SOCKET || stopping_.load()) {
    ::close(sock);
    return false;
  }
  reactor_->adopt(sock, this, tls_);
  return true;
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
