// The FEC tail of a link: the highest codeword-histogram bin whose count grew between two link
// reads (FBOSS's fecTail, SONiC's maxT over an interval). The device's histogram counts since
// its last reset; the tail of the last interval is what moves days before the uncorrectable
// counter does.
#pragma once

#include "drivers/link_health.hpp"

namespace xcvr::daemon {

// Sets `tail` of each histogram in `now` from the same link's histogram in `before` (the last
// good read, or none): the high bound of the highest bin that grew, 0 when only bin 0 grew or
// none did. Withheld on the first read and when the driver's bins changed. A bin that went
// down means the device reset its counters: the tail is then the highest non-zero bin since.
void add_fec_tails(const drivers::LinkHealth* before, drivers::LinkHealth& now);

}  // namespace xcvr::daemon
