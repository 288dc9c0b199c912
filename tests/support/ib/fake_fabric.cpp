#include "tests/support/ib/fake_fabric.hpp"

#include <algorithm>
#include <cerrno>

namespace xcvr::ib {

class FakeEndpoint final : public UmadDevice {
 public:
  FakeEndpoint(FakeFabric& fabric, FakeNode& local, bool smp) : fabric_(fabric), local_(local), smp_(smp) {}

  std::string describe() const override {
    return "emulated " + local_.config().description + " (LID " + std::to_string(local_.config().lid) + ")";
  }
  uint16_t local_lid() const override { return local_.config().lid; }
  bool smp_allowed() const override { return smp_; }

  int send(std::span<const uint8_t> mad, const MadAddress& to, int /*timeout_ms*/) override {
    if (mad.size() != kMadSize) return -EINVAL;
    const uint8_t cls = mad[kOffMgmtClass];
    if (!smp_ && (cls == kClassSmiLid || cls == kClassSmiDirected)) return -EPERM;
    int64_t extra = 0;
    auto reply = fabric_.deliver(local_, mad, to.lid, extra);
    if (reply) {
      const int64_t at = fabric_.clock().now_ns() + fabric_.latency_ns() + extra;
      // Replies arrive in order of their arrival time.
      auto it = std::upper_bound(queue_.begin(), queue_.end(), at,
                                 [](int64_t t, const Pending& p) { return t < p.at_ns; });
      queue_.insert(it, Pending{at, std::move(*reply)});
    }
    return 0;
  }

  int recv(std::span<uint8_t> mad, int timeout_ms, bool& unanswered) override {
    unanswered = false;
    base::Clock& clock = fabric_.clock();
    const int64_t now = clock.now_ns();
    const int64_t limit = now + static_cast<int64_t>(timeout_ms) * base::kMillisecond;
    if (queue_.empty() || queue_.front().at_ns > limit) {
      clock.spend(limit - now);
      return -ETIMEDOUT;
    }
    Pending p = std::move(queue_.front());
    queue_.pop_front();
    if (p.at_ns > now) clock.spend(p.at_ns - now);
    const std::size_t n = std::min(p.bytes.size(), mad.size());
    std::copy_n(p.bytes.begin(), n, mad.begin());
    return static_cast<int>(n);
  }

 private:
  struct Pending {
    int64_t at_ns;
    std::vector<uint8_t> bytes;
  };
  FakeFabric& fabric_;
  FakeNode& local_;
  bool smp_;
  std::deque<Pending> queue_;
};

FakeFabric::FakeFabric(base::Clock& clock, int64_t latency_ns) : clock_(clock), latency_ns_(latency_ns) {}

FakeNode& FakeFabric::add(FakeNodeConfig config) {
  nodes_.push_back(std::make_unique<FakeNode>(std::move(config), clock_));
  return *nodes_.back();
}

FakeNode& FakeFabric::add_quantum2(uint16_t lid, uint64_t guid, std::string description, int cages) {
  FakeNodeConfig c;
  c.description = std::move(description);
  c.guid = guid;
  c.lid = lid;
  c.node_type = kNodeTypeSwitch;
  c.num_ports = static_cast<uint8_t>(std::clamp(2 * cages, 64, 254));  // at least 64 switch ports
  c.device_id = 0xD2F2;  // Quantum-2 (MT54000)
  c.cages = cages;
  c.model = kQuantum2Model;
  return add(std::move(c));
}

FakeNode& FakeFabric::add_connectx7(uint16_t lid, uint64_t guid, std::string description) {
  FakeNodeConfig c;
  c.description = std::move(description);
  c.guid = guid;
  c.lid = lid;
  c.node_type = kNodeTypeCa;
  c.num_ports = 1;
  c.device_id = 0x1021;  // ConnectX-7 (MT4129)
  c.cages = 1;
  c.model = kConnectX7Model;
  return add(std::move(c));
}

void FakeFabric::connect(FakeNode& a, uint8_t port_a, FakeNode& b, uint8_t port_b) {
  a.link(port_a, &b, port_b);
  b.link(port_b, &a, port_a);
}

FakeNode* FakeFabric::by_lid(uint16_t lid) const {
  for (const auto& n : nodes_) {
    if (n->config().lid == lid && lid != 0) return n.get();
  }
  return nullptr;
}

std::unique_ptr<UmadDevice> FakeFabric::open(FakeNode& local, bool smp_allowed) {
  return std::make_unique<FakeEndpoint>(*this, local, smp_allowed);
}

std::optional<std::vector<uint8_t>> FakeFabric::deliver(FakeNode& local, std::span<const uint8_t> mad, uint16_t dlid,
                                                        int64_t& extra_latency_ns) {
  FakeNode* target = nullptr;
  uint8_t arrival = 1;
  if (mad[kOffMgmtClass] == kClassSmiDirected) {
    // Follow the initial path: byte 7 is the hop count, path[1..hops] the output ports.
    const uint8_t hops = mad[kOffClassSpecific + 1];
    target = &local;
    for (uint8_t i = 1; i <= hops && target != nullptr && i <= kDrMaxHops; ++i) {
      const FakeNode::Link l = target->link_at(mad[kOffDrInitialPath + i]);
      target = l.peer;
      arrival = l.peer_port;
    }
  } else {
    target = dlid == local.config().lid ? &local : by_lid(dlid);
  }
  if (target == nullptr) return std::nullopt;  // nobody there: the request is lost
  extra_latency_ns = target->extra_latency_ns();
  auto reply = target->handle(mad, arrival);
  if (reply && reply->size() >= kMadHeaderSize && mad[kOffMgmtClass] == kClassSmiDirected) {
    // Returning DR SMP: D bit set, hop pointer at the end of the path (IBA §14.2.2).
    const uint16_t status = be16(*reply, kOffStatus);
    put_be16(*reply, kOffStatus, static_cast<uint16_t>(status | kDrDirectionBit));
    (*reply)[kOffClassSpecific] = static_cast<uint8_t>(mad[kOffClassSpecific + 1] + 1);
  }
  return reply;
}

}  // namespace xcvr::ib
