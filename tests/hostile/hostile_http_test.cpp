// Hostile inputs against the HTTP server (ctest label "hostile"): the issue-16 findings, each
// reproduced and bounded. Range and framing cases go through serve_bytes() (the listeners' own
// framer, parser and routes); floods use real loopback sockets against a started server while
// a scraper, from another loopback address (127.0.0.2) as Prometheus would be, keeps scraping.
// Each case is bounded by count; latencies are printed as figures, never asserted.
#include <gtest/gtest.h>

#include <openssl/ssl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "daemon/allocator.hpp"
#include "daemon/coding_setup.hpp"
#include "exporters/http/basic_auth.hpp"
#include "exporters/gzip.hpp"
#include "tests/hostile/hostile_support.hpp"

namespace xcvr::exporters {
namespace {

using namespace std::chrono_literals;
using testing::connect_from;
using testing::send_all;

struct Offline {
  explicit Offline(WebConfig cfg = {}, daemon::Snapshot snap = testing::make_fleet(72)) {
    store.publish(std::make_shared<const daemon::Snapshot>(std::move(snap)));
    server = std::make_unique<HttpServer>(std::move(cfg), store);
  }
  std::string get(const std::string& headers, const std::string& path = "/metrics") {
    return server->serve_bytes("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n");
  }
  daemon::SnapshotStore store;
  std::unique_ptr<HttpServer> server;
};

std::string head_of(const std::string& r) { return r.substr(0, r.find("\r\n\r\n") + 2); }
std::string body_of(const std::string& r) { return r.substr(r.find("\r\n\r\n") + 4); }
std::string header(const std::string& r, const std::string& name) {
  const std::string h = head_of(r);
  const auto p = h.find("\r\n" + name + ": ");
  if (p == std::string::npos) return "";
  const auto s = p + name.size() + 4;
  return h.substr(s, h.find("\r\n", s) - s);
}
int status_of(const std::string& r) { return r.size() >= 12 ? std::stoi(r.substr(9, 3)) : 0; }

// ---- Range ------------------------------------------------------------------------------

TEST(HostileRange, ThousandsOfRangesGetOneBodyAndRssStaysBounded) {
  WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  testing::TestServer t{cfg, testing::make_fleet(72)};
  std::string ranges = "bytes=0-";
  for (int i = 0; i < 1999; ++i) ranges += ",0-";  // 2000 ranges, a 6 KB header
  const std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\nRange: " + ranges + "\r\nConnection: close\r\n\r\n";
  const std::string plain = testing::raw_exchange(t.port, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::size_t full = body_of(plain).size();
  ASSERT_GT(full, 100000u);
  const long before = testing::rss_kib();
  std::vector<std::string> replies(4);
  std::vector<std::thread> clients;
  for (int round = 0; round < 5; ++round) {
    for (auto& r : replies) clients.emplace_back([&] { r = testing::raw_exchange(t.port, request, 10000ms); });
    for (auto& c : clients) c.join();
    clients.clear();
    for (const auto& r : replies) {
      EXPECT_EQ(status_of(r), 200) << head_of(r);  // multi-range is ignored: one body
      EXPECT_EQ(body_of(r).size(), full);
    }
  }
  const long after = testing::rss_kib();
  std::printf("figure: multi-range x4 x5 rounds, body %zu B, RSS %ld -> %ld KiB\n", full, before, after);
#if defined(__SANITIZE_ADDRESS__)  // GCC, the sanitizer build's compiler
  // ASan's quarantine (256 MiB by default) keeps freed blocks resident: a looser bound, which
  // still fails the old behaviour (882 MB per reply, four at once).
  constexpr long kBoundKib = 512 * 1024;
#else
  constexpr long kBoundKib = 32 * 1024;
#endif
  EXPECT_LT(after - before, kBoundKib) << "RSS grew by more than " << kBoundKib / 1024 << " MiB";  // was GBs
}

TEST(HostileRange, FormsAndStatuses) {
  Offline o;
  const std::string full = body_of(o.get(""));
  const std::size_t n = full.size();
  const std::string len = std::to_string(n);

  std::string r = o.get("Range: items=0-5\r\n");  // unknown unit: ignored
  EXPECT_EQ(status_of(r), 200);
  EXPECT_EQ(body_of(r), full);

  r = o.get("Range: bytes=0-9\r\n");
  EXPECT_EQ(status_of(r), 206);
  EXPECT_EQ(header(r, "Content-Range"), "bytes 0-9/" + len);
  EXPECT_EQ(body_of(r), full.substr(0, 10));

  r = o.get("Range: bytes=10-10000000000\r\n");  // clamped, and said so
  EXPECT_EQ(status_of(r), 206);
  EXPECT_EQ(header(r, "Content-Range"), "bytes 10-" + std::to_string(n - 1) + "/" + len);
  EXPECT_EQ(header(r, "Content-Length"), std::to_string(n - 10));
  EXPECT_EQ(body_of(r), full.substr(10));

  r = o.get("Range: bytes=-7\r\n");
  EXPECT_EQ(status_of(r), 206);
  EXPECT_EQ(body_of(r), full.substr(n - 7));

  for (const std::string& past : {"bytes=" + len + "-", std::string("bytes=99999999-99999999"), std::string("bytes=-0")}) {
    r = o.get("Range: " + past + "\r\n");
    EXPECT_EQ(status_of(r), 416) << past;
    EXPECT_EQ(header(r, "Content-Range"), "bytes */" + len) << past;
    EXPECT_EQ(header(r, "Content-Length"), "0") << past;
    EXPECT_EQ(body_of(r), "") << past;
  }
  for (const char* ignored : {"bytes=5-2", "bytes=0-1,3-4", "bytes=x-y", "bytes=", "bytes 0-1"}) {
    r = o.get(std::string("Range: ") + ignored + "\r\n");
    EXPECT_EQ(status_of(r), 200) << ignored;
    EXPECT_EQ(body_of(r).size(), n) << ignored;
  }
  // Two Range headers, or If-Range (no validators here): the full body.
  EXPECT_EQ(status_of(o.get("Range: bytes=0-1\r\nRange: bytes=2-3\r\n")), 200);
  EXPECT_EQ(status_of(o.get("Range: bytes=0-1\r\nIf-Range: \"x\"\r\n")), 200);
}

TEST(HostileRange, GzipAndRangeAgree) {
  Offline o;
  const std::string zipped = o.get("Accept-Encoding: gzip\r\n");
  ASSERT_EQ(header(zipped, "Content-Encoding"), "gzip");
  const std::string gz = body_of(zipped);
  // The range is of the gzip representation, announced as such (RFC 9110 §14.1.1).
  const std::string r = o.get("Accept-Encoding: gzip\r\nRange: bytes=0-99\r\n");
  EXPECT_EQ(status_of(r), 206);
  EXPECT_EQ(header(r, "Content-Encoding"), "gzip");
  EXPECT_EQ(header(r, "Content-Range"), "bytes 0-99/" + std::to_string(gz.size()));
  EXPECT_EQ(body_of(r), gz.substr(0, 100));
  // Every route: a large landing page is gzip'd by the same path, and sliced the same way.
  const std::string page = o.get("Accept-Encoding: gzip\r\n", "/");
  EXPECT_EQ(header(page, "Content-Encoding"), "gzip");
  const std::string part = o.get("Accept-Encoding: gzip\r\nRange: bytes=-20\r\n", "/");
  EXPECT_EQ(status_of(part), 206);
  EXPECT_EQ(body_of(part), body_of(page).substr(body_of(page).size() - 20));
  // Without Accept-Encoding a slice is plain text.
  const std::string plain = o.get("Range: bytes=0-5\r\n");
  EXPECT_EQ(header(plain, "Content-Encoding"), "");
  EXPECT_EQ(body_of(plain), "# HELP");
}

// ---- Framing ----------------------------------------------------------------------------

TEST(HostileFraming, GetBodyIsConsumedNotParsedAsARequest) {
  Offline o;
  const std::string smuggled = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string out = o.server->serve_bytes("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                                std::to_string(smuggled.size()) + "\r\n\r\n" + smuggled +
                                                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  std::size_t responses = 0;
  for (auto p = out.find("HTTP/1.1 "); p != std::string::npos; p = out.find("HTTP/1.1 ", p + 1)) ++responses;
  EXPECT_EQ(responses, 2u) << out.substr(0, 400);
  EXPECT_EQ(out.find("# HELP"), std::string::npos) << "the body was served as a request";
  // Chunked framing is refused outright, and the connection closed.
  const std::string chunked = o.server->serve_bytes(
      "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status_of(chunked), 400);
  EXPECT_EQ(header(chunked, "Connection"), "close");
  EXPECT_EQ(chunked.find("HTTP/1.1 ", 1), std::string::npos);
  // Conflicting lengths, a body over the budget, a bare LF: refused.
  EXPECT_EQ(status_of(o.server->serve_bytes("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")), 413);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET / HTTP/1.1\nHost: x\r\n\r\n")), 400);
  // A request of bare LFs only is answered at once (it waited, unanswered, for a CRLF CRLF).
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /metrics HTTP/1.1\nHost: x\n\n")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /metrics HTTP/1.1\n")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET / HTTP/2.0\r\n\r\n")), 505);
  EXPECT_EQ(status_of(o.server->serve_bytes("BREW / HTTP/1.1\r\nHost: x\r\n\r\n")), 501);
  // RFC 9112 §3.2: HTTP/1.1 without Host (it got 200), or two Hosts, is a 400; HTTP/1.0 needs none.
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /healthz HTTP/1.1\r\n\r\n")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /healthz HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /healthz HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n")), 400);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /healthz HTTP/1.0\r\n\r\n")), 200);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET /healthz HTTP/1.1\r\nHOST: x\r\n\r\n")), 200);
}

// RFC 9112 §3.2.2: the absolute form is accepted (it got 404): scheme and authority are dropped
// and the path and query routed as the origin form would be.
TEST(HostileFraming, AbsoluteFormTargetIsRouted) {
  Offline o;
  const std::string origin = o.server->serve_bytes("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  for (const char* target : {"http://127.0.0.1:10458/metrics", "HTTP://exporter.example/metrics",
                             "https://x/metrics"}) {
    const std::string r = o.server->serve_bytes(std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(r), 200) << target;
    EXPECT_EQ(body_of(r), body_of(origin)) << target;
  }
  EXPECT_EQ(status_of(o.server->serve_bytes("GET http://x/healthz?probe=1 HTTP/1.1\r\nHost: x\r\n\r\n")), 200);
  EXPECT_EQ(status_of(o.server->serve_bytes("GET http://x HTTP/1.1\r\nHost: x\r\n\r\n")), 200);  // "/"
  EXPECT_EQ(status_of(o.server->serve_bytes("GET http://x/nope HTTP/1.1\r\nHost: x\r\n\r\n")), 404);
}

TEST(HostileFraming, OverlongUrlGets414AndErrorsSayClose) {
  WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  testing::TestServer t{cfg};
  for (std::size_t len : {9000u, 20000u, 200000u}) {
    const std::string r = testing::raw_exchange(t.port, "GET /" + std::string(len, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(r), 414) << len << ": " << r.substr(0, 60);
    EXPECT_EQ(header(r, "Connection"), "close") << len;
  }
  std::string big = "GET / HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 200; ++i) big += "X-" + std::to_string(i) + ": a\r\n";
  for (const std::string& bad : {std::string("BLAH\r\n\r\n"), std::string("\x16\x03\x01 garbage\r\n\r\n"), big + "\r\n"}) {
    const int fd = testing::connect_from(t.port, "127.0.0.1");
    ASSERT_GE(fd, 0);
    send_all(fd, bad);
    const std::string r = testing::read_until_close(fd, 5000ms);
    ::close(fd);
    EXPECT_GE(status_of(r), 400) << r.substr(0, 60);
    EXPECT_EQ(header(r, "Connection"), "close") << r.substr(0, 200);  // what it says, it does
    EXPECT_EQ(header(r, "Keep-Alive"), "");
  }
}

TEST(HostileFraming, Http10KeepAlivePairIsServed) {
  WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  testing::TestServer t{cfg};
  const std::string req = "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
  const int fd = connect_from(t.port, "127.0.0.1");
  ASSERT_GE(fd, 0);
  send_all(fd, req);
  const std::string first = testing::read_response(fd, 5000ms);
  EXPECT_EQ(status_of(first), 200);
  EXPECT_EQ(header(first, "Connection"), "keep-alive");
  send_all(fd, req);  // the second request of the pair, on the same connection
  const std::string second = testing::read_response(fd, 5000ms);
  EXPECT_EQ(status_of(second), 200) << second;
  ::close(fd);
  // Plain HTTP/1.0 gets one answer that says close.
  const std::string once = testing::raw_exchange(t.port, "GET /healthz HTTP/1.0\r\n\r\nGET /healthz HTTP/1.0\r\n\r\n");
  EXPECT_EQ(status_of(once), 200);
  EXPECT_EQ(header(once, "Connection"), "close");
  EXPECT_EQ(once.find("HTTP/1.1", 1), std::string::npos);
}

// ---- whole-fleet pages -------------------------------------------------------------------

// VmHWM (peak resident set) of this process in KiB, after `reset` (clear_refs 5) if asked.
long peak_rss_kib(bool reset) {
  if (reset) std::ofstream("/proc/self/clear_refs") << "5";
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// One GET of `path` from `source` (Connection: close); the body's size, its bytes dropped as
// they arrive (the client must not hold what the test measures the server for).
std::size_t body_bytes(int port, const std::string& source, const std::string& path) {
  const int fd = testing::connect_from(port, source);
  if (fd < 0) return 0;
  testing::send_all(fd, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::size_t total = 0, head = 0;
  std::string start;
  char buf[65536];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
    if (start.size() < 65536) start.append(buf, static_cast<std::size_t>(std::min<ssize_t>(n, 65536)));
    if (head == 0 && start.find("\r\n\r\n") != std::string::npos) head = start.find("\r\n\r\n") + 4;
    total += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return start.rfind("HTTP/1.1 200", 0) == 0 && head != 0 ? total - head : 0;
}

// #39 item 2: the 2,048-port JSON API, measured from before the first request. One request costs
// the body (written port by port, never one document: api_json.hpp) and its gzip; eight clients
// on eight addresses (so all eight workers answer at once) on a fresh snapshot share one make
// (exporters/per_snapshot.hpp). Peak RSS must grow by at most 2 x body per request. (Each
// request built its own document of 9-10 x the body before: 8 of them took RSS from 138 MB to
// 1.3 GB.)
TEST(HostileApi, FleetJsonCostsAtMostTwiceItsBodyPerRequest) {
  WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  testing::TestServer t{cfg, testing::make_fleet(2048)};
  const long before = testing::rss_kib();
  peak_rss_kib(true);
  const std::size_t body = body_bytes(t.port, "127.0.0.1", "/api/v1/modules");
  ASSERT_GT(body, 1u << 20);
  const long one = peak_rss_kib(false) - before;
  t.store.publish(std::make_shared<const daemon::Snapshot>(testing::make_fleet(2048)));  // not made yet
  std::vector<std::size_t> got(8);
  std::vector<std::thread> clients;
  for (std::size_t i = 0; i < got.size(); ++i) {
    clients.emplace_back([&, i] { got[i] = body_bytes(t.port, "127.0.0." + std::to_string(i + 1), "/api/v1/modules"); });
  }
  for (auto& c : clients) c.join();
  const long eight = peak_rss_kib(false) - before;
  for (const std::size_t n : got) EXPECT_EQ(n, body);
  const auto per_body = [&](long kib, int requests) { return static_cast<double>(kib) * 1024 / requests / static_cast<double>(body); };
  std::printf("figure: 2,048-port JSON API, body %zu B: one request +%ld KiB peak RSS (%.2f x body); 8 parallel "
              "on a fresh snapshot +%ld KiB (%.2f x body per request)\n",
              body, one, per_body(one, 1), eight, per_body(eight, 8));
#if defined(__SANITIZE_ADDRESS__)
  // Measured: +21.5 x body for one request: ASan keeps 256 MiB of freed blocks in quarantine
  // (every port's JSON tree, freed as written) besides its shadow. That measures the sanitizer.
  GTEST_SKIP() << "peak RSS under ASan measures its quarantine and shadow; the release build holds the bound";
#endif
  EXPECT_LT(per_body(one, 1), 2.0);
  EXPECT_LT(per_body(eight, 8), 2.0);
}

// #39: a counterfeit batch, 10,000 modules coded with one serial, judged as the daemon judges
// them (daemon::add_fleet_findings: a serial_duplicate finding on each port naming three others)
// and served. Every page answers, and the peak RSS of building, judging and serving the fleet is
// at most 2 x that of 10,000 distinct serials. The batch runs first: whatever the allocator
// keeps from it can only help the distinct case. (Each port listed every other before: 10,000
// such ports held ~3 GB and a landing page drove RSS to 10 GB without an answer.)
TEST(HostileFleet, TenThousandPortsOfOneSerialCostAtMostTwiceDistinctOnes) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kPorts = 2'000;  // the same paths under ASan, within the test's time; no RSS bound
#else
  constexpr int kPorts = 10'000;
#endif
  std::size_t landing_bytes = 0;
  const auto serve = [&](bool one_serial) {
    daemon::return_free_heap_to_os();
    const long before = testing::rss_kib();
    peak_rss_kib(true);
    {
      daemon::Snapshot s = testing::make_fleet(kPorts);
      if (one_serial) {
        for (daemon::PortSnapshot& p : s.ports) testing::report_of(p).id.serial = "COPIED000001";
      }
      daemon::add_fleet_findings(s.ports, nullptr);
      const std::size_t findings = static_cast<std::size_t>(std::count_if(
          s.ports.begin(), s.ports.end(), [](const daemon::PortSnapshot& p) { return !p.coding.empty(); }));
      EXPECT_EQ(findings, one_serial ? static_cast<std::size_t>(kPorts) : 0u);
      WebConfig cfg;
      cfg.listen_addresses = {"127.0.0.1:0"};
      testing::TestServer t{cfg, std::move(s)};
      for (const char* path : {"/", "/metrics", "/api/v1/modules", "/port/spine1/Ethernet800", "/healthz"}) {
        const std::size_t n = body_bytes(t.port, "127.0.0.1", path);
        EXPECT_GT(n, 0u) << path << (one_serial ? " (one serial)" : " (distinct serials)");
        if (one_serial && std::string_view(path) == "/") landing_bytes = n;
      }
    }
    return peak_rss_kib(false) - before;
  };
  const long batch = serve(true);
  const long distinct = serve(false);
  std::printf("figure: %d ports, peak RSS growth: one serial +%ld KiB, distinct serials +%ld KiB (%.2f x); "
              "landing page %zu B\n",
              kPorts, batch, distinct, static_cast<double>(batch) / static_cast<double>(distinct), landing_bytes);
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS under ASan measures its quarantine and shadow; the release build holds the bound";
#endif
  EXPECT_LE(batch, 2 * distinct);
}

}  // namespace
}  // namespace xcvr::exporters
