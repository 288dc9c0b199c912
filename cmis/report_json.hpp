// The JSON contract of a decoded module (xcvrctl decode --json, /api/v1/modules).
// Absent values are omitted, never written as 0.
#pragma once

#include <nlohmann/json.hpp>

#include "cmis/report.hpp"

namespace xcvr::cmis {

nlohmann::json to_json(const ModuleReport& report);

}  // namespace xcvr::cmis
