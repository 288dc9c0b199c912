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

std::optional<Location> locate(const Field& field, int lane) {
  const LaneLayout& l = field.lanes;
  uint8_t bank = 0;
  int index = 0;  // lane index within its bank
  if (l.count != 0) {
    if (lane < 1 || lane > l.count) return std::nullopt;
    index = lane - 1;
    if (l.per_bank != 0) {
      bank = static_cast<uint8_t>(index / l.per_bank);
      index %= l.per_bank;
    }
  }
  int offset = field.offset;
  int shift = field.shift;
  if (l.count != 0 && l.per_byte != 0) {
    offset += index / l.per_byte;
    shift += l.bit_step * (index % l.per_byte);
  } else if (l.count != 0) {
    offset += index * l.stride;
  }
  const bool upper = offset >= static_cast<int>(kPageSize);
  const PageKey key{field.device, upper ? bank : uint8_t{0}, upper ? field.page : kLowerPage};
  return Location{key, static_cast<uint16_t>(offset), static_cast<uint8_t>(shift)};
}

namespace {

// Pointer to `size` contiguous bytes of the field, or nullptr when absent / out of the half.
const uint8_t* bytes_at(const ModuleImage& image, const Location& loc, std::size_t size) {
  const ModuleImage::Entry* e = image.find(loc.page);
  if (e == nullptr) return nullptr;
  const std::size_t base = loc.page.page == kLowerPage ? 0 : kPageSize;
  if (loc.offset < base || loc.offset + size > base + kPageSize) return nullptr;
  return e->bytes.data() + (loc.offset - base);
}

uint8_t* bytes_at(ModuleImage& image, const Location& loc, std::size_t size) {
  return const_cast<uint8_t*>(bytes_at(std::as_const(image), loc, size));
}

uint32_t bit_mask(uint8_t width) { return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1; }

}  // namespace

std::optional<uint32_t> read_uint(const ModuleImage& image, const Field& field, int lane) {
  const auto loc = locate(field, lane);
  if (!loc) return std::nullopt;
  const uint8_t* p = bytes_at(image, *loc, field.size);
  if (p == nullptr) return std::nullopt;
  switch (field.type) {
    case Type::U8: return p[0];
    case Type::U16:
    case Type::S16: return static_cast<uint32_t>(p[0] << 8 | p[1]);
    case Type::Bits: return (p[0] >> loc->shift) & bit_mask(field.width);
    case Type::Ascii:
    case Type::Bytes: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<int32_t> read_int(const ModuleImage& image, const Field& field, int lane) {
  const auto raw = read_uint(image, field, lane);
  if (!raw) return std::nullopt;
  if (field.type == Type::S16) return static_cast<int16_t>(static_cast<uint16_t>(*raw));
  return static_cast<int32_t>(*raw);
}

std::optional<double> read_scaled(const ModuleImage& image, const Field& field, int lane) {
  const auto raw = read_int(image, field, lane);
  if (!raw) return std::nullopt;
  return *raw * field.scale;
}

std::span<const uint8_t> read_bytes(const ModuleImage& image, const Field& field) {
  const auto loc = locate(field);
  if (!loc) return {};
  const uint8_t* p = bytes_at(image, *loc, field.size);
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
