// Reads a whole module through any transport the way the daemon's static poll does, for the
// xcvrctl commands that read live (show) or emulated (emulate) modules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/image.hpp"
#include "drivers/transport.hpp"

namespace xcvr::cli {

// Rounds of daemon::next_static_reads until the plan is complete. A page the source cannot give
// (Unsupported: not in a dump, not mapped by a driver, bank unreachable) is noted in `skipped`
// and left out; any other error stops the read and is returned.
std::optional<drivers::Error> read_module(drivers::Transport& t, cmis::ModuleImage& image,
                                          std::vector<std::string>& skipped);

// Exit status for a decoded report: 1 on a bad checksum or a decode problem, else 0.
int report_exit_code(const cmis::ModuleReport& report);

}  // namespace xcvr::cli
