// Names from a finite vocabulary (flag names: the flag table's and VDM type x level), stored once
// for the process, so the many records that carry one (a port's flag history, each snapshot's
// copy of it) hold a view and copying them allocates nothing. Never for outside text of
// unbounded variety: an interned name lives until exit.
#pragma once

#include <string_view>

namespace xcvr::base {

// The process's copy of `name`: equal names give the same view, valid until exit. Thread-safe.
std::string_view interned(std::string_view name);

}  // namespace xcvr::base
