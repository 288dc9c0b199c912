// ethtool link health: the FEC statistics and link-state reply parsers on constructed kernel
// replies (totals, per-lane arrays, counters the driver does not report, padding, garbage), the
// requests (ETHTOOL_FLAG_STATS in the header), and the transport against a fake kernel.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>

#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/netlink/netlink_link.hpp"
#include "tests/unit/netlink_bytes.hpp"

namespace xcvr::netlink {
namespace {

using namespace netlink_bytes;
using drivers::ErrorKind;
using drivers::LinkCounterId;

Bytes u64s(std::initializer_list<uint64_t> values) {
  Bytes b;
  for (uint64_t v : values) append<uint64_t>(b, v);
  return b;
}

Bytes genl(uint8_t cmd, const std::vector<Bytes>& attrs) {
  Bytes payload{cmd, ETHTOOL_GENL_VERSION, 0, 0};
  for (const Bytes& a : attrs) payload.insert(payload.end(), a.begin(), a.end());
  return payload;
}

// A FEC_GET reply as mlx5 sends it: header, active mode, the stats nest with a pad attribute,
// corrected and uncorrectable with a total and four lanes, corrected bits not reported.
Bytes fec_reply(uint32_t seq, const Bytes& corrected, const Bytes& uncorr, const Bytes& bits) {
  Bytes stats = attr(ETHTOOL_A_FEC_STAT_PAD, {});
  for (const Bytes& a : {attr(ETHTOOL_A_FEC_STAT_CORRECTED, corrected), attr(ETHTOOL_A_FEC_STAT_UNCORR, uncorr),
                         attr(ETHTOOL_A_FEC_STAT_CORR_BITS, bits)}) {
    stats.insert(stats.end(), a.begin(), a.end());
  }
  Bytes active;
  append<uint32_t>(active, 1u << 2);
  return nlmsg(kFamily, 0, seq,
               genl(ETHTOOL_MSG_FEC_GET_REPLY,
                    {attr(NLA_F_NESTED | ETHTOOL_A_FEC_HEADER, attr(ETHTOOL_A_HEADER_DEV_NAME, {'e', 't', 'h', '0', 0})),
                     attr(ETHTOOL_A_FEC_ACTIVE, active), attr(NLA_F_NESTED | ETHTOOL_A_FEC_STATS, stats)}));
}

Bytes linkstate_reply(uint32_t seq, std::optional<uint32_t> down_count) {
  std::vector<Bytes> attrs{attr(ETHTOOL_A_LINKSTATE_LINK, {1})};
  if (down_count) {
    Bytes v;
    append<uint32_t>(v, *down_count);
    attrs.push_back(attr(kLinkstateExtDownCnt, v));
  }
  return nlmsg(kFamily, 0, seq, genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, attrs));
}

TEST(NetlinkLinkParser, FecTotalsAndLanes) {
  const Bytes reply = concat(fec_reply(5, u64s({1000, 100, 200, 300, 400}), u64s({7, 1, 2, 3, 1}), {}), ack(5));
  auto r = parse_fec_reply(reply, 5);
  ASSERT_TRUE(std::holds_alternative<FecStatsReply>(r)) << std::get<drivers::Error>(r).message;
  const auto& f = std::get<FecStatsReply>(r);
  EXPECT_TRUE(f.has_stats);
  EXPECT_TRUE(f.done);
  EXPECT_EQ(f.corrected, (std::vector<uint64_t>{1000, 100, 200, 300, 400}));
  EXPECT_EQ(f.uncorrectable.size(), 5u);
  EXPECT_TRUE(f.corrected_bits.empty()) << "not reported: absent, never 0";
  const auto counters = link_counters(f, {}, "eth0");
  ASSERT_EQ(counters.size(), 10u);
  EXPECT_EQ(counters[0].id, LinkCounterId::FecCorrectedBlocks);
  EXPECT_EQ(counters[0].lane, 0);
  EXPECT_EQ(counters[0].value, 1000u);
  EXPECT_EQ(counters[4].lane, 4);
  EXPECT_EQ(counters[4].value, 400u);
  EXPECT_EQ(counters[5].id, LinkCounterId::FecUncorrectableBlocks);
  EXPECT_EQ(counters[5].link, "eth0");
}

TEST(NetlinkLinkParser, TotalOnlyAndNothingReported) {
  auto r = parse_fec_reply(fec_reply(1, u64s({42}), {}, {}));
  const auto& f = std::get<FecStatsReply>(r);
  const auto counters = link_counters(f, {}, "eth1");
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(counters[0].value, 42u);
  EXPECT_TRUE(link_counters(std::get<FecStatsReply>(parse_fec_reply(fec_reply(1, {}, {}, {}))), {}, "x").empty());
}

TEST(NetlinkLinkParser, LinkDownCountWhereTheKernelSendsIt) {
  auto with = parse_linkstate_reply(concat(linkstate_reply(3, 17), ack(3)), 3);
  ASSERT_TRUE(std::holds_alternative<LinkStateReply>(with));
  EXPECT_EQ(std::get<LinkStateReply>(with).down_count, 17u);
  EXPECT_TRUE(std::get<LinkStateReply>(with).done);
  const auto c = link_counters({}, std::get<LinkStateReply>(with), "eth0");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].id, LinkCounterId::LinkDowned);
  auto without = parse_linkstate_reply(linkstate_reply(3, std::nullopt), 3);
  EXPECT_FALSE(std::get<LinkStateReply>(without).down_count) << "Linux 6.1 has no down count: absent";
}

TEST(NetlinkLinkParser, GarbageIsCorruptNeverACrash) {
  // A statistic that is not a whole number of u64s, or longer than a total and 8 lanes.
  for (const Bytes& bad : {Bytes(12, 1), Bytes(8 * 10, 1)}) {
    auto r = parse_fec_reply(fec_reply(1, bad, {}, {}));
    ASSERT_TRUE(std::holds_alternative<drivers::Error>(r));
    EXPECT_EQ(std::get<drivers::Error>(r).kind, ErrorKind::Corrupt);
  }
  Bytes truncated = fec_reply(1, u64s({1, 2}), {}, {});
  truncated.resize(truncated.size() - 6);
  EXPECT_TRUE(std::holds_alternative<drivers::Error>(parse_fec_reply(truncated)));
  // The wrong command is not taken for FEC statistics.
  EXPECT_TRUE(std::holds_alternative<drivers::Error>(parse_fec_reply(linkstate_reply(1, 3))));
  Bytes short_count;
  append<uint16_t>(short_count, 1);
  EXPECT_TRUE(std::holds_alternative<drivers::Error>(parse_linkstate_reply(
      nlmsg(kFamily, 0, 1, genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, {attr(kLinkstateExtDownCnt, short_count)})))));
}

// The FEC request asks for statistics in its header (ETHTOOL_FLAG_STATS): without the flag the
// kernel sends no ETHTOOL_A_FEC_STATS.
uint32_t header_flags(const Bytes& request) {
  uint32_t flags = 0;
  std::size_t at = 20;  // nlmsghdr + genlmsghdr
  while (at + 4 <= request.size()) {
    uint16_t len, type;
    std::memcpy(&len, &request[at], 2);
    std::memcpy(&type, &request[at + 2], 2);
    if ((type & NLA_TYPE_MASK) == ETHTOOL_A_FEC_HEADER) {
      for (std::size_t in = at + 4; in + 4 <= at + len;) {
        uint16_t l, t;
        std::memcpy(&l, &request[in], 2);
        std::memcpy(&t, &request[in + 2], 2);
        if (t == ETHTOOL_A_HEADER_FLAGS) std::memcpy(&flags, &request[in + 4], 4);
        in += (l + 3u) & ~3u;
      }
    }
    at += (len + 3u) & ~3u;
  }
  return flags;
}

TEST(NetlinkLinkParser, FecRequestAsksForStatistics) {
  const Bytes q = build_fec_stats_request(kFamily, 9, "eth0");
  EXPECT_EQ(q[16], ETHTOOL_MSG_FEC_GET);
  EXPECT_EQ(header_flags(q) & ETHTOOL_FLAG_STATS, static_cast<uint32_t>(ETHTOOL_FLAG_STATS));
}

// A kernel that answers the family lookup, FEC_GET and LINKSTATE_GET.
class LinkKernel final : public NetlinkChannel {
 public:
  int send(std::span<const uint8_t> m) override {
    uint32_t seq = 0;
    uint16_t type = 0;
    std::memcpy(&type, m.data() + 4, 2);
    std::memcpy(&seq, m.data() + 8, 4);
    ++requests;
    if (type == GENL_ID_CTRL) {
      Bytes id;
      append<uint16_t>(id, kFamily);
      queue.push_back(nlmsg(GENL_ID_CTRL, 0, seq, genl(CTRL_CMD_NEWFAMILY, {attr(CTRL_ATTR_FAMILY_ID, id)})));
    } else if (m[16] == ETHTOOL_MSG_FEC_GET) {
      if (fec_errno != 0) {
        queue.push_back(error_msg(seq, -fec_errno));
        return static_cast<int>(m.size());
      }
      queue.push_back(fec_reply(seq, u64s({500, 250, 250}), u64s({3}), {}));
    } else {
      queue.push_back(linkstate_reply(seq, down_count));
    }
    queue.push_back(ack(seq));
    return static_cast<int>(m.size());
  }
  int recv(std::span<uint8_t> buffer) override {
    if (queue.empty()) return -EAGAIN;
    const Bytes m = queue.front();
    queue.pop_front();
    std::copy(m.begin(), m.end(), buffer.begin());
    return static_cast<int>(m.size());
  }
  std::deque<Bytes> queue;
  int requests = 0;
  int fec_errno = 0;
  std::optional<uint32_t> down_count;
};

TEST(NetlinkLinkTransport, FecCountersAndTwoRequestsPerPoll) {
  auto* kernel = new LinkKernel;
  NetlinkPortConfig cfg;
  cfg.netdev = "eth3";
  NetlinkTransport t(cfg, [&](int&) { return std::unique_ptr<NetlinkChannel>(kernel); });
  auto r = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(r)) << std::get<drivers::Error>(r).message;
  const auto& h = std::get<drivers::LinkHealth>(r);
  EXPECT_EQ(h.counters.size(), 4u);  // corrected total + 2 lanes, uncorrectable total
  EXPECT_EQ(h.transactions, 2u);
  // Request bytes: FEC_GET and LINKSTATE_GET 44 each (headers 20, header nest with "eth3" and
  // ETHTOOL_FLAG_STATS 24).
  EXPECT_EQ(h.bytes, 44u + 44u);
  EXPECT_EQ(kernel->requests, 3);  // + the family lookup, once
  kernel->down_count = 4;
  auto again = t.read_link_health();
  EXPECT_EQ(std::get<drivers::LinkHealth>(again).counters.back().id, LinkCounterId::LinkDowned);
}

TEST(NetlinkLinkTransport, NoFecAndNoDownCountIsUnsupported) {
  auto* kernel = new LinkKernel;
  kernel->fec_errno = EOPNOTSUPP;
  NetlinkPortConfig cfg;
  cfg.netdev = "eth3";
  NetlinkTransport t(cfg, [&](int&) { return std::unique_ptr<NetlinkChannel>(kernel); });
  auto r = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(r));
  EXPECT_EQ(std::get<drivers::Error>(r).kind, ErrorKind::Unsupported);
  kernel->down_count = 2;
  auto with_count = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(with_count));
  EXPECT_EQ(std::get<drivers::LinkHealth>(with_count).counters.size(), 1u);
}

}  // namespace
}  // namespace xcvr::netlink

namespace xcvr::netlink {
namespace {

TEST(NetlinkLinkTransport, RealKernelLoopback) {
  // This machine's kernel checks our requests against its policies: `lo` has no FEC (EOPNOTSUPP,
  // not EINVAL: the request itself was accepted); its carrier comes from rtnetlink.
  NetlinkPortConfig cfg;
  cfg.netdev = "lo";
  NetlinkTransport t(cfg);
  auto r = t.read_link_health();
  if (auto* e = std::get_if<drivers::Error>(&r)) {
    if (e->message.find("resolving") != std::string::npos) GTEST_SKIP() << e->message;  // no ethtool family
    EXPECT_EQ(e->kind, ErrorKind::Unsupported) << e->message;
    EXPECT_EQ(e->message.find("EINVAL"), std::string::npos) << "a request the kernel refused: " << e->message;
  } else {
    // rtnetlink's carrier of lo (up, never lost), and the link-down count where the kernel
    // counts link-down events on lo: nothing from FEC.
    const auto& h = std::get<drivers::LinkHealth>(r);
    for (const auto& c : h.counters) {
      EXPECT_TRUE(c.id == LinkCounterId::LinkDowned || c.id == LinkCounterId::CarrierDown) << c.value;
    }
    ASSERT_EQ(h.carrier.size(), 1u);
    EXPECT_TRUE(h.carrier[0].up);
  }
}

}  // namespace
}  // namespace xcvr::netlink
