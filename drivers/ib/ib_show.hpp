// One module over InfiniBand, for `xcvrctl show --ib CA:PORT --lid L --module M [--json]`.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "cmis/image.hpp"
#include "drivers/ib/ib_source_setup.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

// "mlx5_0:1" -> {"mlx5_0", 1}; "mlx5_0" -> port 1. nullopt if malformed.
std::optional<std::pair<std::string, int>> parse_ca_port(const std::string& text);

// A ready Transport for module `module` of the device at `lid` (0: the CA's own LID), reached
// from `ca_port`; it owns everything it needs (device, clock, target). `opener` as in
// open_ib_source (empty = libibumad); `clock` defaults to a SteadyClock (tests pass the
// emulated fabric's virtual clock, so backoffs and timeouts take no real time).
std::variant<std::unique_ptr<drivers::Transport>, drivers::Error> open_ib_module_transport(
    const std::string& ca_port, int lid, int module, DeviceOpener opener = {},
    std::shared_ptr<drivers::Clock> clock = {});

// Reads the module as the daemon does (drivers::read_static, VDM pages included) and prints it
// (human summary, or the decoder's JSON contract with --json).
// Exit codes as `xcvrctl show`: 0 clean, 1 problems (incomplete read, bad checksum, decode
// findings), 2 nothing readable — including "no InfiniBand hardware" with a clear message.
int show_ib_module(const std::string& ca_port, int lid, int module, bool json);
int show_ib_module(const std::string& ca_port, int lid, int module, bool json, DeviceOpener opener,
                   std::ostream& out, std::ostream& err, std::shared_ptr<drivers::Clock> clock = {});

}  // namespace xcvr::ib
