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

std::array<uint8_t, kSmpDataSize> encode_node_info(const NodeInfo& n) {
  std::array<uint8_t, kSmpDataSize> d{};
  d[0] = kBaseVersion;  // BaseVersion
  d[1] = kClassVersion; // ClassVersion (SMA)
  d[kNiNodeType] = n.node_type;
  d[kNiNumPorts] = n.num_ports;
  put_be64(d, kNiSystemGuid, n.system_guid);
  put_be64(d, kNiNodeGuid, n.node_guid);
  put_be64(d, kNiPortGuid, n.port_guid);
  put_be16(d, kNiDeviceId, n.device_id);
  d[kNiLocalPort] = n.local_port;
  d[kNiVendorId] = static_cast<uint8_t>(n.vendor_id >> 16);
  d[kNiVendorId + 1] = static_cast<uint8_t>(n.vendor_id >> 8);
  d[kNiVendorId + 2] = static_cast<uint8_t>(n.vendor_id);
  return d;
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

std::array<uint8_t, kSmpDataSize> encode_port_info(const PortInfo& p) {
  std::array<uint8_t, kSmpDataSize> d{};
  put_be16(d, kPiLid, p.lid);
  put_be16(d, kPiSmLid, p.sm_lid);
  d[kPiLocalPort] = p.local_port;
  d[kPiStateByte] = static_cast<uint8_t>(p.state & 0x0F);
  return d;
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

std::array<uint8_t, kSmpDataSize> encode_node_description(const std::string& text) {
  std::array<uint8_t, kSmpDataSize> d{};
  std::copy_n(text.begin(), std::min(text.size(), d.size()), d.begin());
  return d;
}

}  // namespace xcvr::ib
