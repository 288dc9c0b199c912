// SMA attributes read by target resolution and subnet discovery: NodeInfo, PortInfo (the fields
// we use) and NodeDescription (IBA §14.2.5; offsets in mad_layout.hpp). Decoders accept any
// bytes (the emulated devices' encoders are in tests/support/ib/mad_encoders.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "drivers/ib/mad_layout.hpp"

namespace xcvr::ib {

struct NodeInfo {
  uint8_t node_type = 0;  // kNodeTypeCa, kNodeTypeSwitch
  uint8_t num_ports = 0;
  uint64_t system_guid = 0, node_guid = 0, port_guid = 0;
  uint16_t device_id = 0;
  uint8_t local_port = 0;
  uint32_t vendor_id = 0;  // 24 bits
};
std::optional<NodeInfo> decode_node_info(std::span<const uint8_t> data);

struct PortInfo {
  uint16_t lid = 0;
  uint16_t sm_lid = 0;
  uint8_t local_port = 0;
  uint8_t state = 0;  // 1 Down .. 4 Active
};
std::optional<PortInfo> decode_port_info(std::span<const uint8_t> data);

// The description up to its first NUL, control characters replaced by '?', trailing spaces
// trimmed; "" for none.
std::string decode_node_description(std::span<const uint8_t> data);

}  // namespace xcvr::ib
