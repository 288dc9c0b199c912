// Encoders of the SMA and PMA attributes the product only decodes (drivers/ib/smp_attributes.hpp,
// drivers/ib/pma.hpp): what the emulated IB devices (fake_node.cpp) answer, and what the golden
// tests compare with libibmad. Test support only: check_separate.sh fails if a product library
// defines them.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "drivers/ib/mad_layout.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/smp_attributes.hpp"

namespace xcvr::ib {

std::array<uint8_t, kSmpDataSize> encode_node_info(const NodeInfo& n);
std::array<uint8_t, kSmpDataSize> encode_port_info(const PortInfo& p);
std::array<uint8_t, kSmpDataSize> encode_node_description(const std::string& text);

std::array<uint8_t, kPmaDataSize> encode_class_port_info(const PmaCapabilities& c);
// Values wider than the field are stored saturated (all ones), as a device's counter stops.
std::array<uint8_t, kPmaDataSize> encode_port_counters(const PortErrorCounters& c, uint8_t port_select);
std::array<uint8_t, kPmaDataSize> encode_port_counters_ext(const PortErrorCounters& c, uint8_t port_select);

}  // namespace xcvr::ib
