// HTTP basic auth with bcrypt hashes, as prometheus/exporter-toolkit does it: users map to
// "$2y$"/"$2b$"/"$2a$" hashes (htpasswd -nBC 10), checked with libxcrypt's crypt_rn.
//
// Hostile-network rules (docs/architecture.md, "Basic auth"):
// - Equal work: every check that is not a cache hit costs exactly 2^C bcrypt rounds, C the
//   highest cost among the users: an unknown user runs one bcrypt at cost C, a known user of
//   cost c runs its own hash plus padding at costs c, c+1, ..., C-1 (2^c + 2^c + ... + 2^(C-1)
//   = 2^C). So response time tells neither whether a user exists nor which cost it has.
// - Bounded: at most kBcryptConcurrent checks run and kBcryptQueue wait, at most
//   kBcryptPerSource of them from one client address; beyond that the answer is "busy" (429)
//   at once, so a flood of wrong passwords costs one core and cannot queue up scrapes.
// - Cached: a good (user, hash, password) is remembered under HMAC-SHA256 with a key drawn at
//   start (never the password, no digest usable outside this process), so a valid scrape pays
//   bcrypt once, not every 15 s; a changed hash or a reload (new BasicAuth) forgets it.
// - A user name or password with a NUL byte is refused (crypt would stop reading at it).
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "daemon/bcrypt_hash.hpp"

namespace xcvr::exporters {

enum class AuthResult { Ok, Denied, Busy };

class BasicAuth {
 public:
  static constexpr int kBcryptConcurrent = 1;
  static constexpr int kBcryptQueue = 4;
  static constexpr int kBcryptPerSource = 2;

  // Malformed hashes make problem() non-empty and every check Denied (HttpServer::start refuses).
  explicit BasicAuth(std::map<std::string, std::string> users);

  bool enabled() const { return !users_.empty(); }
  // "" or the first user whose hash is refused, with the reason.
  const std::string& problem() const { return problem_; }

  // The value of an Authorization header ("Basic <base64 user:password>"); `source` = client
  // address, for the per-source share of the bcrypt queue.
  AuthResult check_header(std::string_view authorization, const std::string& source = "") const;
  AuthResult verify(const std::string& user, const std::string& password, const std::string& source = "") const;

  // Work done so far, for tests: bcrypt runs and their summed rounds (2^cost each).
  struct Work {
    uint64_t runs = 0;
    uint64_t rounds = 0;
  };
  Work work() const { return {runs_.load(), rounds_.load()}; }

 private:
  using Digest = std::array<uint8_t, 32>;

  bool admit(const std::string& source) const;
  void release(const std::string& source) const;
  std::optional<std::string> crypt(const std::string& password, const std::string& setting) const;
  Digest digest(const std::string& user, const std::string& hash, const std::string& password) const;

  std::map<std::string, std::string> users_;
  std::string problem_;
  int max_cost_ = daemon::kMinBcryptCost;
  std::array<uint8_t, 32> key_{};

  mutable std::mutex gate_mutex_;  // the bcrypt admission gate
  mutable std::condition_variable gate_cv_;
  mutable int running_ = 0, waiting_ = 0;
  mutable std::map<std::string, int> per_source_;

  mutable std::mutex cache_mutex_;  // guards verified_
  mutable std::set<Digest> verified_;
  mutable std::atomic<uint64_t> runs_{0}, rounds_{0};
};

// A bcrypt hash of `password` ("$2b$", cost 4-31), for tests and tools; nullopt on failure.
std::optional<std::string> bcrypt_hash(std::string_view password, int cost = 10);

using daemon::bcrypt_cost;

// Standard base64 (with padding) decoding; nullopt for malformed input.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace xcvr::exporters
