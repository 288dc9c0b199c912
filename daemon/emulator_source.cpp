// The "emulator" source: an emulated fleet (drivers/emulator) described by a fleet TOML file.
#include "daemon/sources.hpp"

namespace xcvr::daemon {

std::optional<SourceError> add_emulator_source(const SourceConfig& s, BuiltSources&) {
  return SourceError{s.config_location + ": the emulator fleet loader is not wired yet"};
}

}  // namespace xcvr::daemon
