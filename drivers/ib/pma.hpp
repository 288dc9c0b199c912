// PMA (performance management, class 0x04) attributes read for link health: ClassPortInfo
// (which counters the agent has), PortCounters (narrow error counters that saturate) and
// PortCountersExtended (64-bit error counters where CapabilityMask2 says so). Offsets in
// mad_layout.hpp; decoders accept any bytes; encoders exist for the emulated devices.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "drivers/ib/mad_layout.hpp"
#include "drivers/link_health.hpp"

namespace xcvr::ib {

struct PmaCapabilities {
  uint16_t cap_mask = 0;
  uint32_t cap_mask2 = 0;  // 27 bits
  // PortCountersExtended carries the 64-bit error counters too.
  bool extended_error_counters() const {
    return (cap_mask & (kPmCapExtendedWidth | kPmCapExtendedWidthNoIetf)) != 0 &&
           (cap_mask2 & kPmCap2AdditionalExtCounters) != 0;
  }
};
std::optional<PmaCapabilities> decode_class_port_info(std::span<const uint8_t> data);
std::array<uint8_t, kPmaDataSize> encode_class_port_info(const PmaCapabilities& c);

// The error counters of one port, as wide as the attribute that carried them.
struct PortErrorCounters {
  uint64_t symbol_errors = 0;
  uint64_t link_error_recovery = 0;
  uint64_t link_downed = 0;
  uint64_t rcv_errors = 0;
  uint64_t local_link_integrity = 0;
  uint64_t excessive_buffer_overrun = 0;
};
// PortCounters (16/8/8/16/4/4 bits) and PortCountersExtended (64 bits each); nullopt if short.
std::optional<PortErrorCounters> decode_port_counters(std::span<const uint8_t> data);
std::optional<PortErrorCounters> decode_port_counters_ext(std::span<const uint8_t> data);
// Values wider than the field are stored saturated (all ones), as a device's counter stops.
std::array<uint8_t, kPmaDataSize> encode_port_counters(const PortErrorCounters& c, uint8_t port_select);
std::array<uint8_t, kPmaDataSize> encode_port_counters_ext(const PortErrorCounters& c, uint8_t port_select);

// As link counters of `link` (the port number): a narrow counter at its maximum is marked
// saturated; `extended`: the 64-bit form (never saturated in practice).
std::vector<drivers::LinkCounter> to_link_counters(const PortErrorCounters& c, const std::string& link, bool extended);

}  // namespace xcvr::ib
