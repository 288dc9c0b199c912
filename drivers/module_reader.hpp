// The one read loop: a plan of half-page ranges (cmis/read_plan.hpp) read through any Transport
// into a ModuleImage, with one policy for retries, unreachable pages and first reads. The
// daemon's poller, `xcvrctl` and the InfiniBand show path all read through it.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "cmis/image.hpp"
#include "cmis/read_plan.hpp"
#include "drivers/transport.hpp"

namespace xcvr::drivers {

// Rounds of cmis::next_static_reads a static read takes at most: the lower page, then 00h and
// what it advertises (01h, 02h / 03h / A2h), then banks and VDM advertising from 01h, then the
// VDM groups from 2Fh. A further round would find the plan empty.
inline constexpr int kStaticReadRounds = 4;

struct ReadPolicy {
  int retries = 2;        // extra attempts after a retryable error (busy, timeout, NACK)
  int64_t at_ns = 0;      // wall time stamped on the pages read (0 = unstamped)
};

// Pages this path cannot reach for the module in the cage (a dump without them, a driver that
// ignores banks): asked once, then left out until the module changes.
using UnreachablePages = std::set<cmis::PageKey>;

struct ReadResult {
  std::optional<Error> error;   // the read that stopped the plan
  std::vector<Error> skipped;   // pages found unreachable by this call (now in `unreachable`)
  bool pages_changed = false;   // a page was added to `unreachable` or erased from the image
};

// Reads each range of `plan` not in `unreachable` into `image` (a half-page read for the first
// time is stored whole, zeros where the range did not reach). An Unsupported answer for a page
// other than the lower page marks it unreachable and goes on; for a page the image already
// holds it erases that page (its old bytes must not pass as fresh) and stops. Any other error
// stops the plan.
ReadResult read_ranges(Transport& t, const std::vector<cmis::ReadRange>& plan, cmis::ModuleImage& image,
                       UnreachablePages& unreachable, const ReadPolicy& policy);

// Clears `image` and reads rounds of cmis::next_static_reads until the plan is complete.
ReadResult read_static(Transport& t, cmis::ModuleImage& image, UnreachablePages& unreachable,
                       const ReadPolicy& policy);

// The request a range becomes on the wire (page 0 for lower memory).
ReadRequest request_for(const cmis::ReadRange& r);

}  // namespace xcvr::drivers
