// From configured targets to ports: one IbTarget per device, `lanes` MadChannels per target
// (each on its own UmadDevice), one IbTransport per module named "<node description>/<cage>",
// and the sharding that lets n exporter instances split one fabric with no module polled twice.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "drivers/ib/ib_transport.hpp"

namespace xcvr::ib {

// "k/n": this instance is shard k of n (1 <= k <= n).
struct Shard {
  int index = 1;  // k
  int count = 1;  // n
};
std::optional<Shard> parse_shard(std::string_view text);
// Which shard owns `key` (a node GUID): rendezvous hashing — deterministic on every instance
// and version, balanced, and growing n to n+1 moves only ~1/(n+1) of the switches.
int shard_owner(uint64_t key, int count);  // 1-based
bool in_shard(uint64_t key, const Shard& shard);

struct TargetSpec {
  TargetOptions options;
  std::vector<int> modules;  // MCIA module numbers; empty: every module MGPIR reports
};

struct IbPortsOptions {
  int lanes_per_target = 2;           // max MADs in flight per target
  MadPolicy policy;
  double rate_per_second = 2000;      // per-subnet MAD rate limit (0: none)
  double burst = 32;
  std::optional<Shard> shard;         // keep only targets this instance owns
  std::string domain_prefix = "ib";
  // When set, every target uses this one channel as its only lane (IbSourceSettings::one_lane).
  std::shared_ptr<MadChannel> shared_channel;
};

using DeviceFactory = std::function<std::variant<std::unique_ptr<UmadDevice>, drivers::Error>()>;

struct IbModulePort {
  std::string name;  // "<node description>/<cage>" (front_panel.hpp)
  std::string node;  // the node description (metrics label `node`)
  uint8_t module = 0;
  std::unique_ptr<IbTransport> transport;
};

struct IbPorts {
  std::vector<IbModulePort> ports;
  std::vector<std::shared_ptr<IbTarget>> targets;
  std::shared_ptr<RateLimiter> limiter;
  std::vector<std::string> warnings;  // targets skipped and why
  int skipped_by_shard = 0;
};

// Opens `lanes_per_target` devices per target through `factory`, probes each target (name,
// GUID, MCIA size, module count) and builds its ports. A target that does not answer its
// probe is skipped with a warning unless its modules are listed; a factory error is fatal.
std::variant<IbPorts, drivers::Error> build_ib_ports(std::vector<TargetSpec> targets, const DeviceFactory& factory,
                                                     base::Clock& clock, const IbPortsOptions& options);

}  // namespace xcvr::ib
