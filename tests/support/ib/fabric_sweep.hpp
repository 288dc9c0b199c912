// One synchronized sweep of a fabric: every port reads the same plan at once, each lane (its
// serialization domain) taking its ports one after another, all lanes in parallel under a
// DesClock. What a poll cycle of the daemon costs when every module is due at the same time,
// in virtual time, next to its lower bound:
//   bound = max( max over lanes of (MADs on that lane) x per-MAD latency ,
//                (all MADs - burst) / rate + latency )
// (a lane has one MAD in flight; the subnet admits `rate` MADs per second after a full bucket).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/support/ib/des_clock.hpp"
#include "drivers/ib/ib_transport.hpp"

namespace xcvr::ib {

struct SweepResult {
  double seconds = 0;        // first read started -> last read finished (virtual)
  double bound_seconds = 0;  // the lower bound above
  uint64_t mads = 0;         // MADs sent (re-sends included)
  uint64_t errors = 0;       // reads that failed
  std::size_t lanes = 0;
  std::size_t modules = 0;
  std::map<std::string, double> lane_seconds;  // each lane's own finish time
};

// The daemon's steady-state plan for an 8-lane CMIS module (cmis/read_plan.cpp
// dynamic_reads: lower 0-25 and page 11h 128-201 of bank 0); tests check the two agree.
std::vector<drivers::ReadRequest> cmis_dynamic_plan();

SweepResult sweep(const std::vector<IbTransport*>& ports, const std::vector<drivers::ReadRequest>& plan,
                  DesClock& clock, int64_t latency_ns, double rate_per_second, double burst);

}  // namespace xcvr::ib
