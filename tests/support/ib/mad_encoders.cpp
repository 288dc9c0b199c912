#include "tests/support/ib/mad_encoders.hpp"

#include <algorithm>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {

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

std::array<uint8_t, kSmpDataSize> encode_port_info(const PortInfo& p) {
  std::array<uint8_t, kSmpDataSize> d{};
  put_be16(d, kPiLid, p.lid);
  put_be16(d, kPiSmLid, p.sm_lid);
  d[kPiLocalPort] = p.local_port;
  d[kPiStateByte] = static_cast<uint8_t>(p.state & 0x0F);
  return d;
}

std::array<uint8_t, kSmpDataSize> encode_node_description(const std::string& text) {
  std::array<uint8_t, kSmpDataSize> d{};
  std::copy_n(text.begin(), std::min(text.size(), d.size()), d.begin());
  return d;
}

std::array<uint8_t, kPmaDataSize> encode_class_port_info(const PmaCapabilities& c) {
  std::array<uint8_t, kPmaDataSize> d{};
  d[0] = kBaseVersion;
  d[1] = kClassVersion;
  put_be16(d, kCpiCapMask, c.cap_mask);
  put_be32(d, kCpiCapMask2, c.cap_mask2 << kCpiCapMask2Shift);
  return d;
}

std::array<uint8_t, kPmaDataSize> encode_port_counters(const PortErrorCounters& c, uint8_t port_select) {
  std::array<uint8_t, kPmaDataSize> d{};
  d[kPcPortSelect] = port_select;
  put_be16(d, kPcSymbolErrors, static_cast<uint16_t>(std::min(c.symbol_errors, kMax16)));
  d[kPcLinkErrorRecovery] = static_cast<uint8_t>(std::min(c.link_error_recovery, kMax8));
  d[kPcLinkDowned] = static_cast<uint8_t>(std::min(c.link_downed, kMax8));
  put_be16(d, kPcRcvErrors, static_cast<uint16_t>(std::min(c.rcv_errors, kMax16)));
  d[kPcIntegrityOverrun] = static_cast<uint8_t>(std::min(c.local_link_integrity, kMax4) << 4 |
                                                std::min(c.excessive_buffer_overrun, kMax4));
  return d;
}

std::array<uint8_t, kPmaDataSize> encode_port_counters_ext(const PortErrorCounters& c, uint8_t port_select) {
  std::array<uint8_t, kPmaDataSize> d{};
  d[kPcPortSelect] = port_select;
  put_be64(d, kPceSymbolErrors, c.symbol_errors);
  put_be64(d, kPceLinkErrorRecovery, c.link_error_recovery);
  put_be64(d, kPceLinkDowned, c.link_downed);
  put_be64(d, kPceRcvErrors, c.rcv_errors);
  put_be64(d, kPceLocalLinkIntegrity, c.local_link_integrity);
  put_be64(d, kPceExcessiveBufferOverrun, c.excessive_buffer_overrun);
  return d;
}

}  // namespace xcvr::ib
