// The shape of a bcrypt hash in the [web.basic_auth_users] table, checked where the config is
// read (file:line:col) and again by the HTTP server. Pure string checks: no hashing here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xcvr::daemon {

// Costs accepted in a hash. Each step doubles the work of every password check (cost 10 is
// ~65 ms on one core; 14 is ~1 s). Above 14 a single wrong password would cost seconds of CPU
// (cost 31: days), so such hashes are refused rather than run.
inline constexpr int kMinBcryptCost = 4;
inline constexpr int kMaxBcryptCost = 14;

// The cost of a "$2a$"/"$2b$"/"$2y$" hash ("$2y$10$..." -> 10); nullopt otherwise.
std::optional<int> bcrypt_cost(std::string_view hash);

// "" for a well-formed hash ("$2a$", "$2b$" or "$2y$", two-digit cost within the bounds above,
// then 53 characters of bcrypt's base64: 22 of salt, 31 of digest); otherwise what is wrong.
std::string bcrypt_hash_problem(std::string_view hash);

}  // namespace xcvr::daemon
