// FakeFabric: emulated InfiniBand subnet behind the UmadDevice seam. Nodes are FakeNodes
// addressed by LID (directed-route SMPs follow the links from the local node); each endpoint
// (what open_umad_device returns in production) delivers a request to its node and queues the
// reply to arrive one per-MAD latency later on the clock. recv() lets that time pass on the
// clock (VirtualClock / DesClock: no real waiting), or the response timeout when nothing comes.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "tests/support/ib/fake_node.hpp"
#include "drivers/ib/umad_device.hpp"

namespace xcvr::ib {

inline constexpr const char* kQuantum2Model = "osfp-800g-2xsr4-finned";
inline constexpr const char* kConnectX7Model = "osfp-400g-sr4-flat";
inline constexpr unsigned kQuantum2Cages = 32;  // a QM9700/QM9790's OSFP cages

class FakeFabric {
 public:
  explicit FakeFabric(base::Clock& clock, int64_t latency_ns = 200 * base::kMicrosecond);

  FakeNode& add(FakeNodeConfig config);
  // NVIDIA Quantum-2 (device id 0xd2f2): `cages` OSFP cages of twin-port 800G finned-top SR8
  // modules, two IB ports per cage.
  FakeNode& add_quantum2(uint16_t lid, uint64_t guid, std::string description, int cages = kQuantum2Cages);
  // NVIDIA ConnectX-7 (device id 0x1021), one port, one OSFP flat-top 400G SR4 module.
  FakeNode& add_connectx7(uint16_t lid, uint64_t guid, std::string description);
  void connect(FakeNode& a, uint8_t port_a, FakeNode& b, uint8_t port_b);

  FakeNode* by_lid(uint16_t lid) const;
  const std::vector<std::unique_ptr<FakeNode>>& nodes() const { return nodes_; }

  // A umad port on `local` (an HCA). `smp_allowed`: whether QP0 agents could be registered.
  std::unique_ptr<UmadDevice> open(FakeNode& local, bool smp_allowed = true);

  void set_latency_ns(int64_t ns) { latency_ns_ = ns; }
  int64_t latency_ns() const { return latency_ns_; }
  base::Clock& clock() const { return clock_; }

 private:
  friend class FakeEndpoint;
  // Delivers a request from `local`: the reply bytes (if any) and which node answered.
  std::optional<std::vector<uint8_t>> deliver(FakeNode& local, std::span<const uint8_t> mad, uint16_t dlid,
                                              int64_t& extra_latency_ns);

  base::Clock& clock_;
  int64_t latency_ns_;
  std::vector<std::unique_ptr<FakeNode>> nodes_;
};

}  // namespace xcvr::ib
