#include "daemon/sources.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "cmis/decode.hpp"
#include "coding/coding.hpp"
#include "drivers/module_reader.hpp"

namespace xcvr::daemon {
namespace {

// What the config's listed ports claim, in every source: their names and devices. Discovery
// leaves those to them, so a hand-named port beside the shipped discovery source is not found
// twice.
std::set<std::string> claimed_by_listed_ports(const Config& config) {
  std::set<std::string> out;
  for (const SourceConfig& source : config.sources) {
    for (const PortConfig& p : source.ports) out.insert(p.name);
    for (const std::string& claim : source.settings->claims()) out.insert(claim);
  }
  return out;
}

// What decides whether a running source can be kept: its settings, and what its kind adds (the
// files it reads once, what its discovery would find now). Devices are read live, so their
// settings suffice.
std::string fingerprint(const SourceConfig& s) { return s.canonical + s.settings->fingerprint(); }

std::optional<SourceError> build_one(const SourceConfig& s, const std::set<std::string>& claimed, BuiltSources& out) {
  drivers::BuildContext ctx;
  ctx.location = s.config_location;
  ctx.claimed = &claimed;
  ctx.warn = [](const std::string& m) { spdlog::warn("{}", m); };
  ctx.info = [](const std::string& m) { spdlog::info("{}", m); };
  drivers::SourceBuild built;
  if (auto err = s.settings->build(ctx, built)) return SourceError{*err};
  std::vector<std::string> problems;
  for (PortSpec& p : port_specs(s, built, problems)) out.ports.push_back(std::move(p));
  // Ports a fabric or a shard decides: an entry naming none of them is another shard's port or
  // a switch that is down — worth a warning. A fixed set (a fleet file): a mistake.
  if (!problems.empty() && !s.settings->ports_vary()) return SourceError{problems.front()};
  for (const std::string& p : problems) spdlog::warn("{}", p);
  out.resources.insert(out.resources.end(), built.keep_alive.begin(), built.keep_alive.end());
  out.notes.insert(out.notes.end(), built.notes.begin(), built.notes.end());
  return std::nullopt;
}

}  // namespace

std::vector<PortSpec> port_specs(const SourceConfig& source, drivers::SourceBuild& built,
                                 std::vector<std::string>& problems) {
  std::vector<PortSpec> ports;
  for (drivers::MadePort& m : built.ports) {
    ports.push_back({PortIdentity{m.name, m.node, source.type, m.cage, {}, {}}, std::move(m.transport), m.discovered});
  }
  for (const PortConfig& c : source.ports) {
    const auto it = std::find_if(ports.begin(), ports.end(), [&](const PortSpec& p) { return p.id.port == c.name; });
    if (it == ports.end()) {
      problems.push_back(c.config_location + ": port '" + c.name + "': no such port in this " + source.type + " source");
      continue;
    }
    if (!c.cage.empty()) it->id.cage = c.cage;
    const int lanes = lanes_for_cage(it->id.cage);
    if (!c.service.unused_lanes.empty() && c.service.unused_lanes.back() > lanes) {
      problems.push_back(c.config_location + ": port '" + c.name + "': unused_lanes: lanes are 1-" +
                         std::to_string(lanes) + " on a " + it->id.cage + " port");
      continue;
    }
    it->id.service = c.service;
  }
  return ports;
}

std::size_t BuiltSources::port_count() const {
  std::size_t n = 0;
  for (const BuiltSource& s : sources) n += s.port_names.size();
  return sources.empty() ? ports.size() : n;
}

std::variant<BuiltSources, SourceError> build_sources(const Config& config, const BuiltSources* running) {
  BuiltSources out;
  std::vector<bool> claimed(running != nullptr ? running->sources.size() : 0, false);
  std::map<std::string, std::string> owner;  // port name -> location of the source defining it
  const std::set<std::string> listed = claimed_by_listed_ports(config);
  for (const SourceConfig& s : config.sources) {
    BuiltSource record;
    record.fingerprint = fingerprint(s);
    for (std::size_t i = 0; i < claimed.size(); ++i) {
      if (!claimed[i] && running->sources[i].fingerprint == record.fingerprint) {
        claimed[i] = true;
        record.port_names = running->sources[i].port_names;
        record.resources = running->sources[i].resources;
        record.reused = true;
        break;
      }
    }
    if (!record.reused) {
      BuiltSources one;
      if (auto err = build_one(s, listed, one)) return *err;
      for (const PortSpec& p : one.ports) record.port_names.push_back(p.id.port);
      record.resources = one.resources;
      for (PortSpec& p : one.ports) out.ports.push_back(std::move(p));
      out.notes.insert(out.notes.end(), one.notes.begin(), one.notes.end());
    }
    for (const std::string& name : record.port_names) {
      auto [it, fresh] = owner.emplace(name, s.config_location);
      if (!fresh) {
        return SourceError{s.config_location + ": port '" + name + "' is also defined by the source at " + it->second +
                           "; port names must be unique across sources"};
      }
    }
    out.resources.insert(out.resources.end(), record.resources.begin(), record.resources.end());
    out.sources.push_back(std::move(record));
  }
  return out;
}

std::vector<std::string> replayed_duplicate_serials(const std::vector<PortSpec>& ports) {
  std::vector<coding::FleetPort> replayed;
  for (const PortSpec& p : ports) {
    if (p.id.source != "file") continue;
    cmis::ModuleImage image;
    drivers::UnreachablePages unreachable;
    if (drivers::read_static(*p.transport, image, unreachable, {}).error) continue;  // the daemon says why
    replayed.push_back({p.id.port, std::make_shared<const cmis::ModuleReport>(cmis::decode(image))});
  }
  std::vector<std::string> out;
  for (const coding::SerialGroup& group : coding::duplicate_serials(replayed)) {
    out.push_back(coding::describe_duplicate(group) + ": each would be flagged serial_duplicate");
  }
  return out;
}

}  // namespace xcvr::daemon
