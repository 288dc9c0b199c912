// Reads a whole module through any transport the way the daemon's static poll does, for the
// xcvrctl commands that read live (show) or emulated (emulate) modules.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/image.hpp"
#include <CLI/CLI.hpp>

#include "drivers/source_kind.hpp"
#include "drivers/transport.hpp"

namespace xcvr::cli {

// The source flags of show and verify, one set per registered source kind
// (drivers/source_registry.cpp): --file, --i2c/--address, --optoe, --netdev/--trust-banks,
// --ib/--lid/--cage. A kind's first flag selects it; the others need that one.
struct SourceFlags {
  std::map<std::string, std::string, std::less<>> values;  // what CLI11 writes, by flag name
  struct Given {
    const drivers::SourceKind* kind;
    std::vector<CLI::Option*> options;  // in the kind's order
  };
  std::vector<Given> kinds;
};

// Adds every registered kind's flags to `cmd`. `file_positional`: a bare argument is a --file.
void add_source_options(CLI::App& cmd, SourceFlags& flags, bool file_positional = false);

struct OpenedSource {
  const drivers::SourceKind* kind = nullptr;
  std::unique_ptr<drivers::Transport> transport;
  std::string label;  // what was opened, for the report header
};

// Opens the one source the flags select; on failure (none or several, no device, no module in
// the cage, a bad address) returns nullopt with `error` set to a message naming it, followed by
// the kind's hint line when there is one.
std::optional<OpenedSource> open_source(const SourceFlags& flags, std::string& error);

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
