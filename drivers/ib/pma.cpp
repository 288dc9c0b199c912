#include "drivers/ib/pma.hpp"

#include <algorithm>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {
namespace {

// Widths of the PortCounters error fields (IBA §16.1.3.5): their saturation values.
constexpr uint64_t kMax16 = 0xFFFF, kMax8 = 0xFF, kMax4 = 0xF;

}  // namespace

std::optional<PmaCapabilities> decode_class_port_info(std::span<const uint8_t> data) {
  if (data.size() < kCpiCapMask2 + 4) return std::nullopt;
  PmaCapabilities c;
  c.cap_mask = be16(data, kCpiCapMask);
  c.cap_mask2 = be32(data, kCpiCapMask2) >> kCpiCapMask2Shift;
  return c;
}

std::array<uint8_t, kPmaDataSize> encode_class_port_info(const PmaCapabilities& c) {
  std::array<uint8_t, kPmaDataSize> d{};
  d[0] = kBaseVersion;
  d[1] = kClassVersion;
  put_be16(d, kCpiCapMask, c.cap_mask);
  put_be32(d, kCpiCapMask2, c.cap_mask2 << kCpiCapMask2Shift);
  return d;
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
