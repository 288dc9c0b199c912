#include "dumpfile/parse_support.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/field.hpp"

namespace xcvr::dumpfile::detail {

// ---- Small text helpers --------------------------------------------------------------------

void fail(std::string message) { throw Failure{std::move(message), 0, 0}; }

void fail_at(Where where, const std::string& message) {
  std::string prefix;
  if (where.line > 0) {
    prefix = "line " + std::to_string(where.line);
    if (where.column > 0) prefix += ", column " + std::to_string(where.column);
    prefix += ": ";
  }
  throw Failure{prefix + message, where.line, where.column};
}

std::string hex(std::size_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%02zx", value);
  return buf;
}

std::string count_of(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

namespace {
using base::ascii_lower;
bool same_letter(char a, char lower) { return ascii_lower(a) == lower; }
}  // namespace

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

std::string quoted(std::string_view token) {
  constexpr std::size_t kMax = 16;
  std::string out = "'" + std::string(token.substr(0, kMax));
  if (token.size() > kMax) out += "...";
  return out + "'";
}

bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::optional<uint32_t> hex_value(std::string_view digits) {
  if (digits.empty() || digits.size() > 8) return std::nullopt;
  uint32_t value = 0;
  for (char c : digits) {
    if (!is_hex_digit(c)) return std::nullopt;
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                               : std::tolower(c) - 'a' + 10;
    value = value * 16 + static_cast<uint32_t>(d);
  }
  return value;
}

std::optional<uint32_t> decimal_value(std::string_view digits) {
  constexpr std::size_t kMaxDigits = 9;  // fits uint32_t
  if (digits.empty() || digits.size() > kMaxDigits) return std::nullopt;
  uint32_t value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  return value;
}

bool has_hex_prefix(std::string_view t) { return t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'); }

std::optional<uint32_t> number_word(std::string_view w) {
  if (has_hex_prefix(w)) return hex_value(w.substr(2));
  if (w.size() > 1 && (w.back() == 'h' || w.back() == 'H')) return hex_value(w.substr(0, w.size() - 1));
  return decimal_value(w);
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}


bool icontains(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (same_letter(haystack[i], needle[0]) && iequals(haystack.substr(i, needle.size()), needle)) {
      return true;
    }
  }
  return false;
}

bool LineReader::next(Line& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = pos_;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
  line = Line{text_.substr(pos_, end - pos_), ++number_};
  if (end < text_.size() && text_[end] == '\r') {
    ++end;
    if (end < text_.size() && text_[end] == '\n') ++end;
  } else if (end < text_.size()) {
    ++end;  // '\n'
  }
  pos_ = end;
  return true;
}

// ---- Halves --------------------------------------------------------------------------------

std::string half_label(const PageKey& key) {
  std::string label = key.device == kDeviceA2 ? "A2h " : "";
  if (key.page == kLowerPage) return label + "lower page";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02Xh", static_cast<unsigned>(key.page));
  label += "page " + std::string(buf);
  if (key.bank != 0) label += " bank " + std::to_string(key.bank);
  return label;
}

namespace {

// Window offset (0-255) of byte `index` of a half: what operators see in a dump.
std::size_t window_offset(const PageKey& key, std::size_t index) {
  return key.page == kLowerPage ? index : kHalf + index;
}

// Stores one byte; `label` describes the byte for the conflict message.
template <typename Describe>
void store(PartialHalf& half, std::size_t index, uint8_t value, Where where,
           std::size_t& repeated, Describe describe) {
  if (half.have[index]) {
    if (half.bytes[index] != value) {
      fail_at(where, describe() + " is " + hex(value) + " here but " + hex(half.bytes[index]) +
                         " on line " + std::to_string(half.from[index].line));
    }
    ++repeated;
    return;
  }
  if (half.filled == 0) half.first = where;
  half.have[index] = true;
  half.bytes[index] = value;
  half.from[index] = where;
  ++half.filled;
}

std::size_t first_missing(const PartialHalf& half) {
  return static_cast<std::size_t>(std::find(half.have.begin(), half.have.end(), false) -
                                  half.have.begin());
}

}  // namespace

void PageAssembler::put(const PageKey& key, std::size_t index, uint8_t value, Where where) {
  store(halves_[key], index, value, where, repeated_, [&] {
    return "byte " + hex(window_offset(key, index)) + " of " + half_label(key);
  });
}

const cmis::PageBytes* PageAssembler::complete_lower(uint8_t device) const {
  auto it = halves_.find(PageKey{device, 0, kLowerPage});
  if (it == halves_.end() || it->second.filled != kHalf) return nullptr;
  return &it->second.bytes;
}

cmis::ModuleImage PageAssembler::finish() const {
  cmis::ModuleImage image;
  for (const auto& [key, half] : halves_) {
    if (half.filled != kHalf) {
      fail_at(Where{half.first.line, 0},
              half_label(key) + " is incomplete: " + std::to_string(half.filled) + " of " +
                  std::to_string(kHalf) + " bytes (first missing: " +
                  hex(window_offset(key, first_missing(half))) + ")");
    }
    image.set_page(key, half.bytes);
  }
  return image;
}

// ---- Linear layouts ------------------------------------------------------------------------

namespace {
constexpr std::size_t kPagesPerBank = 256;
// Two-address layout: A0h lower, A0h upper, A2h lower, then A2h upper pages.
constexpr std::size_t kTwoAddressFixedChunks = 3;
}  // namespace

std::size_t max_linear_chunks() { return 1 + kPagesPerBank * kMaxBanks; }

std::optional<PageKey> linear_chunk_key(std::size_t chunk, Linearization layout) {
  if (layout == Linearization::OneAddress) {
    if (chunk == 0) return PageKey{kDeviceA0, 0, kLowerPage};
    const std::size_t x = chunk - 1;
    if (x / kPagesPerBank >= static_cast<std::size_t>(kMaxBanks)) return std::nullopt;
    return PageKey{kDeviceA0, static_cast<uint8_t>(x / kPagesPerBank),
                   static_cast<int16_t>(x % kPagesPerBank)};
  }
  switch (chunk) {
    case 0: return PageKey{kDeviceA0, 0, kLowerPage};
    case 1: return PageKey{kDeviceA0, 0, 0};
    case 2: return PageKey{kDeviceA2, 0, kLowerPage};
    default: break;
  }
  const std::size_t page = chunk - kTwoAddressFixedChunks;
  if (page >= kPagesPerBank) return std::nullopt;
  return PageKey{kDeviceA2, 0, static_cast<int16_t>(page)};
}

Linearization linearization_for(const cmis::PageBytes* lower) {
  if (lower == nullptr) return Linearization::OneAddress;
  // The SFF-8024 identifier sits at the same place in every management spec; the CMIS map's
  // row names it.
  cmis::ModuleImage image;
  image.set_page(PageKey{kDeviceA0, 0, kLowerPage}, *lower);
  const auto id = cmis::read_uint(image, cmis::cmis_field(cmis::CmisField::Identifier));
  if (id && cmis::spec_for_identifier(static_cast<uint8_t>(*id)) == cmis::Spec::Sff8472) {
    return Linearization::TwoAddress;
  }
  return Linearization::OneAddress;
}

std::string_view linearization_name(Linearization layout) {
  return layout == Linearization::OneAddress
             ? "one-address (QSFP/CMIS: lower, then page P at P*128+128)"
             : "two-address (SFF-8472: A0h 0-255, then A2h from 256)";
}

void LinearAssembler::put(std::size_t offset, uint8_t value, Where where) {
  const std::size_t chunk = offset / kHalf;
  if (chunk >= max_linear_chunks()) {
    fail_at(where, "linear offset " + hex(offset) + " is past the largest linear layout (" +
                       hex(max_linear_chunks() * kHalf - 1) + ")");
  }
  store(chunks_[chunk], offset % kHalf, value, where, repeated_,
        [&] { return "byte at linear offset " + hex(offset); });
}

const cmis::PageBytes* LinearAssembler::complete_first_chunk() const {
  auto it = chunks_.find(0);
  if (it == chunks_.end() || it->second.filled != kHalf) return nullptr;
  return &it->second.bytes;
}

void LinearAssembler::place(Linearization layout, PageAssembler& pages) const {
  for (const auto& [chunk, half] : chunks_) {
    const auto key = linear_chunk_key(chunk, layout);
    if (!key) {
      fail_at(half.first, "linear offset " + hex(chunk * kHalf) + " is past the end of the " +
                              std::string(linearization_name(layout)) + " layout");
    }
    for (std::size_t i = 0; i < kHalf; ++i) {
      if (half.have[i]) pages.put(*key, i, half.bytes[i], half.from[i]);
    }
  }
}

// ---- Flat dumps ----------------------------------------------------------------------------

namespace {

constexpr std::size_t kSff8636LinearSize = 5 * kHalf;  // lower + pages 00h-03h (ethtool)
constexpr std::size_t kOptoeOneAddressSize = (1 + kPagesPerBank) * kHalf;
constexpr std::size_t kOptoeTwoAddressSize = (kTwoAddressFixedChunks + kPagesPerBank) * kHalf;

std::size_t optoe_banked_size(std::size_t banks) { return (banks * kPagesPerBank + 1) * kHalf; }

bool is_whole_optoe_size(std::size_t size) {
  if (size == kOptoeTwoAddressSize) return true;
  for (std::size_t banks = 1; banks <= static_cast<std::size_t>(kMaxBanks); ++banks) {
    if (size == optoe_banked_size(banks)) return true;
  }
  return false;
}

// Every whole number of halves fits a linearization: the fixed sizes above are what ethtool and
// the EEPROM tools write, and an optoe file copied only as far as its last page (lower + pages
// 00h-11h = 2,432 bytes) is a prefix of the whole file.
bool is_known_flat_size(std::size_t size) {
  return size >= kHalf && size % kHalf == 0 && size <= max_flat_size();
}

// Longer than any fixed tool layout: a whole optoe file or a prefix of one, whose slots for
// unsupported pages hold blanks or copies.
bool is_optoe_linear_size(std::size_t size) {
  return size > kSff8636LinearSize;
}

using Chunk = std::span<const uint8_t>;

bool uniform(Chunk bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [&](uint8_t b) { return b == bytes[0]; });
}

bool same_bytes(Chunk a, const std::map<PageKey, Chunk>& all, const PageKey& other) {
  auto it = all.find(other);
  return it != all.end() && std::equal(a.begin(), a.end(), it->second.begin(), it->second.end());
}

// A whole optoe file holds a slot for every architectural page; modules answer unsupported pages
// with page 00h's bytes (CMIS) or blanks. Keep the lower halves and page 00h, and any other page
// with content that is neither blank nor such a copy.
bool has_own_content(const PageKey& key, Chunk bytes, const std::map<PageKey, Chunk>& all) {
  if (key.page == kLowerPage) return true;
  const PageKey page00{kDeviceA0, 0, 0};
  if (key == page00) return true;
  if (uniform(bytes) || same_bytes(bytes, all, page00)) return false;
  return key.bank == 0 || !same_bytes(bytes, all, PageKey{key.device, 0, key.page});
}

std::string page_list(const std::vector<PageKey>& keys) {
  std::string out;
  for (const PageKey& key : keys) {
    if (!out.empty()) out += ", ";
    out += cmis::page_name(key);
  }
  return out;
}

}  // namespace

std::size_t max_flat_size() { return optoe_banked_size(kMaxBanks); }

cmis::ModuleImage flat_image(std::span<const uint8_t> bytes, std::string_view what,
                             std::vector<std::string>& notes) {
  const std::size_t size = bytes.size();
  const std::string subject = std::string(what) + " of " + count_of(size, "byte");
  if (!is_known_flat_size(size)) {
    fail(subject + ": not a known layout (a whole number of 128-byte halves, at most " +
         std::to_string(max_flat_size()) + ": 128, 256, 512, 640, an optoe linear file of " +
         std::to_string(kOptoeOneAddressSize) + ", " + std::to_string(kOptoeTwoAddressSize) +
         " or (banks*256+1)*128 bytes, or a prefix of one)");
  }
  cmis::PageBytes lower{};
  std::copy_n(bytes.begin(), kHalf, lower.begin());
  const Linearization layout = linearization_for(&lower);

  std::map<PageKey, Chunk> chunks;
  for (std::size_t c = 0; c * kHalf < size; ++c) {
    const auto key = linear_chunk_key(c, layout);
    if (!key) fail(subject + " does not fit the " + std::string(linearization_name(layout)) + " layout");
    chunks.emplace(*key, bytes.subspan(c * kHalf, kHalf));
  }

  const bool whole_optoe = is_whole_optoe_size(size);
  const bool optoe_linear = is_optoe_linear_size(size);
  cmis::ModuleImage image;
  std::vector<PageKey> kept_pages;
  std::size_t skipped = 0;
  for (const auto& [key, chunk] : chunks) {
    if (optoe_linear && !has_own_content(key, chunk, chunks)) {
      ++skipped;
      continue;
    }
    image.set_page(key, chunk);
    if (key.page != kLowerPage) kept_pages.push_back(key);
  }

  if (size > kWindow) {
    notes.push_back(subject + " read with the " + std::string(linearization_name(layout)) +
                    " layout");
  }
  if (optoe_linear) {
    const std::string file_kind =
        whole_optoe ? "whole optoe file"
                    : "optoe linear file ending after " + cmis::page_name(*linear_chunk_key(size / kHalf - 1, layout));
    notes.push_back(file_kind + ": kept the lower halves and pages " + page_list(kept_pages) +
                    "; skipped " + count_of(skipped, "page") +
                    " that are blank (one byte value throughout) or copies of page 00h or of "
                    "bank 0");
  }
  return image;
}

}  // namespace xcvr::dumpfile::detail
