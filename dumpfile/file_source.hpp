// The "file" source: dump files replayed as modules (`[[source.port]] path = "…"`), and
// xcvrctl's --file (a path, or - for standard input).
#pragma once

#include "drivers/source_kind.hpp"

namespace xcvr::dumpfile {

struct FileSource final : drivers::SourceSettings {
  struct Port {
    std::string name, path, location;
  };
  std::vector<Port> ports;

  std::optional<std::string> build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const override;
  std::string fingerprint() const override;  // the dumps' bytes: an edited dump is read again
  std::vector<std::string> claims() const override;
};

extern const drivers::SourceKind kFileSource;

}  // namespace xcvr::dumpfile
