// xcvrctl's --port NAME: the port as the daemon's own config code makes it
// (daemon::prepare_config: the same sources, transport, catalog list, OUI registry and
// cage-style rules), so show and verify read and judge the module an alert names the way the
// daemon does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/module_read.hpp"
#include "daemon/coding_setup.hpp"
#include "daemon/service.hpp"
#include "drivers/transport.hpp"

namespace xcvr::cli {

struct ConfigPort {
  daemon::PreparedConfig prepared;  // its sources' resources outlive `transport` (declared after)
  std::unique_ptr<drivers::Transport> transport;
  const drivers::SourceKind* kind = nullptr;  // of the port's source (for error hints)
  daemon::PortService service;                // in service, unused lanes: what the verdict counts
  std::string port;   // the `port` label
  std::string label;  // for report headers: port, config file and what the transport reads
};

// Builds `config_path`'s sources and takes the port named `port`. On failure returns nullopt
// with `error` set: the daemon's refusal of the config, or for an unknown port its close
// matches among the configured ports.
std::optional<ConfigPort> open_config_port(const std::string& config_path, const std::string& port,
                                           std::string& error);

// --port NAME and --config PATH of show and verify: a port of the daemon's config instead of
// a device flag (they exclude each other).
struct PortFlags {
  std::string port;
  std::string config = daemon::kDefaultConfigPath;
  CLI::Option* config_option = nullptr;
  bool config_given() const { return config_option != nullptr && config_option->count() != 0; }
};
void add_port_options(CLI::App& cmd, PortFlags& flags, const SourceFlags& source);

// The module show or verify reads: a port of the config (--port) or the device the source
// flags name.
struct ModuleSource {
  std::optional<ConfigPort> config_port;          // --port
  std::unique_ptr<drivers::Transport> device;     // a source flag
  const drivers::SourceKind* kind = nullptr;      // the source's kind (for error hints)
  std::string label;
  bool empty = false;  // no module in the cage (a port of the config: its verdict is "empty")
  drivers::Transport& transport() { return config_port ? *config_port->transport : *device; }
};
// nullopt with `error` set when nothing could be opened. An empty cage is opened, with `empty`
// set and `error` saying so.
std::optional<ModuleSource> open_module(const SourceFlags& source, const PortFlags& port, std::string& error);

// read_module() as the daemon's first read of a module: a module not settled at the first read
// (CMIS not ModuleReady or a data path between states, SFF-8636/8472 data not ready) may have
// just been seated or powered, and the daemon judges no module before its settle delay, so a
// config port's module is read again after the config's settle_delay. A settled module (the
// usual case) costs no wait.
std::optional<drivers::Error> read_settled(ModuleSource& source, cmis::ModuleImage& image,
                                           std::vector<std::string>& skipped);

// The daemon's coding judgement for `source`: load_coding_setup() on the config the port came
// from, else on --config or the daemon's default config when it exists, else on the defaults
// (the shipped catalog plus catalog.d, as the daemon without a config file); `catalogs` and
// `oui_registry` (when given) replace the config's settings. The context is the port's at
// `now_unix`: a config port's cage style, none for a device (no port name to match). Errors as
// text (the config's or the catalog's).
struct DaemonCoding {
  std::shared_ptr<const daemon::CodingSetup> setup;
  coding::VerifyContext context;
};
std::variant<DaemonCoding, std::string> daemon_coding(const PortFlags& port, const ModuleSource& source,
                                                      const std::vector<std::string>& catalogs,
                                                      const std::string& oui_registry, double now_unix);

// Configured port names close to `wanted` (a different prefix, a typo), best first, at most
// `limit`.
std::vector<std::string> close_matches(const std::string& wanted, const std::vector<std::string>& names,
                                       std::size_t limit = 5);

}  // namespace xcvr::cli
