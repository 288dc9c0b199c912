#include "daemon/sources.hpp"

#include <algorithm>

#include "drivers/dumpfile/file_transport.hpp"
#include "drivers/ethtool/ethtool_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::daemon {
namespace {

PortIdentity identity(const PortConfig& p, const std::string& source) {
  return PortIdentity{p.name, "", source, p.cage, {}, p.service};
}

std::optional<SourceError> add_file_source(const SourceConfig& s, BuiltSources& out) {
  for (const PortConfig& p : s.ports) {
    auto opened = dumpfile::FileTransport::open(p.path);
    if (auto* err = std::get_if<drivers::Error>(&opened)) {
      return SourceError{p.config_location + ": port " + p.name + ": " + err->message};
    }
    out.ports.push_back({identity(p, "file"),
                         std::move(std::get<std::unique_ptr<dumpfile::FileTransport>>(opened))});
  }
  return std::nullopt;
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

std::vector<std::string> apply_port_service(const SourceConfig& source, std::span<PortSpec> ports) {
  std::vector<std::string> problems;
  for (const PortConfig& c : source.ports) {
    const auto it = std::find_if(ports.begin(), ports.end(), [&](const PortSpec& p) { return p.id.port == c.name; });
    if (it == ports.end()) {
      problems.push_back(c.config_location + ": port '" + c.name + "': no such port in this " + source.type + " source");
      continue;
    }
    const int lanes = lanes_for_cage(it->id.cage);
    if (!c.service.unused_lanes.empty() && c.service.unused_lanes.back() > lanes) {
      problems.push_back(c.config_location + ": port '" + c.name + "': unused_lanes: lanes are 1-" +
                         std::to_string(lanes) + " on a " + it->id.cage + " port");
      continue;
    }
    it->id.service = c.service;
  }
  return problems;
}

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
