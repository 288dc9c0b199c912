// /api/v1/modules: the snapshot as JSON. Each port carries the decoded-module contract of
// cmis::to_json() under "module", plus what the daemon knows about the port (presence,
// freshness, counters, flags, coding findings, aging, budget) and its health verdict: "health",
// "reasons" (most urgent first: state, kind, name, lanes, value/threshold/margin_db, module
// state, fault cause, text), "worst_rx_margin", "raised_flags" (with since_unix, last_seen_unix),
// "in_service", "unused_lanes": the port's PortView, never judged here. While a module is stale its
// monitor values, states and raised flags are removed from "module" ("monitors_withheld").
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "daemon/snapshot.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

// `view` is the port's (health/fleet_view.hpp): the JSON says what it says, judged nothing again.
nlohmann::json port_json(const daemon::Snapshot& snapshot, const daemon::PortSnapshot& port,
                         const health::PortView& view);

// `j` as the API writes it: compact, invalid UTF-8 replaced, a newline at the end.
std::string json_text(const nlohmann::json& j);

// The /api/v1/events body: {"events": [...]} — the flight recorder's events of every port (or
// of `only`), oldest first, each in the form of daemon/recorder_file.hpp. Written event by
// event: a request holds the body and one event's document, not a document of all (256 events
// are ~3 MB of text).
std::string events_body(const daemon::Snapshot& snapshot, const daemon::PortSnapshot* only = nullptr);

// The /api/v1/modules body: {"budgets": [...], "modules": [...], "taken", "taken_unix",
// "version"}, the text json_text() gives of that object, written port by port: the fleet is never
// one document, so it costs the body and one port's tree, not a tree of 9-10 x the body.
// `size_hint`: the previous body's size, reserved up front (no copies as the body grows).
std::string modules_body(const health::FleetView& views, std::size_t size_hint = 0);

// The port named `name`, or nullptr.
const daemon::PortSnapshot* find_port(const daemon::Snapshot& snapshot, std::string_view name);

}  // namespace xcvr::exporters
