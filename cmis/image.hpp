// ModuleImage: the bytes read from one module so far.
//
// Module memory is addressed as a 256-byte window per I2C device address: bytes 0-127 are the
// lower page (always present), bytes 128-255 are the currently selected upper page (and, for
// CMIS, bank). An image stores each 128-byte half it has seen, keyed by {device, bank, page},
// with the time it was read. Decoders work on any subset and report what is missing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace xcvr::cmis {

inline constexpr int16_t kLowerPage = -1;     // the 0-127 half of a device's window
inline constexpr uint8_t kDeviceA0 = 0x50;    // SFF-8472 A0h / CMIS / SFF-8636
inline constexpr uint8_t kDeviceA2 = 0x51;    // SFF-8472 A2h (diagnostics)
inline constexpr std::size_t kPageSize = 128;

struct PageKey {
  uint8_t device = kDeviceA0;
  uint8_t bank = 0;
  int16_t page = kLowerPage;
  auto operator<=>(const PageKey&) const = default;
};

// "00h", "11h bank 1", "lower", "A2h lower" — how operators name pages.
std::string page_name(const PageKey& key);

using PageBytes = std::array<uint8_t, kPageSize>;

class ModuleImage {
 public:
  struct Entry {
    PageKey key;
    PageBytes bytes{};
    int64_t read_at_ns = 0;  // monotonic or wall time of the read, as the caller chooses
  };

  // Stores or replaces a whole half-page.
  void set_page(const PageKey& key, std::span<const uint8_t> bytes128, int64_t read_at_ns = 0);
  // Overwrites part of a half-page already present (offset is within the 256-byte window).
  // Returns false when the page is absent or the range does not fit in one half.
  bool update(const PageKey& key, uint16_t window_offset, std::span<const uint8_t> bytes,
              int64_t read_at_ns = 0);
  void erase(const PageKey& key);
  void clear() {
    entries_.clear();
    slots_.fill(kNoEntry);
    indexed_ = true;
  }

  const Entry* find(const PageKey& key) const {
    if (const int s = slot(key); s >= 0 && indexed_) {
      const uint8_t i = slots_[static_cast<std::size_t>(s)];
      return i == kNoEntry ? nullptr : &entries_[i];
    }
    return scan(key);
  }
  bool has(const PageKey& key) const { return find(key) != nullptr; }
  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

  // Byte `window_offset` (0-255) of {device, bank, page}: offsets below 128 come from the lower
  // page whatever page is named; the bank only applies to upper pages.
  std::optional<uint8_t> byte(uint8_t device, uint8_t bank, int16_t page,
                              uint16_t window_offset) const;

 private:
  // find() runs for every field a decode reads, so the pages decoders read (lower and 00h-3Fh,
  // banks 0-3, both devices) are found by index, not by a scan: slots_ holds each one's position
  // in entries_ and is rebuilt when entries_ changes shape. Other keys (bank > 3, page > 3Fh)
  // are scanned for.
  static constexpr int kSlotPages = 0x41;  // lower + 00h..3Fh
  static constexpr int kSlotBanks = 4;
  static constexpr uint8_t kNoEntry = 0xFF;
  static constexpr int slot(const PageKey& key) {  // -1: not indexed
    static_assert(kDeviceA2 == kDeviceA0 + 1);
    const unsigned device = static_cast<unsigned>(key.device - kDeviceA0);  // A0h 0, A2h 1
    const unsigned page = static_cast<unsigned>(key.page + 1);             // lower 0, 00h 1, ...
    if (device > 1 || key.bank >= kSlotBanks || page >= kSlotPages) return -1;
    return static_cast<int>((device * kSlotBanks + key.bank) * kSlotPages + page);
  }
  void reindex();
  // By value: a key whose address is taken stays on the stack in every inlined field read.
  const Entry* scan(PageKey key) const;

  Entry* find_mut(const PageKey& key);
  std::vector<Entry> entries_;  // few entries (≤ ~12), kept sorted by key
  bool indexed_ = true;
  std::array<uint8_t, 2 * kSlotBanks * kSlotPages> slots_ = filled_slots();
  static constexpr std::array<uint8_t, 2 * kSlotBanks * kSlotPages> filled_slots() {
    std::array<uint8_t, 2 * kSlotBanks * kSlotPages> a{};
    a.fill(kNoEntry);
    return a;
  }
};

}  // namespace xcvr::cmis
