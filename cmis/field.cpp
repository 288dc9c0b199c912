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

std::span<const uint8_t> read_bytes(const ModuleImage& image, const Field& field) {
  const auto loc = locate(field);
  if (!loc) return {};
  const uint8_t* p = detail::bytes_at(image, *loc, field.size);
  if (p == nullptr) return {};
  return {p, field.size};
}

std::optional<std::string> read_ascii(const ModuleImage& image, const Field& field) {
  const auto bytes = read_bytes(image, field);
  if (bytes.empty()) return std::nullopt;
  std::string s(bytes.begin(), bytes.end());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
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
