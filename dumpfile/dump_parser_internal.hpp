// The dump-file readers, one per family of formats (internal to dumpfile).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmis/image.hpp"
#include "dumpfile/dump_parser.hpp"

namespace xcvr::dumpfile::detail {

struct Reading {
  cmis::ModuleImage image;
  std::vector<std::string> notes;
};

// Row formats (row_formats.cpp): EthtoolHex, SfputilHex, Junos, I2cdump.
Reading read_rows(std::string_view text, Format format);
// The row format a line is a row of, if any (used by auto-detection).
std::optional<Format> row_format_of_line(std::string_view line);

// Array formats (array_formats.cpp).
Reading read_c_array(std::string_view text);
Reading read_bytearrays(std::string_view text);
// A line of C array initializer bytes: "0x11, 0x07, 0x02, ..." (used by auto-detection).
bool is_c_array_line(std::string_view line);
// Number of "bytearray(" in the text (used by auto-detection).
std::size_t count_bytearrays(std::string_view text);

}  // namespace xcvr::dumpfile::detail
