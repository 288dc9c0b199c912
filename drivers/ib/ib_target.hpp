// IbTarget: one device reached by MADs — a remote switch or a local HCA — shared by the lanes
// (MadChannels) that poll its modules. It owns what is learned about the device (which form of
// Access Register it answers, MCIA transfer size, module count, name) and the politeness that
// is per target: a count of MADs in flight (at most `max_outstanding`: the lanes), busy-status
// retries with backoff, and a breaker that fails fast while the device does not answer, probing
// it again every `probe_interval_s`, so a dead switch costs no MADs and stalls nothing.
// Thread-safe; no lock is held while a MAD is in flight.
#pragma once

#include <atomic>
#include <map>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/ib/mad_channel.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/registers.hpp"
#include "drivers/ib/smp_attributes.hpp"

namespace xcvr::ib {

enum class AccessPreference { Auto, ClassA, Gmp, Smp };
std::optional<AccessPreference> parse_access_preference(std::string_view text);  // auto|class-a|gmp|smp

struct TargetOptions {
  uint16_t lid = 0;
  uint64_t guid = 0;        // 0 until known
  std::string name;         // node description; ports are named "<name>/<cage>" (front_panel.hpp)
  AccessPreference access = AccessPreference::Auto;
  uint64_t vs_key = 0;      // Class 0xA / GMP vendor-specific key
  uint64_t m_key = 0;       // SMP M_Key
  int mcia_bytes = 0;       // 0: ask MCAM (bit 34: 128, else 48); or force 48 / 128
  int busy_retries = 3;     // a busy status is asked again this often, after backoff
  int dead_after = 2;       // consecutive unanswered transactions that open the breaker
  double probe_interval_s = 30;
  int max_outstanding = 2;  // MADs in flight to this target (= its lanes)
  uint8_t local_port = 1;   // an HCA target: its port whose module PMLP maps when MGPIR cannot
};

struct TargetStats {
  uint64_t mads = 0;            // transactions started (each may be re-sent by its channel)
  uint64_t busy = 0;            // busy statuses seen
  uint64_t failed_fast = 0;     // requests refused while the breaker was open
  uint64_t breaker_opens = 0;
  int max_in_flight = 0;        // the most MADs ever in flight to this target at once
  std::string method;           // access method in use
};

class IbTarget {
 public:
  IbTarget(TargetOptions options, base::Clock& clock);

  // Learns the device through `ch`: NodeInfo/NodeDescription (when SMPs are allowed and the
  // name or GUID is unknown), MCAM (MCIA size), MGPIR (module count; for an HCA without MGPIR,
  // PMLP of its port says which module it has). Unanswerable parts keep
  // conservative defaults (48-byte MCIA, Class 0xA); an error only if the device never answers.
  std::optional<drivers::Error> probe(MadChannel& ch);

  // A register query (or write) with the form in use, falling back to the other forms when
  // the device refuses one, retrying busy statuses, and guarded by the breaker.
  std::variant<std::vector<uint8_t>, drivers::Error> access_register(MadChannel& ch, uint16_t register_id,
                                                                     std::span<const uint8_t> image,
                                                                     uint8_t reg_method = kRegMethodQuery);
  // A LID-routed SMP Get of the device's SMA.
  std::variant<std::array<uint8_t, kSmpDataSize>, drivers::Error> smp_get(MadChannel& ch, uint16_t attr_id,
                                                                          uint32_t attr_mod);

  // A PMA Get (ClassPortInfo, PortCounters, PortCountersExtended) of `port`: its data.
  std::variant<std::array<uint8_t, kPmaDataSize>, drivers::Error> pma_get(MadChannel& ch, uint16_t attr_id,
                                                                          uint8_t port);
  // The PMA's ClassPortInfo, asked once and kept.
  std::variant<PmaCapabilities, drivers::Error> pma_capabilities(MadChannel& ch);
  // The IB ports `module` carries: for a switch, learned once from PMLP of every local port
  // (lane 0's module; twin-port cages carry two ports), in the order of the module lane each
  // starts at (front-panel order); for an HCA, its local port.
  std::variant<std::vector<uint8_t>, drivers::Error> ports_of_module(MadChannel& ch, uint8_t module);

  int mcia_bytes() const { return mcia_bytes_.load(); }
  void downgrade_mcia();  // a 128-byte MCIA was refused: use 48 from now on
  void note_busy();       // a busy status seen above this layer (MCIA I2C error)
  int module_count() const { return module_count_.load(); }
  // The modules to poll: 0..module_count-1, or the one PMLP mapped.
  std::vector<int> modules() const;
  uint8_t node_type() const { return node_type_.load(); }
  uint16_t lid() const { return options_.lid; }
  uint64_t guid() const;
  std::string name() const;  // node description, else "lid-<L>"
  const TargetOptions& options() const { return options_; }
  AccessMethod method() const;
  TargetStats stats() const;
  bool breaker_open() const;

 private:
  std::optional<drivers::Error> admit();            // breaker check; counts in-flight
  std::string name_locked() const;                  // name(), for callers holding mutex_
  void release(bool answered, bool transport_failure);
  std::variant<Mad, drivers::Error> exchange(MadChannel& ch, const Mad& request, const MadAddress& to,
                                             const std::string& what);
  std::vector<AccessMethod> methods_to_try(std::size_t register_size, uint8_t reg_method) const;

  TargetOptions options_;
  base::Clock& clock_;
  mutable std::mutex mutex_;
  AccessMethod method_ = AccessMethod::ClassA;
  std::optional<bool> gmp_advertised_;
  std::atomic<int> mcia_bytes_{static_cast<int>(kMciaLegacyData)};
  std::atomic<int> module_count_{0};
  std::atomic<int> pmlp_module_{-1};
  std::atomic<uint8_t> node_type_{0};
  std::atomic<uint8_t> num_ports_{0};
  std::optional<PmaCapabilities> pma_caps_;                   // guarded by mutex_
  std::optional<std::map<uint8_t, std::vector<uint8_t>>> module_ports_;  // guarded by mutex_
  std::string name_;
  uint64_t guid_ = 0;
  int in_flight_ = 0;
  int consecutive_unanswered_ = 0;
  int64_t breaker_until_ns_ = 0;
  bool breaker_open_ = false;
  TargetStats stats_;
};

}  // namespace xcvr::ib
