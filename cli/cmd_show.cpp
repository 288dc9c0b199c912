// Placeholder: being written.
#include <iostream>

#include "cli/commands.hpp"

namespace xcvr::cli {

void add_show_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("show", "Read one module live through the daemon's code path (not available yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::cerr << "xcvrctl show: not available in this build yet\n";
    exit_code = kExitUnreadable;
  });
}

}  // namespace xcvr::cli
