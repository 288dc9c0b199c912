#include "drivers/ib/discovery.hpp"

#include <deque>
#include <set>

namespace xcvr::ib {
namespace {

using Data = std::array<uint8_t, kSmpDataSize>;

std::variant<Data, drivers::Error> dr_get(MadChannel& ch, uint16_t attr, uint32_t mod, const std::vector<uint8_t>& path,
                                          uint64_t m_key) {
  const auto mad = encode_dr_smp_get(attr, mod, 0, m_key, path);
  if (!mad) return drivers::Error{drivers::ErrorKind::Unsupported, "path longer than 63 hops"};
  auto r = ch.transact(*mad, MadAddress::for_class(kClassSmiDirected, kPermissiveLid), "discovery");
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  auto parsed = parse_smp_reply(std::get<Mad>(r), kClassSmiDirected, attr, ch.last_tid());
  if (auto* e = std::get_if<ReplyError>(&parsed)) return drivers::Error{e->kind, e->message};
  return std::get<Data>(parsed);
}

}  // namespace

std::variant<std::vector<DiscoveredNode>, drivers::Error> discover_subnet(MadChannel& ch, const DiscoveryOptions& o) {
  if (!ch.device().smp_allowed()) {
    return drivers::Error{drivers::ErrorKind::Permission,
                          "subnet discovery needs SMI (QP0) access on " + ch.device().describe()};
  }
  std::vector<DiscoveredNode> out;
  std::set<uint64_t> seen;
  struct Visit {
    std::vector<uint8_t> path;
  };
  std::deque<Visit> queue{{{}}};
  while (!queue.empty() && static_cast<int>(out.size()) < o.max_nodes) {
    Visit v = std::move(queue.front());
    queue.pop_front();
    auto ni_data = dr_get(ch, kAttrNodeInfo, 0, v.path, o.m_key);
    if (auto* e = std::get_if<drivers::Error>(&ni_data)) {
      if (v.path.empty()) return *e;
      continue;  // a node that does not answer: leave it (and what is behind it) out
    }
    const auto ni = decode_node_info(std::get<Data>(ni_data));
    if (!ni || !seen.insert(ni->node_guid).second) continue;
    DiscoveredNode node;
    node.guid = ni->node_guid;
    node.node_type = ni->node_type;
    node.num_ports = ni->num_ports;
    node.path = v.path;
    if (auto nd = dr_get(ch, kAttrNodeDescription, 0, v.path, o.m_key); std::holds_alternative<Data>(nd)) {
      node.description = decode_node_description(std::get<Data>(nd));
    }
    // A switch answers for its LID on port 0; a CA on the port we reached it through.
    const uint8_t lid_port = ni->node_type == kNodeTypeSwitch ? 0 : (v.path.empty() ? o.local_port : ni->local_port);
    if (auto pi = dr_get(ch, kAttrPortInfo, lid_port, v.path, o.m_key); std::holds_alternative<Data>(pi)) {
      if (auto p = decode_port_info(std::get<Data>(pi))) node.lid = p->lid;
    }
    out.push_back(node);
    if (static_cast<int>(v.path.size()) >= o.max_hops) continue;
    if (v.path.empty() && ni->node_type != kNodeTypeSwitch) {
      queue.push_back({std::vector<uint8_t>{o.local_port}});
      continue;
    }
    if (ni->node_type != kNodeTypeSwitch) continue;  // CAs do not forward
    for (uint8_t port = 1; port <= ni->num_ports && port != 0; ++port) {
      if (!v.path.empty() && port == ni->local_port) continue;  // where we came from
      auto pi = dr_get(ch, kAttrPortInfo, port, v.path, o.m_key);
      if (!std::holds_alternative<Data>(pi)) continue;
      const auto p = decode_port_info(std::get<Data>(pi));
      if (!p || p->state < 2) continue;  // Down: nothing behind it
      std::vector<uint8_t> next = v.path;
      next.push_back(port);
      queue.push_back({std::move(next)});
    }
  }
  return out;
}

}  // namespace xcvr::ib
