#include "daemon/state_json.hpp"

#include <iterator>
#include <stdexcept>

#include "base/text_position.hpp"

namespace xcvr::daemon {
namespace {

using nlohmann::json;

// An input iterator that tells where the parser is: nlohmann's callbacks carry no position.
struct TrackedIter {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** pos = nullptr;
  reference operator*() const { return *p; }
  TrackedIter& operator++() {
    *pos = ++p;
    return *this;
  }
  TrackedIter operator++(int) {
    TrackedIter old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackedIter& o) const { return p == o.p; }
};

}  // namespace

std::string state_json_line(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string read_state_entries(const std::string& path, std::string_view text, std::string_view collection,
                               StateCollection shape, const std::function<void(const StateEntry&)>& take) {
  base::TextPositions where(path, text);
  const char* pos = text.data();
  std::string top_key, key, key_at;
  bool seen = false;
  const bool in_array = shape == StateCollection::Array;
  std::size_t index = 0;
  const auto offset = [&] { return static_cast<std::size_t>(pos - text.data()); };
  auto cb = [&](int depth, json::parse_event_t ev, json& parsed) -> bool {
    if (depth == 1 && ev == json::parse_event_t::key) {
      top_key = parsed.get<std::string>();
      return true;
    }
    if (top_key != collection) return true;
    if (depth == 1 && (ev == json::parse_event_t::object_start || ev == json::parse_event_t::array_start)) {
      if ((ev == json::parse_event_t::array_start) != in_array) {
        throw std::runtime_error("\"" + std::string(collection) + "\" is not " + (in_array ? "an array" : "an object"));
      }
      seen = true;
      return true;
    }
    if (depth != 2) return true;
    if (!in_array && ev == json::parse_event_t::key) {
      key = parsed.get<std::string>();
      const std::size_t end = offset();
      key_at = where.at(end - std::min(end, json(key).dump().size()));
      ++index;
      return true;
    }
    if (in_array && (ev == json::parse_event_t::object_start || ev == json::parse_event_t::array_start)) {
      key_at = where.at(offset() > 0 ? offset() - 1 : 0);  // the parser has just read the bracket
      ++index;
      return true;
    }
    if (ev != json::parse_event_t::object_end && ev != json::parse_event_t::array_end &&
        ev != json::parse_event_t::value) {
      return true;
    }
    if (in_array && ev == json::parse_event_t::value) key_at = where.at(offset()), ++index;  // a scalar entry
    take(StateEntry{in_array ? std::string() : key, index, key_at, parsed});
    return false;
  };
  std::string fatal;
  try {
    TrackedIter first{text.data(), &pos};
    TrackedIter last{text.data() + text.size(), &pos};
    const json top = json::parse(first, last, cb);
    if (!top.is_object()) fatal = where.at(0) + ": not a JSON object";
    else if (!seen) fatal = where.at(0) + ": no \"" + std::string(collection) + "\" " + (in_array ? "array" : "object");
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points at the offending character.
    std::string what = e.what();
    if (const auto colon = what.find(": ", what.find("parse error")); colon != std::string::npos) what = what.substr(colon + 2);
    // The parser quotes what it last read: from a state file that is a link to another file
    // (/etc/shadow), that would put the other file's first bytes in the log. The position is enough.
    if (const auto quoted = what.find("; last read:"); quoted != std::string::npos) what.resize(quoted);
    fatal = where.at(e.byte > 0 ? e.byte - 1 : 0) + ": " + what;
  } catch (const std::exception& e) {
    fatal = where.at(offset()) + ": " + e.what();
  }
  return fatal;
}

}  // namespace xcvr::daemon
