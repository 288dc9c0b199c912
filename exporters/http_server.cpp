#include "exporters/http_server.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "exporters/api_json.hpp"
#include "exporters/basic_auth.hpp"
#include "exporters/gzip.hpp"
#include "exporters/http_transport.hpp"
#include "exporters/landing_page.hpp"
#include "exporters/metrics.hpp"

#ifndef XCVR_VERSION
#define XCVR_VERSION "unknown"
#endif

namespace xcvr::exporters {

namespace {

using httplib::Request;
using httplib::Response;
using Routed = httplib::Server::HandlerResponse;

constexpr const char* kHtml = "text/html; charset=utf-8";
constexpr const char* kJson = "application/json";

// Invalid UTF-8 from a module becomes U+FFFD instead of an exception.
std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

detail::TransportLimits limits_of(const WebConfig& c) {
  detail::TransportLimits l;
  l.max_request_bytes = std::max<std::size_t>(1024, c.max_request_bytes);
  l.read_timeout = c.read_timeout;
  l.request_timeout = c.request_timeout;
  l.write_timeout = c.write_timeout;
  l.keep_alive_timeout = c.keep_alive_timeout;
  l.keep_alive_max_requests = c.keep_alive_max_requests;
  return l;
}

// OpenSSL writes to the socket with write(), so a client that disconnects mid-response would
// raise SIGPIPE and kill the daemon. Only the default disposition is replaced.
void ignore_sigpipe() {
  struct sigaction current {};
  if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    ::signal(SIGPIPE, SIG_IGN);
  }
}

}  // namespace

struct HttpServer::Impl {
  Impl(WebConfig c, const daemon::SnapshotStore& s)
      : config(std::move(c)), store(s), collector(s), auth(config.basic_auth_users),
        limits(limits_of(config)) {
    landing.health.hot_headroom_celsius = config.hot_headroom_celsius;
    landing.version = config.version.empty() ? XCVR_VERSION : config.version;
  }

  Routed before_routing(const Request& req, Response& res) const;
  void install_routes(httplib::Server& server) const;
  void serve_metrics(const Request& req, Response& res) const;
  void listen_on(const std::string& address);
  void shutdown();

  WebConfig config;
  const daemon::SnapshotStore& store;
  SnapshotCollector collector;
  BasicAuth auth;
  LandingOptions landing;
  detail::TransportLimits limits;
  std::atomic<bool> stopping{false};
  detail::SslCtxPtr tls;
  std::unique_ptr<detail::WorkerPool> pool;
  std::vector<std::unique_ptr<detail::GuardedServer>> servers;
  std::vector<std::thread> listeners;
  std::vector<int> ports;
  bool started = false;
  std::unique_ptr<detail::GuardedServer> offline;  // serve_bytes(): routes without a socket
};

// Runs before any handler and before a request body is read: method, then credentials.
Routed HttpServer::Impl::before_routing(const Request& req, Response& res) const {
  if (auth.enabled()) {
    const auto& open = config.unauthenticated_paths;
    const bool exempt = std::find(open.begin(), open.end(), req.path) != open.end();
    if (!exempt && !auth.check_header(req.get_header_value("Authorization"))) {
      res.status = 401;
      res.set_header("WWW-Authenticate", "Basic realm=\"transceiver-exporter\"");
      res.set_content("Unauthorized\n", "text/plain");
      return Routed::Handled;
    }
  }
  if (req.method != "GET" && req.method != "HEAD") {
    res.status = 405;
    res.set_header("Allow", "GET, HEAD");
    res.set_header("Connection", "close");
    res.set_content("Method Not Allowed\n", "text/plain");
    return Routed::Handled;
  }
  return Routed::Unhandled;
}

void HttpServer::Impl::install_routes(httplib::Server& server) const {
  server.set_pre_routing_handler([this](const Request& req, Response& res) {
    return before_routing(req, res);
  });
  server.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"X-Frame-Options", "DENY"},
                              {"Cache-Control", "no-store"},
                              {"Content-Security-Policy",
                               "default-src 'none'; style-src 'unsafe-inline'; img-src data:"}});
  server.Get("/", [this](const Request&, Response& res) {
    res.set_content(landing_page_html(*store.current(), landing), kHtml);
  });
  server.Get("/metrics", [this](const Request& req, Response& res) { serve_metrics(req, res); });
  server.Get("/api/v1/modules", [this](const Request&, Response& res) {
    res.set_content(dump(modules_json(*store.current(), landing.health)), kJson);
  });
  server.Get(R"(/api/v1/modules/(.+))", [this](const Request& req, Response& res) {
    const auto snapshot = store.current();
    const auto* port = find_port(*snapshot, req.matches[1].str());
    if (port == nullptr) {
      res.status = 404;
      res.set_content(dump({{"error", "no such port"}, {"port", req.matches[1].str()}}), kJson);
      return;
    }
    res.set_content(dump(port_json(*snapshot, *port, landing.health)), kJson);
  });
  server.Get(R"(/port/(.+))", [this](const Request& req, Response& res) {
    const auto page = port_page_html(*store.current(), req.matches[1].str(), landing);
    if (!page) {
      res.status = 404;
      res.set_content(not_found_html("No port named \"" + req.matches[1].str() + "\"."), kHtml);
      return;
    }
    res.set_content(*page, kHtml);
  });
  server.Get("/healthz", [](const Request&, Response& res) { res.set_content("ok\n", "text/plain"); });
}

// The cached body goes out through a sized content provider: httplib then neither copies it
// nor compresses it again per request (it would gzip or brotli a plain res.body every time).
void HttpServer::Impl::serve_metrics(const Request& req, Response& res) const {
  auto rendered = collector.render();
  if (!rendered) {
    res.status = 500;
    res.set_content("cannot render metrics\n", "text/plain");
    return;
  }
  res.set_header("Vary", "Accept-Encoding");
  if (!req.ranges.empty()) {
    // httplib checks Range bounds (416 when unsatisfiable) only for a plain body, which it
    // may compress itself; scrapers never send Range, so this copy costs nothing in practice.
    res.set_content(rendered->text, kMetricsContentType);
    return;
  }
  const bool gzip = !rendered->gzip.empty() && accepts_gzip(req.get_header_value("Accept-Encoding"));
  const std::string& body = gzip ? rendered->gzip : rendered->text;
  if (gzip) res.set_header("Content-Encoding", "gzip");
  res.set_content_provider(
      body.size(), kMetricsContentType,
      [rendered, &body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        // httplib 0.11 passes a Range header's bounds unclamped (bytes=0-10000000): never read
        // past the body (found by fuzz_http_request: it sent heap memory to the client).
        if (offset >= body.size()) return false;
        return sink.write(body.data() + offset,
                          std::min({length, body.size() - offset, std::size_t{256 * 1024}}));
      });
}

void HttpServer::Impl::listen_on(const std::string& text) {
  std::string error;
  const auto address = detail::parse_listen_address(text, error);
  if (!address) throw std::runtime_error(error);
  auto server = std::make_unique<detail::GuardedServer>(limits, pool.get(), tls.get(), stopping);
  install_routes(*server);
  auto bind = [&](const std::string& host) {
    errno = 0;
    if (address->port == 0) return server->bind_to_any_port(host);
    return server->bind_to_port(host, address->port) ? address->port : -1;
  };
  int port = bind(address->host);
  if (port < 0 && address->all_addresses) port = bind("0.0.0.0");  // host without IPv6
  if (port < 0) {
    throw std::runtime_error("cannot listen on " + text +
                             (errno != 0 ? std::string(": ") + std::strerror(errno) : ""));
  }
  auto* raw = server.get();
  servers.push_back(std::move(server));
  listeners.emplace_back([raw] { raw->listen_after_bind(); });
  // stop() only works once the accept loop runs; wait for it (it starts at once).
  for (int i = 0; i < 2000 && !raw->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ports.push_back(port);
}

void HttpServer::Impl::shutdown() {
  stopping = true;
  for (auto& s : servers) s->stop();
  for (auto& t : listeners) {
    if (t.joinable()) t.join();
  }
  if (pool) pool->shutdown();
  listeners.clear();
  servers.clear();
  pool.reset();
}

HttpServer::HttpServer(WebConfig config, const daemon::SnapshotStore& store)
    : impl_(std::make_unique<Impl>(std::move(config), store)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start() {
  Impl& m = *impl_;
  if (m.started) throw std::runtime_error("HttpServer already started");
  if (m.config.listen_addresses.empty()) throw std::runtime_error("no listen address configured");
  if (!m.config.tls_cert_file.empty() || !m.config.tls_key_file.empty()) {
    std::string error;
    m.tls = detail::make_tls_context(m.config.tls_cert_file, m.config.tls_key_file,
                                     m.config.tls_min_version, error);
    if (!m.tls) throw std::runtime_error(error);
  }
  ignore_sigpipe();
  m.stopping = false;
  m.ports.clear();
  m.pool = std::make_unique<detail::WorkerPool>(std::max<std::size_t>(1, m.config.max_threads),
                                                m.config.max_connections);
  try {
    for (const auto& address : m.config.listen_addresses) m.listen_on(address);
  } catch (...) {
    m.shutdown();
    m.ports.clear();
    throw;
  }
  m.started = true;
}

void HttpServer::stop() {
  impl_->shutdown();
  impl_->started = false;
}

std::vector<int> HttpServer::ports() const { return impl_->ports; }

std::string HttpServer::serve_bytes(std::string_view request) {
  Impl& m = *impl_;
  if (!m.offline) {
    m.offline = std::make_unique<detail::GuardedServer>(m.limits, nullptr, nullptr, m.stopping);
    m.install_routes(*m.offline);
  }
  return m.offline->serve_buffer(request);
}

const SnapshotCollector& HttpServer::collector() const { return impl_->collector; }

}  // namespace xcvr::exporters
