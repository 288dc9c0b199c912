// Field tables: one row per field of a memory map. The same rows drive the decoder, the
// emulator's encoder and the field reference in docs — no byte offset lives anywhere else.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cmis/image.hpp"

namespace xcvr::cmis {

enum class Spec : uint8_t { Cmis, Sff8636, Sff8472 };
enum class FlagId : uint8_t;  // cmis/flags.hpp: the flag table's rows
std::string_view spec_name(Spec spec);  // "CMIS", "SFF-8636", "SFF-8472"

enum class Type : uint8_t {
  U8,     // unsigned byte
  U16,    // unsigned big-endian word
  S16,    // signed big-endian word
  Ascii,  // `size` bytes of space-padded ASCII
  Bits,   // `width` bits at `shift` of one byte (per lane: see LaneLayout)
  Bytes,  // `size` raw bytes (OUI, calibration floats, ...)
};

// Monitor encodings the three specs share (SFF-8472 §9.2, SFF-8636 §6.2.4, CMIS §8.2.4 and its
// VDM/aux monitors): the value of one LSB in base units.
inline constexpr double kTemperatureLsb = 1.0 / 256;  // °C, signed 8.8
inline constexpr double kVoltageLsb = 100e-6;         // V (100 µV)
inline constexpr double kOpticalPowerLsb = 0.1e-6;    // W (0.1 µW)
inline constexpr double kBiasLsb = 2e-6;              // A (before a CMIS 01h:160 multiplier)
inline constexpr double kTecCurrentLsb = 1.0 / 32767; // fraction of full-scale TEC current, signed
inline constexpr double kNanometer = 1e-9;

enum class Unit : uint8_t { None, Celsius, Volts, Watts, Amperes, Meters, Seconds, Ratio, Decibels };
std::string_view unit_name(Unit unit);  // "celsius", "volts", ... ("" for None)

// What a field is for; lets decoders and docs walk a table by kind (e.g. every flag row).
enum class Role : uint8_t {
  Info,       // identity, advertisement, codes
  Monitor,    // live value (temperature, lane power, ...)
  Threshold,  // alarm/warning level
  Flag,       // latched clear-on-read flag bit (name is the flag's exported name)
  VdmFlag,    // latched clear-on-read flag bit of a VDM instance (its "lane" is the instance)
  Status,     // live state that is not latched (module state, DP state, LOS on SFF-8472 110)
  Control,    // host-writable control (page/bank select, Tx disable, ...)
  Checksum,   // stored checksum byte
};

// How a per-lane field repeats. Lane numbers are 1-based.
struct LaneLayout {
  uint8_t count = 0;     // 0: module-level field; else lanes 1..count
  uint8_t per_bank = 0;  // CMIS banked pages: lanes per bank (8); bank = (lane-1)/per_bank
  uint8_t stride = 0;    // multi-byte lanes: bytes between lane n and n+1
  uint8_t per_byte = 0;  // packed lanes: lanes sharing one byte
  int8_t bit_step = 0;   // packed lanes: shift change from one lane to the next in a byte
};

struct Field {
  uint16_t id;            // index of the row in its table (checked at compile time)
  std::string_view name;  // stable snake_case name (docs, JSON, errors)
  uint8_t device;         // I2C address: kDeviceA0 or kDeviceA2
  int16_t page;           // kLowerPage or the upper page number
  uint16_t offset;        // 0-255 in the page window; for per-lane fields, lane 1's byte
  uint8_t size;           // bytes (1 for U8/Bits, 2 for U16/S16, n for Ascii/Bytes)
  Type type;
  uint8_t shift = 0;      // Bits: lowest bit of the value (lane 1's for packed lanes)
  uint8_t width = 8;      // Bits: number of bits
  double scale = 1.0;     // SI units per LSB (before any module-specific multiplier)
  Unit unit = Unit::None;
  Role role = Role::Info;
  LaneLayout lanes = {};
  std::optional<FlagId> flag = {};  // flag rows: the flag table's row (which names the field)
};

// True when every row's id equals its index: the map files static_assert this so that a
// table lookup by enum is a plain index.
template <typename Table>
constexpr bool rows_follow_ids(const Table& table) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].id != i) return false;
  }
  return true;
}

// Where one field (for one lane) sits in module memory.
struct Location {
  PageKey page;            // the half-page holding it
  uint16_t offset;         // 0-255 within the window
  uint8_t shift;           // Bits only
};

// Location of `field` for `lane` (1-based; ignored for module-level fields). nullopt when the
// lane is out of range.
inline std::optional<Location> locate(const Field& field, int lane = 1);

// Decoding. Each returns nullopt when the bytes are not in the image (or lane out of range).
// A decode reads a few hundred fields, so these are inline: with the image's page index a read
// is offset arithmetic and one indexed load.
inline std::optional<uint32_t> read_uint(const ModuleImage& image, const Field& field, int lane = 1);
inline std::optional<int32_t> read_int(const ModuleImage& image, const Field& field, int lane = 1);
// `raw` LSBs of `scale` units each, rounded once. A decimal LSB (100 uV, 0.1 uW, 2 uA) is no
// binary fraction: raw * 1e-4 rounds the scale and then the product, so 32998 LSB read
// 3.2998000000000003 V, which /metrics (shortest exact values) wrote with all 17 digits.
// Dividing by the LSBs per unit, a whole number, rounds once: the double nearest 3.2998.
inline double scaled_value(double raw, double scale) {
  const double per_unit = 1.0 / scale;
  const double whole = std::nearbyint(per_unit);
  return std::abs(per_unit - whole) <= 1e-9 * whole ? raw / whole : raw * scale;
}

// The raw value times `scale` (S16 signed, U8/U16/Bits unsigned), by scaled_value.
inline std::optional<double> read_scaled(const ModuleImage& image, const Field& field, int lane = 1);
// ASCII with trailing spaces/NULs trimmed; non-printable bytes are kept (callers check them).
std::optional<std::string> read_ascii(const ModuleImage& image, const Field& field);
// The same as a view of the image's bytes.
std::optional<std::string_view> read_ascii_view(const ModuleImage& image, const Field& field);
// Raw bytes of a Bytes/Ascii field; empty span when absent.
std::span<const uint8_t> read_bytes(const ModuleImage& image, const Field& field);

// Encoding (the emulator, tests). The page must already be in the image. Values out of the
// field's range are clamped. Returns false when the page is absent.
bool write_uint(ModuleImage& image, const Field& field, uint32_t value, int lane = 1);
bool write_scaled(ModuleImage& image, const Field& field, double value, int lane = 1);
bool write_ascii(ModuleImage& image, const Field& field, std::string_view text);
bool write_bytes(ModuleImage& image, const Field& field, std::span<const uint8_t> bytes);

// The lanes one bank holds of a per-lane field, with the field's half-pages found once: a decoder
// reading every lane of a field pays one page lookup per field and bank, and each lane is offset
// arithmetic. Reads give what read_uint / read_scaled give for the same lane; lanes outside the
// bank (and module-level fields) read nullopt.
class BankLanes {
 public:
  BankLanes(const ModuleImage& image, const Field& field, int bank = 0);
  inline std::optional<uint32_t> uint(int lane) const;  // lane: 1-based, as for read_uint
  inline std::optional<double> scaled(int lane) const;

 private:
  const Field& field_;
  unsigned first_ = 0;                // index of the bank's first lane
  unsigned count_ = 0;                // the field's lanes in the bank
  const uint8_t* lower_ = nullptr;    // window bytes 0-127 (the device's lower page)
  const uint8_t* upper_ = nullptr;    // window bytes 128-255 (the field's page, this bank)
};

// ---- inline definitions (the decode hot path) ----

namespace detail {
// n / d for the lane layouts' divisors, which the specs make powers of two (8 lanes per bank,
// 8, 4 or 2 lanes per byte): a shift instead of a division on every per-lane read.
constexpr unsigned quotient(unsigned n, unsigned d) {
  return d != 0 && (d & (d - 1)) == 0 ? n >> std::countr_zero(d) : n / d;  // (has_single_bit calls popcount)
}
}  // namespace detail

namespace detail {
// Where lane `index` (0-based within its bank) of a per-lane field sits: its byte offset in the
// 256-byte window and its shift (Bits).
struct LanePlace {
  int offset;
  int shift;
};
constexpr LanePlace place_in_bank(const Field& field, unsigned index) {
  const LaneLayout& l = field.lanes;
  if (l.per_byte != 0) {
    const unsigned byte = quotient(index, l.per_byte);
    return {field.offset + static_cast<int>(byte), field.shift + l.bit_step * static_cast<int>(index - byte * l.per_byte)};
  }
  return {field.offset + static_cast<int>(index * l.stride), field.shift};
}
}  // namespace detail

std::optional<Location> locate(const Field& field, int lane) {
  const LaneLayout& l = field.lanes;
  uint8_t bank = 0;
  detail::LanePlace place{field.offset, field.shift};
  if (l.count != 0) {
    if (lane < 1 || lane > l.count) return std::nullopt;
    unsigned index = static_cast<unsigned>(lane - 1);  // lane index within its bank
    if (l.per_bank != 0) {
      bank = static_cast<uint8_t>(detail::quotient(index, l.per_bank));
      index -= bank * l.per_bank;
    }
    place = detail::place_in_bank(field, index);
  }
  const bool upper = place.offset >= static_cast<int>(kPageSize);
  const PageKey key{field.device, upper ? bank : uint8_t{0}, upper ? field.page : kLowerPage};
  return Location{key, static_cast<uint16_t>(place.offset), static_cast<uint8_t>(place.shift)};
}

namespace detail {
// Pointer to `size` contiguous bytes of the field, or nullptr when absent / out of the half.
inline const uint8_t* bytes_at(const ModuleImage& image, const Location& loc, std::size_t size) {
  const ModuleImage::Entry* e = image.find(loc.page);
  if (e == nullptr) return nullptr;
  const std::size_t base = loc.page.page == kLowerPage ? 0 : kPageSize;
  if (loc.offset < base || loc.offset + size > base + kPageSize) return nullptr;
  return e->bytes.data() + (loc.offset - base);
}
constexpr uint32_t bit_mask(uint8_t width) { return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1; }
}  // namespace detail

namespace detail {
// The value of `field` whose first byte is at `p` (Bits: at `shift`).
inline std::optional<uint32_t> value_at(const uint8_t* p, const Field& field, uint8_t shift) {
  switch (field.type) {
    case Type::U8: return p[0];
    case Type::U16:
    case Type::S16: return static_cast<uint32_t>(p[0] << 8 | p[1]);
    case Type::Bits: return (p[0] >> shift) & bit_mask(field.width);
    case Type::Ascii:
    case Type::Bytes: return std::nullopt;
  }
  return std::nullopt;
}
constexpr int32_t signed_value(const Field& field, uint32_t raw) {
  return field.type == Type::S16 ? static_cast<int16_t>(static_cast<uint16_t>(raw)) : static_cast<int32_t>(raw);
}
}  // namespace detail

std::optional<uint32_t> read_uint(const ModuleImage& image, const Field& field, int lane) {
  const auto loc = locate(field, lane);
  if (!loc) return std::nullopt;
  const uint8_t* p = detail::bytes_at(image, *loc, field.size);
  if (p == nullptr) return std::nullopt;
  return detail::value_at(p, field, loc->shift);
}

std::optional<int32_t> read_int(const ModuleImage& image, const Field& field, int lane) {
  const auto raw = read_uint(image, field, lane);
  if (!raw) return std::nullopt;
  return detail::signed_value(field, *raw);
}

std::optional<double> read_scaled(const ModuleImage& image, const Field& field, int lane) {
  const auto raw = read_int(image, field, lane);
  if (!raw) return std::nullopt;
  return scaled_value(*raw, field.scale);
}

std::optional<uint32_t> BankLanes::uint(int lane) const {
  const unsigned index = static_cast<unsigned>(lane - 1) - first_;  // wraps for lanes below the bank
  if (lane < 1 || index >= count_) return std::nullopt;
  const detail::LanePlace place = detail::place_in_bank(field_, index);
  const bool upper = place.offset >= static_cast<int>(kPageSize);
  const uint8_t* half = upper ? upper_ : lower_;
  const int in_half = place.offset - (upper ? static_cast<int>(kPageSize) : 0);
  if (half == nullptr || in_half + field_.size > static_cast<int>(kPageSize)) return std::nullopt;
  return detail::value_at(half + in_half, field_, static_cast<uint8_t>(place.shift));
}

std::optional<double> BankLanes::scaled(int lane) const {
  const auto raw = uint(lane);
  if (!raw) return std::nullopt;
  return scaled_value(detail::signed_value(field_, *raw), field_.scale);
}

}  // namespace xcvr::cmis
