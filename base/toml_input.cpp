#include "base/toml_input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/spelling.hpp"

namespace xcvr::base {
namespace {

// Just enough of TOML's lexical structure to know, for every key, how deep it nests: strings
// and comments are skipped, brackets and braces tracked, dots counted only inside keys.
class ShapeCheck {
 public:
  ShapeCheck(std::string_view text, std::string_view origin) : text_(text), origin_(origin) {}

  void run() {
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == '#') {
        while (i_ < text_.size() && text_[i_] != '\n') advance();
        continue;
      }
      if (c == '"' || c == '\'') {
        string(c);
        continue;
      }
      if (expect_key_) {
        key_char(c);
      } else {
        value_char(c);
      }
      advance();
    }
  }

 private:
  struct Level {
    bool inline_table;  // else an array
    int depth;          // depth of the values it holds
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw toml::parse_error(what.c_str(), toml::source_position{static_cast<toml::source_index>(line_),
                                                        static_cast<toml::source_index>(column_)},
                            std::make_shared<const std::string>(origin_));
  }

  void advance() {
    ++i_;
    ++column_;
    if (column_ > kMaxTomlLineBytes) fail("line longer than " + std::to_string(kMaxTomlLineBytes) + " bytes");
  }

  void newline() {
    ++i_;
    ++line_;
    column_ = 1;
    if (stack_.empty() && !in_header_) {  // a top-level key/value or header ends here
      expect_key_ = true;
      key_parts_ = 1;
      at_line_start_ = true;
    }
  }

  int base() const { return stack_.empty() ? header_parts_ : stack_.back().depth; }

  void check(int depth) const {
    if (key_parts_ > kMaxTomlKeyParts) {
      fail("key of more than " + std::to_string(kMaxTomlKeyParts) + " dotted parts; refused before parsing");
    }
    if (depth > kMaxTomlDepth) {
      fail("nested deeper than " + std::to_string(kMaxTomlDepth) +
           " levels (tables, dotted keys, arrays together); refused before parsing");
    }
  }

  void key_char(char c) {
    if (c == ' ' || c == '\t' || c == '\r') return;
    if (at_line_start_ && stack_.empty() && c == '[') {  // [table] or [[array.of.tables]]
      at_line_start_ = false;
      in_header_ = true;
      key_parts_ = 1;
      if (i_ + 1 < text_.size() && text_[i_ + 1] == '[') advance();
      return;
    }
    at_line_start_ = false;
    if (in_header_ && c == ']') {
      in_header_ = false;
      header_parts_ = key_parts_ + 1;  // the array of tables adds a level
      check(header_parts_);
      if (i_ + 1 < text_.size() && text_[i_ + 1] == ']') advance();
      expect_key_ = true;
      key_parts_ = 1;
      return;
    }
    if (c == '.') {
      ++key_parts_;
      check(base() + key_parts_);
      return;
    }
    if (c == '=' && !in_header_) {
      expect_key_ = false;
      value_depth_ = base() + key_parts_;
      check(value_depth_);
      return;
    }
    if (c == '}' && !stack_.empty() && stack_.back().inline_table) {  // empty inline table or trailing
      close();
    }
  }

  void value_char(char c) {
    switch (c) {
      case '[':
      case '{': {
        const int depth = (stack_.empty() || stack_.back().inline_table ? value_depth_ : stack_.back().depth) + 1;
        check(depth);
        stack_.push_back({c == '{', depth});
        if (c == '{') {
          expect_key_ = true;
          key_parts_ = 1;
        }
        break;
      }
      case ']':
      case '}':
        if (!stack_.empty()) close();
        break;
      case ',':
        if (!stack_.empty() && stack_.back().inline_table) {
          expect_key_ = true;
          key_parts_ = 1;
        }
        break;
      default:
        break;
    }
  }

  void close() {
    stack_.pop_back();
    expect_key_ = false;  // the value of the enclosing key or array element continues
    if (!stack_.empty()) value_depth_ = stack_.back().depth;
  }

  // Skips a basic ("…", """…""") or literal ('…', '''…''') string; newlines inside multi-line
  // strings still count lines.
  void string(char quote) {
    const bool multi = text_.substr(i_, 3) == std::string(3, quote);
    for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (quote == '"' && c == '\\') {
        advance();
        if (i_ < text_.size() && text_[i_] == '\n') {
          ++i_;
          ++line_;
          column_ = 1;
        } else if (i_ < text_.size()) {
          advance();
        }
        continue;
      }
      if (c == '\n') {
        if (!multi) return;  // unterminated: toml++ reports it
        ++i_;
        ++line_;
        column_ = 1;
        continue;
      }
      if (multi ? text_.substr(i_, 3) == std::string(3, quote) : c == quote) {
        for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
        // Up to two more quotes may close a multi-line string ("""a"""" is a"+").
        while (multi && i_ < text_.size() && text_[i_] == quote) advance();
        at_line_start_ = false;
        return;
      }
      advance();
    }
  }

  std::string_view text_;
  std::string origin_;
  std::size_t i_ = 0;
  std::size_t line_ = 1, column_ = 1;
  std::vector<Level> stack_;
  bool expect_key_ = true;
  bool at_line_start_ = true;
  bool in_header_ = false;
  int key_parts_ = 1;
  int header_parts_ = 0;
  int value_depth_ = 0;
};

}  // namespace

toml::table parse_toml(std::string_view text, std::string_view origin) {
  ShapeCheck(text, origin).run();
  return toml::parse(text, origin);
}

std::optional<double> parse_duration(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0 || i > 18) return std::nullopt;
  double value = 0;
  try {
    value = std::stod(std::string(text.substr(0, i)));
  } catch (...) {
    return std::nullopt;  // "." or "1.2.3"
  }
  const std::string_view unit = text.substr(i);
  if (unit == "ns") return value * 1e-9;
  if (unit == "us") return value * 1e-6;
  if (unit == "ms") return value / 1000;
  if (unit == "s" || unit.empty()) return value;
  if (unit == "m") return value * 60;
  if (unit == "h") return value * 3600;
  return std::nullopt;
}

std::string toml_location(const toml::source_region& where, std::string_view origin) {
  const std::string path = where.path ? *where.path : std::string(origin);
  return path + ':' + std::to_string(where.begin.line) + ':' + std::to_string(where.begin.column);
}

namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "1 min", "500 ms", "2 h": a duration bound as an operator would write it.
std::string seconds_text(double s) {
  const auto whole = [s](double unit) { return s >= unit && std::fmod(s, unit) == 0; };
  if (whole(86400)) return number_text(s / 86400) + " d";
  if (whole(3600)) return number_text(s / 3600) + " h";
  if (whole(60)) return number_text(s / 60) + " min";
  if (s > 0 && s < 1) return number_text(s * 1000) + " ms";
  return number_text(s) + " s";
}

}  // namespace

void toml_fail(const toml::node& at, std::string message) { throw TomlInvalid{at.source(), std::move(message)}; }

TextError toml_error(std::string_view origin) {
  const auto at = [origin](const toml::source_region& where, std::string message) {
    return TextError{where.path ? *where.path : std::string(origin), static_cast<int>(where.begin.line),
                     static_cast<int>(where.begin.column), std::move(message)};
  };
  try {
    throw;
  } catch (const TomlInvalid& e) {
    return at(e.where, e.message);
  } catch (const toml::parse_error& e) {
    return at(e.source(), std::string(e.description()));
  }
}

std::string toml_error_text(std::string_view origin) { return toml_error(origin).to_string(); }

const toml::node* TomlTable::node(std::string_view key) {
  seen_.emplace(key);
  return t_.get(key);
}

void TomlTable::fail(const toml::node* at, std::string_view key, const std::string& expected) const {
  throw TomlInvalid{at != nullptr ? at->source() : t_.source(), name_ + "." + std::string(key) + ": " + expected};
}

std::optional<std::string> TomlTable::str(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_string()) fail(n, key, "expected a string");
  return n->as_string()->get();
}

std::optional<bool> TomlTable::boolean(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_boolean()) fail(n, key, "expected true or false");
  return n->as_boolean()->get();
}

std::optional<double> TomlTable::number(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  if (auto i = n->value_exact<int64_t>()) return static_cast<double>(*i);
  if (auto d = n->value_exact<double>()) return *d;
  fail(n, key, "expected a number");
}

std::optional<double> TomlTable::number_in(std::string_view key, double lo, double hi) {
  const auto v = number(key);
  if (v && !(*v >= lo && *v <= hi)) fail(node(key), key, "must be between " + number_text(lo) + " and " + number_text(hi));
  return v;
}

std::optional<int64_t> TomlTable::integer(std::string_view key, int64_t lo, int64_t hi) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_integer()) fail(n, key, "expected an integer");
  const int64_t v = n->as_integer()->get();
  if (v < lo || v > hi) fail(n, key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  return v;
}

std::optional<double> TomlTable::duration(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  std::optional<double> d;
  if (auto s = n->value_exact<std::string>()) d = parse_duration(*s);
  else if (auto i = n->value_exact<int64_t>()) d = static_cast<double>(*i);
  else if (auto f = n->value_exact<double>()) d = *f;
  if (!d || *d < 0 || !std::isfinite(*d)) fail(n, key, "expected a duration such as \"5s\" or \"500ms\"");
  return d;
}

std::optional<double> TomlTable::duration_in(std::string_view key, double min_s, double max_s, bool zero_is_off) {
  const auto v = duration(key);
  if (v && !((zero_is_off && *v == 0) || (*v >= min_s && *v <= max_s))) {
    fail(node(key), key, std::string("must be ") + (zero_is_off ? "0 (off) or " : "") + "between " + seconds_text(min_s) +
                             " and " + seconds_text(max_s));
  }
  return v;
}

std::vector<std::string> TomlTable::strings(std::string_view key) {
  std::vector<std::string> out;
  const toml::node* n = node(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) fail(n, key, "expected an array of strings");
  for (const toml::node& e : *a) {
    if (!e.is_string()) fail(&e, key, "expected an array of strings");
    out.push_back(e.as_string()->get());
  }
  return out;
}

std::optional<std::pair<double, double>> TomlTable::range(std::string_view key, double lo, double hi) {
  const toml::node* n = node(key);
  if (n == nullptr) return std::nullopt;
  const toml::array* a = n->as_array();
  if (a == nullptr || a->size() != 2 || !(*a)[0].is_number() || !(*a)[1].is_number()) {
    fail(n, key, "expected [min, max]");
  }
  const double a0 = (*a)[0].value<double>().value_or(0), a1 = (*a)[1].value<double>().value_or(0);
  if (!(a0 >= lo && a1 <= hi && a0 <= a1)) {  // written so NaN fails too
    fail(n, key, "expected min <= max within " + std::to_string(lo) + "-" + std::to_string(hi));
  }
  return std::pair{a0, a1};
}

const toml::table* TomlTable::subtable(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return nullptr;
  if (!n->is_table()) fail(n, key, "expected a table");
  return n->as_table();
}

const toml::array* TomlTable::tables(std::string_view key) {
  const toml::node* n = node(key);
  if (n == nullptr) return nullptr;
  const toml::array* a = n->as_array();
  if (a == nullptr || (!a->empty() && !a->is_array_of_tables())) {
    fail(n, key, "expected an array of tables ([[" + std::string(key) + "]])");
  }
  return a;
}

void TomlTable::allow(std::initializer_list<std::string_view> keys) const {
  for (const auto& [key, value] : t_) {
    if (std::find(keys.begin(), keys.end(), key.str()) == keys.end()) {
      throw TomlInvalid{key.source(), "unknown key '" + std::string(key.str()) + "' in " + name_ +
                                          did_you_mean(key.str(), std::vector<std::string_view>(keys))};
    }
  }
}

void TomlTable::finish() const {
  for (const auto& [key, value] : t_) {
    if (!seen_.contains(key.str())) {
      // Every key the table's reader asked for is a known one: the nearest is the likely slip.
      const std::vector<std::string_view> known(seen_.begin(), seen_.end());
      throw TomlInvalid{key.source(), "unknown key '" + std::string(key.str()) + "' in " + name_ +
                                          did_you_mean(key.str(), known)};
    }
  }
}

}  // namespace xcvr::base
