// The "ib" source: modules of the local HCA and of remote InfiniBand switches, read with MCIA
// Access Register MADs (drivers/ib). Each switch is its own set of serialization domains (one
// per lane, `max_outstanding` per target), so switches poll in parallel and a slow or dead one
// holds up only its own ports. Ports are "<node description>/<module>" with `node` set.
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "daemon/sources.hpp"
#include "drivers/ib/ib_source_setup.hpp"
#include "drivers/ib/mad_layout.hpp"
#include "drivers/ib/umad_device.hpp"

namespace xcvr::daemon {
namespace {

// Keeps the source's clock, targets and rate limiter alive for its transports.
class IbResources final : public SourceResources {
 public:
  explicit IbResources(ib::IbSource source) : source_(std::move(source)) {}

 private:
  ib::IbSource source_;
};

std::string describe_ca(const ib::IbSourceSettings& s) {
  return s.ca.empty() ? std::string("first active CA port") : "CA " + s.ca + " port " + std::to_string(s.port);
}

}  // namespace

// The daemon-independent part is ib::open_ib_source; this maps its ports onto PortSpecs.
// `opener` empty = libibumad (tests pass an emulated fabric).
std::optional<SourceError> add_ib_source_settings(const ib::IbSourceSettings& settings, const std::string& location,
                                                  BuiltSources& out, ib::DeviceOpener opener = {},
                                                  std::shared_ptr<drivers::Clock> clock = {}) {
  auto opened = ib::open_ib_source(settings, std::move(opener), std::move(clock));
  if (auto* e = std::get_if<drivers::Error>(&opened)) {
    // Without InfiniBand hardware this is where a config with an `ib` source stops: say which
    // source and which CA, and what the host lacks.
    return SourceError{location + ": ib source (" + describe_ca(settings) + "): " + e->message};
  }
  ib::IbSource& src = std::get<ib::IbSource>(opened);
  for (const std::string& w : src.ports.warnings) spdlog::warn("{}: ib {}: {}", location, src.device, w);
  if (src.ports.skipped_by_shard > 0) {
    spdlog::info("{}: ib {}: {} targets belong to other shards ({})", location, src.device,
                 src.ports.skipped_by_shard, settings.shard);
  }
  spdlog::info("{}: ib {}: {} targets, {} modules", location, src.device, src.ports.targets.size(),
               src.ports.ports.size());
  for (ib::IbModulePort& p : src.ports.ports) {
    out.ports.push_back({PortIdentity{p.name, p.node, "ib", "", {}, {}}, std::move(p.transport)});
  }
  src.ports.ports.clear();
  out.resources.push_back(std::make_shared<IbResources>(std::move(src)));
  return std::nullopt;
}

// `ca = "*"`: each active InfiniBand port of the host as its own source of its own modules,
// named by the CA ("mlx5_0", "mlx5_0-p2" for a second port; node_exporter's infiniband
// `device`). The shipped config carries this source on every host, so a host without such a
// port, or a port the service may not open (no umad access), is a note — not an error, not a
// port: what was looked at and how to give access.
std::optional<SourceError> add_every_ca(const ib::IbSourceSettings& settings, const std::string& location,
                                        BuiltSources& out, const std::vector<ib::LocalPort>& host_ports,
                                        ib::DeviceOpener opener = {}, std::shared_ptr<drivers::Clock> clock = {}) {
  std::vector<std::string> found, skipped, refused;
  for (const ib::LocalPort& p : host_ports) {
    const std::string name = p.ca + (p.port == 1 ? "" : "-p" + std::to_string(p.port));
    if (!ib::is_infiniband(p.link_layer) || p.state != ib::kPortStateActive) {
      skipped.push_back(name + " (" + (ib::is_infiniband(p.link_layer) ? "not active" : p.link_layer) + ")");
      continue;
    }
    ib::IbSourceSettings one = settings;
    one.ca = p.ca;
    one.port = p.port;
    one.local_name = name;
    BuiltSources built;
    if (auto err = add_ib_source_settings(one, location, built, opener, clock)) {
      refused.push_back(err->message);
      continue;
    }
    for (PortSpec& port : built.ports) {
      found.push_back(port.id.port);
      out.ports.push_back(std::move(port));
    }
    out.resources.insert(out.resources.end(), built.resources.begin(), built.resources.end());
  }
  std::string note = location + ": ib discovery (every CA): " +
                     (found.empty() ? std::string("no module") : "ports " + fmt::format("{}", fmt::join(found, ", "))) +
                     "; InfiniBand CA ports looked at: " + std::to_string(host_ports.size());
  if (!skipped.empty()) note += "; skipped: " + fmt::format("{}", fmt::join(skipped, ", "));
  for (const std::string& r : refused) note += "; " + r;
  if (!refused.empty()) {
    note += ". To let the service open /dev/infiniband/umad*: the infiniband.conf drop-in and the udev rule "
            "(docs/installation.md, Drop-ins)";
  } else if (found.empty()) {
    note += ". On a host in InfiniBand mode (DGX): is ib_umad loaded, a port active? Fabric switches: an ib "
            "source with `discover` (docs/configuration.md)";
  }
  out.notes.push_back(std::move(note));
  return std::nullopt;
}

std::optional<SourceError> add_ib_source(const SourceConfig& s, BuiltSources& out) {
  const std::size_t first = out.ports.size();
  if (s.ib.ca == ib::kEveryCa) {
    if (auto bad = ib::validate(s.ib)) return SourceError{s.config_location + ": ib source: " + *bad};
    add_every_ca(s.ib, s.config_location, out, ib::list_local_ports());
  } else if (auto err = add_ib_source_settings(s.ib, s.config_location, out)) {
    return err;
  }
  // Which ports exist depends on the fabric and the shard: a [[source.module]] naming none of
  // them is worth a warning (another shard's port, a switch that is down), not a refusal.
  for (const std::string& p : apply_port_service(s, std::span<PortSpec>(out.ports).subspan(first))) {
    spdlog::warn("{}", p);
  }
  return std::nullopt;
}

}  // namespace xcvr::daemon
