#include "daemon/sources.hpp"

#include "drivers/dumpfile/file_transport.hpp"
#include "drivers/ethtool/ethtool_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::daemon {
namespace {

std::optional<SourceError> add_file_source(const SourceConfig& s, BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    auto opened = dumpfile::FileTransport::open(p.path);
    if (auto* err = std::get_if<drivers::Error>(&opened)) {
      return SourceError{p.config_location + ": port " + p.name + ": " + err->message};
    }
    out.ports.push_back({PortIdentity{p.name, "", "file", p.cage, {}},
                         std::move(std::get<std::unique_ptr<dumpfile::FileTransport>>(opened))});
  }
  return std::nullopt;
}

PortIdentity identity(const PortConfig& p, const std::string& source) {
  return PortIdentity{p.name, "", source, p.cage, {}};
}

void add_device_source(const SourceConfig& s, BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    std::unique_ptr<drivers::Transport> t;
    if (s.type == "i2c") {
      i2c::I2cPortConfig c;
      c.device = p.path;
      c.port = p.name;
      c.presence_file = p.presence_file;
      c.presence_active_low = p.presence_active_low;
      c.domain = p.domain;
      t = std::make_unique<i2c::I2cDevTransport>(c);
    } else if (s.type == "optoe") {
      optoe::OptoePortConfig c;
      c.path = p.path;
      c.port = p.name;
      c.domain = p.domain;
      t = std::make_unique<optoe::OptoeTransport>(c);
    } else {
      ethtool::EthtoolPortConfig c;
      c.netdev = p.netdev;
      c.port = p.name;
      c.domain = p.domain;
      t = std::make_unique<ethtool::EthtoolNetlinkTransport>(c);
    }
    out.ports.push_back({identity(p, s.type), std::move(t)});
  }
}

}  // namespace

std::optional<SourceError> add_emulator_source(const SourceConfig& s, BuiltSources& out);  // emulator_source.cpp
std::optional<SourceError> add_ib_source(const SourceConfig& s, BuiltSources& out);        // ib_source.cpp

std::variant<BuiltSources, SourceError> build_sources(const Config& config) {
  BuiltSources out;
  for (const SourceConfig& s : config.sources) {
    std::optional<SourceError> err;
    if (s.type == "file") {
      err = add_file_source(s, out);
    } else if (s.type == "emulator") {
      err = add_emulator_source(s, out);
    } else if (s.type == "i2c" || s.type == "optoe" || s.type == "netlink") {
      // Devices are opened lazily by their transports: a missing bus or module shows up as an
      // absent port and an error counter, not as a daemon that refuses to start.
      add_device_source(s, out);
    } else if (s.type == "ib") {
      // Opened now, unlike the device sources: the CA port, the subnet walk and each target's
      // probe decide which ports exist.
      err = add_ib_source(s, out);
    } else {
      err = SourceError{s.config_location + ": source type '" + s.type +
                        "' is not available in this build yet"};
    }
    if (err) return *err;
  }
  return out;
}

}  // namespace xcvr::daemon
