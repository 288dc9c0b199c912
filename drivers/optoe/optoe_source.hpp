// The "optoe" source: module eeproms the kernel exposes in sysfs (optoe, sx_core, at24), listed
// (`[[source.port]] path = "…"`) or found (`discover`), and xcvrctl's --optoe.
#pragma once

#include "drivers/optoe/optoe_transport.hpp"
#include "drivers/optoe/sonic_port_map.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::optoe {

struct OptoeSource final : drivers::SourceSettings {
  std::vector<OptoePortConfig> ports;
  drivers::Discovery discovery;
  // i2c client driver names whose `eeprom` file is a module's memory (`drivers`); empty:
  // optoe's own (kOptoeDrivers).
  std::vector<std::string> drivers;
  // SONiC's port_config.ini / platform.json naming front-panel ports (`sonic_port_map`): "" =
  // where SONiC keeps it (sonic_port_map_candidates), "none" = never.
  std::string sonic_port_map;

  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::string fingerprint() const override;  // an optoe device instantiated since
  std::vector<std::string> claims() const override;
  bool discovers() const override { return discovery.discover; }

 private:
  const std::vector<std::string>& eeprom_drivers() const;
  SonicMapLookup find_port_map(const std::string& location) const;
  EepromDiscovery discover(const SonicMapLookup& sonic) const;
};

extern const drivers::SourceKind kOptoeSource;

}  // namespace xcvr::optoe
