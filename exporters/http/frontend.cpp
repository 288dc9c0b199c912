#include "exporters/http/frontend.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include <spdlog/spdlog.h>

#include "base/safe_file.hpp"
#include "exporters/http/transport.hpp"
#include "exporters/textfile.hpp"

namespace xcvr::exporters {

namespace {

constexpr base::InputKind kTlsInput{"PEM file", std::size_t{1} << 20};

// Two listen addresses that cannot both be bound: same port (not 0) on the same host, or either
// on every address.
bool overlap(const detail::ListenAddress& a, const detail::ListenAddress& b) {
  return a.port != 0 && a.port == b.port && (a.host == b.host || a.all_addresses || b.all_addresses);
}

std::vector<detail::ListenAddress> parsed_addresses(const daemon::WebConfig& web) {
  std::vector<detail::ListenAddress> out;
  std::string ignored;
  for (const std::string& text : web.listen_addresses) {
    if (auto a = detail::parse_listen_address(text, ignored)) out.push_back(*a);
  }
  return out;
}

// Binds (and keeps bound until `held` goes) a socket on `a`, as httplib will: SO_REUSEADDR only.
int test_bind(const detail::ListenAddress& a, std::vector<int>& held) {
  auto try_host = [&](const std::string& host) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(a.port).c_str(), &hints, &res) != 0 || res == nullptr) {
      return EADDRNOTAVAIL;
    }
    int err = 0;
    const int fd = ::socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
    if (fd < 0) {
      err = errno;
    } else {
      int yes = 1;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
      if (::bind(fd, res->ai_addr, res->ai_addrlen) != 0 || ::listen(fd, 1) != 0) {
        err = errno;
        ::close(fd);
      } else {
        held.push_back(fd);
      }
    }
    ::freeaddrinfo(res);
    return err;
  };
  int err = try_host(a.host);
  if (err != 0 && err != EADDRINUSE && a.all_addresses) err = try_host("0.0.0.0");  // host without IPv6
  return err;
}

}  // namespace

WebConfig to_server_config(const daemon::WebConfig& web) {
  WebConfig c;
  static_cast<daemon::WebConfig&>(c) = web;
  c.version = XCVR_VERSION;
  return c;
}

std::string check_web(const daemon::WebConfig& web, BindCheck bind, std::string* tls_digest) {
  std::vector<detail::ListenAddress> seen;
  std::vector<int> held;  // test sockets stay bound until every address is tried: overlaps show
  struct Closer {
    std::vector<int>& fds;
    ~Closer() {
      for (int fd : fds) ::close(fd);
    }
  } closer{held};
  for (std::size_t i = 0; i < web.listen_addresses.size(); ++i) {
    const std::string& text = web.listen_addresses[i];
    const std::string at = web.location_of("listen_addresses[" + std::to_string(i) + "]") + ": web.listen_addresses: ";
    std::string error;
    const auto a = detail::parse_listen_address(text, error);
    if (!a) return at + error;
    if (!a->all_addresses) {
      addrinfo hints{};
      hints.ai_socktype = SOCK_STREAM;
      hints.ai_flags = AI_PASSIVE;
      addrinfo* res = nullptr;
      if (const int rc = ::getaddrinfo(a->host.c_str(), nullptr, &hints, &res); rc != 0) {
        return at + "\"" + text + "\": cannot resolve host \"" + a->host + "\": " + ::gai_strerror(rc);
      }
      ::freeaddrinfo(res);
    }
    for (std::size_t j = 0; j < seen.size(); ++j) {
      if (overlap(seen[j], *a)) {
        return at + "\"" + text + "\" overlaps \"" + web.listen_addresses[j] + "\" (" +
               web.location_of("listen_addresses[" + std::to_string(j) + "]") + "): both cannot be bound";
      }
    }
    seen.push_back(*a);
    if (bind == BindCheck::None) continue;
    const int err = test_bind(*a, held);
    if (err == 0 || (err == EADDRINUSE && bind == BindCheck::InUseOk)) continue;
    return at + "cannot listen on \"" + text + "\": " + std::strerror(err);
  }
  if (web.tls_cert_file.empty()) return "";
  std::string digest;
  for (const auto& [key, path] : {std::pair{"tls_cert_file", web.tls_cert_file}, std::pair{"tls_key_file", web.tls_key_file}}) {
    std::string error;
    const auto bytes = base::read_regular_file(path, kTlsInput, error);
    if (!bytes) return web.location_of(key) + ": web." + key + ": " + error;
    digest += std::to_string(std::hash<std::string>{}(*bytes)) + ":" + std::to_string(bytes->size()) + ";";
  }
  std::string error;
  if (!detail::make_tls_context(web.tls_cert_file, web.tls_key_file, "TLS12", error)) {
    return web.location_of("tls_cert_file") + ": web: " + error;
  }
  if (tls_digest != nullptr) *tls_digest = digest;
  return "";
}

Frontend::Frontend(const daemon::WebConfig& web, const daemon::SnapshotStore& store, std::string textfile)
    : store_(store), textfile_(std::move(textfile)), web_(web),
      server_(std::make_unique<HttpServer>(to_server_config(web), store)) {}

std::string Frontend::start() {
  check_web(web_, BindCheck::None, &tls_digest_);  // remembers the TLS files' content
  try {
    server_->start();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string Frontend::reconfigure(const daemon::WebConfig& web) {
  std::string digest;
  if (std::string err = check_web(web, BindCheck::None, &digest); !err.empty()) return err;
  daemon::WebConfig next_settings = web, old_settings = web_;
  next_settings.locations.clear();  // a line moved is not a setting changed
  old_settings.locations.clear();
  if (next_settings == old_settings && digest == tls_digest_) return "";
  const WebConfig next_config = to_server_config(web);
  const WebConfig old_config = to_server_config(web_);
  bool shared = false;
  for (const auto& a : parsed_addresses(web_)) {
    for (const auto& b : parsed_addresses(web)) shared = shared || overlap(a, b);
  }
  auto next = std::make_unique<HttpServer>(next_config, store_);
  if (shared) server_->stop();  // the new server binds what the old one held
  try {
    next->start();
  } catch (const std::exception& e) {
    if (shared) {
      server_ = std::make_unique<HttpServer>(old_config, store_);
      try {
        server_->start();
      } catch (const std::exception& again) {
        spdlog::critical("web: cannot serve the previous settings again either: {}", again.what());
      }
    }
    // Name the config line of the address that failed (the message quotes it), else the table.
    std::string at = web.location_of("web");
    for (std::size_t i = 0; i < web.listen_addresses.size(); ++i) {
      if (std::string(e.what()).find("listen on " + web.listen_addresses[i]) != std::string::npos) {
        at = web.location_of("listen_addresses[" + std::to_string(i) + "]");
      }
    }
    return (at.empty() ? "" : at + ": ") + "web: " + e.what() + "; the previous web settings keep serving";
  }
  if (!shared) server_->stop();
  server_ = std::move(next);
  web_ = web;
  tls_digest_ = digest;
  spdlog::info("web: settings changed; now listening on {}", fmt::join(web_.listen_addresses, ", "));
  return "";
}

void Frontend::tick() {
  if (textfile_.empty()) return;
  if (store_.current()->taken_unix == textfile_written_for_) return;
  const auto snapshot = store_.current_for_scrape();
  std::string error;
  if (!write_textfile(textfile_, *health::shared_views(snapshot), textfile_plans_, error)) {
    // Once per distinct error, not once per snapshot (a publish every poll): the state is said
    // when it begins, when it changes and when it ends.
    if (error != textfile_error_) spdlog::warn("textfile: {} (said again only if it changes)", error);
    textfile_error_ = error;
    return;
  }
  if (!textfile_error_.empty()) spdlog::info("textfile: {} written again", textfile_);
  textfile_error_.clear();
  textfile_written_for_ = snapshot->taken_unix;
}

void Frontend::stop() { server_->stop(); }

}  // namespace xcvr::exporters
