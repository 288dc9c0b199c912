// The FEC codeword histogram: ETHTOOL_A_FEC_STAT_HIST nests built as the kernel's ethtool
// netlink spec lays them out (fec-hist: pad 1, bin-low 2, bin-high 3, bin-val 4 as u32 or u64,
// bin-val-per-lane 5 as a u64 array), a kernel without them, hostile bins; the link modes that
// give the rate per lane; the correction limit of each RS code; the tail between two reads; the
// transport's extra request only where a histogram came.
#include <gtest/gtest.h>

#include <linux/ethtool.h>

#include <cstring>

#include "cmis/fec.hpp"
#include "daemon/fec_tail.hpp"
#include "drivers/netlink/netlink_link.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "tests/unit/netlink_bytes.hpp"

namespace xcvr::netlink {
namespace {

using namespace netlink_bytes;
using drivers::ErrorKind;

constexpr uint16_t kStatHist = ETHTOOL_A_FEC_STAT_CORR_BITS + 1;

Bytes u32(uint32_t v) {
  Bytes b;
  append<uint32_t>(b, v);
  return b;
}
Bytes u64(uint64_t v) {
  Bytes b;
  append<uint64_t>(b, v);
  return b;
}
Bytes join(const std::vector<Bytes>& parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// One bin as fec_put_hist() writes it: low, high, the total as NLA_UINT (u32 when it fits),
// then the lanes padded to 8 bytes by a pad attribute of the bin's own set.
Bytes bin(uint32_t low, uint32_t high, uint64_t total, std::vector<uint64_t> lanes = {}) {
  std::vector<Bytes> a{attr(2, u32(low)), attr(3, u32(high)), attr(4, total > 0xffffffffu ? u64(total) : u32(static_cast<uint32_t>(total)))};
  if (!lanes.empty()) {
    a.push_back(attr(1, {}));  // ETHTOOL_A_FEC_HIST_PAD
    Bytes v;
    for (uint64_t l : lanes) append<uint64_t>(v, l);
    a.push_back(attr(5, v));
  }
  return attr(NLA_F_NESTED | kStatHist, join(a));
}

Bytes fec_reply(uint32_t seq, const std::vector<Bytes>& bins, uint32_t active_bit = ETHTOOL_LINK_MODE_FEC_RS_BIT) {
  std::vector<Bytes> stats{attr(ETHTOOL_A_FEC_STAT_PAD, {}), attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64(500)),
                           attr(ETHTOOL_A_FEC_STAT_UNCORR, u64(0))};
  stats.insert(stats.end(), bins.begin(), bins.end());
  Bytes payload{ETHTOOL_MSG_FEC_GET_REPLY, ETHTOOL_GENL_VERSION, 0, 0};
  const Bytes body = join({attr(NLA_F_NESTED | ETHTOOL_A_FEC_HEADER, attr(ETHTOOL_A_HEADER_DEV_NAME, {'e', 't', 'h', '0', 0})),
                           attr(ETHTOOL_A_FEC_ACTIVE, u32(active_bit)), attr(NLA_F_NESTED | ETHTOOL_A_FEC_STATS, join(stats))});
  payload.insert(payload.end(), body.begin(), body.end());
  return nlmsg(kFamily, 0, seq, payload);
}

Bytes linkmodes_reply(uint32_t seq, uint32_t speed, std::optional<uint32_t> lanes) {
  Bytes payload{ETHTOOL_MSG_LINKMODES_GET_REPLY, ETHTOOL_GENL_VERSION, 0, 0};
  Bytes body = join({attr(ETHTOOL_A_LINKMODES_AUTONEG, {0}), attr(ETHTOOL_A_LINKMODES_SPEED, u32(speed))});
  if (lanes) body = join({body, attr(ETHTOOL_A_LINKMODES_LANES, u32(*lanes))});
  payload.insert(payload.end(), body.begin(), body.end());
  return nlmsg(kFamily, 0, seq, payload);
}

TEST(NetlinkFecHistogram, SixteenBinsWithLanesAndAWideCount) {
  std::vector<Bytes> bins;
  bins.push_back(bin(0, 0, 0x1'0000'0000ull + 7, {0x8000'0000ull, 0x8000'0007ull}));  // u64 total
  for (uint32_t b = 1; b < 15; ++b) bins.push_back(bin(b, b, 1000 >> b));
  bins.push_back(bin(15, 15, 0));
  const auto r = parse_fec_reply(fec_reply(4, bins), 4);
  ASSERT_TRUE(std::holds_alternative<FecStatsReply>(r)) << std::get<drivers::Error>(r).message;
  const auto& f = std::get<FecStatsReply>(r);
  ASSERT_EQ(f.histogram.size(), 16u);
  EXPECT_EQ(f.histogram[0].value, 0x1'0000'0007ull);
  EXPECT_EQ(f.histogram[0].per_lane, (std::vector<uint64_t>{0x8000'0000ull, 0x8000'0007ull}));
  EXPECT_EQ(f.histogram[3].value, 125u);
  EXPECT_EQ(f.histogram[15].low, 15u);
  EXPECT_EQ(f.active_mode_bit, static_cast<uint32_t>(ETHTOOL_LINK_MODE_FEC_RS_BIT));
  EXPECT_EQ(f.corrected, std::vector<uint64_t>{500});  // the counters beside it still parse
}

TEST(NetlinkFecHistogram, RangedBinsAndAKernelWithoutAHistogram) {
  const auto r = parse_fec_reply(fec_reply(1, {bin(0, 0, 90), bin(1, 8, 9), bin(9, 15, 1)}), 1);
  ASSERT_TRUE(std::holds_alternative<FecStatsReply>(r)) << std::get<drivers::Error>(r).message;
  const auto& f = std::get<FecStatsReply>(r);
  ASSERT_EQ(f.histogram.size(), 3u);
  EXPECT_EQ(f.histogram[1].low, 1u);
  EXPECT_EQ(f.histogram[1].high, 8u);
  const auto plain = parse_fec_reply(fec_reply(1, {}), 1);
  ASSERT_TRUE(std::holds_alternative<FecStatsReply>(plain));
  EXPECT_TRUE(std::get<FecStatsReply>(plain).histogram.empty());
  EXPECT_FALSE(fec_histogram(std::get<FecStatsReply>(plain), {}, "eth0").has_value());  // "not available"
}

TEST(NetlinkFecHistogram, LanesOnlyBinsSumTheirLanes) {
  // A bin whose total the driver left out: the kernel's spec makes bin-val optional when lanes
  // are given.
  Bytes only_lanes = attr(NLA_F_NESTED | kStatHist,
                          join({attr(2, u32(2)), attr(3, u32(2)), attr(1, {}), attr(5, join({u64(4), u64(6)}))}));
  const auto r = parse_fec_reply(fec_reply(1, {bin(0, 0, 5), bin(1, 1, 3), only_lanes}), 1);
  ASSERT_TRUE(std::holds_alternative<FecStatsReply>(r)) << std::get<drivers::Error>(r).message;
  EXPECT_EQ(std::get<FecStatsReply>(r).histogram[2].value, 10u);
}

std::string error_of(const Bytes& reply) {
  const auto r = parse_fec_reply(reply, 1);
  if (!std::holds_alternative<drivers::Error>(r)) return "";
  EXPECT_EQ(std::get<drivers::Error>(r).kind, ErrorKind::Corrupt);
  return std::get<drivers::Error>(r).message;
}

TEST(NetlinkFecHistogram, HostileBinsAreCorruptAndNamed) {
  EXPECT_NE(error_of(fec_reply(1, {bin(5, 3, 1)})).find("bin 5-3"), std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {bin(0, 600, 1)})).find("bin 0-600"), std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {bin(0, 2, 1), bin(2, 3, 1)})).find("after bin 0-2"), std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {bin(3, 3, 1), bin(1, 1, 1)})).find("after bin 3-3"), std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {attr(NLA_F_NESTED | kStatHist, attr(4, u32(1)))})).find("without its bounds"),
            std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {attr(NLA_F_NESTED | kStatHist, join({attr(2, u32(0)), attr(3, Bytes{1, 0})}))}))
                .find("bound of 2 bytes"),
            std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {attr(NLA_F_NESTED | kStatHist,
                                        join({attr(2, u32(0)), attr(3, u32(0)), attr(4, Bytes{1, 2, 3})}))}))
                .find("count of 3 bytes"),
            std::string::npos);
  EXPECT_NE(error_of(fec_reply(1, {bin(0, 0, 1, std::vector<uint64_t>(9, 1))})).find("lanes of 72 bytes"), std::string::npos);
  std::vector<Bytes> many;
  for (uint32_t b = 0; b < 65; ++b) many.push_back(bin(b, b, 1));
  EXPECT_NE(error_of(fec_reply(1, many)).find("more than 64"), std::string::npos);
  Bytes overrun = bin(0, 0, 1);
  overrun[4] = 0xff;  // the first inner attribute's length runs past its nest
  EXPECT_NE(error_of(fec_reply(1, {overrun})).find("overruns"), std::string::npos);
}

TEST(NetlinkFecHistogram, CorrectionLimitFromTheFecModeAndTheLaneRate) {
  FecStatsReply f;
  f.histogram = {{0, 0, 10, {}}, {1, 1, 2, {}}};
  f.active_mode_bit = ETHTOOL_LINK_MODE_FEC_RS_BIT;
  const auto limit = [&](std::optional<uint32_t> speed, std::optional<uint32_t> lanes) {
    return fec_histogram(f, {speed, lanes, true}, "eth0")->correction_limit;
  };
  EXPECT_EQ(limit(400'000, 4), 15);   // 400GAUI-4: 100G PAM4 lanes, RS(544,514)
  EXPECT_EQ(limit(400'000, 8), 15);   // 50G PAM4 lanes
  EXPECT_EQ(limit(100'000, 4), 7);    // 25G NRZ lanes, RS(528,514)
  EXPECT_EQ(limit(100'000, 2), 15);   // 100G over 2 x 50G PAM4
  EXPECT_EQ(limit(100'000, std::nullopt), std::nullopt);  // lanes unknown: no guess
  f.active_mode_bit = ETHTOOL_LINK_MODE_FEC_LLRS_BIT;
  EXPECT_EQ(limit(50'000, 2), 7);
  f.active_mode_bit = ETHTOOL_LINK_MODE_FEC_BASER_BIT;
  EXPECT_EQ(limit(25'000, 1), std::nullopt);  // BASE-R corrects bursts, not symbols
  EXPECT_EQ(cmis::kRs544.t, (cmis::kRs544.n - cmis::kRs544.k) / 2);
  EXPECT_EQ(cmis::kRs528.t, (cmis::kRs528.n - cmis::kRs528.k) / 2);
}

TEST(NetlinkFecHistogram, LinkModesReplyAndRequest) {
  const auto r = parse_linkmodes_reply(join({linkmodes_reply(3, 400'000, 4), error_msg(3, 0)}), 3);
  ASSERT_TRUE(std::holds_alternative<LinkModesReply>(r)) << std::get<drivers::Error>(r).message;
  EXPECT_EQ(std::get<LinkModesReply>(r).speed_mbps, 400'000u);
  EXPECT_EQ(std::get<LinkModesReply>(r).lanes, 4u);
  EXPECT_TRUE(std::get<LinkModesReply>(r).done);
  const auto unknown = parse_linkmodes_reply(linkmodes_reply(3, 0xffffffffu, 0), 3);  // link down
  EXPECT_FALSE(std::get<LinkModesReply>(unknown).speed_mbps.has_value());
  EXPECT_FALSE(std::get<LinkModesReply>(unknown).lanes.has_value());
  const Bytes q = build_linkmodes_request(kFamily, 8, "eth0");
  EXPECT_EQ(q[16], ETHTOOL_MSG_LINKMODES_GET);
  uint32_t flags = 0;  // the header nest's flags attribute: compact bitsets
  std::memcpy(&flags, q.data() + q.size() - 4, 4);
  EXPECT_EQ(flags, static_cast<uint32_t>(ETHTOOL_FLAG_COMPACT_BITSETS));
}

drivers::LinkHealth with_bins(std::vector<uint64_t> counts, std::vector<uint16_t> highs = {}) {
  drivers::LinkHealth h;
  drivers::LinkFecHistogram hist;
  hist.link = "eth0";
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const uint16_t hi = highs.empty() ? static_cast<uint16_t>(i) : highs[i];
    const uint16_t lo = highs.empty() || i == 0 ? hi : static_cast<uint16_t>(highs[i - 1] + 1);
    hist.bins.push_back({lo, hi, counts[i]});
  }
  h.fec_histograms.push_back(hist);
  return h;
}

TEST(FecTail, HighestBinThatGrewSinceTheLastRead) {
  drivers::LinkHealth first = with_bins({1000, 50, 7, 1, 0});
  daemon::add_fec_tails(nullptr, first);
  EXPECT_FALSE(first.fec_histograms[0].tail.has_value());  // one read: no interval yet
  drivers::LinkHealth second = with_bins({2000, 60, 9, 1, 0});
  daemon::add_fec_tails(&first, second);
  EXPECT_EQ(second.fec_histograms[0].tail, 2);  // bin 3 did not grow since: it is an old codeword
  drivers::LinkHealth third = with_bins({3000, 60, 9, 1, 1});
  daemon::add_fec_tails(&second, third);
  EXPECT_EQ(third.fec_histograms[0].tail, 4);
  drivers::LinkHealth idle = third;
  daemon::add_fec_tails(&third, idle);
  EXPECT_EQ(idle.fec_histograms[0].tail, 0);
}

TEST(FecTail, ResetCountersAndChangedBins) {
  const drivers::LinkHealth before = with_bins({5000, 100, 30, 2});
  drivers::LinkHealth reset = with_bins({10, 1, 0, 0});  // the device cleared its counters
  daemon::add_fec_tails(&before, reset);
  EXPECT_EQ(reset.fec_histograms[0].tail, 1);
  drivers::LinkHealth ranged = with_bins({6000, 200, 40}, {0, 8, 15});  // other bins: a new baseline
  daemon::add_fec_tails(&before, ranged);
  EXPECT_FALSE(ranged.fec_histograms[0].tail.has_value());
  drivers::LinkHealth ranged_again = with_bins({7000, 200, 41}, {0, 8, 15});
  daemon::add_fec_tails(&ranged, ranged_again);
  EXPECT_EQ(ranged_again.fec_histograms[0].tail, 15);  // a ranged bin's high bound
}

// A kernel with a histogram on its FEC statistics: the transport asks the link modes too.
struct HistogramKernel final : PlayedKernel {
  Bytes answer(uint16_t, uint32_t seq, std::span<const uint8_t> m) override {
    Bytes reply;
    if (m[16] == ETHTOOL_MSG_FEC_GET) {
      reply = fec_reply(seq, histogram ? std::vector<Bytes>{bin(0, 0, 100), bin(1, 1, 3)} : std::vector<Bytes>{});
    } else if (m[16] == ETHTOOL_MSG_LINKMODES_GET) {
      ++linkmodes;
      reply = linkmodes_reply(seq, 800'000, 8);
    } else {
      return error_msg(seq, -EOPNOTSUPP);
    }
    return join({reply, error_msg(seq, 0)});
  }
  int linkmodes = 0;
  bool histogram = true;
};

TEST(NetlinkFecHistogram, TheTransportAsksTheLinkModesOnlyBesideAHistogram) {
  auto* kernel = new HistogramKernel;
  NetlinkPortConfig cfg;
  cfg.netdev = "eth0";
  NetlinkTransport t(cfg, [&](int&) { return std::unique_ptr<NetlinkChannel>(kernel); });
  auto r = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(r)) << std::get<drivers::Error>(r).message;
  const auto& h = std::get<drivers::LinkHealth>(r);
  ASSERT_EQ(h.fec_histograms.size(), 1u);
  EXPECT_EQ(h.fec_histograms[0].bins.size(), 2u);
  EXPECT_EQ(h.fec_histograms[0].correction_limit, 15);  // 800G over 8 lanes: RS(544,514)
  EXPECT_EQ(h.transactions, 3u);
  EXPECT_EQ(kernel->linkmodes, 1);
  kernel->histogram = false;
  auto plain = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(plain));
  EXPECT_TRUE(std::get<drivers::LinkHealth>(plain).fec_histograms.empty());
  EXPECT_EQ(kernel->linkmodes, 1);
  EXPECT_EQ(std::get<drivers::LinkHealth>(plain).transactions, 2u);
}

}  // namespace
}  // namespace xcvr::netlink
