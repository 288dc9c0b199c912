// What the daemon would say about the module xcvrctl just read: the port as one of the daemon's
// snapshots holds it after such a read — the report, the config's service settings (--port) and
// the coding findings — judged by the daemon's own health model (health/health.hpp), so
// `xcvrctl show` and `verify` print the verdict and reasons /metrics, the JSON API and the
// pages give. What one read cannot know: a latched flag the daemon still holds from an earlier
// poll, and the fleet checks (serials across ports).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/port_source.hpp"
#include "coding/finding.hpp"
#include "health/port_view.hpp"

namespace xcvr::cli {

// The verdict on `source` as read now: its report (nullptr when the cage is empty) and coding
// findings.
health::PortView judge_read(const ModuleSource& source, std::shared_ptr<const cmis::ModuleReport> report,
                            std::vector<coding::CodingFinding> coding);

// "Health   : warning\n" then one "Reason   : <text>\n" per reason, most urgent first.
std::string verdict_text(const health::PortView& view);

}  // namespace xcvr::cli
