// Array formats: C initializers and Python bytearrays.
//
//   C array    "0x11, 0x07, 0x02, ..." — one array of bytes (the ONL sff_db `.eeprom = {...}`),
//              laid out by its size like a binary dump.
//   bytearray  `lower_page_bytearray = bytearray([13, 0, 6, ...])` — each array's name says which
//              half it holds: lower → lower page, upper_pageN → page N, a0h → A0h lower (+ 00h
//              when 256 values), a2h_lower → A2h lower, a2h_upper → A2h page 00h.
#include <algorithm>
#include <cctype>

#include "dumpfile/parse_support.hpp"
#include "dumpfile/dump_parser_internal.hpp"

namespace xcvr::dumpfile::detail {
namespace {

constexpr uint32_t kByteMax = 255;
constexpr std::size_t kMinCArray = 16;  // shorter lists of numbers are not module memory
constexpr std::string_view kBytearrayCall = "bytearray(";

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_word_char(char c) { return is_alnum(c) || c == '_'; }

// Walks forward through the whole text, keeping line and column.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool done() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::size_t pos() const { return pos_; }
  Where where() const { return Where{line_, column_}; }
  std::string_view slice(std::size_t from) const { return text_.substr(from, pos_ - from); }

  void advance(std::size_t n = 1) {
    for (; n > 0 && pos_ < text_.size(); --n, ++pos_) {
      const char c = text_[pos_];
      if (c == '\n' || (c == '\r' && peek(1) != '\n')) {
        ++line_;
        column_ = 1;
      } else if (c != '\r') {
        ++column_;
      }
    }
  }
  void seek(std::size_t pos) {
    if (pos > pos_) advance(pos - pos_);
  }
  void skip_while(bool (*pred)(char)) {
    while (!done() && pred(peek())) advance();
  }
  void skip_line() {
    while (!done() && peek() != '\n' && peek() != '\r') advance();
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// C integer literal: hex, octal or decimal, with optional u/l suffixes.
std::optional<uint32_t> c_integer(std::string_view t) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L')) {
    t.remove_suffix(1);
  }
  if (has_hex_prefix(t)) return hex_value(t.substr(2));
  if (t.size() > 1 && t[0] == '0') {
    uint32_t value = 0;
    for (char c : t.substr(1)) {
      if (c < '0' || c > '7' || value > kByteMax) return std::nullopt;
      value = value * 8 + static_cast<uint32_t>(c - '0');
    }
    return value;
  }
  return decimal_value(t);
}

// Python integer literal: decimal or hex.
std::optional<uint32_t> py_integer(std::string_view t) {
  return has_hex_prefix(t) ? hex_value(t.substr(2)) : decimal_value(t);
}

// ---- C arrays ------------------------------------------------------------------------------

enum class TokenKind { Number, Comma, Other, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  Where where;
};

void skip_comment_or_space(Cursor& c) {
  while (!c.done()) {
    if (is_space(c.peek())) {
      c.advance();
    } else if (c.peek() == '/' && c.peek(1) == '/') {
      c.skip_line();
    } else if (c.peek() == '/' && c.peek(1) == '*') {
      c.advance(2);
      while (!c.done() && !(c.peek() == '*' && c.peek(1) == '/')) c.advance();
      c.advance(2);
    } else {
      return;
    }
  }
}

void skip_quoted(Cursor& c) {
  const char quote = c.peek();
  c.advance();
  while (!c.done() && c.peek() != quote && c.peek() != '\n' && c.peek() != '\r') {
    c.advance(c.peek() == '\\' ? 2 : 1);
  }
  c.advance();
}

Token next_c_token(Cursor& c) {
  skip_comment_or_space(c);
  Token token{TokenKind::Other, {}, c.where()};
  if (c.done()) return Token{TokenKind::End, {}, c.where()};
  const std::size_t start = c.pos();
  const char ch = c.peek();
  if (ch == '"' || ch == '\'') {
    skip_quoted(c);
  } else if (is_word_char(ch)) {
    token.kind = std::isdigit(static_cast<unsigned char>(ch)) ? TokenKind::Number
                                                               : TokenKind::Other;
    c.skip_while(is_word_char);
  } else {
    token.kind = ch == ',' ? TokenKind::Comma : TokenKind::Other;
    c.advance();
  }
  token.text = c.slice(start);
  return token;
}

// A comma-separated run of numbers: a candidate array.
struct ByteRun {
  std::vector<uint8_t> bytes;
  Where first;
  Where problem_at;
  std::string problem;  // first bad value, reported only if the run is the array
};

void add_value(ByteRun& run, const Token& token) {
  const auto value = c_integer(token.text);
  if (run.problem.empty() && !value) {
    run.problem = "expected a byte value, got " + quoted(token.text);
    run.problem_at = token.where;
  } else if (run.problem.empty() && *value > kByteMax) {
    run.problem = "value " + std::string(token.text) + " is larger than a byte (0-255)";
    run.problem_at = token.where;
  }
  run.bytes.push_back(value && *value <= kByteMax ? static_cast<uint8_t>(*value) : 0);
  if (run.bytes.size() > max_flat_size()) {
    fail_at(run.first, "array longer than any known layout (" +
                           count_of(max_flat_size(), "byte") + ")");
  }
}

// The runs of at least kMinCArray numbers: the first in full, and where the second starts.
struct ArraySearch {
  std::optional<ByteRun> first;
  std::optional<Where> second;
};

void close_run(ByteRun& run, bool& in_run, ArraySearch& found) {
  if (in_run && run.bytes.size() >= kMinCArray) {
    if (!found.first) {
      found.first = std::move(run);
    } else if (!found.second) {
      found.second = run.first;
    }
  }
  run = ByteRun{};
  in_run = false;
}

ArraySearch find_c_arrays(std::string_view text) {
  Cursor c(text);
  ArraySearch found;
  ByteRun run;
  bool in_run = false, want_number = true;
  while (true) {
    const Token token = next_c_token(c);
    if (token.kind == TokenKind::Number) {
      if (in_run && !want_number) close_run(run, in_run, found);  // "1 2": two runs
      if (!in_run) {
        in_run = true;
        run.first = token.where;
      }
      add_value(run, token);
      want_number = false;
    } else if (token.kind == TokenKind::Comma && in_run && !want_number) {
      want_number = true;
    } else {
      close_run(run, in_run, found);
      want_number = true;
      if (token.kind == TokenKind::End) return found;
    }
  }
}

// ---- Python bytearrays ---------------------------------------------------------------------

struct PyArray {
  std::string name;
  Where at;
  std::vector<uint8_t> bytes;
  std::vector<Where> from;
};

// "name" in "name = bytearray(": empty when the call is not assigned.
std::string assigned_name(std::string_view text, std::size_t call) {
  std::size_t j = call;
  while (j > 0 && is_blank(text[j - 1])) --j;
  if (j == 0 || text[j - 1] != '=') return {};
  --j;
  while (j > 0 && is_blank(text[j - 1])) --j;
  const std::size_t end = j;
  while (j > 0 && (is_word_char(text[j - 1]) || text[j - 1] == '.')) --j;
  return std::string(text.substr(j, end - j));
}

void skip_py_space(Cursor& c) {
  while (!c.done()) {
    if (is_space(c.peek())) {
      c.advance();
    } else if (c.peek() == '#') {
      c.skip_line();
    } else {
      return;
    }
  }
}

void read_py_list(Cursor& c, PyArray& array) {
  c.advance();  // '['
  while (true) {
    skip_py_space(c);
    if (c.done()) fail_at(array.at, "bytearray list is not closed");
    if (c.peek() == ']') break;
    const Where where = c.where();
    const std::size_t start = c.pos();
    c.skip_while(is_word_char);
    const std::string_view token = c.slice(start);
    if (token.empty()) fail_at(where, "expected a byte value, got " + quoted(std::string(1, c.peek())));
    const auto value = py_integer(token);
    if (!value) fail_at(where, "expected a byte value, got " + quoted(token));
    if (*value > kByteMax) {
      fail_at(where, "value " + std::string(token) + " is larger than a byte (0-255)");
    }
    if (array.bytes.size() == max_flat_size()) fail_at(array.at, "bytearray longer than any known layout");
    array.bytes.push_back(static_cast<uint8_t>(*value));
    array.from.push_back(where);
    skip_py_space(c);
    if (c.done()) fail_at(array.at, "bytearray list is not closed");
    if (c.peek() == ',') {
      c.advance();
    } else if (c.peek() != ']') {
      fail_at(c.where(), "expected ',' or ']' in the bytearray list, got " +
                             quoted(std::string(1, c.peek())));
    }
  }
  c.advance();  // ']'
}

struct PyArrays {
  std::vector<PyArray> arrays;
  std::size_t skipped = 0;  // bytearray(...) calls without a list literal
};

PyArrays find_bytearrays(std::string_view text) {
  PyArrays found;
  Cursor c(text);
  for (std::size_t pos = text.find(kBytearrayCall); pos != std::string_view::npos;
       pos = text.find(kBytearrayCall, std::max(pos + kBytearrayCall.size(), c.pos()))) {
    c.seek(pos);
    PyArray array{assigned_name(text, pos), c.where(), {}, {}};
    c.seek(pos + kBytearrayCall.size());
    skip_py_space(c);
    if (c.peek() != '[') {
      ++found.skipped;
      continue;
    }
    read_py_list(c, array);
    found.arrays.push_back(std::move(array));
  }
  return found;
}

// Which half (or halves) an array holds, from its name.
struct Region {
  uint8_t device = kDeviceA0;
  bool from_lower = false;  // lower page (then page 00h when 256 values)
  uint8_t bank = 0;
  int16_t page = 0;
};

// The number after `word` in a name: "upper_page3" → 3, "page_0x11" / "page11h" → 0x11.
std::optional<uint32_t> number_after(std::string_view name, std::string_view word) {
  std::size_t i = name.find(word);
  if (i == std::string_view::npos) return std::nullopt;
  i += word.size();
  while (i < name.size() && name[i] == '_') ++i;
  std::size_t end = i;
  while (end < name.size() && is_alnum(name[end])) ++end;
  const std::string_view token = name.substr(i, end - i);
  if (const auto v = number_word(token)) return v;
  std::size_t digits = 0;  // "3rd": the leading digits
  while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
  return decimal_value(token.substr(0, digits));
}

std::optional<Region> region_for(const PyArray& array) {
  const std::string name = lowercase(array.name);
  Region region;
  region.device = contains(name, "a2h") ? kDeviceA2 : kDeviceA0;
  if (contains(name, "lower")) {
    region.from_lower = true;
    return region;
  }
  const auto page = number_after(name, "page");
  const auto bank = number_after(name, "bank");
  if (contains(name, "upper") || page) {
    if (page.value_or(0) > static_cast<uint32_t>(kMaxPage)) {
      fail_at(array.at, "bytearray '" + array.name + "' names page " +
                            std::to_string(*page) + " (pages are 0-255)");
    }
    if (bank.value_or(0) >= static_cast<uint32_t>(kMaxBanks)) {
      fail_at(array.at, "bytearray '" + array.name + "' names bank " +
                            std::to_string(*bank) + " (banks are 0-" +
                            std::to_string(kMaxBanks - 1) + ")");
    }
    region.page = static_cast<int16_t>(page.value_or(0));
    region.bank = static_cast<uint8_t>(bank.value_or(0));
    return region;
  }
  if (contains(name, "a0h") || contains(name, "a2h")) {
    region.from_lower = true;
    return region;
  }
  return std::nullopt;
}

void place_array(const PyArray& array, const Region& region, PageAssembler& pages) {
  const std::size_t n = array.bytes.size();
  const std::string subject = "bytearray '" + array.name + "' has " + count_of(n, "value");
  if (region.from_lower && n != kHalf && n != kWindow) {
    fail_at(array.at, subject + "; a lower page takes 128 (256 with upper page 00h)");
  }
  if (!region.from_lower && n != kHalf) fail_at(array.at, subject + "; an upper page takes 128");
  for (std::size_t i = 0; i < n; ++i) {
    const bool upper = !region.from_lower || i >= kHalf;
    const PageKey key = !upper              ? PageKey{region.device, 0, kLowerPage}
                        : region.from_lower ? PageKey{region.device, 0, 0}
                                            : PageKey{region.device, region.bank, region.page};
    pages.put(key, i % kHalf, array.bytes[i], array.from[i]);
  }
}

}  // namespace

bool is_c_array_line(std::string_view line) {
  std::size_t i = 0, literals = 0;
  const auto skip = [&] {
    while (i < line.size() && is_blank(line[i])) ++i;
  };
  skip();
  while (i + 2 < line.size() && has_hex_prefix(line.substr(i, 3))) {
    std::size_t end = i + 2;
    while (end < line.size() && is_hex_digit(line[end])) ++end;
    if (end - i - 2 > 8) return false;
    ++literals;
    i = end;
    skip();
    if (i >= line.size() || line[i] != ',') break;
    ++i;
    skip();
  }
  const std::string_view rest = line.substr(i);
  return literals >= 2 && (rest.empty() || rest[0] == '}' || rest.substr(0, 2) == "//" ||
                           rest.substr(0, 2) == "/*");
}

std::size_t count_bytearrays(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(kBytearrayCall); pos != std::string_view::npos;
       pos = text.find(kBytearrayCall, pos + 1)) {
    ++n;
  }
  return n;
}

Reading read_c_array(std::string_view text) {
  const ArraySearch found = find_c_arrays(text);
  if (!found.first) {
    fail("no C array of bytes found (at least 16 comma-separated values such as 0x11, 0x07, ...)");
  }
  if (found.second) {
    fail_at(*found.second, "a second byte array starts here (the first starts on line " +
                               std::to_string(found.first->first.line) +
                               "); a C array dump must hold exactly one");
  }
  if (!found.first->problem.empty()) fail_at(found.first->problem_at, found.first->problem);
  Reading reading;
  reading.image = flat_image(found.first->bytes, "C array", reading.notes);
  return reading;
}

Reading read_bytearrays(std::string_view text) {
  const PyArrays found = find_bytearrays(text);
  if (found.arrays.empty()) fail("no bytearray([...]) lists found");
  Reading reading;
  if (found.arrays.size() == 1 && !region_for(found.arrays[0])) {
    const PyArray& only = found.arrays[0];
    reading.image = flat_image(only.bytes, "bytearray", reading.notes);
    reading.notes.push_back("bytearray '" + only.name +
                            "' does not name its page; laid out by its size");
  } else {
    PageAssembler pages;
    for (const PyArray& array : found.arrays) {
      const auto region = region_for(array);
      if (!region) {
        fail_at(array.at, "bytearray '" + array.name +
                              "' does not say which page it holds (name it lower_page, "
                              "upper_pageN, a0h, a2h_lower or a2h_upper)");
      }
      place_array(array, *region, pages);
    }
    reading.image = pages.finish();
  }
  if (found.skipped > 0) {
    reading.notes.push_back(count_of(found.skipped, "bytearray(...) call") +
                            " without a [...] list skipped");
  }
  return reading;
}

}  // namespace xcvr::dumpfile::detail
