// The state directory's JSON files (aging.json, recorder.json) read entry by entry: each entry
// of the file's one collection — {"<collection>": {"<key>": entry, ...}} (keyed) or
// {"<collection>": [entry, ...]} — is handed over when complete and then dropped from the DOM, so
// memory stays at one entry however large the file is, and a bad entry can be dropped alone with
// its file:line:col. What an entry must hold is the caller's; this file knows only the shape.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace xcvr::daemon {

struct StateEntry {
  std::string key;    // the entry's key in an object collection; "" in an array
  std::size_t index;  // 1-based position in the collection
  std::string at;     // "path:line:col" where the entry (or its key) begins
  const nlohmann::json& value;
};

// "" when the file was read to its end, else "path:line:col: why" (syntax error, no collection,
// not an object); the entries before that point have been handed over.
enum class StateCollection { Keyed, Array };
std::string read_state_entries(const std::string& path, std::string_view text, std::string_view collection,
                               StateCollection shape, const std::function<void(const StateEntry&)>& take);

// `value` as one line of a state file: invalid UTF-8 replaced, never thrown on.
std::string state_json_line(const nlohmann::json& value);

}  // namespace xcvr::daemon
