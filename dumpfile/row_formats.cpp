// Row formats: a hex offset followed by up to 16 hex bytes per line, grouped by page headers.
//
//   ethtool   "0x0080:         11 07 ..."   offsets linear unless a header names a page
//   sfputil   "00000080 0d 00 ...  .. |....|" (the ASCII column after '|' is ignored)
//   Junos     "  0x80:19 4a ..."
//   i2cdump   "80: 18 40 ...    ascii"       (XX = unreadable byte: an error)
//
// Any line that is not a row may be a header naming what follows: "Lower page 0h",
// "Upper page 11h", "QSFP-DD Upper Page 00h:", "A2h dump (lower 128 bytes)",
// "$ ethtool -m eth0 page 0x11 bank 1 hex on", "$ i2cdump -y 1 0x51". Rows after a header hold
// offsets 0-255 of that page's window; rows before any header hold linear offsets, laid out as
// optoe does once the module family is known. Other lines are ignored.
#include <array>
#include <cctype>

#include "dumpfile/parse_support.hpp"
#include "dumpfile/dump_parser_internal.hpp"

namespace xcvr::dumpfile::detail {
namespace {

constexpr std::size_t kRowMax = 16;
constexpr std::size_t kRowAlign = 16;

std::size_t skip_blanks(std::string_view s, std::size_t i) {
  while (i < s.size() && is_blank(s[i])) ++i;
  return i;
}

// End of the token at `i`; sfputil's ASCII column starts at '|'.
std::size_t token_end(std::string_view s, std::size_t i, bool stop_at_bar) {
  while (i < s.size() && !is_blank(s[i]) && !(stop_at_bar && s[i] == '|')) ++i;
  return i;
}

std::size_t hex_run(std::string_view s, std::size_t i) {
  while (i < s.size() && is_hex_digit(s[i])) ++i;
  return i;
}

// ---- Row offsets ---------------------------------------------------------------------------

struct Prefix {
  std::size_t offset = 0;
  std::size_t start = 0;   // index of the offset token
  std::size_t body = 0;    // index just past it
  std::size_t digits = 0;  // hex digits in the offset
};

// "0x0080:" (ethtool) or "0x80:" (Junos).
std::optional<Prefix> match_0x_colon(std::string_view s, std::size_t i) {
  if (s.size() < i + 2 || s[i] != '0' || (s[i + 1] != 'x' && s[i + 1] != 'X')) return std::nullopt;
  const std::size_t end = hex_run(s, i + 2);
  if (end >= s.size() || s[end] != ':') return std::nullopt;
  const auto value = hex_value(s.substr(i + 2, end - i - 2));
  if (!value) return std::nullopt;
  return Prefix{*value, i, end + 1, end - i - 2};
}

// "00000080 " (sfputil).
std::optional<Prefix> match_eight_digits(std::string_view s, std::size_t i) {
  const std::size_t end = hex_run(s, i);
  if (end - i != 8 || end >= s.size() || !is_blank(s[end])) return std::nullopt;
  return Prefix{*hex_value(s.substr(i, 8)), i, end, 8};
}

// "80: " (i2cdump).
std::optional<Prefix> match_two_digits_colon(std::string_view s, std::size_t i) {
  const std::size_t end = hex_run(s, i);
  if (end - i != 2 || end >= s.size() || s[end] != ':') return std::nullopt;
  if (end + 1 < s.size() && !is_blank(s[end + 1])) return std::nullopt;
  return Prefix{*hex_value(s.substr(i, 2)), i, end + 1, 2};
}

std::optional<Prefix> match_prefix(std::string_view line, Format format) {
  const std::size_t i = skip_blanks(line, 0);
  switch (format) {
    case Format::EthtoolHex:
    case Format::Junos: return match_0x_colon(line, i);
    case Format::SfputilHex: return match_eight_digits(line, i);
    case Format::I2cdump: return match_two_digits_colon(line, i);
    default: return std::nullopt;
  }
}

// A prefix starts a row only when a byte-sized token follows it, so that unrelated lines that
// happen to begin like an offset ("20240101 booted") are not taken for rows.
bool byte_sized_token_follows(std::string_view line, const Prefix& prefix, Format format) {
  const std::size_t i = skip_blanks(line, prefix.body);
  const std::size_t n = token_end(line, i, format == Format::SfputilHex) - i;
  return n >= 1 && n <= 2;
}

// ---- Rows ----------------------------------------------------------------------------------

struct Row {
  std::size_t offset = 0;
  Where at;  // the offset token
  std::array<uint8_t, kRowMax> bytes{};
  std::array<Where, kRowMax> from{};
  std::size_t count = 0;
};

bool is_hex_byte(std::string_view token) {
  return token.size() == 2 && is_hex_digit(token[0]) && is_hex_digit(token[1]);
}

// Whether the byte area ends before the token at `i` (the ASCII column follows it).
bool byte_area_ends(const Row& row, std::string_view text, std::size_t i, std::size_t gap,
                    Format format) {
  if (format == Format::SfputilHex) return text[i] == '|';
  // i2cdump: 16 columns, then the ASCII column after a wider gap.
  if (format == Format::I2cdump) return row.count == kRowMax || (row.count > 0 && gap >= 2);
  return false;
}

Row read_row(const Line& line, const Prefix& prefix, Format format) {
  const std::string_view text = line.text;
  Row row;
  row.offset = prefix.offset;
  row.at = Where{line.number, static_cast<int>(prefix.start) + 1};
  const bool aligned = format != Format::EthtoolHex;
  if (aligned && row.offset % kRowAlign != 0) {
    fail_at(row.at, "offset " + hex(row.offset) + " is not a multiple of 16");
  }
  std::size_t i = prefix.body;
  while (true) {
    const std::size_t gap_start = i;
    i = skip_blanks(text, i);
    if (i >= text.size() || byte_area_ends(row, text, i, i - gap_start, format)) break;
    const std::size_t end = token_end(text, i, format == Format::SfputilHex);
    const std::string_view token = text.substr(i, end - i);
    const Where where{line.number, static_cast<int>(i) + 1};
    if (row.count == kRowMax) fail_at(where, "row has more than 16 bytes");
    if (format == Format::I2cdump && iequals(token, "xx")) {
      fail_at(where, "byte " + hex(row.offset + row.count) +
                         " could not be read (i2cdump printed XX)");
    }
    if (!is_hex_byte(token)) fail_at(where, "expected a hex byte, got " + quoted(token));
    row.bytes[row.count] = static_cast<uint8_t>(*hex_value(token));
    row.from[row.count] = where;
    ++row.count;
    i = end;
  }
  return row;
}

// ---- Headers -------------------------------------------------------------------------------

enum class HalfRule { Both, LowerOnly, UpperOnly };

// What the rows that follow hold.
struct Context {
  bool linear = true;  // no header yet: linear offsets
  uint8_t device = kDeviceA0;
  uint8_t bank = 0;
  int16_t page = 0;
  HalfRule half = HalfRule::Both;
  int line = 0;  // the header's line
};

// The alphanumeric words of a line, one at a time ("(upper" → "upper", "0x11" stays whole).
class WordReader {
 public:
  struct Word {
    std::string_view text;
    int column = 0;  // 1-based
  };
  explicit WordReader(std::string_view text) : text_(text) {}
  std::optional<Word> next() {
    while (pos_ < text_.size() && !is_alnum(text_[pos_])) ++pos_;
    if (pos_ >= text_.size()) return std::nullopt;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_alnum(text_[pos_])) ++pos_;
    return Word{text_.substr(start, pos_ - start), static_cast<int>(start) + 1};
  }

 private:
  static bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
  std::string_view text_;
  std::size_t pos_ = 0;
};

// The number word after "page" or "bank", checked against `limit`; consumed only if a number.
std::optional<uint32_t> number_after(WordReader& words, int line, uint32_t limit,
                                     std::string_view what) {
  WordReader ahead = words;
  const auto word = ahead.next();
  if (!word) return std::nullopt;
  const auto n = number_word(word->text);
  if (!n) return std::nullopt;
  words = ahead;
  if (*n > limit) {
    fail_at(Where{line, word->column}, std::string(what) + " " + std::string(word->text) +
                                           " is out of range (0-" + std::to_string(limit) + ")");
  }
  return n;
}

// Words that can make a line a header; lines without any are skipped cheaply.
bool may_be_header(std::string_view text) {
  for (std::string_view key : {"page", "bank", "a0h", "a2h", "i2c"}) {
    if (icontains(text, key)) return true;
  }
  return false;
}

std::optional<Context> parse_header(const Line& line) {
  if (!may_be_header(line.text)) return std::nullopt;
  Context ctx;
  ctx.linear = false;
  ctx.line = line.number;
  bool page_word = false, numbered = false, device_named = false, i2c = false, addr_a2 = false;
  WordReader words(line.text);
  while (const auto word = words.next()) {
    const std::string_view w = word->text;
    if (iequals(w, "page")) {
      page_word = true;
      if (auto n = number_after(words, line.number, kMaxPage, "page")) {
        ctx.page = static_cast<int16_t>(*n);
        numbered = true;
      }
    } else if (iequals(w, "bank")) {
      if (auto n = number_after(words, line.number, kMaxBanks - 1, "bank")) {
        ctx.bank = static_cast<uint8_t>(*n);
        numbered = true;
      }
    } else if (iequals(w, "lower") || iequals(w, "upper")) {
      ctx.half = iequals(w, "lower") ? HalfRule::LowerOnly : HalfRule::UpperOnly;
    } else if (iequals(w, "a0h") || iequals(w, "a2h")) {
      ctx.device = iequals(w, "a0h") ? kDeviceA0 : kDeviceA2;
      device_named = true;
    } else if (iequals(w, "i2cdump") || iequals(w, "i2c")) {
      i2c = true;
    } else if (iequals(w, "0x51")) {
      addr_a2 = true;
    }
  }
  const bool is_header =
      numbered || device_named || i2c || (page_word && ctx.half != HalfRule::Both);
  if (!is_header) return std::nullopt;
  if (!device_named && i2c && addr_a2) ctx.device = kDeviceA2;
  return ctx;
}

// A line that starts the dump of another port: only the first dump in a file is read.
std::string_view next_dump_marker(Format format) {
  switch (format) {
    case Format::SfputilHex: return "hexdump for port";
    case Format::Junos: return "eeprom details for";
    default: return {};
  }
}

std::string_view row_example(Format format) {
  switch (format) {
    case Format::EthtoolHex: return "\"0x0000:  11 07 ...\"";
    case Format::SfputilHex: return "\"00000000 11 07 ... |..|\"";
    case Format::Junos: return "\"0x00:11 07 ...\"";
    default: return "\"00: 11 07 ...\"";
  }
}

// ---- Placing rows --------------------------------------------------------------------------

void place_in_window(const Row& row, const Context& ctx, PageAssembler& pages) {
  const std::string header = "line " + std::to_string(ctx.line);
  if (row.offset >= kWindow) {
    fail_at(row.at, "offset " + hex(row.offset) + " is outside the 256-byte window of the page "
                                                  "named on " + header);
  }
  const bool upper = row.offset >= kHalf;
  const std::size_t index = row.offset % kHalf;
  if (index + row.count > kHalf) {
    fail_at(row.at, "row at " + hex(row.offset) + " with " + count_of(row.count, "byte") +
                        " runs past the end of its half page");
  }
  const PageKey key = upper ? PageKey{ctx.device, ctx.bank, ctx.page}
                            : PageKey{ctx.device, 0, kLowerPage};
  if (ctx.half == HalfRule::LowerOnly && upper) {
    fail_at(row.at, "offset " + hex(row.offset) + " is in the upper half, but " + header +
                        " names a lower page");
  }
  if (ctx.half == HalfRule::UpperOnly && !upper) {
    fail_at(row.at, "offset " + hex(row.offset) + " is in the lower half, but " + header +
                        " names " + half_label(PageKey{ctx.device, ctx.bank, ctx.page}));
  }
  for (std::size_t i = 0; i < row.count; ++i) pages.put(key, index + i, row.bytes[i], row.from[i]);
}

void place_row(const Row& row, const Context& ctx, PageAssembler& pages,
               LinearAssembler& linear) {
  if (!ctx.linear) return place_in_window(row, ctx, pages);
  for (std::size_t i = 0; i < row.count; ++i) linear.put(row.offset + i, row.bytes[i], row.from[i]);
}

bool is_blank_line(std::string_view text) { return skip_blanks(text, 0) == text.size(); }

}  // namespace

std::optional<Format> row_format_of_line(std::string_view line) {
  const std::size_t i = skip_blanks(line, 0);
  if (auto p = match_0x_colon(line, i); p && byte_sized_token_follows(line, *p, Format::Junos)) {
    return p->digits <= 2 ? Format::Junos : Format::EthtoolHex;
  }
  for (Format f : {Format::SfputilHex, Format::I2cdump}) {
    if (auto p = match_prefix(line, f); p && byte_sized_token_follows(line, *p, f)) return f;
  }
  return std::nullopt;
}

Reading read_rows(std::string_view text, Format format) {
  PageAssembler pages;
  LinearAssembler linear;
  Context ctx;
  Reading reading;
  std::size_t rows = 0, ignored = 0;
  const std::string_view marker = next_dump_marker(format);

  LineReader reader(text);
  Line line;
  while (reader.next(line)) {
    if (auto prefix = match_prefix(line.text, format);
        prefix && byte_sized_token_follows(line.text, *prefix, format)) {
      place_row(read_row(line, *prefix, format), ctx, pages, linear);
      ++rows;
      continue;
    }
    if (!marker.empty() && rows > 0 && icontains(line.text, marker)) {
      reading.notes.push_back("line " + std::to_string(line.number) +
                              " starts another dump; only the first one was read");
      break;
    }
    if (auto header = parse_header(line)) {
      ctx = *header;
    } else if (!is_blank_line(line.text)) {
      ++ignored;
    }
  }
  if (rows == 0) {
    fail("no " + std::string(format_name(format)) + " rows (like " +
         std::string(row_example(format)) + ") found");
  }

  const cmis::PageBytes* lower = linear.complete_first_chunk();
  if (lower == nullptr) lower = pages.complete_lower(kDeviceA0);
  const Linearization layout = linearization_for(lower);
  linear.place(layout, pages);
  reading.image = pages.finish();

  if (linear.chunk_count() > 2) {
    reading.notes.push_back("linear offsets read with the " +
                            std::string(linearization_name(layout)) + " layout");
  }
  if (format == Format::I2cdump && reading.image.has(PageKey{kDeviceA0, 0, 0})) {
    reading.notes.push_back("i2cdump shows whichever upper page was selected; stored as page 00h");
  }
  if (const std::size_t repeated = pages.repeated_bytes() + linear.repeated_bytes(); repeated > 0) {
    reading.notes.push_back(count_of(repeated, "byte") +
                            " given more than once with the same value");
  }
  if (ignored > 0) {
    reading.notes.push_back(count_of(ignored, "line") + " that are neither rows nor page headers "
                                                        "ignored");
  }
  return reading;
}

}  // namespace xcvr::dumpfile::detail
