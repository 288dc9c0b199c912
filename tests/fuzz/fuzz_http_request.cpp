// libFuzzer target: raw bytes as one client connection (request line, headers, pipelined
// keep-alive requests, bodies, then EOF) into HttpServer::serve_bytes — the listeners' own
// request loop, size limits, cpp-httplib parser, auth check and routes, minus the socket — on
// two servers over a rich snapshot: one open, one with basic auth. Also the Authorization
// header parser on its own.
//
// Fails on a crash or sanitizer report, and on any of:
//   - output that is not a sequence of well-framed HTTP/1.1 responses (status line, headers,
//     Content-Length bytes of body unless the request was HEAD);
//   - a 500 (only a handler that threw gives one for this snapshot);
//   - the auth server answering with anything but text/plain (401, 405, /healthz; or those
//     wrapped in multipart/byteranges): any HTML, JSON or metrics body would be an auth bypass;
//   - base64_decode giving a length other than 3/4 of its input less padding.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "exporters/basic_auth.hpp"
#include "exporters/http_server.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

using xcvr::exporters::HttpServer;

struct Servers {
  Servers() {
    store.publish(std::make_shared<const xcvr::daemon::Snapshot>(xcvr::testing::make_rich_snapshot()));
    open = std::make_unique<HttpServer>(xcvr::exporters::WebConfig{}, store);
    xcvr::exporters::WebConfig cfg;
    // Cost 4 keeps a wrong password at ~1 ms; the password itself is in no seed.
    const auto hash = xcvr::exporters::bcrypt_hash("k7Qp-2vXz-9LmW", 4);
    if (!hash) __builtin_trap();
    cfg.basic_auth_users = {{"prom", *hash}};
    auth_users = cfg.basic_auth_users;
    with_auth = std::make_unique<HttpServer>(cfg, store);
  }
  xcvr::daemon::SnapshotStore store;
  std::unique_ptr<HttpServer> open;
  std::unique_ptr<HttpServer> with_auth;
  std::map<std::string, std::string> auth_users;
};

std::string_view header(std::string_view head, std::string_view name) {
  std::size_t pos = 0;
  while ((pos = head.find("\r\n", pos)) != std::string_view::npos) {
    pos += 2;
    if (head.substr(pos, name.size()) == name && head.substr(pos + name.size(), 2) == ": ") {
      const std::size_t start = pos + name.size() + 2;
      return head.substr(start, head.find("\r\n", start) - start);
    }
  }
  return {};
}

// Walks the responses; traps on bad framing or a forbidden response.
void check_responses(std::string_view out, bool auth, bool range) {
  while (!out.empty()) {
    if (out.size() < 12 || out.substr(0, 9) != "HTTP/1.1 ") __builtin_trap();
    const int status = (out[9] - '0') * 100 + (out[10] - '0') * 10 + (out[11] - '0');
    if (status < 100 || status > 599 || status == 500) __builtin_trap();
    const std::size_t end = out.find("\r\n\r\n");
    if (end == std::string_view::npos) __builtin_trap();
    const std::string_view head = out.substr(0, end);
    out.remove_prefix(end + 4);
    // Unauthenticated, only text/plain answers exist (401, 405, /healthz); a Range header may
    // wrap one in multipart/byteranges, whose parts must then be text/plain too.
    const std::string_view type = header(head, "Content-Type");
    const bool multipart = type.substr(0, 20) == "multipart/byteranges";
    if (auth && !type.empty() && type != "text/plain" && !multipart) __builtin_trap();
    // Bodies never start with a status line, so one right here (or the end of the output)
    // means a HEAD response.
    if (out.empty() || out.substr(0, 9) == "HTTP/1.1 ") continue;
    const std::string_view length = header(head, "Content-Length");
    std::size_t n = 0;
    for (char c : length) {
      if (c < '0' || c > '9' || n > out.size()) __builtin_trap();
      n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    // Known, open: httplib 0.11 announces an unclamped Range length and the provider stops at
    // the body's end, so that last response is cut short (never over-read). Tolerated only then.
    if (n > out.size()) {
      if (!range) __builtin_trap();
      return;
    }
    if (auth && multipart) {
      for (std::string_view secret : {"text/html", "application/json", "version=0.0.4"}) {
        if (out.substr(0, n).find(secret) != std::string_view::npos) __builtin_trap();
      }
    }
    out.remove_prefix(n);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Servers servers;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  const bool range = input.find("ange:") != std::string_view::npos;
  check_responses(servers.open->serve_bytes(input), false, range);
  check_responses(servers.with_auth->serve_bytes(input), true, range);

  if (const auto decoded = xcvr::exporters::base64_decode(input)) {
    const std::size_t pad = input.size() >= 2 && input.substr(input.size() - 2) == "==" ? 2
                            : !input.empty() && input.back() == '=' ? 1 : 0;
    if (decoded->size() != input.size() / 4 * 3 - pad) __builtin_trap();
  }
  static const xcvr::exporters::BasicAuth basic(servers.auth_users);
  if (basic.check_header(input)) __builtin_trap();  // the password is not guessable
  (void)xcvr::exporters::bcrypt_cost(input);
  return 0;
}
