// HttpServer over loopback: routes, content types, gzip, methods, listen addresses, and
// limits (oversized, malformed and slow requests are refused while scrapes keep working).
#include <gtest/gtest.h>
#include <httplib.h>
#include <zlib.h>

#include <nlohmann/json.hpp>

#include <future>
#include <thread>
#include <vector>

#include "exporters/gzip.hpp"
#include "tests/e2e/exposition.hpp"
#include "tests/e2e/http_test_support.hpp"

namespace xcvr::exporters {
namespace {

using namespace std::chrono_literals;
using testing::TestServer;

std::string gunzip(const std::string& in) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return "";
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  std::array<char, 65536> buf{};
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf.data());
    z.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf.data(), buf.size() - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

TEST(ExporterHttp, Routes) {
  TestServer t{WebConfig{}};
  httplib::Client c("127.0.0.1", t.port);
  auto r = c.Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(r->body.find("transceiver-exporter"), std::string::npos);
  EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");

  r = c.Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  const auto e = testing::parse_exposition(r->body);
  EXPECT_EQ(e.value("transceiver_module_present", {{"port", "spine1/Ethernet0"}}), 1.0);

  r = c.Get("/api/v1/modules");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(nlohmann::json::parse(r->body).at("modules").size(), 10u);

  r = c.Get("/api/v1/modules/spine1/Ethernet16");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(nlohmann::json::parse(r->body).at("health"), "alarm");
  r = c.Get("/api/v1/modules/spine1%2FEthernet16");  // an encoded slash names the same port
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  r = c.Get("/api/v1/modules/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(nlohmann::json::parse(r->body).at("error"), "no such port");

  r = c.Get("/port/spine1/Ethernet0");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  r = c.Get("/port/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);

  r = c.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "ok\n");
  r = c.Get("/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST(ExporterHttp, OnlyGetAndHead) {
  TestServer t{WebConfig{}};
  httplib::Client c("127.0.0.1", t.port);
  auto r = c.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(r->get_header_value("Allow"), "GET, HEAD");
  r = c.Head("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(r->body.empty());
}

TEST(ExporterHttp, GzipWhenAsked) {
  TestServer t{WebConfig{}};
  httplib::Client c("127.0.0.1", t.port);
  c.set_decompress(false);
  auto plain = c.Get("/metrics");
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->get_header_value("Content-Encoding").empty());
  EXPECT_EQ(plain->get_header_value("Content-Length"), std::to_string(plain->body.size()));
  for (const char* accept : {"gzip", "deflate, gzip;q=0.8", "gzip, deflate, br"}) {
    auto zipped = c.Get("/metrics", {{"Accept-Encoding", accept}});
    ASSERT_TRUE(zipped);
    EXPECT_EQ(zipped->get_header_value("Content-Encoding"), "gzip") << accept;
    ASSERT_GE(zipped->body.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(zipped->body[0]), 0x1f);
    EXPECT_LT(zipped->body.size() * 4, plain->body.size());
    EXPECT_EQ(gunzip(zipped->body), plain->body);  // same snapshot, same bytes
  }
  auto refused = c.Get("/metrics", {{"Accept-Encoding", "gzip;q=0, br"}});
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->get_header_value("Content-Encoding").empty());  // and never brotli
  EXPECT_EQ(refused->body, plain->body);
}

TEST(ExporterHttp, AcceptEncodingParsing) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("GZIP"));
  EXPECT_TRUE(accepts_gzip("br, gzip ; q=0.1"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("identity"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("x-gzip"));
}

TEST(ExporterHttp, OversizedAndMalformedRequestsAreRefused) {
  WebConfig cfg;
  cfg.max_request_bytes = 4096;
  TestServer t{cfg};
  std::string big = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 100; ++i) big += "X-Filler-" + std::to_string(i) + ": " + std::string(100, 'a') + "\r\n";
  big += "\r\n";
  std::string reply = testing::raw_exchange(t.port, big);
  EXPECT_EQ(reply.find("200 OK"), std::string::npos);
  EXPECT_NE(reply.find("431 Request Header Fields Too Large"), std::string::npos) << reply.substr(0, 80);

  reply = testing::raw_exchange(t.port, "GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(reply.find("414 URI Too Long"), std::string::npos) << reply.substr(0, 80);

  reply = testing::raw_exchange(t.port, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
  EXPECT_NE(reply.find("413"), std::string::npos) << reply.substr(0, 80);

  reply = testing::raw_exchange(t.port, "\x16\x03\x01 garbage\r\n\r\n");
  EXPECT_NE(reply.find("400 Bad Request"), std::string::npos) << reply.substr(0, 80);

  httplib::Client c("127.0.0.1", t.port);
  auto r = c.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST(ExporterHttp, SlowClientsAreCutOffAndDoNotBlockScrapes) {
  WebConfig cfg;
  cfg.max_threads = 8;
  cfg.read_timeout_s = 1.0;
  cfg.request_timeout = 1500ms;
  TestServer t{cfg, testing::make_fleet(64)};
  // Five slowloris clients: a header byte every 100 ms, never finishing.
  std::vector<int> slow;
  for (int i = 0; i < 5; ++i) {
    slow.push_back(testing::connect_loopback(t.port));
    testing::send_all(slow.back(), "GET /metrics HTTP/1.1\r\nHost: x\r\nX: ");
  }
  std::atomic<bool> trickle{true};
  std::thread trickler([&] {
    while (trickle) {
      for (int fd : slow) testing::send_all(fd, "a");
      std::this_thread::sleep_for(100ms);
    }
  });
  // Meanwhile scrapes are served at once.
  httplib::Client c("127.0.0.1", t.port);
  for (int i = 0; i < 20; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto r = c.Get("/metrics");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  }
  // And the slow requests are dropped once request_timeout passes, although they keep sending.
  std::this_thread::sleep_for(1700ms);
  for (int fd : slow) {
    pollfd p{fd, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 1000), 1);
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    EXPECT_TRUE(n <= 0 || std::string(buf, static_cast<std::size_t>(n)).find("200 OK") == std::string::npos);
  }
  trickle = false;
  trickler.join();
  for (int fd : slow) ::close(fd);
}

TEST(ExporterHttp, MoreSlowClientsThanWorkersOnlyDelayScrapesUntilTheirTimeout) {
  WebConfig cfg;
  cfg.max_threads = 2;
  cfg.max_connections = 16;
  cfg.read_timeout_s = 0.5;
  cfg.request_timeout = 800ms;
  TestServer t{cfg};
  std::vector<int> idle;
  for (int i = 0; i < 4; ++i) idle.push_back(testing::connect_loopback(t.port));  // send nothing
  const auto start = std::chrono::steady_clock::now();
  httplib::Client c("127.0.0.1", t.port);
  auto r = c.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2500ms);
  for (int fd : idle) ::close(fd);
}

TEST(ExporterHttp, KeepAliveServesSeveralRequestsOnOneConnection) {
  TestServer t{WebConfig{}};
  const int fd = testing::connect_loopback(t.port);
  ASSERT_GE(fd, 0);
  const std::string req = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  testing::send_all(fd, req + req + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string reply = testing::read_until_close(fd, 3000ms);
  ::close(fd);
  std::size_t n = 0;
  for (auto p = reply.find("HTTP/1.1 200 OK"); p != std::string::npos; p = reply.find("HTTP/1.1 200 OK", p + 1)) ++n;
  EXPECT_EQ(n, 3u);
}

TEST(ExporterHttp, StopIsPromptWithOpenConnections) {
  auto t = std::make_unique<TestServer>(WebConfig{});
  const int idle = testing::connect_loopback(t->port);
  httplib::Client c("127.0.0.1", t->port);
  c.set_keep_alive(true);
  ASSERT_TRUE(c.Get("/healthz"));
  const auto start = std::chrono::steady_clock::now();
  t->server->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);
  ::close(idle);
}

TEST(ExporterHttp, ListenAddresses) {
  WebConfig cfg;
  cfg.listen_addresses = {":0"};
  daemon::SnapshotStore store;
  HttpServer server(cfg, store);
  server.start();
  const int port = server.ports().at(0);
  httplib::Client v4("127.0.0.1", port);
  auto r = v4.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  if (testing::run_shell("test -e /proc/net/if_inet6 && grep -q ' lo$' /proc/net/if_inet6").status == 0) {
    httplib::Client v6("::1", port);  // ":port" listens on IPv6 too
    r = v6.Get("/healthz");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
}

TEST(ExporterHttp, ListenFailuresAreReported) {
  WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  daemon::SnapshotStore store;
  HttpServer first(cfg, store);
  first.start();
  cfg.listen_addresses = {"127.0.0.1:" + std::to_string(first.ports().at(0))};
  HttpServer second(cfg, store);
  EXPECT_THROW(second.start(), std::runtime_error);  // no SO_REUSEPORT sharing
  for (const char* bad : {"10458", "::1:10458", "[::1]10458", "host:99999", "host:"}) {
    cfg.listen_addresses = {bad};
    HttpServer s(cfg, store);
    EXPECT_THROW(s.start(), std::runtime_error) << bad;
  }
  cfg.listen_addresses = {"127.0.0.1:0"};
  cfg.tls_cert_file = "/nonexistent/cert.pem";
  cfg.tls_key_file = "/nonexistent/key.pem";
  HttpServer tls(cfg, store);
  try {
    tls.start();
    ADD_FAILURE() << "started without a certificate";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cert.pem"), std::string::npos);
  }
}

TEST(ExporterHttp, ConcurrentScrapesOfLargeFleet) {
  WebConfig cfg;
  TestServer t{cfg, testing::make_fleet(64)};
  std::vector<std::future<int>> results;
  for (int i = 0; i < 8; ++i) {
    results.push_back(std::async(std::launch::async, [&] {
      httplib::Client c("127.0.0.1", t.port);
      int ok = 0;
      for (int k = 0; k < 5; ++k) {
        auto r = c.Get("/metrics");
        ok += (r && r->status == 200 && r->body.size() > 200000) ? 1 : 0;
      }
      return ok;
    }));
  }
  for (auto& f : results) EXPECT_EQ(f.get(), 5);
}

}  // namespace
}  // namespace xcvr::exporters
