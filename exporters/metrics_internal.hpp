// Pieces of build_families(), split by subject. Internal to exporters/.
#pragma once

#include <optional>
#include <string>

#include "daemon/snapshot.hpp"
#include "exporters/families.hpp"
#include "exporters/metrics.hpp"

namespace xcvr::exporters::detail {

// Labels of one series grown by one label (views: see Labels).
Labels plus(const Labels& base, std::string_view name, std::string_view value);
// A live per-lane series' labels: lane, and data_path (CMIS: the lane's data path, i.e. host
// port, in the module's active configuration) when the decoder knows it. Counters do not carry
// data_path: their identity must survive the module being pulled.
Labels live_lane_labels(const Labels& base, int lane, const std::optional<int>& data_path);
// The data path of a lane of the report (nullptr or an unknown lane: none).
std::optional<int> data_path_of(const cmis::ModuleReport* report, int lane);
// The four levels of a threshold family (those the module gives).
void add_levels(FamilySet& out, Fam fam, const Labels& base, const cmis::Thresholds& thresholds);

// VDM observables of a present, fresh module (exporters/metrics_vdm.cpp).
void add_vdm_series(FamilySet& out, const Labels& base, const daemon::PortSnapshot& port);

// Every series of one port (presence, identity, monitors, thresholds, flags, counters).
void add_port_series(FamilySet& out, const daemon::PortSnapshot& port);

// Power budget per group.
void add_budget_series(FamilySet& out, const daemon::Snapshot& snapshot);

// Build info, poll domains, config reloads, snapshot time, scrape duration.
void add_self_series(FamilySet& out, const daemon::Snapshot& snapshot, const SelfStats& self);

}  // namespace xcvr::exporters::detail
