// Entry points: format names, size limit, binary-or-text and text-format detection, dispatch
// to the readers (row_formats.cpp, array_formats.cpp; layouts in parse_support.cpp).
#include "dumpfile/dump_parser.hpp"

#include <unistd.h>

#include "base/safe_file.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <utility>

#include "dumpfile/parse_support.hpp"
#include "dumpfile/dump_parser_internal.hpp"

namespace xcvr::dumpfile {
namespace {

using detail::fail;
using detail::Reading;

struct NamedFormat {
  Format format;
  std::string_view name;
};

constexpr std::array<NamedFormat, 8> kFormatNames{{
    {Format::Auto, "auto"},
    {Format::Binary, "binary"},
    {Format::EthtoolHex, "ethtool"},
    {Format::SfputilHex, "sfputil"},
    {Format::Junos, "junos"},
    {Format::I2cdump, "i2cdump"},
    {Format::CArray, "c-array"},
    {Format::PyBytearray, "bytearray"},
}};

// ---- Binary or text ------------------------------------------------------------------------

// Length of the UTF-8 sequence starting at bytes[i], or 0 if it is not valid UTF-8.
std::size_t utf8_length(std::span<const uint8_t> bytes, std::size_t i) {
  const uint8_t lead = bytes[i];
  const std::size_t n = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3
                        : (lead & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || i + n > bytes.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((bytes[i + k] & 0xC0) != 0x80) return 0;
  }
  return n;
}

bool is_text_control(uint8_t c) {
  return c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x1B;  // ESC
}

// Text has no NUL bytes and at most 1% bytes that are neither printable, whitespace, ANSI
// escapes nor part of valid UTF-8. Module memory always fails this (it is full of zeros).
bool looks_like_text(std::span<const uint8_t> bytes) {
  std::size_t odd = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const uint8_t c = bytes[i];
    if (c == 0) return false;
    if (c >= 0x80) {
      const std::size_t n = utf8_length(bytes, i);
      if (n == 0) {
        ++odd;
      } else {
        i += n - 1;
      }
    } else if ((c < 0x20 && !is_text_control(c)) || c == 0x7F) {
      ++odd;
    }
  }
  constexpr std::size_t kPercent = 100;
  return odd * kPercent <= bytes.size();
}

// ---- Text format detection -----------------------------------------------------------------

// Detection order for ties, and the formats a text can be.
constexpr std::array<Format, 6> kTextFormats{Format::EthtoolHex, Format::SfputilHex, Format::Junos,
                                             Format::I2cdump,    Format::CArray,     Format::PyBytearray};

std::size_t index_of(Format f) { return static_cast<std::size_t>(f); }

// The text format with the most matching lines (a bytearray counts as the 8 rows of a half).
Format detect_text_format(std::string_view text) {
  std::array<std::size_t, kFormatNames.size()> score{};
  detail::LineReader reader(text);
  detail::Line line;
  while (reader.next(line)) {
    if (auto f = detail::row_format_of_line(line.text)) {
      ++score[index_of(*f)];
    } else if (detail::is_c_array_line(line.text)) {
      ++score[index_of(Format::CArray)];
    }
  }
  constexpr std::size_t kRowsPerHalf = 8;
  score[index_of(Format::PyBytearray)] = detail::count_bytearrays(text) * kRowsPerHalf;

  Format best = kTextFormats[0];
  for (Format f : kTextFormats) {
    if (score[index_of(f)] > score[index_of(best)]) best = f;
  }
  if (score[index_of(best)] == 0) {
    fail("no module memory rows found in " + detail::count_of(line.number, "line") +
         " of text (expected ethtool -m hex, sfputil eeprom-hexdump, Junos PICD or i2cdump "
         "rows, a C array or Python bytearrays)");
  }
  return best;
}

// ---- Parsing -------------------------------------------------------------------------------

// Text saved as UTF-16 (a byte-order mark, then NULs between ASCII characters).
bool is_utf16(std::span<const uint8_t> bytes) {
  return bytes.size() >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) ||
                               (bytes[0] == 0xFE && bytes[1] == 0xFF));
}

std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.substr(0, kBom.size()) == kBom ? text.substr(kBom.size()) : text;
}

Reading read(Format format, std::span<const uint8_t> bytes, std::string_view text) {
  switch (format) {
    case Format::Binary: {
      Reading reading;
      reading.image = detail::flat_image(bytes, "binary dump", reading.notes);
      return reading;
    }
    case Format::CArray: return detail::read_c_array(text);
    case Format::PyBytearray: return detail::read_bytearrays(text);
    case Format::Auto: break;  // resolved by the caller
    default: return detail::read_rows(text, format);
  }
  fail("no format to read with");
}

ParsedDump parse_or_throw(std::span<const uint8_t> bytes, Format format) {
  if (bytes.empty()) fail("empty input");
  if (bytes.size() > kMaxInputBytes) {
    fail("input of " + detail::count_of(bytes.size(), "byte") + " exceeds the 4 MiB limit");
  }
  const std::string_view text = without_bom(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (format == Format::Auto && is_utf16(bytes)) {
    fail("input is UTF-16 text; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)");
  }
  if (format == Format::Auto) {
    format = looks_like_text(bytes) ? detect_text_format(text) : Format::Binary;
  }
  Reading reading = read(format, bytes, text);
  if (reading.image.empty()) fail("no module memory found");
  return ParsedDump{std::move(reading.image), format, std::move(reading.notes)};
}

}  // namespace

std::string_view format_name(Format f) {
  for (const NamedFormat& named : kFormatNames) {
    if (named.format == f) return named.name;
  }
  return "unknown";
}

std::optional<Format> parse_format_name(std::string_view name) {
  const std::string wanted = detail::lowercase(name);
  for (const NamedFormat& named : kFormatNames) {
    if (named.name == wanted) return named.format;
  }
  return std::nullopt;
}

ParseResult parse(std::span<const uint8_t> bytes, Format format) {
  try {
    return parse_or_throw(bytes, format);
  } catch (const detail::Failure& failure) {
    return ParseError{failure.message, failure.line, failure.column};
  } catch (const std::bad_alloc&) {
    return ParseError{"out of memory while parsing", 0, 0};
  }
}

ParseResult parse(std::string_view text, Format format) {
  return parse(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
               format);
}

ParseResult parse_file(const std::string& path, Format format) {
  std::string why;
  const bool stdin_ = path == "-";
  const std::string name = stdin_ ? "standard input" : path;
  const auto text = stdin_ ? base::read_stream_fd(STDIN_FILENO, name, kDumpInput, why)
                           : base::read_regular_file(path, kDumpInput, why);
  if (!text) return ParseError{why, 0, 0};
  ParseResult result = parse(std::string_view(*text), format);
  if (auto* error = std::get_if<ParseError>(&result)) error->message = name + ": " + error->message;
  return result;
}

}  // namespace xcvr::dumpfile
