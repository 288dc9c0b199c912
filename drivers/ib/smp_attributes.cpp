#include "drivers/ib/smp_attributes.hpp"

#include <algorithm>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {

std::optional<NodeInfo> decode_node_info(std::span<const uint8_t> d) {
  if (d.size() < kNodeInfoSize) return std::nullopt;
  NodeInfo n;
  n.node_type = d[kNiNodeType];
  n.num_ports = d[kNiNumPorts];
  n.system_guid = be64(d, kNiSystemGuid);
  n.node_guid = be64(d, kNiNodeGuid);
  n.port_guid = be64(d, kNiPortGuid);
  n.device_id = be16(d, kNiDeviceId);
  n.local_port = d[kNiLocalPort];
  n.vendor_id = static_cast<uint32_t>(d[kNiVendorId]) << 16 | static_cast<uint32_t>(d[kNiVendorId + 1]) << 8 |
                d[kNiVendorId + 2];
  return n;
}

std::optional<PortInfo> decode_port_info(std::span<const uint8_t> d) {
  if (d.size() <= kPiStateByte) return std::nullopt;
  PortInfo p;
  p.lid = be16(d, kPiLid);
  p.sm_lid = be16(d, kPiSmLid);
  p.local_port = d[kPiLocalPort];
  p.state = d[kPiStateByte] & 0x0F;
  return p;
}

std::string decode_node_description(std::span<const uint8_t> d) {
  std::string out;
  for (std::size_t i = 0; i < d.size() && i < kNodeDescriptionSize && d[i] != 0; ++i) {
    const char c = static_cast<char>(d[i]);
    out += (d[i] < 0x20 || d[i] == 0x7F) ? '?' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace xcvr::ib
