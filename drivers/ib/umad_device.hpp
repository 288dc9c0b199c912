// UmadDevice: the seam every MAD goes through — the calls libibumad offers (umad_send with a
// response timeout, umad_recv with a wait), one implementation on libibumad and one emulated
// for tests (tests/support/ib/fake_fabric.hpp). One UmadDevice serves one lane: a single
// thread sends and receives on it, so replies never need demultiplexing between threads (each
// lane opens its own umad file and agents; the kernel routes a response to the agent whose TID
// it carries).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "drivers/ib/mad_layout.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

struct MadAddress {
  uint16_t lid = 0;  // destination LID; kPermissiveLid for directed-route SMPs
  uint32_t qp = 1;   // QP0 for SMPs, QP1 for GMPs
  uint32_t qkey = kQp1Qkey;
  uint8_t sl = 0;
  uint16_t pkey_index = 0;
  // The right QP/QKey for a management class: SMPs go to QP0 (QKey 0), the rest to QP1.
  static MadAddress for_class(uint8_t mgmt_class, uint16_t lid);
};

class UmadDevice {
 public:
  virtual ~UmadDevice() = default;
  virtual std::string describe() const = 0;  // "mlx5_0:1 (LID 12)"
  virtual uint16_t local_lid() const = 0;
  virtual bool smp_allowed() const = 0;      // SMI agents registered (QP0 access)
  // Sends one 256-byte MAD; a response is expected within timeout_ms. 0, or -errno.
  virtual int send(std::span<const uint8_t> mad, const MadAddress& to, int timeout_ms) = 0;
  // Waits up to timeout_ms for one MAD: its length; -ETIMEDOUT when none came in time; or
  // -errno. `unanswered` is set when what came back is one of our own requests that got no
  // response (the kernel returns it with a timeout status).
  virtual int recv(std::span<uint8_t> mad, int timeout_ms, bool& unanswered) = 0;
};

// The local ports libibumad sees.
struct LocalPort {
  std::string ca;
  int port = 0;
  uint16_t lid = 0;
  uint16_t sm_lid = 0;
  uint64_t port_guid = 0;
  int state = 0;           // 4 = Active
  std::string link_layer;  // "InfiniBand" or "Ethernet"
};
std::vector<LocalPort> list_local_ports();
// An InfiniBand link layer as libibumad reports it: the kernel's "InfiniBand", or "IB", which
// libibumad puts where sysfs has no link_layer file (older kernels; ibsim's umad2sim).
bool is_infiniband(std::string_view link_layer);

// Opens `ca` port `port` through libibumad and registers agents for Class 0xA and, when
// `want_smp` and permitted, the SMI classes (0x01, 0x81). Errors are typed: Absent (no such CA
// or port, no ib_umad), Permission (EACCES/EPERM on /dev/infiniband/umadN), Unsupported (not an
// InfiniBand link layer), Busy (anything else).
std::variant<std::unique_ptr<UmadDevice>, drivers::Error> open_umad_device(const std::string& ca, int port,
                                                                          bool want_smp);

}  // namespace xcvr::ib
