// Internal helpers shared by the dump-file readers (not part of the public interface).
//
// The readers know page geometry only: 128-byte halves of a 256-byte window per I2C device, and
// the optoe linearizations of those halves. They never look at module fields, except that a
// linear dump's layout depends on the module family, which the SFF-8024 identifier names.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/spelling.hpp"
#include "cmis/image.hpp"

namespace xcvr::dumpfile::detail {

// The page vocabulary every format reader speaks.
using cmis::kDeviceA0;
using cmis::kDeviceA2;
using cmis::kLowerPage;
using cmis::PageKey;

// Thrown by the readers; parse() turns it into a ParseError. Never escapes parse().
struct Failure {
  std::string message;
  int line = 0;
  int column = 0;
};

// Where a byte or token came from in a text dump (1-based; 0 when unknown).
struct Where {
  int line = 0;
  int column = 0;
};

[[noreturn]] void fail(std::string message);
// Prefixes "line L, column C: " (or "line L: ") to the message.
[[noreturn]] void fail_at(Where where, const std::string& message);

// "0x1f" (at least two digits).
std::string hex(std::size_t value);
// "1 byte", "300 bytes".
std::string count_of(std::size_t n, std::string_view noun);
std::string lowercase(std::string_view text);
// A token as quoted in an error: at most 16 characters.
std::string quoted(std::string_view token);
bool is_hex_digit(char c);
bool is_blank(char c);  // space or tab
// Value of 1-8 hex digits; nullopt otherwise.
std::optional<uint32_t> hex_value(std::string_view digits);
// Value of 1-9 decimal digits; nullopt otherwise.
std::optional<uint32_t> decimal_value(std::string_view digits);
bool has_hex_prefix(std::string_view text);  // "0x…" / "0X…" with at least one more character
// A number as dumps and ethtool's command line write one: "0x11" and "11h" are hex, "17" decimal.
std::optional<uint32_t> number_word(std::string_view word);
bool contains(std::string_view haystack, std::string_view needle);
// Case-insensitive (ASCII) comparisons; `needle` in lower case.
using base::iequals;
bool icontains(std::string_view haystack, std::string_view needle);

struct Line {
  std::string_view text;  // without the line ending
  int number = 0;         // 1-based
};

// Walks text line by line ("\n", "\r\n" or "\r") without copying it.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(Line& line);

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

// ---- Collecting bytes into halves ----------------------------------------------------------

inline constexpr std::size_t kHalf = cmis::kPageSize;  // 128
inline constexpr std::size_t kWindow = 2 * kHalf;      // 256
inline constexpr int kMaxPage = 255;
// Banks accepted in headers and linear layouts (CMIS advertises at most 4; some headroom).
inline constexpr int kMaxBanks = 8;

// "page 00h", "page 11h bank 1", "lower page", "A2h lower page".
std::string half_label(const cmis::PageKey& key);

// One 128-byte half being filled byte by byte, remembering where each byte came from.
struct PartialHalf {
  cmis::PageBytes bytes{};
  std::array<bool, kHalf> have{};
  std::array<Where, kHalf> from{};
  std::size_t filled = 0;
  Where first;  // where the first byte stored came from
};

// Halves of module memory keyed by PageKey. A byte stored twice must have the same value.
class PageAssembler {
 public:
  // `index` is 0-127 within the half.
  void put(const cmis::PageKey& key, std::size_t index, uint8_t value, Where where);
  // The lower page of `device`, if complete.
  const cmis::PageBytes* complete_lower(uint8_t device) const;
  // The image; fails naming the first half that is not complete.
  cmis::ModuleImage finish() const;
  bool empty() const { return halves_.empty(); }
  std::size_t repeated_bytes() const { return repeated_; }

 private:
  std::map<cmis::PageKey, PartialHalf> halves_;
  std::size_t repeated_ = 0;
};

// ---- Linear layouts ------------------------------------------------------------------------

// How a linear dump (ethtool's ioctl dump, optoe's sysfs file) strings halves together.
enum class Linearization {
  OneAddress,  // QSFP/CMIS: 0-127 lower, then page P of bank K at (K*256 + P)*128 + 128
  TwoAddress,  // SFF-8472: A0h 0-255, A2h 0-127 at 256, A2h page P upper at 384 + P*128
};

// Largest number of 128-byte chunks either linearization can hold.
std::size_t max_linear_chunks();
// The half that chunk `chunk` (linear offset / 128) holds; nullopt past the layout's end.
std::optional<cmis::PageKey> linear_chunk_key(std::size_t chunk, Linearization layout);
// TwoAddress when `lower` names an SFF-8472 module; OneAddress otherwise (also when absent).
Linearization linearization_for(const cmis::PageBytes* lower);
std::string_view linearization_name(Linearization layout);

// Bytes at linear offsets, collected in 128-byte chunks until the layout is known.
class LinearAssembler {
 public:
  void put(std::size_t offset, uint8_t value, Where where);
  bool empty() const { return chunks_.empty(); }
  std::size_t chunk_count() const { return chunks_.empty() ? 0 : chunks_.rbegin()->first + 1; }
  // Chunk 0 when complete (it decides the layout).
  const cmis::PageBytes* complete_first_chunk() const;
  // Moves every byte into `pages` under `layout`.
  void place(Linearization layout, PageAssembler& pages) const;
  std::size_t repeated_bytes() const { return repeated_; }

 private:
  std::map<std::size_t, PartialHalf> chunks_;
  std::size_t repeated_ = 0;
};

// ---- Flat dumps ----------------------------------------------------------------------------

// Largest flat dump accepted (a whole optoe file with kMaxBanks banks).
std::size_t max_flat_size();
// Lays out a whole flat dump (binary file, C array, unnamed bytearray) by its size: 128, 256,
// 512, 640, a whole optoe file or a prefix of one ending on a 128-byte boundary. `what` names the input in errors ("binary dump").
cmis::ModuleImage flat_image(std::span<const uint8_t> bytes, std::string_view what,
                             std::vector<std::string>& notes);

}  // namespace xcvr::dumpfile::detail
