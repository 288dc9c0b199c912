// Turns the configured sources into ports: a name, a serialization domain and a Transport each.
// Each source's kind (drivers/source_registry.cpp) makes the ports; this adds what the config
// says of them (service, cage), checks names are unique, and keeps unchanged sources on reload.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "daemon/config.hpp"
#include "daemon/poll_engine.hpp"

namespace xcvr::daemon {

// One configured source as built (or kept from the running engine on a reload).
struct BuiltSource {
  std::string fingerprint;              // settings + the bytes of the files it names
  std::vector<std::string> port_names;  // in order
  std::vector<std::shared_ptr<void>> resources;
  bool reused = false;  // unchanged since the running config: its pollers keep running
};

struct BuiltSources {
  std::vector<PortSpec> ports;  // of the sources built now (reused ones add none), in source order
  std::vector<std::shared_ptr<void>> resources;  // outlive the ports' transports
  std::vector<BuiltSource> sources;  // per configured source (build_sources fills it)
  std::vector<std::string> notes;    // what sources that find their own ports looked at and found
  std::size_t port_count() const;
};

struct SourceError {
  std::string message;  // names the config location and what failed
};

// Builds every source of `config`. With `running` (a reload), a source whose fingerprint matches
// one of the running sources is not built again: it is marked reused and keeps its resources,
// so its modules are not re-inserted. Port names must be unique across all sources.
std::variant<BuiltSources, SourceError> build_sources(const Config& config, const BuiltSources* running = nullptr);

// The ports one source made, as PortSpecs with the service settings (and cages) its listed
// entries give them by name. A listed entry naming no port, or a lane the port's cage lacks, is
// one message each.
std::vector<PortSpec> port_specs(const SourceConfig& source, drivers::SourceBuild& built,
                                 std::vector<std::string>& problems);

// For --check-config: the serials that modules replayed from dump files (the "file" source: the
// config names their contents) share, one line per serial however many ports carry it. The
// daemon would flag each such port serial_duplicate and learn no aging baseline for it. Other
// sources' modules are known only once read, which the daemon does.
std::vector<std::string> replayed_duplicate_serials(const std::vector<PortSpec>& ports);

}  // namespace xcvr::daemon
