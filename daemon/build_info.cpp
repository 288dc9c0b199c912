#include "daemon/build_info.hpp"

#include "xcvr_build_info_values.hpp"  // generated into the build tree

namespace xcvr::daemon::build_info {

std::string_view version() { return XCVR_DAEMON_VERSION; }
std::string_view revision() { return XCVR_BUILD_REVISION; }
std::string_view date() { return XCVR_BUILD_DATE; }

std::string describe() {
  return std::string(version()) + " (revision " + std::string(revision()) + ", built " + std::string(date()) + ")";
}

}  // namespace xcvr::daemon::build_info
