// One log line per change of a port's verdict (its PortView, health/port_view.hpp), e.g.
// "port spine-01/swp26: ok -> down (module state LowPwr ...)", so the journal tells when a port
// went bad and came back, not only the pages and /metrics now.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/snapshot.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

class VerdictLog {
 public:
  using Sink = std::function<void(const std::string&)>;  // default: spdlog info
  explicit VerdictLog(Sink sink = {});

  // Looks at the newest snapshot (again: nothing happens). A port's first verdict is logged only
  // when it is a problem (not ok, empty or unused); after that, every change. A port that is
  // settling or reading its static pages has no verdict of its own yet: its last one stands
  // (a module swap logs "empty -> ok", not the steps between). Ports that went away are forgotten.
  void observe(const health::FleetView& views);

 private:
  struct Seen {
    std::string port;
    std::optional<health::Health> health;  // none before the port's first verdict
  };
  void judge(const daemon::PortSnapshot& port, const health::PortView& view, Seen& seen);

  Sink sink_;
  std::vector<Seen> seen_;  // in the order of the last snapshot's ports
  double observed_taken_unix_ = -1;
};

}  // namespace xcvr::exporters
