// Placeholder: the parser is being written.
#include "drivers/dumpfile/dump_parser.hpp"
namespace xcvr::dumpfile {
std::string_view format_name(Format) { return "auto"; }
std::optional<Format> parse_format_name(std::string_view) { return std::nullopt; }
ParseResult parse(std::span<const uint8_t>, Format) { return ParseError{"not implemented", 0, 0}; }
}  // namespace xcvr::dumpfile
