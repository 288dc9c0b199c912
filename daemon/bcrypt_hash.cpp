#include "daemon/bcrypt_hash.hpp"

#include <algorithm>

namespace xcvr::daemon {

std::optional<int> bcrypt_cost(std::string_view hash) {
  const bool prefix = hash.size() >= 7 && hash.substr(0, 2) == "$2" && hash[3] == '$' && hash[6] == '$' &&
                      (hash[2] == 'a' || hash[2] == 'b' || hash[2] == 'y');
  if (!prefix || hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9') return std::nullopt;
  return (hash[4] - '0') * 10 + (hash[5] - '0');
}

std::string bcrypt_hash_problem(std::string_view hash) {
  const auto cost = bcrypt_cost(hash);
  if (!cost) return "not a bcrypt hash (expected $2a$, $2b$ or $2y$, a two-digit cost and '$')";
  if (*cost < kMinBcryptCost || *cost > kMaxBcryptCost) {
    return "bcrypt cost " + std::to_string(*cost) + " is outside " + std::to_string(kMinBcryptCost) + ".." +
           std::to_string(kMaxBcryptCost) + " (each step doubles the CPU time of every password check)";
  }
  const std::string_view rest = hash.substr(7);
  const bool alphabet = std::all_of(rest.begin(), rest.end(), [](char c) {
    return c == '.' || c == '/' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
  if (rest.size() != 53 || !alphabet) {
    return "malformed bcrypt hash: expected 53 characters of [./A-Za-z0-9] after the cost, got " +
           std::to_string(rest.size()) + (alphabet ? "" : " with others among them");
  }
  return "";
}

}  // namespace xcvr::daemon
