// Pieces of build_families(), split by subject. Internal to exporters/.
#pragma once

#include "daemon/snapshot.hpp"
#include "exporters/families.hpp"
#include "exporters/metrics.hpp"

namespace xcvr::exporters::detail {

// Every series of one port (presence, identity, monitors, thresholds, flags, counters).
void add_port_series(FamilySet& out, const daemon::PortSnapshot& port);

// Power budget per group.
void add_budget_series(FamilySet& out, const daemon::Snapshot& snapshot);

// Build info, poll domains, config reloads, snapshot time, scrape duration.
void add_self_series(FamilySet& out, const daemon::Snapshot& snapshot, const SelfStats& self);

}  // namespace xcvr::exporters::detail
