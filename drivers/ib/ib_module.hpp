// One module over InfiniBand, for xcvrctl's --ib CA:PORT --lid L --cage C (the ib source kind,
// drivers/ib/ib_source.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "drivers/ib/ib_source_setup.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

// "mlx5_0:1" -> {"mlx5_0", 1}; "mlx5_0" -> port 1. nullopt if malformed.
std::optional<std::pair<std::string, int>> parse_ca_port(const std::string& text);

// A ready Transport for MCIA module `module` (front-panel cage module + 1) of the device at
// `lid` (0: the CA's own LID), reached from `ca_port`; it owns everything it needs (device,
// clock, target). `opener` as in open_ib_source (empty = libibumad); `clock` defaults to a
// SteadyClock (tests pass the emulated fabric's virtual clock, so backoffs and timeouts take
// no real time).
std::variant<std::unique_ptr<drivers::Transport>, drivers::Error> open_ib_module_transport(
    const std::string& ca_port, int lid, int module, DeviceOpener opener = {},
    std::shared_ptr<base::Clock> clock = {});

}  // namespace xcvr::ib
