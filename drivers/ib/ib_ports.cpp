#include "drivers/ib/ib_ports.hpp"

#include <charconv>
#include <cstdio>
#include <set>

#include "drivers/ib/front_panel.hpp"

namespace xcvr::ib {
namespace {

uint64_t splitmix64(uint64_t x) {  // Steele, Lea, Flood 2014: a fixed, well-mixed permutation
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::string target_key(const TargetOptions& t) {
  char buf[32];
  if (t.guid != 0) {
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(t.guid));
  } else {
    std::snprintf(buf, sizeof buf, "lid%u", t.lid);
  }
  return buf;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  Shard s;
  const auto a = text.substr(0, slash), b = text.substr(slash + 1);
  if (std::from_chars(a.data(), a.data() + a.size(), s.index).ptr != a.data() + a.size() || a.empty()) return std::nullopt;
  if (std::from_chars(b.data(), b.data() + b.size(), s.count).ptr != b.data() + b.size() || b.empty()) return std::nullopt;
  if (s.count < 1 || s.index < 1 || s.index > s.count) return std::nullopt;
  return s;
}

int shard_owner(uint64_t key, int count) {
  int best = 1;
  uint64_t best_score = 0;
  for (int i = 1; i <= count; ++i) {
    const uint64_t score = splitmix64(key ^ splitmix64(static_cast<uint64_t>(i)));
    if (i == 1 || score > best_score) {
      best = i;
      best_score = score;
    }
  }
  return best;
}

bool in_shard(uint64_t key, const Shard& shard) { return shard_owner(key, shard.count) == shard.index; }

std::variant<IbPorts, drivers::Error> build_ib_ports(std::vector<TargetSpec> targets, const DeviceFactory& factory,
                                                     base::Clock& clock, const IbPortsOptions& options) {
  IbPorts out;
  out.limiter = std::make_shared<RateLimiter>(options.rate_per_second, options.burst, clock);
  const int lanes = std::max(1, options.lanes_per_target);
  std::set<std::string> used_nodes;
  for (TargetSpec& spec : targets) {
    spec.options.max_outstanding = lanes;
    // With a GUID known from the config or discovery, shard before sending anything.
    if (options.shard && spec.options.guid != 0 && !in_shard(spec.options.guid, *options.shard)) {
      ++out.skipped_by_shard;
      continue;
    }
    auto target = std::make_shared<IbTarget>(spec.options, clock);
    std::vector<IbLane> lane_list;
    const std::string base = options.domain_prefix + ":" + target_key(spec.options);
    auto add_lane = [&]() -> std::optional<drivers::Error> {
      if (options.shared_channel) {
        if (!lane_list.empty()) return std::nullopt;
        lane_list.push_back(IbLane{options.shared_channel, options.domain_prefix + "#shared"});
        return std::nullopt;
      }
      auto dev = factory();
      if (auto* e = std::get_if<drivers::Error>(&dev)) return *e;
      const std::string name = base + "#" + std::to_string(lane_list.size());
      auto ch = std::make_shared<MadChannel>(std::move(std::get<std::unique_ptr<UmadDevice>>(dev)), clock,
                                             out.limiter, options.policy, name);
      lane_list.push_back(IbLane{std::move(ch), name});
      return std::nullopt;
    };
    if (auto e = add_lane()) return *e;
    const auto probed = target->probe(*lane_list.front().channel);
    if (options.shard && spec.options.guid == 0) {
      // Only a LID was configured: shard on the GUID the probe learned (LID if none).
      const uint64_t key = target->guid() != 0 ? target->guid() : 0xFFFF000000000000ULL | spec.options.lid;
      if (!in_shard(key, *options.shard)) {
        ++out.skipped_by_shard;
        continue;
      }
    }
    std::vector<int> modules = spec.modules;
    if (modules.empty()) {
      modules = target->modules();
      if (probed || modules.empty()) {
        out.warnings.push_back(target->name() + " (LID " + std::to_string(spec.options.lid) + "): skipped: " +
                               (probed ? probed->message : std::string("neither MGPIR nor PMLP names a module")));
        continue;
      }
    }
    // No more lanes than modules: a lane is an open umad file and a poll thread.
    const int used_lanes = options.shared_channel ? 1 : std::min<int>(lanes, static_cast<int>(modules.size()));
    while (!options.shared_channel && static_cast<int>(lane_list.size()) < used_lanes) {
      if (auto e = add_lane()) return *e;
    }
    // Port names must be unique; two switches may share a description (factory default).
    std::string node = target->name();
    if (!used_nodes.insert(node).second) {
      node += "@lid" + std::to_string(spec.options.lid);
      used_nodes.insert(node);
      out.warnings.push_back(target->name() + " (LID " + std::to_string(spec.options.lid) +
                             "): description already used by another target; named " + node);
    }
    for (int m : modules) {
      if (m < 0 || m > 255) continue;
      const IbLane& lane = lane_list[static_cast<std::size_t>(m % used_lanes)];
      const std::string name = module_port_name(node, m);
      out.ports.push_back({name, node, static_cast<uint8_t>(m),
                           std::make_unique<IbTransport>(target, lane, static_cast<uint8_t>(m), name)});
    }
    out.targets.push_back(std::move(target));
  }
  return out;
}

}  // namespace xcvr::ib
