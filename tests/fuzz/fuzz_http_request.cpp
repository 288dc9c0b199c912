// libFuzzer target: raw bytes as one client connection (request line, headers, pipelined
// keep-alive requests, bodies, then EOF) into HttpServer::serve_bytes — the listeners' own
// request loop, size limits, cpp-httplib parser, auth check and routes, minus the socket — on
// two servers over a rich snapshot: one open, one with basic auth. Also the Authorization
// header parser, the request framer, the Range decision and the Accept-Encoding parser on their
// own (the same bytes as a header value).
//
// Fails on a crash or sanitizer report, and on any of:
//   - output that is not a sequence of well-framed HTTP/1.1 responses (status line, headers,
//     exactly Content-Length bytes of body unless the request was HEAD);
//   - a 500 (only a handler that threw gives one for this snapshot);
//   - a 206 whose Content-Range is not "bytes a-b/len" with b-a+1 = Content-Length and b < len,
//     a 416 without "bytes */len" or with a body, or any multipart/byteranges reply;
//   - a response after one that said "Connection: close";
//   - the auth server answering with anything but text/plain (401, 405, 429, /healthz): any
//     HTML, JSON or metrics body would be an auth bypass;
//   - base64_decode giving a length other than 3/4 of its input less padding;
//   - a framed request that claims more bytes than it was given or a head not ending in CRLF
//     CRLF; a Partial range outside its representation.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "exporters/http/basic_auth.hpp"
#include "exporters/gzip.hpp"
#include "exporters/http/framing.hpp"
#include "exporters/http/server.hpp"
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

std::size_t number(std::string_view text) {
  std::size_t n = 0;
  if (text.empty()) __builtin_trap();
  for (char c : text) {
    if (c < '0' || c > '9' || n > (std::size_t{1} << 40)) __builtin_trap();
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

// "bytes a-b/len" for a 206 of `length` bytes, "bytes */len" with no body for a 416.
void check_range(int status, std::string_view head, std::size_t length) {
  const std::string_view range = header(head, "Content-Range");
  if (status != 206 && status != 416) {
    if (!range.empty()) __builtin_trap();
    return;
  }
  if (range.substr(0, 6) != "bytes ") __builtin_trap();
  const std::string_view spec = range.substr(6);
  const std::size_t slash = spec.find('/');
  if (slash == std::string_view::npos) __builtin_trap();
  const std::size_t total = number(spec.substr(slash + 1));
  if (status == 416) {
    if (spec.substr(0, slash) != "*" || length != 0) __builtin_trap();
    return;
  }
  const std::size_t dash = spec.find('-');
  if (dash == std::string_view::npos || dash > slash) __builtin_trap();
  const std::size_t first = number(spec.substr(0, dash)), last = number(spec.substr(dash + 1, slash - dash - 1));
  if (first > last || last >= total || last - first + 1 != length) __builtin_trap();
}

// Walks the responses; traps on bad framing or a forbidden response.
void check_responses(std::string_view out, bool auth) {
  bool closed = false;
  while (!out.empty()) {
    if (closed) __builtin_trap();  // it said close, and then answered again
    if (out.size() < 12 || out.substr(0, 9) != "HTTP/1.1 ") __builtin_trap();
    const int status = (out[9] - '0') * 100 + (out[10] - '0') * 10 + (out[11] - '0');
    if (status < 100 || status > 599 || status == 500) __builtin_trap();
    const std::size_t end = out.find("\r\n\r\n");
    if (end == std::string_view::npos) __builtin_trap();
    const std::string_view head = out.substr(0, end + 2);
    out.remove_prefix(end + 4);
    closed = header(head, "Connection") == "close";
    const std::string_view type = header(head, "Content-Type");
    if (type.substr(0, 9) == "multipart") __builtin_trap();
    // Unauthenticated, only text/plain answers exist (401, 405, 429, /healthz, framing errors).
    if (auth && !type.empty() && type != "text/plain") __builtin_trap();
    const std::size_t n = number(header(head, "Content-Length"));
    // Bodies never start with a status line, so one right here (or the end of the output)
    // means a HEAD response.
    if (n > 0 && (out.empty() || out.substr(0, 9) == "HTTP/1.1 ")) continue;
    if (n > out.size()) __builtin_trap();  // announced more than it sent
    check_range(status, head, n);
    out.remove_prefix(n);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Servers servers;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  check_responses(servers.open->serve_bytes(input), false);
  check_responses(servers.with_auth->serve_bytes(input), true);

  namespace detail = xcvr::exporters::detail;
  const detail::Framed framed = detail::frame_request(input, detail::FramingLimits{});
  if (framed.kind == detail::Framed::Kind::Ready &&
      (framed.consumed > input.size() || framed.head.size() < 4 ||
       framed.head.compare(framed.head.size() - 4, 4, "\r\n\r\n") != 0)) {
    __builtin_trap();
  }
  for (std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, size}) {
    const auto d = detail::decide_range(input, length);
    if (d.kind == detail::RangeDecision::Kind::Partial && (d.first > d.last || d.last >= length)) __builtin_trap();
  }
  (void)xcvr::exporters::accepts_gzip(input);

  if (const auto decoded = xcvr::exporters::base64_decode(input)) {
    const std::size_t pad = input.size() >= 2 && input.substr(input.size() - 2) == "==" ? 2
                            : !input.empty() && input.back() == '=' ? 1 : 0;
    if (decoded->size() != input.size() / 4 * 3 - pad) __builtin_trap();
  }
  static const xcvr::exporters::BasicAuth basic(servers.auth_users);
  if (basic.check_header(input) == xcvr::exporters::AuthResult::Ok) __builtin_trap();  // the password is not guessable
  (void)xcvr::exporters::bcrypt_cost(input);
  return 0;
}
