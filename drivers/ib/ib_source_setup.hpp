// An InfiniBand source as configured: which local CA port, which targets (the local HCA, LIDs,
// GUIDs, every switch a directed-route walk finds), politeness and shard — opened into ports.
// drivers/ib/ib_source.cpp turns the result into PortSpecs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "drivers/ib/discovery.hpp"
#include "drivers/ib/ib_ports.hpp"
#include "drivers/ib/ib_settings.hpp"

namespace xcvr::ib {

using DeviceOpener =
    std::function<std::variant<std::unique_ptr<UmadDevice>, drivers::Error>(const std::string& ca, int port, bool smp)>;

struct IbSource {
  IbPorts ports;
  std::shared_ptr<base::Clock> clock;  // outlives the transports (they refer to it)
  std::vector<DiscoveredNode> discovered;
  std::string device;                      // "mlx5_0:1 (LID 12)"
};

// Opens the source. `opener` defaults to libibumad (open_umad_device); `clock` to a SteadyClock.
std::variant<IbSource, drivers::Error> open_ib_source(const IbSourceSettings& settings, DeviceOpener opener = {},
                                                      std::shared_ptr<base::Clock> clock = {});

}  // namespace xcvr::ib
