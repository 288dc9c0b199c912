// Placeholder: being written.
#include <iostream>

#include "cli/commands.hpp"

namespace xcvr::cli {

void add_emulate_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("emulate", "Print an emulated module's memory as `ethtool -m hex on` (not available yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::cerr << "xcvrctl emulate: not available in this build yet\n";
    exit_code = kExitUnreadable;
  });
}

}  // namespace xcvr::cli
