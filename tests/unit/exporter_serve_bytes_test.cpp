// HttpServer::serve_bytes: one connection's bytes through the listeners' request loop, limits,
// parser, auth and routes without a socket (the path the HTTP fuzz target drives).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "exporters/http/basic_auth.hpp"
#include "exporters/http/server.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

struct Offline {
  explicit Offline(WebConfig cfg = {}) {
    store.publish(std::make_shared<const daemon::Snapshot>(testing::make_rich_snapshot()));
    server = std::make_unique<HttpServer>(std::move(cfg), store);
  }
  daemon::SnapshotStore store;
  std::unique_ptr<HttpServer> server;
};

// Status codes of the responses in `out`, in order (bodies here never hold a status line).
std::vector<int> statuses(const std::string& out) {
  std::vector<int> codes;
  for (std::size_t pos = out.find("HTTP/1.1 "); pos != std::string::npos; pos = out.find("HTTP/1.1 ", pos + 1)) {
    codes.push_back(std::stoi(out.substr(pos + 9, 3)));
  }
  return codes;
}

// A port named with a dot segment (a fabric node described as ".."): the landing page links it
// with its '/' encoded, and that link opens its page (a browser would have resolved "/port/../1"
// to "/1").
TEST(ExporterServeBytes, APortNamedWithADotSegmentIsLinkedToItsOwnPage) {
  daemon::Snapshot s = testing::make_fleet(1);
  s.ports[0].port = "../1";
  daemon::SnapshotStore store;
  store.publish(std::make_shared<const daemon::Snapshot>(s));
  HttpServer server(WebConfig{}, store);
  const std::string landing = server.serve_bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_NE(landing.find("href=\"/port/..%2F1\""), std::string::npos);
  const std::string page = server.serve_bytes("GET /port/..%2F1 HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(statuses(page), std::vector<int>{200});
  EXPECT_NE(page.find("../1"), std::string::npos);
}

TEST(ExporterServeBytes, PipelinedRequestsOnOneConnection) {
  Offline o;
  const std::string out = o.server->serve_bytes(
      "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
      "GET /api/v1/modules/spine1%2FEthernet16 HTTP/1.1\r\nHost: a\r\n\r\n"
      "HEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(statuses(out), (std::vector<int>{200, 200, 200}));
  EXPECT_NE(out.find("\r\n\r\nok\n"), std::string::npos);
  EXPECT_NE(out.find("Content-Type: application/json"), std::string::npos);
  EXPECT_EQ(out.find("# HELP"), std::string::npos) << "HEAD sent a body";
}

TEST(ExporterServeBytes, FramingErrorsCloseTheConnectionOthersDoNot) {
  Offline o;
  // A 404 or 405 leaves the connection framed (the framer consumed the body): it goes on.
  EXPECT_EQ(statuses(o.server->serve_bytes("GET /nope HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
            (std::vector<int>{404, 200}));
  EXPECT_EQ(statuses(o.server->serve_bytes("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET / HTTP/1.1\r\nHost: x\r\n\r\n")),
            (std::vector<int>{405, 200}));
  // After a framing error nothing more is parsed, and the answer says so.
  const std::string bad = o.server->serve_bytes("BLAH\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(statuses(bad), std::vector<int>{400});
  EXPECT_NE(bad.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_EQ(o.server->serve_bytes(""), "");
}

TEST(ExporterServeBytes, OversizedRequestIsRefused) {
  WebConfig cfg;
  cfg.max_request_bytes = 4096;
  Offline o(cfg);
  const std::string big = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(8000, 'a') + "\r\n\r\n";
  const auto codes = statuses(o.server->serve_bytes(big + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
  for (int code : codes) EXPECT_GE(code, 400);
  EXPECT_LE(codes.size(), 1u);
}

TEST(ExporterServeBytes, AuthAppliesWithoutASocket) {
  const auto hash = bcrypt_hash("s3cret", 4);
  ASSERT_TRUE(hash.has_value());
  WebConfig cfg;
  cfg.basic_auth_users = {{"prom", *hash}};
  Offline o(cfg);
  const std::string denied = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic cHJvbTp3cm9uZw==\r\n\r\n");
  EXPECT_EQ(statuses(denied), std::vector<int>{401});
  EXPECT_NE(denied.find("WWW-Authenticate: Basic"), std::string::npos);
  EXPECT_EQ(statuses(o.server->serve_bytes("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")), std::vector<int>{200});
  // "prom:s3cret"
  const std::string ok = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic cHJvbTpzM2NyZXQ=\r\n\r\n");
  EXPECT_EQ(statuses(ok), std::vector<int>{200});
  EXPECT_NE(ok.find("transceiver_"), std::string::npos) << ok.substr(0, 600);
}

// fuzz_http_request: a Range past the end of /metrics made the body provider read (and send)
// heap memory beyond the rendered text.
TEST(ExporterServeBytes, RangeBeyondMetricsBodyStaysInside) {
  Offline o;
  const std::string full = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::size_t body = full.size() - full.find("\r\n\r\n") - 4;
  const std::string out = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nRange: bytes=0-10333330\r\n\r\n");
  EXPECT_LE(out.size(), full.size() + 512) << "sent more than the body";
  EXPECT_GT(body, 1000u);
  // A satisfiable range gets exactly its bytes, an unsatisfiable one a 416 and no body.
  const std::string ten = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n");
  EXPECT_EQ(ten.rfind("HTTP/1.1 206", 0), 0u) << ten.substr(0, 40);
  EXPECT_EQ(ten.size() - ten.find("\r\n\r\n") - 4, 10u);
  EXPECT_EQ(full.substr(full.find("\r\n\r\n") + 4, 10), ten.substr(ten.find("\r\n\r\n") + 4));
  const std::string past =
      o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nRange: bytes=100000000-100000010\r\n\r\n");
  EXPECT_EQ(past.rfind("HTTP/1.1 416", 0), 0u) << past.substr(0, 40);
}

TEST(ExporterServeBytes, BcryptCost) {
  EXPECT_EQ(bcrypt_cost("$2y$10$abcdefghijklmnopqrstuu"), 10);
  EXPECT_EQ(bcrypt_cost("$2b$04$x"), 4);
  EXPECT_EQ(bcrypt_cost("$2a$12$"), 12);
  EXPECT_EQ(bcrypt_cost(*bcrypt_hash("x", 5)), 5);
  for (const char* bad : {"", "$2y$", "$2x$10$", "$1$10$", "$2y$1x$", "$2y$10"}) {
    EXPECT_FALSE(bcrypt_cost(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace xcvr::exporters
