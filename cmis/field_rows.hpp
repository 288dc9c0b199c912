// The row builders of the three memory maps (cmis_map.cpp, sff8636_map.cpp, sff8472_map.cpp):
// one set, so a row means the same in every map. A flag row takes its name from the flag table
// (cmis/flags.hpp), so only a flag of the table can be a map's flag.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>

#include "cmis/field.hpp"
#include "cmis/flags.hpp"

namespace xcvr::cmis::field_rows {

// The monitor encodings (cmis/field.hpp) by the short names the rows use.
inline constexpr double kTemp = kTemperatureLsb;
inline constexpr double kVolt = kVoltageLsb;
inline constexpr double kPower = kOpticalPowerLsb;
inline constexpr double kBias = kBiasLsb;

// Where a row's bytes are: the device (A0h, or SFF-8472's A2h) and the page. A page number alone
// means device A0h; a device constant alone does not convert, so it cannot pass for a page.
struct Place {
  uint8_t device;
  int16_t page;
  template <typename Page>
    requires std::same_as<Page, int> || std::same_as<Page, int16_t>
  constexpr Place(Page p) : device(kDeviceA0), page(static_cast<int16_t>(p)) {}  // NOLINT: implicit by design
  constexpr Place(uint8_t d, int16_t p) : device(d), page(p) {}
};

// A value of `size` bytes.
template <typename Id>
constexpr Field row(Id id, std::string_view name, Place at, uint16_t offset, uint8_t size, Type type,
                    double scale = 1, Unit unit = Unit::None, Role role = Role::Info, LaneLayout lanes = {}) {
  return Field{static_cast<uint16_t>(id), name, at.device, at.page, offset, size, type, 0, 8,
               scale, unit, role, lanes};
}

// `width` bits at `shift` of one byte.
template <typename Id>
constexpr Field bits(Id id, std::string_view name, Place at, uint16_t offset, uint8_t shift, uint8_t width,
                     Role role = Role::Info, LaneLayout lanes = {}) {
  return Field{static_cast<uint16_t>(id), name, at.device, at.page, offset, 1, Type::Bits, shift,
               width, 1, Unit::None, role, lanes};
}

// A flag bit, named by the flag table: latched clear-on-read (Role::Flag), a VDM instance's
// latched bit (Role::VdmFlag) or a live status bit exported as the flag (Role::Status, SFF-8472
// 110). For a per-lane flag `bit` is lane 1's; the layout says where the other lanes sit.
template <typename Id>
constexpr Field flag(Id id, FlagId flag_id, Place at, uint16_t offset, uint8_t bit, LaneLayout lanes = {},
                     Role role = Role::Flag) {
  Field f = bits(id, flag_name(flag_id), at, offset, bit, 1, role, lanes);
  f.flag = flag_id;
  return f;
}

// Where each of a monitor's four crossing flags sits relative to the high alarm's bit: bytes
// and bits on, in FlagId order (high alarm, low alarm, high warning, low warning). Each map
// writes its spec's pattern once.
struct Step {
  int8_t bytes;
  int8_t bits;
};
using CrossingLayout = std::array<Step, 4>;

// The four threshold-crossing flags of one monitor: the map's ids from `first` and the flag
// table's from `first_flag`, both in high alarm, low alarm, high warning, low warning order.
template <typename Id>
constexpr std::array<Field, 4> crossings(Id first, FlagId first_flag, Place at, uint16_t offset, uint8_t bit,
                                         const CrossingLayout& layout, LaneLayout lanes = {}) {
  std::array<Field, 4> out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto id = static_cast<Id>(static_cast<std::size_t>(first) + i);
    const auto flag_id = static_cast<FlagId>(static_cast<std::size_t>(first_flag) + i);
    out[i] = flag(id, flag_id, at, static_cast<uint16_t>(offset + layout[i].bytes),
                  static_cast<uint8_t>(bit + layout[i].bits), lanes);
  }
  return out;
}

// The rows of the pieces in order: a table whose rows repeat a pattern (crossings) is pieces.
template <std::size_t... N>
constexpr auto join(const std::array<Field, N>&... pieces) {
  std::array<Field, (N + ...)> out{};
  auto next = out.begin();
  ((next = std::copy(pieces.begin(), pieces.end(), next)), ...);
  return out;
}

// A map's page of alarm/warning levels: `threshold(id, name, offset, type, scale, unit)` is a
// 2-byte level there, in the encoding of its monitor.
template <typename Id>
struct ThresholdPage {
  Place at;
  constexpr Field operator()(Id id, std::string_view name, uint16_t offset, Type type, double scale,
                             Unit unit) const {
    return row(id, name, at, offset, 2, type, scale, unit, Role::Threshold);
  }
};

// True when every row a decoder reads as a flag (Role::Flag and Role::VdmFlag rows, and the 1-bit
// Status rows where `status_bits_are_flags`) was built by flag(): the maps static_assert it, so
// a flag row outside the flag table fails the build.
template <typename Table>
constexpr bool flags_come_from_table(const Table& table, bool status_bits_are_flags = false) {
  for (const Field& f : table) {
    const bool status_flag = status_bits_are_flags && f.role == Role::Status && f.type == Type::Bits && f.width == 1;
    const bool read_as_flag = f.role == Role::Flag || f.role == Role::VdmFlag || status_flag;
    if (read_as_flag != f.flag.has_value()) return false;
    if (f.flag && f.name != flag_name(*f.flag)) return false;
  }
  return true;
}

}  // namespace xcvr::cmis::field_rows
