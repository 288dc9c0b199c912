// xcvrctl subcommands. Each registers itself on the app and sets the process exit code:
// 0 clean, 1 problems found, 2 unreadable input or unusable arguments.
#pragma once

#include <CLI/CLI.hpp>

namespace xcvr::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUnreadable = 2;

void add_decode_command(CLI::App& app, int& exit_code);

}  // namespace xcvr::cli
