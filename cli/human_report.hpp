// Human-readable module report, laid out like `ethtool -m` ("field : value"), with optical
// power in mW and dBm side by side. dBm exists only here (design invariant 2).
#pragma once

#include <string>

#include "cmis/report.hpp"

namespace xcvr::cli {

std::string render_human(const cmis::ModuleReport& report);

// "0.8000 mW / -0.97 dBm"; zero power renders as "0.0000 mW / -inf dBm" like ethtool.
std::string format_power(double watts);

}  // namespace xcvr::cli
