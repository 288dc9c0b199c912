#include "cmis/field.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace xcvr::cmis {

std::string_view spec_name(Spec spec) {
  switch (spec) {
    case Spec::Cmis: return "CMIS";
    case Spec::Sff8636: return "SFF-8636";
    case Spec::Sff8472: return "SFF-8472";
  }
  return "unknown";
}

std::string_view unit_name(Unit unit) {
  switch (unit) {
    case Unit::None: return "";
    case Unit::Celsius: return "celsius";
    case Unit::Volts: return "volts";
    case Unit::Watts: return "watts";
    case Unit::Amperes: return "amperes";
    case Unit::Meters: return "meters";
    case Unit::Seconds: return "seconds";
    case Unit::Ratio: return "ratio";
    case Unit::Decibels: return "decibels";
  }
  return "";
}

namespace {

uint8_t* bytes_at(ModuleImage& image, const Location& loc, std::size_t size) {
  return const_cast<uint8_t*>(detail::bytes_at(std::as_const(image), loc, size));
}

using detail::bit_mask;

}  // namespace

BankLanes::BankLanes(const ModuleImage& image, const Field& field, int bank) : field_(field) {
  const LaneLayout& l = field.lanes;
  if (l.count == 0 || bank < 0 || (l.per_bank == 0 && bank != 0)) return;  // reads nothing
  const unsigned per_bank = l.per_bank != 0 ? l.per_bank : l.count;
  first_ = static_cast<unsigned>(bank) * per_bank;
  if (first_ >= l.count) return;
  count_ = std::min(per_bank, l.count - first_);
  // The keys locate() names for this bank's lanes, looked up only for the halves they reach.
  const bool reaches_lower = detail::place_in_bank(field, 0).offset < static_cast<int>(kPageSize);
  const bool reaches_upper = detail::place_in_bank(field, count_ - 1).offset >= static_cast<int>(kPageSize);
  if (const auto* e = reaches_lower ? image.find({field.device, 0, kLowerPage}) : nullptr) lower_ = e->bytes.data();
  if (const auto* e = reaches_upper ? image.find({field.device, static_cast<uint8_t>(bank), field.page}) : nullptr) {
    upper_ = e->bytes.data();
  }
}

std::span<const uint8_t> read_bytes(const ModuleImage& image, const Field& field) {
  const auto loc = locate(field);
  if (!loc) return {};
  const uint8_t* p = detail::bytes_at(image, *loc, field.size);
  if (p == nullptr) return {};
  return {p, field.size};
}

std::optional<std::string_view> read_ascii_view(const ModuleImage& image, const Field& field) {
  const auto bytes = read_bytes(image, field);
  if (bytes.empty()) return std::nullopt;
  std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.remove_suffix(1);
  return s;
}

std::optional<std::string> read_ascii(const ModuleImage& image, const Field& field) {
  const auto text = read_ascii_view(image, field);
  if (!text) return std::nullopt;
  return std::string(*text);
}

bool write_uint(ModuleImage& image, const Field& field, uint32_t value, int lane) {
  const auto loc = locate(field, lane);
  if (!loc) return false;
  uint8_t* p = bytes_at(image, *loc, field.size);
  if (p == nullptr) return false;
  switch (field.type) {
    case Type::U8: p[0] = static_cast<uint8_t>(std::min<uint32_t>(value, 0xFF)); return true;
    case Type::U16:
    case Type::S16: {
      const uint16_t v = field.type == Type::U16 ? static_cast<uint16_t>(std::min<uint32_t>(value, 0xFFFF))
                                                 : static_cast<uint16_t>(value);
      p[0] = static_cast<uint8_t>(v >> 8);
      p[1] = static_cast<uint8_t>(v & 0xFF);
      return true;
    }
    case Type::Bits: {
      const uint32_t mask = bit_mask(field.width);
      const uint32_t v = std::min(value, mask);
      p[0] = static_cast<uint8_t>((p[0] & ~(mask << loc->shift)) | (v << loc->shift));
      return true;
    }
    case Type::Ascii:
    case Type::Bytes: return false;
  }
  return false;
}

bool write_scaled(ModuleImage& image, const Field& field, double value, int lane) {
  if (!std::isfinite(value) || field.scale == 0) return false;
  double raw = std::round(value / field.scale);
  if (field.type == Type::S16) {
    raw = std::clamp(raw, -32768.0, 32767.0);
    return write_uint(image, field, static_cast<uint32_t>(static_cast<int32_t>(raw)) & 0xFFFF, lane);
  }
  raw = std::clamp(raw, 0.0, 4294967295.0);
  return write_uint(image, field, static_cast<uint32_t>(raw), lane);
}

bool write_bytes(ModuleImage& image, const Field& field, std::span<const uint8_t> bytes) {
  const auto loc = locate(field);
  if (!loc) return false;
  uint8_t* p = bytes_at(image, *loc, field.size);
  if (p == nullptr) return false;
  std::fill_n(p, field.size, 0);
  std::copy_n(bytes.begin(), std::min<std::size_t>(bytes.size(), field.size), p);
  return true;
}

bool write_ascii(ModuleImage& image, const Field& field, std::string_view text) {
  const auto loc = locate(field);
  if (!loc) return false;
  uint8_t* p = bytes_at(image, *loc, field.size);
  if (p == nullptr) return false;
  std::fill_n(p, field.size, ' ');
  std::copy_n(text.begin(), std::min<std::size_t>(text.size(), field.size), p);
  return true;
}

}  // namespace xcvr::cmis
