#include "exporters/format.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace xcvr::exporters {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  unsigned min = 0;
  if (b >= 0xC2 && b <= 0xDF) { len = 2; min = 0x80; }
  else if (b >= 0xE0 && b <= 0xEF) { len = 3; min = 0x800; }
  else if (b >= 0xF0 && b <= 0xF4) { len = 4; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  unsigned cp = b & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string valid_utf8(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size();) {
    const auto b = static_cast<unsigned char>(value[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += static_cast<char>(b);
      ++i;
    } else if (const std::size_t n = b >= 0x80 ? utf8_sequence(value, i) : 0; n > 0) {
      out.append(value.substr(i, n));
      i += n;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::string html_escape(std::string_view raw) {
  const std::string text = valid_utf8(raw);
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// A "." or ".." segment, which a browser resolves away before it asks ("/port/sw/../x" would ask
// for "/x"; "%2E" counts as a dot there too).
bool has_dot_segment(std::string_view text) {
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(text.find('/', start), text.size());
    const std::string_view segment = text.substr(start, end - start);
    if (segment == "." || segment == "..") return true;
    if (end == text.size()) return false;
    start = end + 1;
  }
}

std::string url_path_escape(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  // With a dot segment the name goes as one segment ('/' encoded): the server decodes it whole.
  const bool keep_slash = !has_dot_segment(text);
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || (c == '/' && keep_slash)) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0x0F];
    }
  }
  return out;
}

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      // Compare digit runs by value: strip leading zeros, then length, then text.
      std::string_view na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      while (na.size() > 1 && na[0] == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb[0] == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

namespace {

std::string snake_case(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c)) {
      if (i > 0 && !out.empty() && out.back() != '_') out += '_';
      out += static_cast<char>(std::tolower(c));
    } else if (std::isalnum(c)) {
      out += static_cast<char>(c);
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown" : out;
}

}  // namespace

std::string module_state_label(std::string_view cmis_name) {
  static const std::map<std::string_view, std::string_view> kNames = {
      {"ModuleLowPwr", "low_power"}, {"ModulePwrUp", "power_up"}, {"ModuleReady", "ready"},
      {"ModulePwrDn", "power_down"}, {"ModuleFault", "fault"}};
  if (auto it = kNames.find(cmis_name); it != kNames.end()) return std::string(it->second);
  return snake_case(cmis_name);
}

std::string data_path_state_label(std::string_view cmis_name) {
  static const std::map<std::string_view, std::string_view> kNames = {
      {"DPDeactivated", "deactivated"}, {"DPInit", "init"},        {"DPDeinit", "deinit"},
      {"DPActivated", "activated"},     {"DPTxTurnOn", "tx_turn_on"}, {"DPTxTurnOff", "tx_turn_off"},
      {"DPInitialized", "initialized"}};
  if (auto it = kNames.find(cmis_name); it != kNames.end()) return std::string(it->second);
  return snake_case(cmis_name);
}

std::string module_fault_cause_label(std::string_view cause) {
  std::string out;  // "TEC runaway" -> "tec_runaway", "reserved", "custom"
  for (const char ch : cause) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown" : out;
}

std::string_view device_of(std::string_view port) {
  const auto slash = port.find('/');
  return slash == std::string_view::npos ? std::string_view{} : port.substr(0, slash);
}

}  // namespace xcvr::exporters

namespace xcvr::exporters {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

std::string_view local_name(std::string_view port) {
  const auto device = device_of(port);
  return device.empty() ? port : port.substr(device.size() + 1);
}

}  // namespace

std::vector<std::string> cage_labels(const std::vector<std::string_view>& ports) {
  std::vector<std::string_view> names;
  for (auto p : ports) names.push_back(local_name(p));
  std::vector<std::string> out;
  if (names.size() <= 1) {
    for (auto n : names) out.emplace_back(n);
    return out;
  }
  std::size_t shortest = names[0].size();
  for (auto n : names) shortest = std::min(shortest, n.size());
  std::size_t pre = 0;  // shared prefix, cut back so that no number is split
  while (pre < shortest && std::all_of(names.begin(), names.end(), [&](auto n) { return n[pre] == names[0][pre]; })) ++pre;
  while (pre > 0 && digit(names[0][pre - 1])) --pre;
  std::size_t suf = 0;  // shared suffix, no longer than what the prefix leaves
  auto at_end = [](std::string_view n, std::size_t k) { return n[n.size() - 1 - k]; };
  while (suf + pre < shortest &&
         std::all_of(names.begin(), names.end(), [&](auto n) { return at_end(n, suf) == at_end(names[0], suf); })) {
    ++suf;
  }
  while (suf > 0 && digit(at_end(names[0], suf - 1))) --suf;  // a digit may end a number
  for (auto n : names) {
    // A name that would lose everything (it is the shared part itself) keeps its full text.
    const bool keeps = n.size() > pre + suf;
    if (!keeps) {
      out.emplace_back(n);
      continue;
    }
    out.emplace_back(n.substr(pre, n.size() - pre - suf));
  }
  return out;
}

}  // namespace xcvr::exporters
