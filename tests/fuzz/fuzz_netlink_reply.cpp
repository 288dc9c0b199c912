// libFuzzer target: the ethtool transport's netlink parsers over hostile kernel replies. The
// input is one recv() buffer; the first byte decides whether a sequence number is expected.
// Any crash, hang, out-of-bounds read or a data attribute longer than 128 bytes fails; the link
// health parsers (FEC statistics, link state) never return more than a total and 8 lanes, nor
// a histogram bin out of order or out of an RS codeword's range; the
// rtnetlink link parser (carrier) never returns an empty or over-long interface name, and its
// timeline stays consistent whatever order the messages come in.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>

#include "drivers/carrier_timeline.hpp"
#include "drivers/netlink/carrier.hpp"
#include "drivers/netlink/netlink_link.hpp"
#include "drivers/netlink/netlink_reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::optional<uint32_t> seq =
      (data[0] & 1) != 0 ? std::optional<uint32_t>(data[0] >> 1) : std::nullopt;
  const std::span<const uint8_t> bytes(data + 1, size - 1);

  const auto eeprom = xcvr::netlink::parse_module_eeprom_reply(bytes, seq);
  if (const auto* r = std::get_if<xcvr::netlink::ModuleEepromReply>(&eeprom)) {
    if (r->data.size() > 128) std::abort();
    if (!r->has_data && !r->data.empty()) std::abort();
  } else if (std::get<xcvr::drivers::Error>(eeprom).message.empty()) {
    std::abort();  // every error names what was wrong
  }
  (void)xcvr::netlink::parse_family_reply(bytes, seq);
  (void)xcvr::netlink::parse_module_eeprom_request(bytes);

  const auto fec = xcvr::netlink::parse_fec_reply(bytes, seq);
  const auto state = xcvr::netlink::parse_linkstate_reply(bytes, seq);
  if (const auto* f = std::get_if<xcvr::netlink::FecStatsReply>(&fec)) {
    for (const auto* v : {&f->corrected, &f->uncorrectable, &f->corrected_bits}) {
      if (v->size() > 9) std::abort();
    }
    // Histogram bins: bounded, ascending, not overlapping, at most 8 lanes each.
    if (f->histogram.size() > 64) std::abort();
    for (std::size_t i = 0; i < f->histogram.size(); ++i) {
      const auto& b = f->histogram[i];
      if (b.low > b.high || b.high > 544 || b.per_lane.size() > 8) std::abort();
      if (i > 0 && b.low <= f->histogram[i - 1].high) std::abort();
    }
    const auto modes = xcvr::netlink::parse_linkmodes_reply(bytes, seq);
    const auto* m = std::get_if<xcvr::netlink::LinkModesReply>(&modes);
    if (const auto h = xcvr::netlink::fec_histogram(*f, m ? *m : xcvr::netlink::LinkModesReply{}, "eth0")) {
      if (h->bins.size() != f->histogram.size()) std::abort();
      if (h->correction_limit && *h->correction_limit != 7 && *h->correction_limit != 15) std::abort();
    }
    const xcvr::netlink::LinkStateReply none;
    const auto* s = std::get_if<xcvr::netlink::LinkStateReply>(&state);
    if (xcvr::netlink::link_counters(*f, s ? *s : none, "eth0").size() > 3 * 9 + 1) std::abort();
  } else if (std::get<xcvr::drivers::Error>(fec).message.empty()) {
    std::abort();
  }

  const auto links = xcvr::netlink::parse_link_messages(bytes, seq);
  if (const auto* l = std::get_if<xcvr::netlink::LinkMessages>(&links)) {
    xcvr::drivers::CarrierTimeline timeline;
    double t = 0;
    for (const auto& m : l->links) {
      if (m.ifname.empty() || m.ifname.size() >= 16) std::abort();
      if (m.carrier) timeline.on_state(m.ifname, *m.carrier, m.down_count, t, t);
      t += 0.5;
      const auto v = timeline.view(m.ifname);
      if (v && v->last_down_seconds && *v->last_down_seconds < 0) std::abort();
    }
    for (const auto& name : l->deleted) timeline.on_deleted(name);
  } else if (std::get<xcvr::drivers::Error>(links).message.empty()) {
    std::abort();
  }
  return 0;
}
