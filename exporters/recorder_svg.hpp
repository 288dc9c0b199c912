// The port page's "Flight recorder" section: each of the port's events (newest first) with its
// triggers and small SVG plots of its samples — rx power and tx bias per lane, the worst pre-FEC
// BER, the FEC tail, carrier and alarms — against seconds from the trigger. No JavaScript: each
// point carries its value as a <title> tooltip.
#pragma once

#include <string>

#include "daemon/snapshot.hpp"

namespace xcvr::exporters {

std::string recorder_section(const daemon::PortSnapshot& port);

}  // namespace xcvr::exporters
