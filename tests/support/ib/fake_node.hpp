// FakeNode: the management firmware of an emulated InfiniBand device — a Quantum-2 switch with
// 32 twin-port OSFP cages or a ConnectX-7 HCA — answering MADs the way the layouts in
// mad_layout.hpp say real firmware does: Access Register in its three forms (Class 0xA + TLVs, GMP, SMP),
// GeneralInfo, and the SMA's NodeInfo / NodeDescription / PortInfo. Registers: MCIA (reads the
// cage's emulator module through its I2C register interface, writing only page select 127 or
// 126-127), PMAOS, MGPIR, MCAM, PMLP, PPCNT (group 0x16, physical layer statistics; group 0x23,
// RS-FEC histogram counts), PPHCR (the histogram's bins: RS(544,514), 16 bins 0..15 unless set).
// Faults: dead, dropped MADs, busy statuses, MCIA I2C errors, truncated or garbage replies,
// wrong-key silence, extra latency.
//
// Emulation choices where the sources say nothing (documented, not sourced): a vendor MAD or
// SMP with a wrong VS key / M_Key gets no reply (as SMA M_Key violations are dropped, IBA
// §14.2.4); an MCIA of a page the module does not have (page select reads back different)
// answers register status 7 (bad parameter); an MCIA that crosses byte 128 answers 7.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "emulator/module.hpp"
#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/registers.hpp"

namespace xcvr::ib {

struct FakeNodeConfig {
  std::string description;
  uint64_t guid = 0;
  uint16_t lid = 0;
  uint8_t node_type = kNodeTypeSwitch;
  uint8_t num_ports = 0;
  uint16_t device_id = 0;
  uint32_t vendor_id = 0x0002C9;  // Mellanox OUI (mstflint MELLANOX_OUI0)
  int cages = 0;
  std::string model;              // emulator catalog key put in every cage ("" = empty cages)
  bool mcia_128 = true;           // MCAM bit 34
  bool class_a = true;            // answers Access Register on Class 0xA
  bool gmp = true;                // answers AccessRegisterGMP (and advertises it in GeneralInfo)
  bool smp_access = true;         // answers Access Register as an SMP (registers <= 44 B)
  bool mgpir = true;              // supports MGPIR (older NIC firmware: no; PMLP maps the port)
  bool ppcnt = true;              // supports PPCNT's physical layer statistics group
  bool pphcr = true;              // supports PPHCR (the RS-FEC histogram's bins)
  bool rs_histogram = true;       // supports PPCNT's RS-FEC histogram group (0x23)
  // Added to a port's histogram counts at each group 0x23 read (a link taking errors as it runs).
  RsHistogramCounts rs_histogram_growth{};
  // A twin-port cage's local port 2m+1 on module lanes 4-7 and 2m+2 on 0-3 (local port numbers
  // need not follow the panel's order).
  bool twin_ports_reversed = false;
  uint64_t vs_key = 0;            // required VS key (0: none)
  uint64_t m_key = 0;             // required M_Key (0: none)
  // The PMA's ClassPortInfo: extended width (bit 9), no 64-bit error counters by default.
  PmaCapabilities pma{kPmCapExtendedWidth, 0};
};

enum class FakeBusy { MadStatus, RegisterStatus, McciaI2cError };
enum class FakeGarble { Truncated, Garbage, WrongTid, WrongRegister };

class FakeNode {
 public:
  FakeNode(FakeNodeConfig config, const base::Clock& clock);

  const FakeNodeConfig& config() const { return config_; }
  void set_mcia_128(bool on) {
    std::lock_guard lock(mutex_);
    config_.mcia_128 = on;
  }
  // One request in, the reply (or none). Thread-safe.
  // `arrival_port`: the port a directed-route SMP entered by (NodeInfo LocalPortNum).
  std::optional<std::vector<uint8_t>> handle(std::span<const uint8_t> request, uint8_t arrival_port = 1);

  // --- Cages ---
  void insert(int cage, std::shared_ptr<emulator::EmulatedModule> module);
  std::shared_ptr<emulator::EmulatedModule> remove(int cage);
  std::shared_ptr<emulator::EmulatedModule> module(int cage) const;
  template <typename Fn>
  void with_module(int cage, Fn&& fn) {
    std::lock_guard lock(mutex_);
    if (cage >= 0 && cage < static_cast<int>(cages_.size()) && cages_[static_cast<std::size_t>(cage)]) {
      fn(*cages_[static_cast<std::size_t>(cage)]);
    }
  }

  // --- PMA (link health): the error counters a port reports (PortCounters saturates them) ---
  void set_port_counters(uint8_t port, const PortErrorCounters& c);
  // --- PPCNT: a port's physical layer statistics (default: no errors, BER 15E-255) ---
  void set_phys_layer(uint8_t port, const PhysLayerStats& s);
  // --- PPHCR / PPCNT group 0x23: every port's bins (local_port is echoed), a port's counts ---
  void set_fec_bins(const Pphcr& bins);
  void set_rs_histogram(uint8_t port, const RsHistogramCounts& counts);
  uint64_t pma_mads() const;

  // --- Faults ---
  void set_dead(bool dead);
  void drop_next(int n);
  void busy_next(int n, FakeBusy kind);
  void garble_next(int n, FakeGarble kind);
  void set_extra_latency_ns(int64_t ns) { extra_latency_ns_ = ns; }
  int64_t extra_latency_ns() const { return extra_latency_ns_.load(); }

  // --- What it saw ---
  uint64_t mads() const;                  // every request received
  uint64_t mcia(int cage) const;          // MCIA requests for a cage (accepted ones)
  uint64_t mcia_lower() const;            // accepted MCIAs of lower memory (one per poll)
  uint64_t pmaos(int cage) const;
  uint64_t register_accesses(uint16_t register_id) const;
  uint64_t page_select_writes() const;
  std::size_t module_write_violations() const;  // invariant 1 across every cage

  // --- Links (directed-route discovery) ---
  struct Link {
    FakeNode* peer = nullptr;
    uint8_t peer_port = 0;
  };
  void link(uint8_t port, FakeNode* peer, uint8_t peer_port);
  Link link_at(uint8_t port) const;

 private:
  struct RegisterResult {
    std::vector<uint8_t> image;
    uint8_t reg_status = 0;
  };
  std::optional<std::vector<uint8_t>> answer(std::span<const uint8_t> request, uint8_t arrival_port);
  std::optional<std::vector<uint8_t>> access_register_tlv(const Mad& request, std::size_t tlv_at, std::size_t max);
  std::optional<std::vector<uint8_t>> access_register_gmp(const Mad& request);
  std::optional<std::vector<uint8_t>> sma(const Mad& request, uint8_t arrival_port);
  RegisterResult run_register(uint16_t id, std::span<const uint8_t> image);
  RegisterResult mcia(std::span<const uint8_t> image);
  static std::vector<uint8_t> response(const Mad& request, uint16_t status);
  std::optional<std::vector<uint8_t>> pma(const Mad& request);
  bool take(int& counter);

  FakeNodeConfig config_;
  const base::Clock& clock_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<emulator::EmulatedModule>> cages_;
  std::map<uint8_t, Link> links_;
  bool dead_ = false;
  int drop_ = 0;
  int busy_ = 0;
  FakeBusy busy_kind_ = FakeBusy::MadStatus;
  int garble_ = 0;
  FakeGarble garble_kind_ = FakeGarble::Truncated;
  std::atomic<int64_t> extra_latency_ns_{0};
  uint64_t mads_ = 0;
  uint64_t page_selects_ = 0;
  uint64_t mcia_lower_ = 0;
  std::vector<uint64_t> mcia_, pmaos_;
  std::map<uint16_t, uint64_t> registers_;
  std::map<uint8_t, PortErrorCounters> port_counters_;
  std::map<uint8_t, PhysLayerStats> phys_layer_;
  Pphcr fec_bins_;
  std::map<uint8_t, RsHistogramCounts> rs_histogram_;
  uint64_t pma_ = 0;
};

// The modules a FakeNode's cages start with: catalog model, power on, a per-cage seed.
std::shared_ptr<emulator::EmulatedModule> make_fake_module(const std::string& model_key, const base::Clock& clock,
                                                           uint64_t seed);

}  // namespace xcvr::ib
