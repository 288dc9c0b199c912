// The [recorder] table (docs/configuration.md): the flight recorder (daemon/flight_recorder.hpp)
// and the fast poll of ports with a recent event.
#pragma once

namespace xcvr::daemon {

struct RecorderConfig {
  bool enabled = true;
  double window_s = 60;       // the ring spans at least this much before a trigger (when full)
  int samples = 13;           // ring slots: one sample at most every window/(samples-1): 5 s, the default poll
  int after_samples = 4;      // samples after the trigger before the event closes
  int events_per_port = 4;    // newest kept
  int max_events = 256;       // across the daemon: the oldest go first
  // Fast poll: a port whose event is younger than fast_for_s is polled (module and link) every
  // fast_interval_s, at most fast_ports_per_domain ports of one bus or NIC at once: the bus
  // budget. 0 = off.
  double fast_interval_s = 0;
  double fast_for_s = 300;
  int fast_ports_per_domain = 2;
  double spacing_s() const { return window_s / (samples - 1); }
  bool operator==(const RecorderConfig&) const = default;
};

}  // namespace xcvr::daemon
