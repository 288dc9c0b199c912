// libFuzzer target: the InfiniBand reply parsers over hostile MADs. The first input byte picks
// what was asked (access method, register, whether the TID is checked); the rest is the reply
// as umad_recv would hand it over, of any length. Every register image that comes back is then
// decoded (PPCNT through its link-health figures or its histogram counts, PPHCR through the
// histogram its bins make), and so are the SMP attributes and the PMA attributes of link health.
// Any crash, hang or out-of-bounds read fails; so does an accepted reply whose image is not
// exactly the register's size, an error without words, or a histogram accepted with bins that
// are not 1-16 ordered, disjoint ranges or a correction limit not its code's.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>

#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/registers.hpp"
#include "drivers/ib/smp_attributes.hpp"

using namespace xcvr::ib;

namespace {

struct Asked {
  uint16_t id;
  std::size_t size;
};
constexpr Asked kRegisters[] = {{kRegMcia, kSizeMcia}, {kRegPmaos, kSizePmaos}, {kRegMgpir, kSizeMgpir},
                                {kRegMcam, kSizeMcam}, {kRegPmlp, kSizePmlp},   {kRegPpcnt, kPpcntQuerySize},
                                {kRegPphcr, kSizePphcr}, {0x1234, 8}};

// PPHCR's bins as a histogram: refused with words, none, or 1-16 ordered disjoint ranges with
// the correction limit of the code the type names; counts land in the bins in order.
void check_pphcr(const Pphcr& p, std::span<const uint8_t> image) {
  const auto r = pphcr_histogram(p);
  if (const auto* why = std::get_if<std::string>(&r)) {
    if (why->empty()) std::abort();
    return;
  }
  const auto& h = std::get<std::optional<xcvr::drivers::LinkFecHistogram>>(r);
  if (!h) return;
  const auto code = pphcr_code(p.active_hist_type);
  if (!code || h->correction_limit != code->t || h->bins.empty() || h->bins.size() > kRsHistogramBins) std::abort();
  for (std::size_t i = 0; i < h->bins.size(); ++i) {
    const auto& b = h->bins[i];
    if (b.low > b.high || b.high > code->n || (i > 0 && b.low <= h->bins[i - 1].high)) std::abort();
  }
  RsHistogramCounts counts{};
  for (std::size_t i = 0; i < counts.size() && i < image.size(); ++i) counts[i] = uint64_t{image[i]} << (i * 3);
  xcvr::drivers::LinkFecHistogram filled = *h;
  fill_rs_histogram(counts, filled);
  for (std::size_t i = 0; i < filled.bins.size(); ++i) {
    if (filled.bins[i].value != counts[i]) std::abort();
  }
}

void decode_image(uint16_t id, std::span<const uint8_t> image) {
  switch (id) {
    case kRegMcia:
      if (auto m = decode_mcia(image)) {
        (void)describe_mcia_status(m->status);
        (void)mcia_status_kind(m->status);
        if (m->data.size() != kMciaMaxData) std::abort();
      }
      break;
    case kRegPmaos:
      if (auto p = decode_pmaos(image)) {
        (void)pmaos_presence(*p);
        (void)describe_pmaos_oper(p->oper_status);
        (void)describe_pmaos_error(p->error_type);
      }
      break;
    case kRegMgpir: (void)decode_mgpir(image); break;
    case kRegMcam:
      if (auto m = decode_mcam(image)) {
        for (int bit = -1; bit <= 128; ++bit) (void)m->feature(bit);
      }
      break;
    case kRegPmlp: (void)decode_pmlp(image); break;
    case kRegPphcr:
      if (auto p = decode_pphcr(image)) {
        check_pphcr(*p, image);
        const auto again = decode_pphcr(encode_pphcr(*p));  // the fields round-trip
        if (!again || again->num_of_bins != p->num_of_bins || again->active_hist_type != p->active_hist_type) std::abort();
      }
      break;
    case kRegPpcnt:
      if (auto p = decode_ppcnt(image); p && p->grp == kPpcntGroupRsHistogram) {
        if (image.size() < kPpcntCounterSet + kRsHistEnd) std::abort();
        const auto again = decode_ppcnt(encode_ppcnt(*p));
        if (!again || again->rs_histogram != p->rs_histogram) std::abort();
      } else if (p) {
        xcvr::drivers::LinkHealth h;
        append_phys_layer(p->stats, "1", h);
        for (const auto& b : h.ber) {
          if (!(b.value > 0) || b.value > 15.0 || b.window_s < 0) std::abort();  // coef 1-15 x 10^-mag
        }
      }
      break;
    default: break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t selector = data[0];
  const std::span<const uint8_t> mad(data + 1, size - 1);
  const auto method = static_cast<AccessMethod>(selector % 3);
  const Asked asked = kRegisters[(selector / 3) % (sizeof kRegisters / sizeof kRegisters[0])];
  const std::optional<uint64_t> tid = (selector & 0x80) != 0 ? std::optional<uint64_t>(0x100000042ULL) : std::nullopt;

  const auto reply = parse_access_register_reply(mad, method, asked.id, asked.size, tid);
  if (const auto* ok = std::get_if<RegisterReply>(&reply)) {
    if (ok->image.size() != asked.size) std::abort();
    decode_image(asked.id, ok->image);
  } else if (std::get<ReplyError>(reply).message.empty()) {
    std::abort();  // every error names what was wrong
  }
  // Raw images straight from the bytes too (a register the parser never vouched for).
  for (const Asked& a : kRegisters) decode_image(a.id, mad);

  for (uint8_t cls : {kClassSmiLid, kClassSmiDirected}) {
    const auto smp = parse_smp_reply(mad, cls, kAttrNodeInfo, tid);
    if (const auto* d = std::get_if<std::array<uint8_t, kSmpDataSize>>(&smp)) {
      (void)decode_node_info(*d);
      (void)decode_port_info(*d);
      if (decode_node_description(*d).size() > kNodeDescriptionSize) std::abort();
    }
  }
  // PMA (link health): ClassPortInfo, PortCounters, PortCountersExtended replies and their data.
  for (uint16_t attr : {kAttrClassPortInfo, kAttrPortCounters, kAttrPortCountersExt}) {
    const auto pma = parse_pma_reply(mad, attr, tid);
    if (const auto* d = std::get_if<std::array<uint8_t, kPmaDataSize>>(&pma)) {
      (void)decode_class_port_info(*d);
      for (const auto& c : {decode_port_counters(*d), decode_port_counters_ext(*d)}) {
        if (!c) std::abort();  // 192 bytes always hold both layouts
      }
      const auto narrow = to_link_counters(*decode_port_counters(*d), "1", false);
      for (const auto& lc : narrow) {
        if (lc.value > 0xFFFF) std::abort();  // PortCounters fields are at most 16 bits
      }
    } else if (std::get<ReplyError>(pma).message.empty()) {
      std::abort();
    }
  }
  (void)decode_port_counters(mad);
  (void)decode_port_counters_ext(mad);
  (void)decode_class_port_info(mad);
  (void)parse_general_info_reply(mad, tid);
  (void)parse_header(mad);
  if (auto h = parse_header(mad)) {
    (void)describe_mad_status(h->status);
    (void)mad_status_kind(h->status);
    (void)describe_reg_status(static_cast<uint8_t>(h->status));
    (void)reg_status_kind(static_cast<uint8_t>(h->status));
  }
  return 0;
}
