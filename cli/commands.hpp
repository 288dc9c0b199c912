// xcvrctl subcommands. Each registers itself on the app and sets the process exit code:
// 0 clean, 1 problems found, 2 unreadable input or unusable arguments.
#pragma once

#include <CLI/CLI.hpp>

namespace xcvr::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUnreadable = 2;

void add_decode_command(CLI::App& app, int& exit_code);   // cmd_decode.cpp
void add_show_command(CLI::App& app, int& exit_code);     // cmd_show.cpp: live read of one module
void add_verify_command(CLI::App& app, int& exit_code);   // cmd_verify.cpp: coding verification
void add_emulate_command(CLI::App& app, int& exit_code);  // cmd_emulate.cpp: an emulated module
void add_discover_command(CLI::App& app, int& exit_code); // cmd_discover.cpp: what sources would find
void add_events_command(CLI::App& app, int& exit_code);   // cmd_events.cpp: the flight recorder's events

}  // namespace xcvr::cli
