// /api/v1/modules: the snapshot as JSON. Each port carries the decoded-module contract of
// cmis::to_json() under "module", plus what the daemon knows about the port (presence,
// freshness, counters, flags, coding findings, aging, budget) and its health verdict: "health",
// "reasons" (most urgent first: state, kind, name, lanes, value/threshold/margin_db, module
// state, fault cause, text), "worst_rx_margin", "raised_flags" (with since_unix, last_seen_unix),
// "in_service", "unused_lanes": the port's PortView, never judged here. While a module is stale its
// monitor values, states and raised flags are removed from "module" ("monitors_withheld").
#pragma once

#include <nlohmann/json.hpp>

#include "daemon/snapshot.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

// `view` is the port's (health/fleet_view.hpp): the JSON says what it says, judged nothing again.
nlohmann::json port_json(const daemon::Snapshot& snapshot, const daemon::PortSnapshot& port,
                         const health::PortView& view);

// {"version", "taken_unix", "taken", "modules": [...], "budgets": [...]}
nlohmann::json modules_json(const health::FleetView& views);

// The port named `name`, or nullptr.
const daemon::PortSnapshot* find_port(const daemon::Snapshot& snapshot, std::string_view name);

}  // namespace xcvr::exporters
