#include "base/interned.hpp"

#include <mutex>
#include <set>
#include <string>

namespace xcvr::base {

std::string_view interned(std::string_view name) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;  // nodes never move: views stay valid
  const std::lock_guard lock(mutex);
  auto it = names.find(name);
  if (it == names.end()) it = names.emplace(name).first;
  return *it;
}

}  // namespace xcvr::base
