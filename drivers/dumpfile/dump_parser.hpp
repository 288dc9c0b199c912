// Parses module memory dumps as operators paste them (text or binary) into a ModuleImage.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cmis/image.hpp"

namespace xcvr::dumpfile {

enum class Format {
  Auto,
  Binary,         // raw bytes: 128/256 B (lower+00h), 512 B (SFF-8472 A0h+A2h), 640 B (ethtool
                  // SFF-8636 linear), optoe linear files (incl. the CMIS bank layout)
  EthtoolHex,     // `ethtool -m DEV hex on` ("0x0000:  11 07 ..."), linear offsets
  SfputilHex,     // `sfputil show eeprom-hexdump` ("00000080 0d 00 ... |....|") with page headers
  Junos,          // Junos PICD `0x80:19 4a ...` rows under "Upper Page 01h:" headers
  I2cdump,        // `i2cdump` ("00: 18 40 ...")
  CArray,         // C initializer `0x11, 0x07, ...`
  PyBytearray,    // Python `name = bytearray([13, 0, ...])`
};

std::string_view format_name(Format f);
// Parses "ethtool", "sfputil", "junos", "i2cdump", "c-array", "bytearray", "binary", "auto".
std::optional<Format> parse_format_name(std::string_view name);

struct ParseError {
  std::string message;  // names line and column where there is one: "line 12, column 9: ..."
  int line = 0;
  int column = 0;
};

struct ParsedDump {
  cmis::ModuleImage image;
  Format format = Format::Auto;  // the format detected or used
  std::vector<std::string> notes;  // non-fatal remarks (ignored lines, assumptions)
};

using ParseResult = std::variant<ParsedDump, ParseError>;

// Parses `bytes` (the whole file). Never throws; bad input yields a ParseError.
ParseResult parse(std::span<const uint8_t> bytes, Format format = Format::Auto);

}  // namespace xcvr::dumpfile
