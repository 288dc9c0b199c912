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
    // Exactly one more: an image holds ~20 pages for as long as its module is in, and doubling
    // would leave a third of them unused (a new page is rare after the first read).
    entries_.reserve(entries_.size() + 1);
    entries_.push_back(Entry{key, {}, 0});
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.key < b.key; });
    reindex();
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
  if (std::erase_if(entries_, [&](const Entry& e) { return e.key == key; }) != 0) reindex();
}

void ModuleImage::reindex() {
  slots_.fill(kNoEntry);
  // An image of 255 or more half-pages (only a hostile dump) is not indexed: find() scans.
  indexed_ = entries_.size() < kNoEntry;
  for (std::size_t i = 0; indexed_ && i < entries_.size(); ++i) {
    if (const int s = slot(entries_[i].key); s >= 0) slots_[static_cast<std::size_t>(s)] = static_cast<uint8_t>(i);
  }
}

const ModuleImage::Entry* ModuleImage::scan(PageKey key) const {
  for (const Entry& e : entries_) {
    if (e.key == key) return &e;
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
