// The settings of a `type = "ib"` source, as the config parser fills them. A plain struct with
// no dependencies, so daemon/config.hpp can hold one (`ib::IbSourceSettings ib;` in
// SourceConfig); validate() and open_ib_source() live in ib_source_setup.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xcvr::ib {

struct IbTargetSetting {
  uint16_t lid = 0;           // either lid
  uint64_t guid = 0;          // or guid (resolved by a subnet walk), or both
  std::string name;           // overrides the node description
  std::vector<int> modules;   // MCIA module numbers (config: `cages`, 1-based); empty: all (MGPIR)
};

// `ca = "*"`: every active InfiniBand port of every CA on this host, each its own source polling
// its own modules (local only), named by the CA (drivers/ib/ib_source.cpp).
inline constexpr const char* kEveryCa = "*";

// Keys of a `type = "ib"` source, with their defaults.
struct IbSourceSettings {
  std::string ca;                   // "mlx5_0"; "" = the first active InfiniBand port; kEveryCa
  int port = 1;
  bool local = true;                // poll the local HCA's own modules (its port LID)
  std::string local_name;           // the local target's name; "" = its node description
  bool discover = false;            // poll every switch a directed-route walk finds
  std::vector<IbTargetSetting> targets;
  std::string shard;                // "k/n": keep switches whose GUID hashes to shard k of n
  double rate_limit = 2000;         // MADs per second for this subnet (0 = unlimited)
  double burst = 32;
  int max_outstanding = 2;          // MADs in flight per target (poll threads per target)
  // Every target through one umad file, one lane and one poll thread (the discovery walk's):
  // for ibsim's umad2sim, which hands each management class to the file that registered it
  // last, and for small fabrics. max_outstanding is then 1 for the whole source.
  bool one_lane = false;
  double timeout_s = 0.1;           // response timeout per MAD
  int retries = 2;                  // re-sends after a timeout
  double backoff_s = 0.02;          // first re-send / busy backoff, doubling
  double backoff_max_s = 1;
  int busy_retries = 3;
  int dead_after = 2;               // unanswered transactions before a target is skipped
  double probe_interval_s = 30;     // how often a skipped target is tried again
  std::string access = "auto";      // auto | class-a | gmp | smp
  int mcia_bytes = 0;               // 0 = MCAM bit 34; or 48 / 128
  uint64_t vs_key = 0;              // vendor-specific key for Class 0xA / GMP
  uint64_t m_key = 0;               // M_Key for SMPs (discovery, names)
};

// The first problem with the settings ("shard: ..."), or nullopt.
std::optional<std::string> validate(const IbSourceSettings& s);

}  // namespace xcvr::ib
