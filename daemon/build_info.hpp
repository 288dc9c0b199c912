// What was built: version, git revision and build date — for --version, the start line and
// transceiver_exporter_build_info. The values come from cmake/build_info.cmake.
#pragma once

#include <string>
#include <string_view>

namespace xcvr::daemon::build_info {

std::string_view version();   // the project version, "0.1.0"
std::string_view revision();  // short commit hash, with "-dirty" for uncommitted changes; "unknown"
std::string_view date();      // "2026-12-07": UTC day of the build, or of SOURCE_DATE_EPOCH
std::string describe();       // "0.1.0 (revision 266ce3c1a2b3, built 2026-12-07)"

}  // namespace xcvr::daemon::build_info
