// Internal to emulator: the [[fault]] table reader shared by the fault timeline and the
// fleet loaders. Tables are read through base::TomlTable (base/toml_input.hpp).
#pragma once

#include <cstdint>

#include <toml++/toml.h>

#include "emulator/faults.hpp"

namespace xcvr::emulator::toml_support {

// One [[fault]] table; `bus`/`port` and `cage` are left to the caller to resolve.
struct ParsedFault {
  TimedFault event;
  int64_t duration_ns = 0;
};
ParsedFault parse_fault(const toml::table& t);  // throws base::TomlInvalid

}  // namespace xcvr::emulator::toml_support
