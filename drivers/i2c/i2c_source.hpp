// The "i2c" source: cages on Linux i2c-dev buses (`[[source.port]] bus = "/dev/i2c-N"`, with
// the transport's address, presence, domain, restore_page0 and lock_timeout_ms), and xcvrctl's
// --i2c/--address.
#pragma once

#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::i2c {

struct I2cSource final : drivers::SourceSettings {
  std::vector<I2cPortConfig> ports;  // every transport setting, from the port's keys

  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::vector<std::string> claims() const override;
};

extern const drivers::SourceKind kI2cSource;

}  // namespace xcvr::i2c
