// xcvrctl: the operator's command-line tool.
#include <iostream>

#include "cli/commands.hpp"
#include "daemon/build_info.hpp"

int main(int argc, char** argv) {
  CLI::App app{"xcvrctl — inspect pluggable optics (CMIS, SFF-8636, SFF-8472)"};
  app.set_version_flag("--version", "xcvrctl " + xcvr::daemon::build_info::describe());
  app.require_subcommand(1);
  int exit_code = xcvr::cli::kExitClean;
  xcvr::cli::add_decode_command(app, exit_code);
  xcvr::cli::add_show_command(app, exit_code);
  xcvr::cli::add_verify_command(app, exit_code);
  xcvr::cli::add_emulate_command(app, exit_code);
  xcvr::cli::add_discover_command(app, exit_code);
  xcvr::cli::add_events_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : xcvr::cli::kExitUnreadable;
  } catch (const std::exception& e) {  // never an abort (rc 134): a clear error, exit 2
    std::cerr << "xcvrctl: " << e.what() << '\n';
    return xcvr::cli::kExitUnreadable;
  }
  return exit_code;
}
