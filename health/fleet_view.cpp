#include "health/fleet_view.hpp"

#include <mutex>

#include "health/health.hpp"

namespace xcvr::health {

FleetView::FleetView(const daemon::Snapshot& snapshot) : snapshot_(&snapshot) {
  views_.reserve(snapshot.ports.size());
  for (const daemon::PortSnapshot& p : snapshot.ports) views_.push_back(assess(p));
}

namespace {

struct Viewed {
  std::shared_ptr<const daemon::Snapshot> snapshot;
  FleetView views;
};

}  // namespace

std::shared_ptr<const FleetView> shared_views(std::shared_ptr<const daemon::Snapshot> snapshot) {
  static std::mutex mutex;  // held while judging: concurrent readers of a new snapshot wait for one
  static std::shared_ptr<const Viewed> last;
  std::lock_guard lock(mutex);
  if (!last || last->snapshot != snapshot) {
    const daemon::Snapshot& s = *snapshot;
    last = std::make_shared<const Viewed>(Viewed{std::move(snapshot), FleetView(s)});
  }
  return {last, &last->views};
}

}  // namespace xcvr::health
