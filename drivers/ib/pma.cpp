#include "drivers/ib/pma.hpp"

#include <algorithm>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {

std::optional<PmaCapabilities> decode_class_port_info(std::span<const uint8_t> data) {
  if (data.size() < kCpiCapMask2 + 4) return std::nullopt;
  PmaCapabilities c;
  c.cap_mask = be16(data, kCpiCapMask);
  c.cap_mask2 = be32(data, kCpiCapMask2) >> kCpiCapMask2Shift;
  return c;
}

std::optional<PortErrorCounters> decode_port_counters(std::span<const uint8_t> data) {
  if (data.size() <= kPcIntegrityOverrun) return std::nullopt;
  PortErrorCounters c;
  c.symbol_errors = be16(data, kPcSymbolErrors);
  c.link_error_recovery = data[kPcLinkErrorRecovery];
  c.link_downed = data[kPcLinkDowned];
  c.rcv_errors = be16(data, kPcRcvErrors);
  c.local_link_integrity = data[kPcIntegrityOverrun] >> 4;
  c.excessive_buffer_overrun = data[kPcIntegrityOverrun] & 0x0F;
  return c;
}

std::optional<PortErrorCounters> decode_port_counters_ext(std::span<const uint8_t> data) {
  if (data.size() < kPceExcessiveBufferOverrun + 8) return std::nullopt;
  PortErrorCounters c;
  c.symbol_errors = be64(data, kPceSymbolErrors);
  c.link_error_recovery = be64(data, kPceLinkErrorRecovery);
  c.link_downed = be64(data, kPceLinkDowned);
  c.rcv_errors = be64(data, kPceRcvErrors);
  c.local_link_integrity = be64(data, kPceLocalLinkIntegrity);
  c.excessive_buffer_overrun = be64(data, kPceExcessiveBufferOverrun);
  return c;
}

std::vector<drivers::LinkCounter> to_link_counters(const PortErrorCounters& c, const std::string& link, bool extended) {
  using drivers::LinkCounterId;
  const uint64_t wide = UINT64_MAX;
  const struct {
    LinkCounterId id;
    uint64_t value, max;
  } rows[] = {
      {LinkCounterId::SymbolErrors, c.symbol_errors, extended ? wide : kMax16},
      {LinkCounterId::LinkErrorRecovery, c.link_error_recovery, extended ? wide : kMax8},
      {LinkCounterId::LinkDowned, c.link_downed, extended ? wide : kMax8},
      {LinkCounterId::RcvErrors, c.rcv_errors, extended ? wide : kMax16},
      {LinkCounterId::LocalLinkIntegrityErrors, c.local_link_integrity, extended ? wide : kMax4},
      {LinkCounterId::ExcessiveBufferOverrunErrors, c.excessive_buffer_overrun, extended ? wide : kMax4},
  };
  std::vector<drivers::LinkCounter> out;
  out.reserve(std::size(rows));
  for (const auto& r : rows) out.push_back({r.id, link, 0, r.value, r.value >= r.max});
  return out;
}

}  // namespace xcvr::ib
