#include "exporters/basic_auth.hpp"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

namespace xcvr::exporters {
namespace {

constexpr std::size_t kMaxCached = 1024;  // bounded: one entry per distinct good credential

// crypt_rn into a heap buffer (struct crypt_data is ~32 KiB, too big for a worker's stack).
std::optional<std::string> run_crypt(const std::string& phrase, const std::string& setting) {
  auto data = std::make_unique<crypt_data>();
  const char* out = crypt_rn(phrase.c_str(), setting.c_str(), data.get(), sizeof(crypt_data));
  if (out == nullptr || out[0] == '*') return std::nullopt;  // "*0"/"*1" are failure tokens
  return std::string(out);
}

bool equal_constant_time(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::array<uint8_t, 32> sha256(const std::string& text) {
  std::array<uint8_t, 32> out{};
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), out.data(), &len, EVP_sha256(), nullptr);
  return out;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t pad = 0;
  if (!text.empty() && text.back() == '=') {
    ++pad;
    if (text[text.size() - 2] == '=') ++pad;
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    unsigned bits = 0;
    for (std::size_t k = i; k < i + 4; ++k) {
      const int v = k < text.size() - pad ? base64_value(text[k]) : 0;
      if (v < 0) return std::nullopt;
      bits = (bits << 6) | static_cast<unsigned>(v);
    }
    out += static_cast<char>((bits >> 16) & 0xFF);
    out += static_cast<char>((bits >> 8) & 0xFF);
    out += static_cast<char>(bits & 0xFF);
  }
  out.resize(out.size() - pad);
  return out;
}

std::optional<std::string> bcrypt_hash(std::string_view password, int cost) {
  char* setting = crypt_gensalt_ra("$2b$", static_cast<unsigned long>(cost), nullptr, 0);
  if (setting == nullptr) return std::nullopt;
  const std::string s(setting);
  std::free(setting);
  return run_crypt(std::string(password), s);
}

std::optional<int> bcrypt_cost(std::string_view hash) {
  const bool prefix = hash.size() >= 7 && hash.substr(0, 2) == "$2" && hash[3] == '$' && hash[6] == '$' &&
                      (hash[2] == 'a' || hash[2] == 'b' || hash[2] == 'y');
  if (!prefix || hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9') return std::nullopt;
  return (hash[4] - '0') * 10 + (hash[5] - '0');
}

// The dummy costs what the dearest real hash costs: a cheaper one would tell unknown users
// apart by response time.
BasicAuth::BasicAuth(std::map<std::string, std::string> users) : users_(std::move(users)) {
  if (!enabled()) return;
  int cost = 0;
  for (const auto& [user, hash] : users_) cost = std::max(cost, bcrypt_cost(hash).value_or(10));
  dummy_hash_ = bcrypt_hash("dummy password for unknown users", std::clamp(cost, 4, 31)).value_or("");
}

bool BasicAuth::verify(const std::string& user, const std::string& password) const {
  const auto it = users_.find(user);
  const bool known = it != users_.end();
  const std::string& hash = known ? it->second : dummy_hash_;
  const auto digest = sha256(user + '\0' + hash + '\0' + password);
  {
    std::lock_guard lock(cache_mutex_);
    if (known && verified_.count(digest) != 0) return true;
  }
  std::optional<std::string> computed;
  {
    // One bcrypt at a time: a flood of wrong passwords costs one core, and cached checks
    // (above) never wait behind it.
    std::lock_guard lock(bcrypt_mutex_);
    computed = run_crypt(password, hash);
  }
  const bool ok = known && computed && equal_constant_time(*computed, hash);
  if (ok) {
    std::lock_guard lock(cache_mutex_);
    if (verified_.size() >= kMaxCached) verified_.clear();
    verified_.insert(digest);
  }
  return ok;
}

bool BasicAuth::check_header(std::string_view authorization) const {
  constexpr std::string_view kScheme = "Basic ";
  if (authorization.size() <= kScheme.size() || authorization.substr(0, kScheme.size()) != kScheme) {
    return false;
  }
  const auto decoded = base64_decode(authorization.substr(kScheme.size()));
  if (!decoded) return false;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos) return false;
  return verify(decoded->substr(0, colon), decoded->substr(colon + 1));
}

}  // namespace xcvr::exporters
