// Placeholder: being written.
#include <iostream>

#include "cli/commands.hpp"

namespace xcvr::cli {

void add_verify_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("verify", "Verify a module's coding against the optic catalog (not available yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::cerr << "xcvrctl verify: not available in this build yet\n";
    exit_code = kExitUnreadable;
  });
}

}  // namespace xcvr::cli
