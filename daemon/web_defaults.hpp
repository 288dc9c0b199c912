// The [web] defaults (docs/configuration.md), in one place: the config's WebConfig starts from
// them and so does the HTTP server's own WebConfig (exporters/http/server.hpp), so a server
// built without a config file behaves as the daemon does with an empty [web].
#pragma once

#include <cstddef>

namespace xcvr::daemon::web_defaults {

inline constexpr std::size_t kMaxRequestBytes = 8192;  // request line + headers + body
inline constexpr int kMaxConnections = 64;             // open at once
inline constexpr int kReadTimeoutMs = 5000;            // TLS handshake + request head
inline constexpr int kWriteTimeoutMs = 10000;          // stall allowed while the client reads

}  // namespace xcvr::daemon::web_defaults
