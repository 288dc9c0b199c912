// Basic auth with bcrypt hashes (exporter-toolkit semantics): 401 without or with wrong
// credentials, 200 with the right ones, /healthz open; "$2y$" (htpasswd) and "$2b$" hashes.
#include <gtest/gtest.h>
#include <httplib.h>

#include "exporters/http/basic_auth.hpp"
#include "tests/e2e/http_test_support.hpp"

namespace xcvr::exporters {
namespace {

TEST(ExporterAuth, Base64) {
  EXPECT_EQ(base64_decode("cHJvbTpzZWNyZXQ="), "prom:secret");
  EXPECT_EQ(base64_decode("YQ=="), "a");
  EXPECT_EQ(base64_decode("YWI="), "ab");
  EXPECT_EQ(base64_decode(""), "");
  EXPECT_FALSE(base64_decode("YQ=").has_value());
  EXPECT_FALSE(base64_decode("Y=Q=").has_value());
  EXPECT_FALSE(base64_decode("@@@@").has_value());
}

TEST(ExporterAuth, BcryptHashesVerify) {
  const auto hash = bcrypt_hash("s3cret", 4);
  ASSERT_TRUE(hash.has_value());
  EXPECT_EQ(hash->rfind("$2b$04$", 0), 0u);
  const std::string y = "$2y$" + hash->substr(4);  // htpasswd's spelling of the same hash
  BasicAuth auth({{"prom", *hash}, {"ops", y}});
  EXPECT_EQ(auth.verify("prom", "s3cret"), AuthResult::Ok);
  EXPECT_EQ(auth.verify("prom", "s3cret"), AuthResult::Ok);  // cached
  EXPECT_EQ(auth.verify("prom", "s3cret "), AuthResult::Denied);
  EXPECT_EQ(auth.verify("ops", "s3cret"), AuthResult::Ok);
  EXPECT_EQ(auth.verify("nobody", "s3cret"), AuthResult::Denied);
  EXPECT_EQ(auth.check_header("Basic cHJvbQ=="), AuthResult::Denied);  // no colon
  EXPECT_EQ(auth.check_header("Bearer x"), AuthResult::Denied);
}

TEST(ExporterAuth, ServerAsksForCredentials) {
  const auto hash = bcrypt_hash("s3cret", 4);
  ASSERT_TRUE(hash.has_value());
  WebConfig cfg;
  cfg.basic_auth_users = {{"prom", *hash}};
  testing::TestServer t{cfg};
  httplib::Client c("127.0.0.1", t.port);
  for (const char* path : {"/", "/metrics", "/api/v1/modules", "/port/spine1/Ethernet0"}) {
    auto r = c.Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << path;
    EXPECT_EQ(r->get_header_value("WWW-Authenticate"), "Basic realm=\"transceiver-exporter\"");
    EXPECT_EQ(r->body.find("transceiver_"), std::string::npos);
  }
  auto r = c.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  c.set_basic_auth("prom", "wrong");
  r = c.Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  c.set_basic_auth("prom", "s3cret");
  r = c.Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("transceiver_module_present"), std::string::npos);
  // Credentials are checked before the method: no 405 hint to strangers.
  httplib::Client anon("127.0.0.1", t.port);
  r = anon.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
}

}  // namespace
}  // namespace xcvr::exporters
