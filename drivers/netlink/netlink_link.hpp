// Link health of a netdev through ethtool netlink, as pure request builders and reply parsers
// (fuzzed by tests/fuzz/fuzz_netlink_reply.cpp): FEC statistics (ETHTOOL_MSG_FEC_GET with
// ETHTOOL_FLAG_STATS in the request header, kernel >= 5.14) and the link-down count
// (ETHTOOL_MSG_LINKSTATE_GET with ETHTOOL_FLAG_STATS, attribute EXT_DOWN_CNT on kernels >= 6.6).
//
// FEC statistics (net/ethtool/fec.c fec_put_stats; ethtool(8) fec_show_stats): the nest
// ETHTOOL_A_FEC_STATS holds CORRECTED, UNCORR and CORR_BITS, each an array of u64 — element 0
// the total, elements 1..n the lanes, length 0 when the driver does not report that counter
// (absent, never 0) — with ETHTOOL_A_FEC_STAT_PAD attributes for 64-bit alignment. Since Linux
// 6.18 it may also hold the codeword histogram: one ETHTOOL_A_FEC_STAT_HIST nest per bin, with
// BIN_LOW and BIN_HIGH (u32), BIN_VAL (u32 or u64) and BIN_VAL_PER_LANE (u64 array), padded by
// ETHTOOL_A_FEC_HIST_PAD (the kernel's ethtool netlink spec, fec-hist attribute set).
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

// One bin of the FEC codeword histogram (ETHTOOL_A_FEC_STAT_HIST, Linux 6.18): codewords that
// needed `low`..`high` symbol corrections, in total and per lane where the driver counts lanes.
struct FecHistogramBin {
  uint32_t low = 0, high = 0;
  uint64_t value = 0;
  std::vector<uint64_t> per_lane;
};

struct FecStatsReply {
  bool has_stats = false;  // an ETHTOOL_A_FEC_STATS nest came
  // Each: empty = not reported; [0] total, [1..] lanes 1..n.
  std::vector<uint64_t> corrected, uncorrectable, corrected_bits;
  // Ascending, not overlapping; empty on a kernel or driver without the histogram.
  std::vector<FecHistogramBin> histogram;
  std::optional<uint32_t> active_mode_bit;  // ETHTOOL_A_FEC_ACTIVE: an ETHTOOL_LINK_MODE_FEC_*_BIT
  bool done = false;
};
// The link's speed and lanes (ETHTOOL_MSG_LINKMODES_GET), for the FEC code its rate implies.
struct LinkModesReply {
  std::optional<uint32_t> speed_mbps;  // ETHTOOL_A_LINKMODES_SPEED; SPEED_UNKNOWN is absent
  std::optional<uint32_t> lanes;       // ETHTOOL_A_LINKMODES_LANES (Linux >= 5.11; 0 is absent)
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

std::variant<LinkModesReply, drivers::Error> parse_linkmodes_reply(std::span<const uint8_t> nlmsg_bytes,
                                                                   std::optional<uint32_t> expected_seq = std::nullopt);

std::vector<uint8_t> build_fec_stats_request(uint16_t family_id, uint32_t seq, const std::string& netdev);
std::vector<uint8_t> build_linkmodes_request(uint16_t family_id, uint32_t seq, const std::string& netdev);
std::vector<uint8_t> build_linkstate_request(uint16_t family_id, uint32_t seq, const std::string& netdev);

// The link counters of `link` (the netdev): totals, and per lane where the driver gave lanes.
std::vector<drivers::LinkCounter> link_counters(const FecStatsReply& fec, const LinkStateReply& state,
                                                const std::string& link);
// The codeword histogram of `link` with the correction limit of the RS code the link runs
// (from the active FEC mode and the rate per lane); nullopt when the driver gives no histogram.
std::optional<drivers::LinkFecHistogram> fec_histogram(const FecStatsReply& fec, const LinkModesReply& modes,
                                                       const std::string& link);

}  // namespace xcvr::netlink
