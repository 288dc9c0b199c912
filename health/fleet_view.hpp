// The views of every port of one snapshot, computed once and read by every output of that
// snapshot: /metrics, the JSON API, the landing page, the port pages, the textfile and the
// verdict log. Renderers take a FleetView (or one PortView) and never judge a port themselves.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "daemon/snapshot.hpp"
#include "health/port_view.hpp"

namespace xcvr::health {

class FleetView {
 public:
  // Judges every port of `snapshot` (the health model, with its default options), which must
  // outlive the view.
  explicit FleetView(const daemon::Snapshot& snapshot);

  const daemon::Snapshot& snapshot() const { return *snapshot_; }
  // The view of snapshot().ports[i].
  const PortView& port(std::size_t i) const { return views_[i]; }
  // The view of `port`, which must be one of snapshot().ports.
  const PortView& of(const daemon::PortSnapshot& port) const {
    return views_[static_cast<std::size_t>(&port - snapshot_->ports.data())];
  }

 private:
  const daemon::Snapshot* snapshot_;
  std::vector<PortView> views_;
};

// The views of `snapshot`, computed by the first caller and handed to every later caller of the
// same snapshot until another one is asked for: the daemon publishes snapshots faster than
// anyone reads them, so views are made for the snapshots that are read, once each, whichever
// output reads first. The result keeps the snapshot alive.
std::shared_ptr<const FleetView> shared_views(std::shared_ptr<const daemon::Snapshot> snapshot);

}  // namespace xcvr::health
