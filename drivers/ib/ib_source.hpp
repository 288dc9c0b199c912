// The "ib" source: modules of the local HCA and of remote InfiniBand switches, read with MCIA
// Access Register MADs. Each switch is its own set of serialization domains (one per lane,
// `max_outstanding` per target), so switches poll in parallel and a slow or dead one holds up
// only its own ports. Ports are "<node description>/<module>" with `node` set. xcvrctl's
// --ib CA:PORT [--lid L] [--cage C] reads one module.
#pragma once

#include "drivers/ib/ib_settings.hpp"
#include "drivers/ib/ib_source_setup.hpp"
#include "drivers/ib/umad_device.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::ib {

struct IbSourceConfig final : drivers::SourceSettings {
  IbSourceSettings ib;  // CA port, targets, politeness, shard

  // Opened now, unlike the device sources: the CA port, the subnet walk and each target's probe
  // decide which ports exist.
  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::string fingerprint() const override;  // with `ca = "*"`: a CA port that came up or went down
  bool ports_vary() const override { return true; }
};

// The ports of one CA port's source. `opener` empty = libibumad (tests pass an emulated fabric).
std::optional<std::string> add_ib_ports(const IbSourceSettings& settings, const drivers::BuildContext& ctx,
                                        drivers::SourceBuild& out, DeviceOpener opener = {},
                                        std::shared_ptr<base::Clock> clock = {});

// `ca = "*"`: each active InfiniBand port of `host_ports` as its own source of its own modules,
// named by the CA ("mlx5_0", "mlx5_0-p2" for a second port). A host without such a port, or a
// port the service may not open, is a note — not an error, not a port.
void add_every_ca(const IbSourceSettings& settings, const drivers::BuildContext& ctx, drivers::SourceBuild& out,
                  const std::vector<LocalPort>& host_ports, DeviceOpener opener = {},
                  std::shared_ptr<base::Clock> clock = {});

extern const drivers::SourceKind kIbSource;

}  // namespace xcvr::ib
