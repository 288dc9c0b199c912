#include "exporters/http/basic_auth.hpp"

#include "base/spelling.hpp"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

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

BasicAuth::BasicAuth(std::map<std::string, std::string> users) : users_(std::move(users)) {
  for (const auto& [user, hash] : users_) {
    if (const std::string p = daemon::bcrypt_hash_problem(hash); !p.empty() && problem_.empty()) {
      problem_ = "basic auth user \"" + user + "\": " + p;
    }
    if (const auto cost = daemon::bcrypt_cost(hash)) max_cost_ = std::max(max_cost_, *cost);
  }
  max_cost_ = std::min(max_cost_, daemon::kMaxBcryptCost);
  if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1) problem_ = "no random bytes for the auth cache key";
}

std::optional<std::string> BasicAuth::crypt(const std::string& password, const std::string& setting) const {
  auto out = run_crypt(password, setting);
  if (out) {  // counted only when bcrypt really ran (a failing setting returns at once)
    ++runs_;
    rounds_ += uint64_t{1} << daemon::bcrypt_cost(setting).value_or(0);
  }
  return out;
}

BasicAuth::Digest BasicAuth::digest(const std::string& user, const std::string& hash,
                                    const std::string& password) const {
  const std::string text = user + '\0' + hash + '\0' + password;
  Digest out{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), reinterpret_cast<const unsigned char*>(text.data()),
       text.size(), out.data(), &len);
  OPENSSL_cleanse(const_cast<char*>(text.data()), text.size());
  return out;
}

bool BasicAuth::admit(const std::string& source) const {
  std::unique_lock lock(gate_mutex_);
  int& mine = per_source_[source];
  if (mine >= kBcryptPerSource || (running_ >= kBcryptConcurrent && waiting_ >= kBcryptQueue)) {
    if (mine == 0) per_source_.erase(source);
    return false;
  }
  ++mine;
  ++waiting_;
  gate_cv_.wait(lock, [&] { return running_ < kBcryptConcurrent; });
  --waiting_;
  ++running_;
  return true;
}

void BasicAuth::release(const std::string& source) const {
  {
    std::lock_guard lock(gate_mutex_);
    --running_;
    if (auto it = per_source_.find(source); it != per_source_.end() && --it->second <= 0) per_source_.erase(it);
  }
  gate_cv_.notify_one();
}

AuthResult BasicAuth::verify(const std::string& user, const std::string& password, const std::string& source) const {
  if (!problem_.empty()) return AuthResult::Denied;
  if (user.find('\0') != std::string::npos || password.find('\0') != std::string::npos) return AuthResult::Denied;
  const auto it = users_.find(user);
  const bool known = it != users_.end();
  const auto d = digest(user, known ? it->second : std::string(), password);
  if (known) {
    std::lock_guard lock(cache_mutex_);
    if (verified_.count(d) != 0) return AuthResult::Ok;
  }
  if (!admit(source)) return AuthResult::Busy;
  bool ok = false;
  // Salt of the padding runs: any fixed 22 characters (only the work matters).
  const std::string salt = "$abcdefghijklmnopqrstuu";
  auto setting = [&](int cost) { return std::string("$2b$") + (cost < 10 ? "0" : "") + std::to_string(cost) + salt; };
  if (known) {
    const auto computed = crypt(password, it->second);
    ok = computed && equal_constant_time(*computed, it->second);
    for (int c = daemon::bcrypt_cost(it->second).value_or(max_cost_); c < max_cost_; ++c) (void)crypt(password, setting(c));
  } else {
    (void)crypt(password, setting(max_cost_));
  }
  release(source);
  if (ok) {
    std::lock_guard lock(cache_mutex_);
    if (verified_.size() >= kMaxCached) verified_.clear();
    verified_.insert(d);
  }
  return ok ? AuthResult::Ok : AuthResult::Denied;
}

AuthResult BasicAuth::check_header(std::string_view authorization, const std::string& source) const {
  // RFC 9110 §11.1: the scheme is case-insensitive ("basic" is "Basic"), then one or more spaces.
  const std::size_t space = authorization.find(' ');
  if (space == std::string_view::npos || !base::iequals(authorization.substr(0, space), "basic")) {
    return AuthResult::Denied;
  }
  std::string_view credentials = authorization.substr(space);
  while (credentials.starts_with(' ')) credentials.remove_prefix(1);
  if (credentials.empty()) return AuthResult::Denied;
  const auto decoded = base64_decode(credentials);
  if (!decoded) return AuthResult::Denied;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos) return AuthResult::Denied;
  return verify(decoded->substr(0, colon), decoded->substr(colon + 1), source);
}

}  // namespace xcvr::exporters
