// PMA (performance management, class 0x04) attributes read for link health: ClassPortInfo
// (which counters the agent has), PortCounters (narrow error counters that saturate) and
// PortCountersExtended (64-bit error counters where CapabilityMask2 says so). Offsets in
// mad_layout.hpp; decoders accept any bytes (the emulated devices' encoders are in
// tests/support/ib/mad_encoders.hpp).
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

// Widths of the PortCounters error fields (IBA §16.1.3.5): their saturation values.
inline constexpr uint64_t kMax16 = 0xFFFF, kMax8 = 0xFF, kMax4 = 0xF;

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

// As link counters of `link` (the port number): a narrow counter at its maximum is marked
// saturated; `extended`: the 64-bit form (never saturated in practice).
std::vector<drivers::LinkCounter> to_link_counters(const PortErrorCounters& c, const std::string& link, bool extended);

}  // namespace xcvr::ib
