#include "drivers/netlink/netlink_link.hpp"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include <libmnl/libmnl.h>

#include "cmis/fec.hpp"
#include "drivers/netlink/netlink_reply_internal.hpp"

namespace xcvr::netlink {
namespace {

using namespace detail;

// The ethtool lane limit (ETHTOOL_MAX_LANES = 8): a longer array is not from this kernel.
constexpr std::size_t kMaxValues = 1 + 8;

// The FEC histogram attributes (Linux 6.18 uapi; Debian 12's headers stop before them): the
// ETHTOOL_A_FEC_STAT_HIST nest follows CORR_BITS in the FEC statistics, and its own attribute
// set begins with a pad.
constexpr uint16_t kFecStatHist = ETHTOOL_A_FEC_STAT_CORR_BITS + 1;
constexpr uint16_t kFecHistBinLow = 2;
constexpr uint16_t kFecHistBinHigh = 3;
constexpr uint16_t kFecHistBinVal = 4;
constexpr uint16_t kFecHistBinValPerLane = 5;
// Bounds no real histogram reaches (IEEE 802.3ck/df define 16 bins, the kernel allows 17 or 18
// by version and may grow; an RS codeword has at most 544 symbols): beyond them the reply is
// not from a kernel.
constexpr std::size_t kMaxHistogramBins = 64;
constexpr uint32_t kMaxSymbolsPerCodeword = 544;

std::vector<uint8_t> header_only_request(uint16_t family_id, uint32_t seq, uint8_t cmd, uint16_t header_attr,
                                         const std::string& netdev, uint32_t flags) {
  std::vector<uint8_t> buf(1024);
  const nlmsghdr* nlh = put_ethtool_request(buf, family_id, seq, cmd, header_attr, netdev.substr(0, 64), flags);
  buf.resize(nlh->nlmsg_len);
  return buf;
}


// One histogram bin nest, checked: both bounds, a count, lanes within the ethtool limit.
std::variant<FecHistogramBin, Error> parse_histogram_bin(std::span<const uint8_t> nest) {
  FecHistogramBin bin;
  std::optional<uint32_t> low, high;
  std::optional<uint64_t> value;
  std::optional<Error> bad;
  const bool ok = for_each_attr(nest, [&](uint16_t type, std::span<const uint8_t> v) {
    if (type == kFecHistBinLow || type == kFecHistBinHigh) {
      if (v.size() != 4) bad = corrupt("FEC histogram bound of " + std::to_string(v.size()) + " bytes");
      else (type == kFecHistBinLow ? low : high) = load<uint32_t>(v, 0);
    } else if (type == kFecHistBinVal) {
      // NLA_UINT: 4 bytes when the count fits, else 8.
      if (v.size() == 4) value = load<uint32_t>(v, 0);
      else if (v.size() == 8) value = load<uint64_t>(v, 0);
      else bad = corrupt("FEC histogram count of " + std::to_string(v.size()) + " bytes");
    } else if (type == kFecHistBinValPerLane) {
      if (v.size() % 8 != 0 || v.size() / 8 > kMaxValues - 1) {
        bad = corrupt("FEC histogram lanes of " + std::to_string(v.size()) + " bytes");
      } else {
        for (std::size_t at = 0; at < v.size(); at += 8) bin.per_lane.push_back(load<uint64_t>(v, at));
      }
    }
    return !bad;
  });
  if (bad) return *bad;
  if (!ok) return corrupt("FEC histogram bin overruns its nest");
  if (!low || !high) return corrupt("FEC histogram bin without its bounds");
  if (*low > *high || *high > kMaxSymbolsPerCodeword) {
    return corrupt("FEC histogram bin " + std::to_string(*low) + "-" + std::to_string(*high));
  }
  bin.low = *low;
  bin.high = *high;
  // The kernel sends the total; where a driver gave only lanes it is their sum.
  if (value) {
    bin.value = *value;
  } else {
    for (uint64_t v : bin.per_lane) bin.value += v;
  }
  return bin;
}

}  // namespace

std::variant<FecStatsReply, Error> parse_fec_reply(std::span<const uint8_t> bytes, std::optional<uint32_t> seq) {
  return parse_genl_reply<FecStatsReply>(
      bytes, seq, ETHTOOL_MSG_FEC_GET_REPLY,
      [](FecStatsReply& reply, uint16_t type, std::span<const uint8_t> value) -> std::optional<Error> {
        if (type == ETHTOOL_A_FEC_ACTIVE) {
          if (value.size() != 4) return corrupt("active FEC mode of " + std::to_string(value.size()) + " bytes");
          reply.active_mode_bit = load<uint32_t>(value, 0);
          return std::nullopt;
        }
        if (type != ETHTOOL_A_FEC_STATS) return std::nullopt;
        reply.has_stats = true;
        std::optional<Error> bad;
        const bool ok = for_each_attr(value, [&](uint16_t stat, std::span<const uint8_t> v) {
          if (stat == kFecStatHist) {
            if (reply.histogram.size() >= kMaxHistogramBins) {
              bad = corrupt("more than " + std::to_string(kMaxHistogramBins) + " FEC histogram bins");
              return false;
            }
            auto bin = parse_histogram_bin(v);
            if (auto* e = std::get_if<Error>(&bin)) {
              bad = *e;
              return false;
            }
            auto& b = std::get<FecHistogramBin>(bin);
            if (!reply.histogram.empty() && b.low <= reply.histogram.back().high) {
              bad = corrupt("FEC histogram bin " + std::to_string(b.low) + "-" + std::to_string(b.high) +
                            " after bin " + std::to_string(reply.histogram.back().low) + "-" +
                            std::to_string(reply.histogram.back().high));
              return false;
            }
            reply.histogram.push_back(std::move(b));
            return true;
          }
          std::vector<uint64_t>* into = stat == ETHTOOL_A_FEC_STAT_CORRECTED   ? &reply.corrected
                                        : stat == ETHTOOL_A_FEC_STAT_UNCORR    ? &reply.uncorrectable
                                        : stat == ETHTOOL_A_FEC_STAT_CORR_BITS ? &reply.corrected_bits
                                                                               : nullptr;
          if (into == nullptr) return true;  // ETHTOOL_A_FEC_STAT_PAD, or newer attributes
          if (v.size() % 8 != 0 || v.size() / 8 > kMaxValues) {
            bad = corrupt("FEC statistic of " + std::to_string(v.size()) + " bytes");
            return false;
          }
          into->clear();
          for (std::size_t at = 0; at < v.size(); at += 8) into->push_back(load<uint64_t>(v, at));
          return true;
        });
        if (bad) return bad;
        if (!ok) return corrupt("FEC statistics overrun their nest");
        return std::nullopt;
      });
}

std::variant<LinkStateReply, Error> parse_linkstate_reply(std::span<const uint8_t> bytes,
                                                          std::optional<uint32_t> seq) {
  return parse_genl_reply<LinkStateReply>(
      bytes, seq, ETHTOOL_MSG_LINKSTATE_GET_REPLY,
      [](LinkStateReply& reply, uint16_t type, std::span<const uint8_t> value) -> std::optional<Error> {
        if (type == ETHTOOL_A_LINKSTATE_LINK && !value.empty()) reply.link_up = value[0] != 0;
        if (type == kLinkstateExtDownCnt) {
          if (value.size() != 4) return corrupt("link down count of " + std::to_string(value.size()) + " bytes");
          reply.down_count = load<uint32_t>(value, 0);
        }
        return std::nullopt;
      });
}

std::variant<LinkModesReply, Error> parse_linkmodes_reply(std::span<const uint8_t> bytes,
                                                          std::optional<uint32_t> seq) {
  return parse_genl_reply<LinkModesReply>(
      bytes, seq, ETHTOOL_MSG_LINKMODES_GET_REPLY,
      [](LinkModesReply& reply, uint16_t type, std::span<const uint8_t> value) -> std::optional<Error> {
        if (type != ETHTOOL_A_LINKMODES_SPEED && type != ETHTOOL_A_LINKMODES_LANES) return std::nullopt;
        if (value.size() != 4) return corrupt("link speed or lanes of " + std::to_string(value.size()) + " bytes");
        const uint32_t v = load<uint32_t>(value, 0);
        if (v == 0 || v == static_cast<uint32_t>(SPEED_UNKNOWN)) return std::nullopt;
        (type == ETHTOOL_A_LINKMODES_SPEED ? reply.speed_mbps : reply.lanes) = v;
        return std::nullopt;
      });
}

std::vector<uint8_t> build_fec_stats_request(uint16_t family_id, uint32_t seq, const std::string& netdev) {
  return header_only_request(family_id, seq, ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, netdev, ETHTOOL_FLAG_STATS);
}

std::vector<uint8_t> build_linkmodes_request(uint16_t family_id, uint32_t seq, const std::string& netdev) {
  // Compact bitsets: the reply's link-mode masks are two words each, not a name per mode.
  return header_only_request(family_id, seq, ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_A_LINKMODES_HEADER, netdev,
                             ETHTOOL_FLAG_COMPACT_BITSETS);
}

std::vector<uint8_t> build_linkstate_request(uint16_t family_id, uint32_t seq, const std::string& netdev) {
  // The down count is one of the link's extended statistics: the kernel fills it only when the
  // header asks for statistics (net/ethtool/linkstate.c), as for FEC.
  return header_only_request(family_id, seq, ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_A_LINKSTATE_HEADER, netdev,
                             ETHTOOL_FLAG_STATS);
}

std::vector<drivers::LinkCounter> link_counters(const FecStatsReply& fec, const LinkStateReply& state,
                                                const std::string& link) {
  using drivers::LinkCounterId;
  std::vector<drivers::LinkCounter> out;
  const struct {
    LinkCounterId id;
    const std::vector<uint64_t>* values;
  } rows[] = {{LinkCounterId::FecCorrectedBlocks, &fec.corrected},
              {LinkCounterId::FecUncorrectableBlocks, &fec.uncorrectable},
              {LinkCounterId::FecCorrectedBits, &fec.corrected_bits}};
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.values->size(); ++i) {
      out.push_back({r.id, link, static_cast<int>(i), (*r.values)[i], false});
    }
  }
  if (state.down_count) out.push_back({LinkCounterId::LinkDowned, link, 0, *state.down_count, false});
  return out;
}

std::optional<drivers::LinkFecHistogram> fec_histogram(const FecStatsReply& fec, const LinkModesReply& modes,
                                                       const std::string& link) {
  if (fec.histogram.empty()) return std::nullopt;
  drivers::LinkFecHistogram h;
  h.link = link;
  for (const FecHistogramBin& b : fec.histogram) {
    h.bins.push_back({static_cast<uint16_t>(b.low), static_cast<uint16_t>(b.high), b.value});
  }
  cmis::FecKind kind = cmis::FecKind::None;
  if (fec.active_mode_bit == ETHTOOL_LINK_MODE_FEC_RS_BIT) kind = cmis::FecKind::Rs;
  if (fec.active_mode_bit == ETHTOOL_LINK_MODE_FEC_BASER_BIT) kind = cmis::FecKind::BaseR;
  if (fec.active_mode_bit == ETHTOOL_LINK_MODE_FEC_LLRS_BIT) kind = cmis::FecKind::Llrs;
  std::optional<uint32_t> lane_mbps;
  if (modes.speed_mbps && modes.lanes) lane_mbps = *modes.speed_mbps / *modes.lanes;
  if (const auto code = cmis::rs_fec_of(kind, lane_mbps)) h.correction_limit = code->t;
  return h;
}

}  // namespace xcvr::netlink
