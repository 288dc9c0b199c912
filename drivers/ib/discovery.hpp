// Subnet discovery by directed-route SMPs (as ibnetdiscover does, IBA §14.2.2): from the local
// port, NodeInfo at each hop; for a switch, PortInfo of every port and NodeInfo behind each
// active one; breadth first, each node once (by node GUID). Yields every switch and CA with
// its LID (switch: PortInfo of port 0; CA: PortInfo of the port we arrived on), GUID,
// description and the path that reaches it. Needs SMI agents (QP0 access).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "drivers/ib/mad_channel.hpp"
#include "drivers/ib/smp_attributes.hpp"

namespace xcvr::ib {

struct DiscoveredNode {
  uint64_t guid = 0;
  uint16_t lid = 0;
  uint8_t node_type = 0;
  uint8_t num_ports = 0;
  std::string description;
  std::vector<uint8_t> path;  // output ports from the local port ({} = the local node)
};

struct DiscoveryOptions {
  uint64_t m_key = 0;
  int max_nodes = 10000;
  int max_hops = kDrMaxHops;
  uint8_t local_port = 1;  // the local CA port the walk leaves from
};

// Every node reached, the local node first. Nodes that do not answer are left out (their
// subtree too); an error only when the local node cannot be read.
std::variant<std::vector<DiscoveredNode>, drivers::Error> discover_subnet(MadChannel& ch,
                                                                          const DiscoveryOptions& options = {});

}  // namespace xcvr::ib
