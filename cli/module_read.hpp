// Reads a whole module through any transport the way the daemon's static poll does, for the
// xcvrctl commands that read live (show) or emulated (emulate) modules.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/image.hpp"
#include "drivers/transport.hpp"

namespace xcvr::cli {

// The one live or recorded source a command reads (exactly one field set).
struct SourceArgs {
  std::string file;    // dump file, replayed as a module
  std::string i2c;     // /dev/i2c-N
  std::string address = "0x50";
  std::string optoe;   // optoe eeprom file or sx_core module dir
  std::string netdev;  // ethtool netlink
  bool trust_banks = false;
};

struct OpenedSource {
  std::unique_ptr<drivers::Transport> transport;
  std::string label;  // what was opened, for the report header
};

// Opens the source; on failure (nothing given or several, no device, no module in the cage,
// bad address) returns nullopt with `error` set to a message naming it.
std::optional<OpenedSource> open_source(const SourceArgs& args, std::string& error);

// Re-reads the bytes a daemon's steady-state poll reads (monitors, flags, states) into
// `image`, so checks against live values see the current ones. A read error ends the refresh:
// bytes not yet re-read stay those of the static read (a page that stopped answering is
// dropped, as the daemon drops it).
void refresh_dynamic(drivers::Transport& t, cmis::ModuleImage& image);

// The static read (drivers::read_static, as the daemon's). A page the source cannot give
// (Unsupported: not in a dump, not mapped by a driver, bank unreachable) is noted in `skipped`
// and left out; any other error stops the read and is returned.
std::optional<drivers::Error> read_module(drivers::Transport& t, cmis::ModuleImage& image,
                                          std::vector<std::string>& skipped);

// Exit status for a decoded report: 1 on a bad checksum or a decode problem, else 0.
int report_exit_code(const cmis::ModuleReport& report);

}  // namespace xcvr::cli
