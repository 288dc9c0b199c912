// HTTP basic auth with bcrypt hashes, as prometheus/exporter-toolkit does it: users map to
// "$2y$"/"$2b$"/"$2a$" hashes (htpasswd -nBC 10), checked with libxcrypt's crypt_rn; good
// verifications are cached (bcrypt costs ~70 ms at cost 10) under a digest, never the password;
// unknown users are checked against a dummy hash of the users' highest cost so timing does not
// reveal user names.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace xcvr::exporters {

class BasicAuth {
 public:
  explicit BasicAuth(std::map<std::string, std::string> users);

  bool enabled() const { return !users_.empty(); }
  // The value of an Authorization header ("Basic <base64 user:password>").
  bool check_header(std::string_view authorization) const;
  bool verify(const std::string& user, const std::string& password) const;

 private:
  using Digest = std::array<uint8_t, 32>;

  std::map<std::string, std::string> users_;
  std::string dummy_hash_;
  mutable std::mutex bcrypt_mutex_;  // serializes bcrypt (CPU bound)
  mutable std::mutex cache_mutex_;   // guards verified_
  mutable std::set<Digest> verified_;
};

// A bcrypt hash of `password` ("$2b$", cost 4-31), for tests and tools; nullopt on failure.
std::optional<std::string> bcrypt_hash(std::string_view password, int cost = 10);

// The cost of a "$2a$"/"$2b$"/"$2y$" bcrypt hash ("$2y$10$..." -> 10); nullopt otherwise.
std::optional<int> bcrypt_cost(std::string_view hash);

// Standard base64 (with padding) decoding; nullopt for malformed input.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace xcvr::exporters
