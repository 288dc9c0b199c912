// What the connection reactor (connections.hpp) counts, for HttpServer::connection_stats(): apart
// so the server's public header needs neither the reactor nor httplib.
#pragma once

#include <cstddef>

namespace xcvr::exporters {

// What the connection reactor did with connections since start() (docs/architecture.md, HTTP).
struct ConnectionStats {
  std::size_t open = 0;            // connections now open (waiting or being answered)
  std::size_t refused = 0;         // closed: the client address held its share (after reaping its closed ones)
  std::size_t evicted = 0;         // closed over max_connections (from the heaviest address)
  std::size_t timed_out = 0;       // handshake, request head or keep-alive deadline passed
  std::size_t framing_errors = 0;  // answered 4xx/5xx by the request framer, then closed
  std::size_t deferred = 0;        // complete requests held while their address had its share of workers
};

}  // namespace xcvr::exporters
