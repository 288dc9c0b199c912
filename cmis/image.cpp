#include "cmis/image.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace xcvr::cmis {

std::string page_name(const PageKey& key) {
  std::string prefix = key.device == kDeviceA2 ? "A2h " : "";
  if (key.page == kLowerPage) return prefix + "lower";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02Xh", static_cast<unsigned>(key.page));
  std::string name = prefix + buf;
  if (key.bank != 0) name += " bank " + std::to_string(key.bank);
  return name;
}

void ModuleImage::set_page(const PageKey& key, std::span<const uint8_t> bytes128,
                           int64_t read_at_ns) {
  Entry* e = find_mut(key);
  if (e == nullptr) {
    entries_.push_back(Entry{key, {}, 0});
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.key < b.key; });
    e = find_mut(key);
  }
  e->bytes.fill(0);
  std::copy_n(bytes128.begin(), std::min(bytes128.size(), kPageSize), e->bytes.begin());
  e->read_at_ns = read_at_ns;
}

bool ModuleImage::update(const PageKey& key, uint16_t window_offset,
                         std::span<const uint8_t> bytes, int64_t read_at_ns) {
  Entry* e = find_mut(key);
  if (e == nullptr) return false;
  const std::size_t base = key.page == kLowerPage ? 0 : kPageSize;
  if (window_offset < base || window_offset + bytes.size() > base + kPageSize) return false;
  std::copy(bytes.begin(), bytes.end(), e->bytes.begin() + (window_offset - base));
  e->read_at_ns = read_at_ns;
  return true;
}

void ModuleImage::erase(const PageKey& key) {
  std::erase_if(entries_, [&](const Entry& e) { return e.key == key; });
}

namespace {
// PageKey as one integer with the same order (device, bank, signed page): find() runs for every
// field a decode reads, so it compares one word instead of three members.
constexpr uint32_t packed(const PageKey& k) {
  return uint32_t{k.device} << 24 | uint32_t{k.bank} << 16 | (static_cast<uint16_t>(k.page) ^ 0x8000u);
}
}  // namespace

const ModuleImage::Entry* ModuleImage::find(const PageKey& key) const {
  // entries_ is kept sorted by key (set_page sorts; update and erase keep the order), so the
  // scan stops at the first key not below: the lower page and 00h-11h, read most, come first.
  const uint32_t want = packed(key);
  for (const Entry& e : entries_) {
    const uint32_t k = packed(e.key);
    if (k >= want) return k == want ? &e : nullptr;
  }
  return nullptr;
}

ModuleImage::Entry* ModuleImage::find_mut(const PageKey& key) {
  return const_cast<Entry*>(std::as_const(*this).find(key));
}

std::optional<uint8_t> ModuleImage::byte(uint8_t device, uint8_t bank, int16_t page,
                                         uint16_t window_offset) const {
  if (window_offset >= 2 * kPageSize) return std::nullopt;
  const bool lower = window_offset < kPageSize;
  const PageKey key{device, lower ? uint8_t{0} : bank, lower ? kLowerPage : page};
  const Entry* e = find(key);
  if (e == nullptr) return std::nullopt;
  return e->bytes[lower ? window_offset : window_offset - kPageSize];
}

}  // namespace xcvr::cmis
