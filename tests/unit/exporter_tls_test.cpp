// TLS with a certificate made by openssl in the test, checked with curl: the handshake works,
// TLS 1.1 and plain HTTP on the TLS port are refused, basic auth works over TLS. openssl and
// curl are installed by scripts/setup.sh, so their absence fails the test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "exporters/http/basic_auth.hpp"
#include "tests/e2e/http_test_support.hpp"

namespace xcvr::exporters {
namespace {

namespace fs = std::filesystem;
using testing::run_shell;

class ExporterTls : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(testing::have_command("openssl")) << "openssl missing: run scripts/setup.sh";
    ASSERT_TRUE(testing::have_command("curl")) << "curl missing: run scripts/setup.sh";
    char tmpl[] = "/tmp/xcvr-tls-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const auto r = run_shell("cd " + dir_.string() +
                             " && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem"
                             " -days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost");
    ASSERT_EQ(r.status, 0) << r.output;
  }
  void TearDown() override { fs::remove_all(dir_); }

  WebConfig tls_config() const {
    WebConfig cfg;
    cfg.tls_cert_file = (dir_ / "cert.pem").string();
    cfg.tls_key_file = (dir_ / "key.pem").string();
    return cfg;
  }
  std::string curl(const std::string& args) const {
    return "curl -sS --max-time 5 --cacert " + (dir_ / "cert.pem").string() + " " + args;
  }

  fs::path dir_;
};

TEST_F(ExporterTls, HandshakeAndScrape) {
  testing::TestServer t{tls_config()};
  const std::string base = "https://127.0.0.1:" + std::to_string(t.port);
  auto r = run_shell(curl(base + "/healthz"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "ok\n");
  r = run_shell(curl("--compressed " + base + "/metrics"));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("transceiver_module_present{port=\"spine1/Ethernet0\"} 1"), std::string::npos);
  r = run_shell(curl("-o /dev/null -w '%{ssl_verify_result} %{http_version}' " + base + "/"));
  EXPECT_EQ(r.output, "0 1.1");
}

TEST_F(ExporterTls, PlainHttpAndOldTlsAreRefused) {
  testing::TestServer t{tls_config()};
  const std::string port = std::to_string(t.port);
  auto r = run_shell("curl -sS --max-time 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:" + port + "/healthz");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("200"), std::string::npos);
  r = run_shell(curl("--tlsv1.1 --tls-max 1.1 https://127.0.0.1:" + port + "/healthz"));
  EXPECT_NE(r.status, 0) << r.output;
  // The server is still fine afterwards.
  r = run_shell(curl("https://127.0.0.1:" + port + "/healthz"));
  EXPECT_EQ(r.output, "ok\n");
}

TEST_F(ExporterTls, Tls13Minimum) {
  WebConfig cfg = tls_config();
  cfg.tls_min_version = "TLS13";
  testing::TestServer t{cfg};
  const std::string url = "https://127.0.0.1:" + std::to_string(t.port) + "/healthz";
  EXPECT_NE(run_shell(curl("--tls-max 1.2 " + url)).status, 0);
  EXPECT_EQ(run_shell(curl(url)).output, "ok\n");
  cfg.tls_min_version = "SSL3";
  daemon::SnapshotStore store;
  HttpServer bad(cfg, store);
  EXPECT_THROW(bad.start(), std::runtime_error);
}

TEST_F(ExporterTls, BasicAuthOverTls) {
  WebConfig cfg = tls_config();
  cfg.basic_auth_users = {{"prom", *bcrypt_hash("s3cret", 4)}};
  testing::TestServer t{cfg};
  const std::string url = "https://127.0.0.1:" + std::to_string(t.port) + "/metrics";
  EXPECT_EQ(run_shell(curl("-o /dev/null -w '%{http_code}' " + url)).output, "401");
  EXPECT_EQ(run_shell(curl("-o /dev/null -w '%{http_code}' -u prom:wrong " + url)).output, "401");
  EXPECT_EQ(run_shell(curl("-o /dev/null -w '%{http_code}' -u prom:s3cret " + url)).output, "200");
}

TEST_F(ExporterTls, MismatchedKeyIsRejectedAtStart) {
  ASSERT_EQ(run_shell("cd " + dir_.string() + " && openssl genrsa -out other.pem 2048").status, 0);
  WebConfig cfg = tls_config();
  cfg.tls_key_file = (dir_ / "other.pem").string();
  daemon::SnapshotStore store;
  HttpServer server(cfg, store);
  try {
    server.start();
    ADD_FAILURE() << "started with a key that does not match";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("other.pem"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace xcvr::exporters
