// The health model (design invariant 4): a pure function from a port's snapshot to its view —
// one state and the reasons for it, margins, headroom, raised flags (health/port_view.hpp).
// Only the health room and xcvrctl call it: the daemon's outputs read the views computed once
// per snapshot (health/fleet_view.hpp). See docs/architecture.md "Health model".
#pragma once

#include <vector>

#include "daemon/snapshot.hpp"
#include "health/port_view.hpp"
#include "health/values.hpp"

namespace xcvr::health {

struct HealthOptions {
  double hot_headroom_celsius = 5.0;  // "hot" below this much headroom to the high warning
};

// The port's view: its verdict and what it was judged on, each computed here once. unused when
// the port is out of service (nothing else counts); empty when no module is seated; stale when
// its values are withheld or were never read; otherwise the most urgent state among its
// reasons, or ok. Flags and monitors of unused lanes never count.
PortView assess(const daemon::PortSnapshot& port, const HealthOptions& options = {});

// Flags raised now: the poller's latched history (raised, with its since-times) united with the
// flags in the last decoded report, deduplicated and sorted. Empty when the module's values are
// withheld or the port is out of service; flags of unused lanes are left out.
std::vector<RaisedFlag> raised_flags(const daemon::PortSnapshot& port);

}  // namespace xcvr::health
