#include "exporters/http/framing.hpp"

#include "base/spelling.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace xcvr::exporters::detail {
namespace {

constexpr std::size_t kHuge = SIZE_MAX / 4;  // saturates parsed numbers; no overflow below

bool is_tchar(char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_tchar); }

using base::iequals;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Decimal digits only (no sign, no space); saturates at kHuge. nullopt if not all digits.
std::optional<std::size_t> digits(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = std::min(kHuge, v * 10 + static_cast<std::size_t>(c - '0'));
  }
  return v;
}

// Control characters other than HTAB have no place in a request head (NUL, bare CR/LF, DEL).
bool has_ctl(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7F;
  });
}

// Methods httplib 0.11 parses; anything else is 501 here rather than its keep-alive 400.
bool known_method(std::string_view m) {
  static constexpr std::array<std::string_view, 10> kMethods{
      "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI"};
  return std::find(kMethods.begin(), kMethods.end(), m) != kMethods.end();
}

Framed error(int status) {
  Framed f;
  f.kind = Framed::Kind::Error;
  f.status = status;
  return f;
}

// Headers that are the framer's business; httplib never sees them.
bool framing_header(std::string_view name) {
  for (std::string_view h : {"connection", "content-length", "transfer-encoding", "range", "if-range",
                             "keep-alive", "expect", "proxy-connection"}) {
    if (iequals(name, h)) return true;
  }
  return false;
}

}  // namespace

Framed frame_request(std::string_view input, const FramingLimits& limits) {
  // RFC 9112 §2.2: empty lines before a request line are skipped (bounded by the budget).
  std::size_t start = 0;
  while (input.substr(start, 2) == "\r\n" && start < limits.max_request_bytes) start += 2;
  const std::string_view rest = input.substr(start);
  const std::size_t line_end = rest.find('\n');
  // Still no line end at the limit counts too: the reader never buffers past the budget.
  if (line_end == std::string_view::npos ? rest.size() >= limits.max_request_line : line_end > limits.max_request_line) {
    return error(414);
  }
  const std::size_t end = rest.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    // A bare LF is refused at once, not when the head is complete (below): a client that ends
    // its lines with LF alone would otherwise wait, unanswered, for a CRLF CRLF that never comes.
    for (std::size_t lf = rest.find('\n'); lf != std::string_view::npos; lf = rest.find('\n', lf + 1)) {
      if (lf == 0 || rest[lf - 1] != '\r') return error(400);
    }
    if (input.size() >= limits.max_request_bytes) return error(431);
    if (static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n')) > limits.max_headers + 1) {
      return error(431);
    }
    return {};
  }
  if (start + end + 4 > limits.max_request_bytes) return error(431);

  // Split the head into lines; a CR or LF anywhere but in CRLF is a framing error.
  std::vector<std::string_view> lines;
  for (std::string_view head = rest.substr(0, end + 2); !head.empty();) {
    const std::size_t crlf = head.find("\r\n");
    const std::string_view line = head.substr(0, crlf);
    if (has_ctl(line)) return error(400);
    lines.push_back(line);
    head.remove_prefix(crlf + 2);
  }
  if (lines.size() - 1 > limits.max_headers) return error(431);

  const std::string_view request_line = lines.front();
  const std::size_t sp1 = request_line.find(' ');
  const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : request_line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || request_line.find(' ', sp2 + 1) != std::string_view::npos) {
    return error(400);
  }
  const std::string_view method = request_line.substr(0, sp1);
  std::string_view target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  // RFC 9112 §3.2.2: a server must accept the absolute form ("GET http://host:port/metrics");
  // httplib routes the origin form, so the scheme and authority are dropped here.
  bool absolute = false;
  for (const std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    if (target.size() >= scheme.size() && base::iequals(target.substr(0, scheme.size()), scheme)) {
      target.remove_prefix(scheme.size());
      const std::size_t path = target.find_first_of("/?");
      target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
      absolute = true;
    }
  }
  const std::string_view version = request_line.substr(sp2 + 1);
  if (!is_token(method) || target.empty()) return error(400);
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
      version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9') {
    return error(400);
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return error(505);
  if (!known_method(method)) return error(501);

  Framed f;
  f.facts.http10 = version == "HTTP/1.0";
  bool close = false, keep_alive = false, if_range = false, expect = false;
  int ranges = 0, hosts = 0;
  std::optional<std::size_t> length;
  std::string kept;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t colon = line.find(':');
    // No name, whitespace before the colon, or an obs-fold continuation line: refuse (RFC 9112 §5).
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) return error(400);
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-length")) {
      const auto n = digits(value);
      if (!n || (length && *length != *n)) return error(400);
      length = n;
    } else if (iequals(name, "transfer-encoding")) {
      return error(400);  // no request here takes a body; chunked framing is not followed
    } else if (iequals(name, "connection")) {
      for (std::string_view list = value; !list.empty();) {
        const std::size_t comma = list.find(',');
        const std::string_view token = trim(list.substr(0, comma));
        close = close || iequals(token, "close");
        keep_alive = keep_alive || iequals(token, "keep-alive");
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      }
    } else if (iequals(name, "range")) {
      ++ranges;
      f.facts.range = std::string(value);
    } else if (iequals(name, "if-range")) {
      if_range = true;
    } else if (iequals(name, "expect")) {
      expect = true;
    } else if (iequals(name, "host")) {
      ++hosts;
    }
    if (!framing_header(name)) {
      kept.append(line);
      kept.append("\r\n");
    }
  }
  // If-Range needs validators this server does not give out: the full body is the answer.
  if (ranges != 1 || if_range) f.facts.range.reset();
  const std::size_t body = length.value_or(0);
  if (expect && body > 0) return error(417);  // never "100 Continue": the body is not wanted
  const std::size_t total = start + end + 4 + body;
  if (body > limits.max_request_bytes || total > limits.max_request_bytes) return error(413);
  // RFC 9112 §3.2: an HTTP/1.1 request without Host, or any request with two, is refused.
  if (hosts > 1 || (hosts == 0 && !f.facts.http10)) return error(400);
  if (input.size() < total) return {};

  f.facts.keep_alive = f.facts.http10 ? keep_alive && !close : !close;
  f.kind = Framed::Kind::Ready;
  f.consumed = total;  // the body (GET with Content-Length) is read and dropped here
  f.head.reserve(request_line.size() + kept.size() + 32);
  if (absolute) {
    f.head.append(method).append(" ").append(target.front() == '?' ? "/" : "").append(target).append(" ").append(version);
  } else {
    f.head.append(request_line);
  }
  f.head.append("\r\n").append(kept);
  // httplib's own tests, spelled its way: "close" ends it, "Keep-Alive" keeps HTTP/1.0 open.
  if (!f.facts.keep_alive) f.head.append("Connection: close\r\n");
  else if (f.facts.http10) f.head.append("Connection: Keep-Alive\r\n");
  f.head.append("\r\n");
  return f;
}

std::string error_response(int status) {
  const char* reason = "Bad Request";
  switch (status) {
    case 408: reason = "Request Timeout"; break;
    case 413: reason = "Payload Too Large"; break;
    case 414: reason = "URI Too Long"; break;
    case 417: reason = "Expectation Failed"; break;
    case 429: reason = "Too Many Requests"; break;
    case 431: reason = "Request Header Fields Too Large"; break;
    case 501: reason = "Not Implemented"; break;
    case 505: reason = "HTTP Version Not Supported"; break;
    default: break;
  }
  const std::string body = std::string(reason) + "\n";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + body;
}

RangeDecision decide_range(std::string_view header, std::size_t length) {
  RangeDecision d;
  header = trim(header);
  const std::size_t eq = header.find('=');
  if (eq == std::string_view::npos || !iequals(trim(header.substr(0, eq)), "bytes")) return d;
  const std::string_view spec = trim(header.substr(eq + 1));
  const std::size_t dash = spec.find('-');
  if (spec.find(',') != std::string_view::npos || dash == std::string_view::npos) return d;
  const std::string_view a = spec.substr(0, dash), b = spec.substr(dash + 1);
  if (a.empty()) {  // suffix: the last n bytes
    const auto n = digits(b);
    if (!n) return d;
    if (*n == 0 || length == 0) {
      d.kind = RangeDecision::Kind::Unsatisfiable;
      return d;
    }
    d.kind = RangeDecision::Kind::Partial;
    d.first = length - std::min(*n, length);
    d.last = length - 1;
    return d;
  }
  const auto first = digits(a);
  const auto last = b.empty() ? std::optional<std::size_t>(kHuge) : digits(b);
  if (!first || !last || *last < *first) return d;  // malformed: ignored
  if (*first >= length) {
    d.kind = RangeDecision::Kind::Unsatisfiable;
    return d;
  }
  d.kind = RangeDecision::Kind::Partial;
  d.first = *first;
  d.last = std::min(*last, length - 1);
  return d;
}

std::string content_range(const RangeDecision& d, std::size_t length) {
  if (d.kind == RangeDecision::Kind::Partial) {
    return "bytes " + std::to_string(d.first) + "-" + std::to_string(d.last) + "/" + std::to_string(length);
  }
  return "bytes */" + std::to_string(length);
}

}  // namespace xcvr::exporters::detail
