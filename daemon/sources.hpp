// Turns the configured sources into ports: a name, a serialization domain and a Transport each.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "daemon/config.hpp"
#include "daemon/poll_engine.hpp"

namespace xcvr::daemon {

// Resources a source keeps alive for its transports (an emulated fleet and its buses).
struct SourceResources {
  virtual ~SourceResources() = default;
};

struct BuiltSources {
  std::vector<PortSpec> ports;
  std::vector<std::shared_ptr<SourceResources>> resources;  // outlive the ports' transports
};

struct SourceError {
  std::string message;  // names the config location and what failed
};

std::variant<BuiltSources, SourceError> build_sources(const Config& config);

// Sources that find their own ports (emulator fleet, ib fabric): applies the service settings
// of the source's [[source.port]] / [[source.module]] entries to `ports` by name. Returns one
// message per entry that names no port or lists a lane the port's cage lacks.
std::vector<std::string> apply_port_service(const SourceConfig& source, std::span<PortSpec> ports);

}  // namespace xcvr::daemon
