// UmadDevice on libibumad (rdma-core 44, Debian libibumad-dev). API semantics from
// linux-rdma/rdma-core libibumad/man/umad_{open_port,register,send,recv}.3 (digest §5):
//   umad_send(..., timeout_ms > 0, retries) -> the kernel waits for the response and, on
//   expiry, returns the request on the read side with a non-zero status (ETIMEDOUT);
//   umad_recv returns the agent id, -ETIMEDOUT when nothing arrived in time, -ENOSPC if the
//   buffer is too small.
#include "drivers/ib/umad_device.hpp"

#include <infiniband/umad.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {

MadAddress MadAddress::for_class(uint8_t mgmt_class, uint16_t lid) {
  MadAddress a;
  a.lid = lid;
  if (mgmt_class == kClassSmiLid || mgmt_class == kClassSmiDirected) {
    a.qp = 0;
    a.qkey = 0;
    if (mgmt_class == kClassSmiDirected) a.lid = kPermissiveLid;
  }
  return a;
}

namespace {

std::once_flag g_umad_init;
int g_umad_init_rc = 0;

int ensure_umad() {
  std::call_once(g_umad_init, [] { g_umad_init_rc = umad_init(); });
  return g_umad_init_rc;
}

drivers::Error errno_error(int err, const std::string& what) {
  drivers::ErrnoContext context;
  context.opening = true;  // ENOENT, EINVAL, ENXIO: no such device or port on this host
  return drivers::errno_error(err, what, {}, context);
}

class LibUmadDevice final : public UmadDevice {
 public:
  LibUmadDevice(std::string ca, int port, int fd, uint16_t lid) : ca_(std::move(ca)), port_(port), fd_(fd), lid_(lid) {
    buffer_.resize(umad_size() + kMadSize);
  }
  ~LibUmadDevice() override {
    for (int agent : agents_) {
      if (agent >= 0) umad_unregister(fd_, agent);
    }
    umad_close_port(fd_);
  }

  std::optional<drivers::Error> register_agents(bool want_smp) {
    const int vendor = umad_register(fd_, kClassVendorA, kClassVersion, 0, nullptr);
    if (vendor < 0) return errno_error(-vendor, describe() + ": umad_register(class 0x0A)");
    agent_vendor_ = vendor;
    agents_.push_back(vendor);
    // PMA Gets for link health (PortCounters); a kernel that refuses the class leaves link
    // health unavailable, module reads unaffected.
    const int pma = umad_register(fd_, kClassPerfMgt, kClassVersion, 0, nullptr);
    if (pma >= 0) {
      agent_pma_ = pma;
      agents_.push_back(pma);
    }
    if (want_smp) {
      // QP0 agents need CAP_NET_ADMIN-equivalent access to the umad node; without them the
      // vendor class still works (as mstflint falls back to class 0xA only).
      const int lid_routed = umad_register(fd_, kClassSmiLid, kClassVersion, 0, nullptr);
      const int directed = umad_register(fd_, kClassSmiDirected, kClassVersion, 0, nullptr);
      if (lid_routed >= 0 && directed >= 0) {
        agent_smi_ = lid_routed;
        agent_dr_ = directed;
      }
      for (int a : {lid_routed, directed}) {
        if (a >= 0) agents_.push_back(a);
      }
    }
    return std::nullopt;
  }

  std::string describe() const override {
    return ca_ + ":" + std::to_string(port_) + " (LID " + std::to_string(lid_) + ")";
  }
  uint16_t local_lid() const override { return lid_; }
  bool smp_allowed() const override { return agent_smi_ >= 0 && agent_dr_ >= 0; }

  int send(std::span<const uint8_t> mad, const MadAddress& to, int timeout_ms) override {
    if (mad.size() != kMadSize) return -EINVAL;
    int agent = agent_vendor_;
    if (mad[kOffMgmtClass] == kClassSmiLid) agent = agent_smi_;
    if (mad[kOffMgmtClass] == kClassSmiDirected) agent = agent_dr_;
    if (mad[kOffMgmtClass] == kClassPerfMgt) agent = agent_pma_;
    if (agent < 0) return -EPERM;
    std::fill(buffer_.begin(), buffer_.end(), 0);
    void* umad = buffer_.data();
    umad_set_addr(umad, to.lid, static_cast<int>(to.qp), to.sl, static_cast<int>(to.qkey));
    umad_set_pkey(umad, to.pkey_index);
    std::memcpy(umad_get_mad(umad), mad.data(), kMadSize);
    // retries = 0: re-sending (with backoff and the subnet rate limit) is the MadChannel's job.
    errno = 0;
    const int rc = umad_send(fd_, agent, umad, static_cast<int>(kMadSize), timeout_ms, 0);
    if (rc >= 0) return 0;
    return errno != 0 ? -errno : rc;  // umad_send returns -EIO and leaves the cause in errno
  }

  int recv(std::span<uint8_t> mad, int timeout_ms, bool& unanswered) override {
    unanswered = false;
    int length = static_cast<int>(kMadSize);
    void* umad = buffer_.data();
    const int rc = umad_recv(fd_, umad, &length, timeout_ms);
    if (rc < 0) {
      const int err = -rc;  // umad_recv returns -errno
      return err == EWOULDBLOCK || err == EAGAIN ? -ETIMEDOUT : -err;
    }
    if (umad_status(umad) != 0) unanswered = true;  // our request, back without a response
    const auto n = static_cast<std::size_t>(std::clamp(length, 0, static_cast<int>(kMadSize)));
    const std::size_t copy = std::min(n, mad.size());
    std::memcpy(mad.data(), umad_get_mad(umad), copy);
    return static_cast<int>(copy);
  }

 private:
  std::string ca_;
  int port_;
  int fd_;
  uint16_t lid_;
  int agent_vendor_ = -1, agent_smi_ = -1, agent_dr_ = -1, agent_pma_ = -1;
  std::vector<int> agents_;
  std::vector<uint8_t> buffer_;
};

}  // namespace

bool is_infiniband(std::string_view link_layer) { return link_layer == "InfiniBand" || link_layer == "IB"; }

std::vector<LocalPort> list_local_ports() {
  std::vector<LocalPort> out;
  if (ensure_umad() < 0) return out;
  char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
  const int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
  for (int i = 0; i < n; ++i) {
    umad_ca_t ca{};
    if (umad_get_ca(names[i], &ca) < 0) continue;
    for (int p = 0; p < UMAD_CA_MAX_PORTS; ++p) {
      const umad_port_t* port = ca.ports[p];
      if (port == nullptr) continue;
      LocalPort lp;
      lp.ca = names[i];
      lp.port = port->portnum;
      lp.lid = static_cast<uint16_t>(port->base_lid);
      lp.sm_lid = static_cast<uint16_t>(port->sm_lid);
      lp.port_guid = be64(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&port->port_guid), 8), 0);
      lp.state = static_cast<int>(port->state);
      lp.link_layer = port->link_layer;
      out.push_back(lp);
    }
    umad_release_ca(&ca);
  }
  return out;
}

std::variant<std::unique_ptr<UmadDevice>, drivers::Error> open_umad_device(const std::string& ca, int port,
                                                                          bool want_smp) {
  const std::string what = "InfiniBand " + ca + ":" + std::to_string(port);
  if (ensure_umad() < 0) {
    return drivers::Error{drivers::ErrorKind::Absent,
                          what + ": libibumad found no umad ABI (is the ib_umad kernel module loaded?)"};
  }
  umad_port_t info{};
  if (const int rc = umad_get_port(ca.c_str(), port, &info); rc < 0) {
    const auto ports = list_local_ports();
    std::string known;
    for (const LocalPort& p : ports) known += (known.empty() ? "" : ", ") + p.ca + ":" + std::to_string(p.port);
    return drivers::Error{drivers::ErrorKind::Absent,
                          what + ": no such InfiniBand port (" + (known.empty() ? "no InfiniBand devices found" : "have " + known) + ")"};
  }
  const std::string link_layer = info.link_layer;
  const auto lid = static_cast<uint16_t>(info.base_lid);
  umad_release_port(&info);
  if (!link_layer.empty() && !is_infiniband(link_layer)) {
    return drivers::Error{drivers::ErrorKind::Unsupported, what + ": link layer is " + link_layer + ", not InfiniBand"};
  }
  const int fd = umad_open_port(ca.c_str(), port);
  if (fd < 0) return errno_error(-fd, what + ": umad_open_port");
  auto dev = std::make_unique<LibUmadDevice>(ca, port, fd, lid);
  if (auto err = dev->register_agents(want_smp)) return *err;
  return std::unique_ptr<UmadDevice>(std::move(dev));
}

}  // namespace xcvr::ib
