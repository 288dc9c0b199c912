// The "emulator" source: an emulated fleet (a fleet TOML file, plus fault timelines) polled
// through the same engine and paged-access code as real buses. Its fault timeline runs on its
// own thread while the source lives.
#pragma once

#include "emulator/fleet.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::emulator {

struct EmulatorSource final : drivers::SourceSettings {
  std::string fleet;                    // fleet TOML path (resolved relative to the config file)
  ClockMode clock = ClockMode::Realtime;  // `clock`: "realtime" (sleeps wire time) or "wallclock"
  std::vector<std::string> scenarios;   // fault timeline files added to the fleet

  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::string fingerprint() const override;  // the fleet's and scenarios' bytes
};

extern const drivers::SourceKind kEmulatorSource;

}  // namespace xcvr::emulator
