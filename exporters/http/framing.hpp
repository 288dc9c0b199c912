// Request framing ahead of cpp-httplib (internal to exporters/http/): one strict parser decides where
// a request ends, what it may carry and what httplib gets to see, for the listeners and for
// serve_bytes() alike. httplib 0.11 reads no body on GET (so a body became a second request),
// gives no answer to an over-long request line, compares "Connection: Keep-Alive" case-
// sensitively and turns any Range header into 416 or a multi-range body the size of the
// ranges; so Range, Connection and Content-Length never reach it: facts about them travel in
// RequestFacts and the server applies them to the response (server.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace xcvr::exporters::detail {

// What the framer learned about one request, for the response side.
struct RequestFacts {
  bool http10 = false;
  bool keep_alive = true;          // the client allows another request on this connection
  std::optional<std::string> range;  // the one Range header (absent if none, several or If-Range)
};

struct Framed {
  enum class Kind { Incomplete, Error, Ready } kind = Kind::Incomplete;
  int status = 0;              // Error: the status to answer with before closing
  std::size_t consumed = 0;    // Ready: bytes of input this request took (head + body)
  std::string head;            // Ready: request line + headers for httplib, ending in CRLF CRLF
  RequestFacts facts;
};

struct FramingLimits {
  std::size_t max_request_bytes = 16 * 1024;  // head + body
  std::size_t max_request_line = 8 * 1024;    // longer: 414
  std::size_t max_headers = 100;              // more header lines: 431
};

// Frames the request at the start of `input`. Incomplete: more bytes may complete it (unless
// `input` already exceeds a limit, which is an Error). Error statuses: 400 (malformed, bare LF
// or CR, Transfer-Encoding, bad Content-Length), 413 (body over the budget), 414 (request line),
// 431 (headers), 501 (unknown method), 505 (not HTTP/1.0 or 1.1).
Framed frame_request(std::string_view input, const FramingLimits& limits);

// A complete error response that closes the connection (for statuses frame_request gives).
std::string error_response(int status);

// Range (RFC 9110 §14) against a representation of `length` bytes. A unit other than bytes, a
// malformed value or more than one range is ignored (full 200: bounded by one body, which a
// multi-range reply of 2000 ranges is not); one satisfiable range is served as 206.
struct RangeDecision {
  enum class Kind { Full, Partial, Unsatisfiable } kind = Kind::Full;
  std::size_t first = 0, last = 0;  // Partial: inclusive byte positions
};
RangeDecision decide_range(std::string_view range_header, std::size_t length);

// "bytes 0-9/100" for Partial, "bytes */100" for Unsatisfiable.
std::string content_range(const RangeDecision& d, std::size_t length);

}  // namespace xcvr::exporters::detail
