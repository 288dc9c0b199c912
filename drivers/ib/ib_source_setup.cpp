#include "drivers/ib/ib_source_setup.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "drivers/ib/front_panel.hpp"

namespace xcvr::ib {
namespace {

std::string hex_guid(uint64_t g) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(g));
  return buf;
}

MadPolicy policy_of(const IbSourceSettings& s) {
  MadPolicy p;
  p.timeout_ms = static_cast<int>(s.timeout_s * 1000 + 0.5);
  p.retries = s.retries;
  p.backoff_ns = static_cast<int64_t>(s.backoff_s * 1e9);
  p.backoff_max_ns = static_cast<int64_t>(s.backoff_max_s * 1e9);
  return p;
}

TargetOptions target_options(const IbSourceSettings& s) {
  TargetOptions t;
  t.access = parse_access_preference(s.access).value_or(AccessPreference::Auto);
  t.vs_key = s.vs_key;
  t.m_key = s.m_key;
  t.mcia_bytes = s.mcia_bytes;
  t.busy_retries = s.busy_retries;
  t.dead_after = s.dead_after;
  t.probe_interval_s = s.probe_interval_s;
  return t;
}

}  // namespace

std::optional<std::string> validate(const IbSourceSettings& s) {
  if (s.port < 1 || s.port > 255) return "port: " + std::to_string(s.port) + " is not a CA port number (1-255)";
  if (!s.shard.empty() && !parse_shard(s.shard)) return "shard: '" + s.shard + "' is not k/n with 1 <= k <= n";
  if (s.rate_limit < 0) return "rate_limit: must be >= 0 (0 = unlimited)";
  if (s.max_outstanding < 1 || s.max_outstanding > 16) return "max_outstanding: must be 1-16";
  if (s.timeout_s <= 0 || s.timeout_s > 60) return "timeout: must be in (0, 60] seconds";
  if (s.retries < 0 || s.retries > 10) return "retries: must be 0-10";
  if (s.backoff_s < 0 || s.backoff_max_s < s.backoff_s) return "backoff: must be >= 0 and <= backoff_max";
  if (s.dead_after < 1) return "dead_after: must be >= 1";
  if (s.probe_interval_s <= 0) return "probe_interval: must be > 0";
  if (!parse_access_preference(s.access)) return "access: '" + s.access + "' is not auto, class-a, gmp or smp";
  if (s.mcia_bytes != 0 && s.mcia_bytes != 48 && s.mcia_bytes != 128) return "mcia_bytes: must be 48 or 128";
  if (!s.local && !s.discover && s.targets.empty()) return "no targets: set local, discover or targets";
  if (s.ca == kEveryCa && (!s.local || s.discover || !s.targets.empty())) {
    return "ca = \"*\" polls each CA's own modules only: set local (the default) and no discover or targets "
           "(every CA would walk the same subnet; name one `ca` for that)";
  }
  for (const IbTargetSetting& t : s.targets) {
    if (t.lid == 0 && t.guid == 0) return "targets: each target needs a lid or a guid";
    if (t.lid >= 0xC000) return "targets: lid " + std::to_string(t.lid) + " is not a unicast LID";
    for (int m : t.modules) {
      if (m < 0 || m >= kMaxCage) {
        return "targets: cage " + std::to_string(cage_of_module(m)) + " is out of range (" + cage_range() + ")";
      }
    }
  }
  return std::nullopt;
}

std::variant<IbSource, drivers::Error> open_ib_source(const IbSourceSettings& settings, DeviceOpener opener,
                                                      std::shared_ptr<base::Clock> clock) {
  if (auto bad = validate(settings)) return drivers::Error{drivers::ErrorKind::Unsupported, *bad};
  if (!opener) opener = open_umad_device;
  if (!clock) clock = std::make_shared<base::SteadyClock>(true);
  std::string ca = settings.ca;
  int port = settings.port;
  if (ca.empty()) {
    for (const LocalPort& p : list_local_ports()) {
      if (is_infiniband(p.link_layer) && p.state == kPortStateActive) {
        ca = p.ca;
        port = p.port;
        break;
      }
    }
    if (ca.empty()) {
      return drivers::Error{drivers::ErrorKind::Absent,
                            "no active InfiniBand port found (libibumad sees none; set `ca` and `port`)"};
    }
  }
  const bool need_walk = settings.discover || std::any_of(settings.targets.begin(), settings.targets.end(),
                                                          [](const IbTargetSetting& t) { return t.lid == 0; });
  auto first = opener(ca, port, true);
  if (auto* e = std::get_if<drivers::Error>(&first)) return *e;
  IbSource out;
  out.clock = clock;
  auto limiter = std::make_shared<RateLimiter>(settings.rate_limit, settings.burst, *clock);
  auto walk_channel = std::make_shared<MadChannel>(std::move(std::get<std::unique_ptr<UmadDevice>>(first)), *clock,
                                                   limiter, policy_of(settings), "discovery");
  MadChannel& walk = *walk_channel;
  out.device = walk.device().describe();
  const uint16_t local_lid = walk.device().local_lid();

  std::map<uint64_t, DiscoveredNode> by_guid;
  if (need_walk) {
    DiscoveryOptions d;
    d.m_key = settings.m_key;
    d.local_port = static_cast<uint8_t>(port);
    auto nodes = discover_subnet(walk, d);
    if (auto* e = std::get_if<drivers::Error>(&nodes)) {
      e->message = out.device + ": subnet walk: " + e->message;
      return *e;
    }
    out.discovered = std::move(std::get<std::vector<DiscoveredNode>>(nodes));
    for (const DiscoveredNode& n : out.discovered) by_guid[n.guid] = n;
  }

  // Targets by LID; explicit ones override what the walk found.
  std::map<uint16_t, TargetSpec> targets;
  const TargetOptions base = target_options(settings);
  if (settings.local && local_lid != 0) {
    TargetSpec t;
    t.options = base;
    t.options.lid = local_lid;
    t.options.local_port = static_cast<uint8_t>(port);
    t.options.name = settings.local_name;
    targets[local_lid] = t;
  }
  if (settings.discover) {
    for (const DiscoveredNode& n : out.discovered) {
      if (n.node_type != kNodeTypeSwitch || n.lid == 0) continue;
      TargetSpec t;
      t.options = base;
      t.options.lid = n.lid;
      t.options.guid = n.guid;
      t.options.name = n.description;
      targets[n.lid] = t;
    }
  }
  for (const IbTargetSetting& s : settings.targets) {
    TargetSpec t;
    t.options = base;
    t.options.lid = s.lid;
    t.options.guid = s.guid;
    t.options.name = s.name;
    t.modules = s.modules;
    if (t.options.lid == 0) {
      const auto it = by_guid.find(s.guid);
      if (it == by_guid.end() || it->second.lid == 0) {
        return drivers::Error{drivers::ErrorKind::Absent, "target guid " + hex_guid(s.guid) + " is not in the subnet " +
                                                              out.device + " can reach"};
      }
      t.options.lid = it->second.lid;
      if (t.options.name.empty()) t.options.name = it->second.description;
    }
    targets[t.options.lid] = t;
  }

  std::vector<TargetSpec> list;
  for (auto& [lid, t] : targets) list.push_back(std::move(t));
  IbPortsOptions o;
  o.lanes_per_target = settings.max_outstanding;
  o.policy = policy_of(settings);
  o.rate_per_second = settings.rate_limit;
  o.burst = settings.burst;
  o.shard = settings.shard.empty() ? std::nullopt : parse_shard(settings.shard);
  o.domain_prefix = "ib:" + ca + "/" + std::to_string(port);
  if (settings.one_lane) o.shared_channel = walk_channel;
  // SMI agents where permitted: names (NodeDescription) and GUIDs (NodeInfo) come by SMP.
  const DeviceFactory factory = [&]() { return opener(ca, port, true); };
  auto built = build_ib_ports(std::move(list), factory, *clock, o);
  if (auto* e = std::get_if<drivers::Error>(&built)) return *e;
  out.ports = std::move(std::get<IbPorts>(built));
  return out;
}

}  // namespace xcvr::ib
