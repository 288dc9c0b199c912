#include "drivers/netlink/netlink_link.hpp"

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include <libmnl/libmnl.h>

#include "drivers/netlink/netlink_reply_internal.hpp"

namespace xcvr::netlink {
namespace {

using namespace detail;

// The ethtool lane limit (ETHTOOL_MAX_LANES = 8): a longer array is not from this kernel.
constexpr std::size_t kMaxValues = 1 + 8;

std::vector<uint8_t> header_only_request(uint16_t family_id, uint32_t seq, uint8_t cmd, uint16_t header_attr,
                                         const std::string& netdev, uint32_t flags) {
  std::vector<uint8_t> buf(1024);
  const nlmsghdr* nlh = put_ethtool_request(buf, family_id, seq, cmd, header_attr, netdev.substr(0, 64), flags);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

}  // namespace

std::variant<FecStatsReply, Error> parse_fec_reply(std::span<const uint8_t> bytes, std::optional<uint32_t> seq) {
  return parse_genl_reply<FecStatsReply>(
      bytes, seq, ETHTOOL_MSG_FEC_GET_REPLY,
      [](FecStatsReply& reply, uint16_t type, std::span<const uint8_t> value) -> std::optional<Error> {
        if (type != ETHTOOL_A_FEC_STATS) return std::nullopt;
        reply.has_stats = true;
        std::optional<Error> bad;
        const bool ok = for_each_attr(value, [&](uint16_t stat, std::span<const uint8_t> v) {
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

std::vector<uint8_t> build_fec_stats_request(uint16_t family_id, uint32_t seq, const std::string& netdev) {
  return header_only_request(family_id, seq, ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, netdev, ETHTOOL_FLAG_STATS);
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

}  // namespace xcvr::netlink
