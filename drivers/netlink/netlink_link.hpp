// Link health of a netdev through ethtool netlink, as pure request builders and reply parsers
// (fuzzed by tests/fuzz/fuzz_netlink_reply.cpp): FEC statistics (ETHTOOL_MSG_FEC_GET with
// ETHTOOL_FLAG_STATS in the request header, kernel >= 5.14) and the link-down count
// (ETHTOOL_MSG_LINKSTATE_GET with ETHTOOL_FLAG_STATS, attribute EXT_DOWN_CNT on kernels >= 6.6).
//
// FEC statistics (net/ethtool/fec.c fec_put_stats; ethtool(8) fec_show_stats): the nest
// ETHTOOL_A_FEC_STATS holds CORRECTED, UNCORR and CORR_BITS, each an array of u64 — element 0
// the total, elements 1..n the lanes, length 0 when the driver does not report that counter
// (absent, never 0) — with ETHTOOL_A_FEC_STAT_PAD attributes for 64-bit alignment.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/link_health.hpp"
#include "drivers/transport.hpp"

namespace xcvr::netlink {

// Debian 12's uapi headers (Linux 6.1) stop at ETHTOOL_A_LINKSTATE_EXT_SUBSTATE (6); Linux 6.6
// added ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT (u32) as the next attribute. A kernel that does not
// count sends no such attribute: the down count is then absent.
inline constexpr uint16_t kLinkstateExtDownCnt = 7;

struct FecStatsReply {
  bool has_stats = false;  // an ETHTOOL_A_FEC_STATS nest came
  // Each: empty = not reported; [0] total, [1..] lanes 1..n.
  std::vector<uint64_t> corrected, uncorrectable, corrected_bits;
  bool done = false;
};
struct LinkStateReply {
  std::optional<bool> link_up;            // ETHTOOL_A_LINKSTATE_LINK
  std::optional<uint32_t> down_count;     // ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT
  bool done = false;
};

std::variant<FecStatsReply, drivers::Error> parse_fec_reply(std::span<const uint8_t> nlmsg_bytes,
                                                            std::optional<uint32_t> expected_seq = std::nullopt);
std::variant<LinkStateReply, drivers::Error> parse_linkstate_reply(std::span<const uint8_t> nlmsg_bytes,
                                                                   std::optional<uint32_t> expected_seq = std::nullopt);

std::vector<uint8_t> build_fec_stats_request(uint16_t family_id, uint32_t seq, const std::string& netdev);
std::vector<uint8_t> build_linkstate_request(uint16_t family_id, uint32_t seq, const std::string& netdev);

// The link counters of `link` (the netdev): totals, and per lane where the driver gave lanes.
std::vector<drivers::LinkCounter> link_counters(const FecStatsReply& fec, const LinkStateReply& state,
                                                const std::string& link);

}  // namespace xcvr::netlink
