// Parses module memory dumps as operators paste them (text or binary) into a ModuleImage.
//
// Every format yields only the 128-byte halves the dump actually holds, each complete: a half
// with bytes missing is an error, never padded. A byte given twice with two values is an error.
// Offsets are placed by page geometry alone (halves of a 256-byte window; the optoe
// linearizations), so the parser needs no knowledge of module fields.
//
// Linear offsets (binary files, C arrays, ethtool rows without a page header) follow optoe:
//   one-address (QSFP/CMIS): 0-127 lower page, page P bank K upper at (K*256 + P)*128 + 128
//   two-address (SFF-8472, identifier 03h): A0h 0-255, A2h 0-127 at 256, A2h page P at 384+P*128
// A whole optoe file (32896 bytes, 33152 for SFP, (banks*256+1)*128 with CMIS banks) keeps the
// lower halves, page 00h and every other page that is neither blank (one byte value) nor a copy
// of page 00h or of the same page in bank 0 (what modules answer for pages they lack); a note
// lists what was kept. A file longer than 640 bytes that stops at a page boundary (an optoe file
// copied only as far as its last page: lower + 00h-11h = 2,432 bytes) is read the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/safe_file.hpp"
#include "cmis/image.hpp"

namespace xcvr::dumpfile {

enum class Format {
  Auto,
  Binary,         // raw bytes: 128/256 B (lower+00h), 512 B (SFF-8472 A0h+A2h), 640 B (ethtool
                  // SFF-8636 linear), whole optoe files (incl. the CMIS bank layout)
                  // and any prefix of one that ends on a 128-byte boundary
  EthtoolHex,     // `ethtool -m DEV hex on` ("0x0000:  11 07 ..."): linear offsets, or 0-255
                  // of one page after a header such as "$ ethtool -m eth0 page 0x11 bank 1 hex on"
  SfputilHex,     // `sfputil show eeprom-hexdump` ("00000080 0d 00 ... |....|") with page headers
                  // ("Lower page 0h", "Upper page 1h", "A0h dump", "A2h dump (lower 128 bytes)")
  Junos,          // Junos PICD `0x80:19 4a ...` rows under "Upper Page 01h:" headers
  I2cdump,        // `i2cdump` ("00: 18 40 ..."); a "$ i2cdump -y 1 0x51" line selects A2h
  CArray,         // C initializer `0x11, 0x07, ...` holding one flat dump
  PyBytearray,    // Python `name = bytearray([13, 0, ...])`; names say which page each holds
};

// "auto", "binary", "ethtool", "sfputil", "junos", "i2cdump", "c-array", "bytearray".
std::string_view format_name(Format f);
// Parses the names above (case-insensitive).
std::optional<Format> parse_format_name(std::string_view name);

// Inputs larger than this are refused (dumps are at most ~260 KiB).
inline constexpr std::size_t kMaxInputBytes = std::size_t{4} << 20;
// A dump file, for base/safe_file: its name in messages and that cap.
inline constexpr base::InputKind kDumpInput{"module dump", kMaxInputBytes};

struct ParseError {
  std::string message;  // names line and column where there is one: "line 12, column 9: ..."
  int line = 0;         // 1-based; 0 when the error is not about one line
  int column = 0;       // 1-based; 0 when not about one column
};

struct ParsedDump {
  cmis::ModuleImage image;
  Format format = Format::Auto;    // the format detected or used
  std::vector<std::string> notes;  // non-fatal remarks (ignored lines, layouts assumed)
};

using ParseResult = std::variant<ParsedDump, ParseError>;

// Parses `bytes` (the whole file). Auto detects binary (not mostly text) or the text format
// with the most matching lines. Never throws; bad input yields a ParseError.
ParseResult parse(std::span<const uint8_t> bytes, Format format = Format::Auto);
ParseResult parse(std::string_view text, Format format = Format::Auto);

// Reads and parses a file (refusing files larger than kMaxInputBytes). Errors start with the
// path. Never throws.
// "-" reads standard input (as `xcvrctl decode -`), with the same size cap.
ParseResult parse_file(const std::string& path, Format format = Format::Auto);

}  // namespace xcvr::dumpfile
