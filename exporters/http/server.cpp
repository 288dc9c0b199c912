#include "exporters/http/server.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "exporters/api_json.hpp"
#include "exporters/http/basic_auth.hpp"
#include "exporters/gzip.hpp"
#include "exporters/http/connections.hpp"
#include "exporters/http/transport.hpp"
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

detail::TransportLimits limits_of(const WebConfig& c) {
  detail::TransportLimits l;
  l.max_request_bytes = std::max<std::size_t>(1024, c.max_request_bytes);
  l.request_timeout = std::min(c.request_timeout, c.read_timeout());
  l.write_timeout = c.write_timeout();
  l.response_timeout = c.response_timeout();
  l.keep_alive_timeout = c.keep_alive_timeout;
  l.keep_alive_max_requests = c.keep_alive_max_requests;
  l.max_connections = static_cast<std::size_t>(std::max(1, c.max_connections));
  l.max_connections_per_source = c.max_connections_per_source != 0
                                     ? c.max_connections_per_source
                                     : std::min(l.max_connections, std::max<std::size_t>(16, l.max_connections / 2));
  l.max_answering_per_source = std::max<std::size_t>(1, c.max_threads / 4);  // the rest for other addresses
  return l;
}

// Bodies below this size go out as they are: gzip would save little and cost a compression.
constexpr std::size_t kGzipMinBytes = 1024;
// A body's bytes and what keeps them alive (a string, or the rendered /metrics).
struct Bytes {
  std::shared_ptr<const void> owner;
  std::string_view bytes;
  static Bytes of(std::string s) {
    auto owned = std::make_shared<const std::string>(std::move(s));
    return {owned, *owned};
  }
};

// Every answer leaves through here, so Range and gzip agree on every route: one representation
// is chosen (the cached gzip of /metrics, gzip made now for a large body, or the body as is),
// Range is applied to that representation (RFC 9110 §14: Content-Range counts its bytes), and
// it goes out through a sized content provider, which httplib neither copies nor re-encodes.
// `gzipped`: no owner when there is none.
void send(const Request& req, Response& res, Bytes identity, Bytes gzipped, const std::string& type) {
  Bytes body = std::move(identity);
  const bool negotiable = gzipped.owner != nullptr || body.bytes.size() >= kGzipMinBytes;
  if (negotiable) {
    res.set_header("Vary", "Accept-Encoding");
    if (accepts_gzip(req.get_header_value("Accept-Encoding"))) {
      if (gzipped.owner == nullptr) {
        if (auto z = gzip_compress(body.bytes)) gzipped = Bytes::of(std::move(*z));
      }
      if (gzipped.owner != nullptr && !gzipped.bytes.empty()) {
        body = std::move(gzipped);
        res.set_header("Content-Encoding", "gzip");
      }
    }
  }
  std::size_t first = 0, length = body.bytes.size();
  const bool success = res.status == -1 || res.status == 200;
  if (success) res.set_header("Accept-Ranges", "bytes");
  const auto* facts = detail::current_request_facts();
  if (success && req.method == "GET" && facts != nullptr && facts->range) {
    const auto d = detail::decide_range(*facts->range, body.bytes.size());
    if (d.kind != detail::RangeDecision::Kind::Full) {
      res.set_header("Content-Range", detail::content_range(d, body.bytes.size()));
    }
    if (d.kind == detail::RangeDecision::Kind::Unsatisfiable) {
      res.status = 416;
      res.headers.erase("Content-Encoding");
      res.body.clear();
      return;
    }
    if (d.kind == detail::RangeDecision::Kind::Partial) {
      res.status = 206;
      first = d.first;
      length = d.last - d.first + 1;
    }
  }
  res.body.clear();
  if (length == 0) {  // httplib frames an empty body itself (Content-Length: 0)
    res.set_header("Content-Type", type);
    return;
  }
  res.set_content_provider(length, type, [body, first, length](std::size_t offset, std::size_t want, httplib::DataSink& sink) {
    if (offset >= length) return false;
    return sink.write(body.bytes.data() + first + offset, std::min({want, length - offset, std::size_t{256 * 1024}}));
  });
}

// A whole-fleet page (the JSON API, the landing page) of one snapshot, with its gzip: made once
// per snapshot (PerSnapshot) and sent as it is.
struct FleetBody {
  std::string text;
  std::string gzip;  // empty: compression failed, or the body is too small to gain from it
};

std::shared_ptr<const FleetBody> fleet_body(std::string text) {
  auto out = std::make_shared<FleetBody>();
  out->text = std::move(text);
  if (out->text.size() >= kGzipMinBytes) out->gzip = gzip_compress(out->text).value_or("");
  return out;
}

void send_fleet_body(const Request& req, Response& res, const std::shared_ptr<const FleetBody>& body,
                     const std::string& type) {
  send(req, res, Bytes{body, body->text}, body->gzip.empty() ? Bytes{} : Bytes{body, body->gzip}, type);
}

// Moves what a handler put in res.body into send().
void send_body(const Request& req, Response& res) {
  const std::string type = res.get_header_value("Content-Type");
  res.headers.erase("Content-Type");
  send(req, res, Bytes::of(std::move(res.body)), {}, type.empty() ? "text/plain" : type);
}

// A handler whose answer goes through send_body().
template <typename Fn>
httplib::Server::Handler sent(Fn fn) {
  return [fn](const Request& req, Response& res) {
    fn(req, res);
    if (!res.body.empty()) send_body(req, res);
  };
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
  PerSnapshot<FleetBody> landing_body;  // "/"
  PerSnapshot<FleetBody> modules_cache;  // "/api/v1/modules"
  mutable std::atomic<std::size_t> modules_bytes{0};  // its last body's size (modules_body's reserve)
  BasicAuth auth;
  LandingOptions landing;
  detail::TransportLimits limits;
  std::atomic<bool> stopping{false};
  detail::SslCtxPtr tls;
  std::unique_ptr<detail::WorkerPool> pool;
  std::unique_ptr<detail::ConnectionReactor> reactor;  // after pool: destroyed first
  std::vector<std::unique_ptr<detail::GuardedServer>> servers;
  std::vector<std::thread> listeners;
  std::vector<int> ports;
  bool started = false;
  std::unique_ptr<detail::GuardedServer> offline;  // serve_bytes(): routes without a socket
};

// Runs before any handler and before a request body is read: method, then credentials.
Routed HttpServer::Impl::before_routing(const Request& req, Response& res) const {
  if (auth.enabled()) {
    const auto& open = config.auth_exempt_paths;
    const bool exempt = std::find(open.begin(), open.end(), req.path) != open.end();
    const auto verdict = exempt ? AuthResult::Ok : auth.check_header(req.get_header_value("Authorization"), req.remote_addr);
    if (verdict == AuthResult::Busy) {
      // Too many password checks already waiting: refuse without bcrypt (a flood of wrong
      // passwords must not queue up behind itself); a known good credential never gets here.
      res.status = 429;
      res.set_header("Retry-After", "1");
      res.set_content("Too Many Requests\n", "text/plain");
      send_body(req, res);
      return Routed::Handled;
    }
    if (verdict != AuthResult::Ok) {
      res.status = 401;
      res.set_header("WWW-Authenticate", "Basic realm=\"transceiver-exporter\"");
      res.set_content("Unauthorized\n", "text/plain");
      send_body(req, res);
      return Routed::Handled;
    }
  }
  if (req.method != "GET" && req.method != "HEAD") {
    // The framer has already consumed any body: the connection stays usable.
    res.status = 405;
    res.set_header("Allow", "GET, HEAD");
    res.set_content("Method Not Allowed\n", "text/plain");
    send_body(req, res);
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
  // An HTTP/1.0 client keeps the connection only if told so (httplib sends no Connection
  // header unless it closes).
  server.set_post_routing_handler([](const Request&, Response& res) {
    const auto* facts = detail::current_request_facts();
    if (facts != nullptr && facts->http10 && facts->keep_alive && !res.has_header("Connection")) {
      res.set_header("Connection", "keep-alive");
    }
  });
  server.Get("/", [this](const Request& req, Response& res) {
    const auto snapshot = store.current();
    send_fleet_body(req, res, landing_body.get(snapshot, [&] {
      return fleet_body(landing_page_html(*health::shared_views(snapshot), landing));
    }), kHtml);
  });
  server.Get("/metrics", [this](const Request& req, Response& res) { serve_metrics(req, res); });
  server.Get("/api/v1/modules", [this](const Request& req, Response& res) {
    const auto snapshot = store.current();
    send_fleet_body(req, res, modules_cache.get(snapshot, [&] {
      auto body = fleet_body(modules_body(*health::shared_views(snapshot), modules_bytes.load()));
      modules_bytes = body->text.size();
      return body;
    }), kJson);
  });
  server.Get(R"(/api/v1/modules/(.+))", sent([this](const Request& req, Response& res) {
    const auto views = health::shared_views(store.current());
    const auto* port = find_port(views->snapshot(), req.matches[1].str());
    if (port == nullptr) {
      res.status = 404;
      res.set_content(json_text({{"error", "no such port"}, {"port", req.matches[1].str()}}), kJson);
      return;
    }
    res.set_content(json_text(port_json(views->snapshot(), *port, views->of(*port))), kJson);
  }));
  server.Get("/api/v1/events", sent([this](const Request&, Response& res) {
    const auto snapshot = store.current();  // null before the first publish
    res.set_content(snapshot ? events_body(*snapshot) : events_body(daemon::Snapshot{}), kJson);
  }));
  server.Get(R"(/api/v1/events/(.+))", sent([this](const Request& req, Response& res) {
    const auto snapshot = store.current();
    const auto* port = snapshot ? find_port(*snapshot, req.matches[1].str()) : nullptr;
    if (port == nullptr) {
      res.status = 404;
      res.set_content(json_text({{"error", "no such port"}, {"port", req.matches[1].str()}}), kJson);
      return;
    }
    res.set_content(events_body(*snapshot, port), kJson);
  }));
  server.Get(R"(/port/(.+))", sent([this](const Request& req, Response& res) {
    const auto page = port_page_html(*health::shared_views(store.current()), req.matches[1].str(), landing);
    if (!page) {
      res.status = 404;
      res.set_content(not_found_html("No port named \"" + req.matches[1].str() + "\"."), kHtml);
      return;
    }
    res.set_content(*page, kHtml);
  }));
  server.Get("/healthz", sent([](const Request&, Response& res) { res.set_content("ok\n", "text/plain"); }));
}

// The cached body and its cached gzip go to send() as they are: no copy, no compression per scrape.
void HttpServer::Impl::serve_metrics(const Request& req, Response& res) const {
  auto rendered = collector.render();
  if (!rendered) {
    res.status = 500;
    res.set_content("cannot render metrics\n", "text/plain");
    return;
  }
  send(req, res, Bytes{rendered, rendered->text},
       rendered->gzip.empty() ? Bytes{} : Bytes{rendered, rendered->gzip}, kMetricsContentType);
}

void HttpServer::Impl::listen_on(const std::string& text) {
  std::string error;
  const auto address = detail::parse_listen_address(text, error);
  if (!address) throw std::runtime_error(error);
  auto server = std::make_unique<detail::GuardedServer>(limits, reactor.get(), tls.get(), stopping);
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
  server->widen_backlog();
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
  // Reactor first (it feeds the pool); workers still answering then close their connections.
  if (reactor) reactor->stop();
  if (pool) pool->shutdown();
  listeners.clear();
  servers.clear();
  reactor.reset();
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
  if (const std::string problem = m.auth.problem(); !problem.empty()) throw std::runtime_error(problem);
  // Each connection has at most one request queued, so the queue never blocks the reactor.
  m.pool = std::make_unique<detail::WorkerPool>(std::max<std::size_t>(1, m.config.max_threads),
                                                2 * m.limits.max_connections + 16);
  m.reactor = std::make_unique<detail::ConnectionReactor>(m.limits, *m.pool, m.stopping);
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

ConnectionStats HttpServer::connection_stats() const {
  return impl_->reactor ? impl_->reactor->stats() : ConnectionStats{};
}

const SnapshotCollector& HttpServer::collector() const { return impl_->collector; }

}  // namespace xcvr::exporters
