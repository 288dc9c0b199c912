// "path:line:col" of a byte offset in a text, for parsers whose library reports offsets only
// (nlohmann::json's parse_error::byte, positions tracked by an iterator).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace xcvr::base {

// An error in a text file an operator wrote (config, catalog): where and what. Line 0: the file
// as a whole (it cannot be read).
struct TextError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  // "file:line:col: message" ("file: message" for line 0).
  std::string to_string() const {
    return file + (line > 0 ? ":" + std::to_string(line) + ":" + std::to_string(column) : std::string()) + ": " + message;
  }
};

// Counts from the last position asked when offsets grow (a parse's positions mostly do).
class TextPositions {
 public:
  TextPositions(const std::string& path, std::string_view text) : path_(path), text_(text) {}
  std::string at(std::size_t offset) {
    offset = std::min(offset, text_.size());
    if (offset < at_) at_ = 0, line_ = 1, line_start_ = 0;
    for (; at_ < offset; ++at_) {
      if (text_[at_] == '\n') ++line_, line_start_ = at_ + 1;
    }
    return path_ + ":" + std::to_string(line_) + ":" + std::to_string(offset - line_start_ + 1);
  }

 private:
  const std::string& path_;
  std::string_view text_;
  std::size_t at_ = 0, line_ = 1, line_start_ = 0;
};

}  // namespace xcvr::base
