// A netdev's carrier through rtnetlink: the RTM_NEWLINK parser on messages built byte by byte
// (a GETLINK reply, a notification, RTM_DELLINK, garbage), the GETLINK request, the timeline
// that times a loss from notifications (and withholds the time of a flap folded into one), the
// transport adding the carrier to its link read, and the real kernel's answer for `lo`.
#include <gtest/gtest.h>

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <cstring>

#include "drivers/carrier_timeline.hpp"
#include "drivers/netlink/carrier.hpp"
#include "drivers/netlink/carrier_watch.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "tests/unit/netlink_bytes.hpp"

namespace xcvr::netlink {
namespace {

using namespace netlink_bytes;
using drivers::ErrorKind;
using drivers::LinkCounterId;

// RTM_NEWLINK (or DELLINK) as the kernel lays it out: struct ifinfomsg, then attributes.
Bytes link_msg(uint16_t type, uint32_t seq, const std::string& name, std::optional<uint8_t> carrier,
               std::optional<uint32_t> down_count, uint32_t flags = IFF_UP) {
  Bytes payload;
  append<uint8_t>(payload, AF_UNSPEC);
  append<uint8_t>(payload, 0);
  append<uint16_t>(payload, 1);  // ARPHRD_ETHER
  append<int32_t>(payload, 7);   // ifindex
  append<uint32_t>(payload, flags);
  append<uint32_t>(payload, 0);  // change
  Bytes n(name.begin(), name.end());
  n.push_back(0);
  for (const Bytes& a : {attr(IFLA_IFNAME, n), attr(IFLA_MTU, Bytes{0xdc, 0x05, 0, 0})}) {
    payload.insert(payload.end(), a.begin(), a.end());
  }
  if (carrier) {
    const Bytes a = attr(IFLA_CARRIER, Bytes{*carrier});
    payload.insert(payload.end(), a.begin(), a.end());
  }
  if (down_count) {
    Bytes v;
    append<uint32_t>(v, *down_count);
    const Bytes a = attr(IFLA_CARRIER_DOWN_COUNT, v);
    payload.insert(payload.end(), a.begin(), a.end());
  }
  return nlmsg(type, 0, seq, payload);
}

Bytes ack(uint32_t seq) { return error_msg(seq, 0); }

Bytes cat(const Bytes& a, const Bytes& b) {
  Bytes out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

TEST(NetlinkCarrier, GetlinkReplyAndItsAck) {
  const auto r = parse_link_messages(cat(link_msg(RTM_NEWLINK, 9, "fa0", 1, 3), ack(9)), 9);
  ASSERT_TRUE(std::holds_alternative<LinkMessages>(r)) << std::get<drivers::Error>(r).message;
  const auto& got = std::get<LinkMessages>(r);
  ASSERT_EQ(got.links.size(), 1u);
  EXPECT_TRUE(got.done);
  EXPECT_EQ(got.links[0].ifname, "fa0");
  EXPECT_EQ(got.links[0].ifindex, 7);
  EXPECT_EQ(got.links[0].carrier, true);
  EXPECT_EQ(got.links[0].down_count, 3u);
  EXPECT_TRUE(got.links[0].admin_up);
}

TEST(NetlinkCarrier, NotificationsOfSeveralNetdevsAndADeletion) {
  const Bytes b = cat(cat(link_msg(RTM_NEWLINK, 0, "eth0", 0, 1), link_msg(RTM_NEWLINK, 0, "eth1", std::nullopt, std::nullopt)),
                      link_msg(RTM_DELLINK, 0, "eth2", 0, 0));
  const auto r = parse_link_messages(b);
  ASSERT_TRUE(std::holds_alternative<LinkMessages>(r)) << std::get<drivers::Error>(r).message;
  const auto& got = std::get<LinkMessages>(r);
  ASSERT_EQ(got.links.size(), 2u);
  EXPECT_EQ(got.links[0].carrier, false);
  EXPECT_FALSE(got.links[1].carrier.has_value());  // a kernel that sends no carrier: absent
  EXPECT_FALSE(got.links[1].down_count.has_value());
  EXPECT_EQ(got.deleted, std::vector<std::string>{"eth2"});
  EXPECT_FALSE(got.done);
}

TEST(NetlinkCarrier, HostileMessagesAreCorruptAndSayWhat) {
  const auto message_of = [](const Bytes& b) {
    const auto r = parse_link_messages(b);
    EXPECT_TRUE(std::holds_alternative<drivers::Error>(r));
    if (!std::holds_alternative<drivers::Error>(r)) return std::string();
    EXPECT_EQ(std::get<drivers::Error>(r).kind, ErrorKind::Corrupt);
    return std::get<drivers::Error>(r).message;
  };
  EXPECT_NE(message_of(link_msg(RTM_NEWLINK, 0, "a-name-longer-than-ifnamsiz", 1, 1)).find("interface name"),
            std::string::npos);
  EXPECT_NE(message_of(link_msg(RTM_NEWLINK, 0, "", 1, 1)).find("interface name"), std::string::npos);
  Bytes short_info = nlmsg(RTM_NEWLINK, 0, 0, Bytes(8, 0));
  EXPECT_NE(message_of(short_info).find("link message of 8 bytes"), std::string::npos);
  Bytes bad_count = link_msg(RTM_NEWLINK, 0, "eth0", 1, 5);
  bad_count[bad_count.size() - 8] = 6;  // the down count attribute claims 2 bytes of payload
  EXPECT_FALSE(message_of(bad_count).empty());
  Bytes overrun = link_msg(RTM_NEWLINK, 0, "eth0", 1, 5);
  overrun[16 + 16] = 0xff;  // the first attribute's length runs past the message
  EXPECT_NE(message_of(overrun).find("overrun"), std::string::npos);
}

TEST(NetlinkCarrier, GetlinkRequestNamesTheNetdev) {
  const Bytes q = build_getlink_request(5, "enp59s0f0np0");
  uint16_t type = 0, flags = 0;
  uint32_t len = 0, seq = 0;
  std::memcpy(&len, q.data(), 4);
  std::memcpy(&type, q.data() + 4, 2);
  std::memcpy(&flags, q.data() + 6, 2);
  std::memcpy(&seq, q.data() + 8, 4);
  EXPECT_EQ(len, q.size());
  EXPECT_EQ(type, RTM_GETLINK);
  EXPECT_EQ(flags, NLM_F_REQUEST | NLM_F_ACK);
  EXPECT_EQ(seq, 5u);
  // ifinfomsg (16 bytes) then IFLA_IFNAME.
  uint16_t attr_type = 0;
  std::memcpy(&attr_type, q.data() + 16 + 16 + 2, 2);
  EXPECT_EQ(attr_type, IFLA_IFNAME);
  EXPECT_STREQ(reinterpret_cast<const char*>(q.data() + 16 + 16 + 4), "enp59s0f0np0");
}

TEST(NetlinkCarrier, TimelineTimesALossFromItsTwoNotifications) {
  drivers::CarrierTimeline t;
  t.on_state("fa0", true, 1u, 100.0, 1'800'000'000.0);
  EXPECT_FALSE(t.view("fa0")->last_down_unix.has_value());
  t.on_state("fa0", false, 2u, 110.0, 1'800'000'010.0);
  EXPECT_TRUE(t.view("fa0")->down_now);
  EXPECT_EQ(t.view("fa0")->last_down_unix, 1'800'000'010.0);
  EXPECT_FALSE(t.view("fa0")->last_down_seconds.has_value());  // still down: not ended yet
  t.on_state("fa0", true, 2u, 111.5, 1'800'000'011.5);
  EXPECT_FALSE(t.view("fa0")->down_now);
  EXPECT_DOUBLE_EQ(*t.view("fa0")->last_down_seconds, 1.5);
  // A message that changes nothing of the carrier (an MTU change) keeps the times.
  t.on_state("fa0", true, 2u, 200.0, 1'800'000'100.0);
  EXPECT_DOUBLE_EQ(*t.view("fa0")->last_down_seconds, 1.5);
  EXPECT_FALSE(t.view("eth9").has_value());
}

TEST(NetlinkCarrier, AFlapFoldedIntoOneNotificationIsNotTimed) {
  drivers::CarrierTimeline t;
  t.on_state("fa0", true, 1u, 100.0, 1.0);
  t.on_state("fa0", false, 2u, 110.0, 11.0);
  t.on_state("fa0", true, 2u, 110.2, 11.2);
  ASSERT_TRUE(t.view("fa0")->last_down_seconds.has_value());
  // Up, and the kernel counted another loss: it came and went between two notifications.
  t.on_state("fa0", true, 3u, 120.0, 21.0);
  EXPECT_FALSE(t.view("fa0")->last_down_seconds.has_value());
  EXPECT_FALSE(t.view("fa0")->last_down_unix.has_value());
  // Down again, with an "up" missed in between (two more losses counted): timed from now.
  t.on_state("fa0", false, 5u, 130.0, 31.0);
  EXPECT_EQ(t.view("fa0")->last_down_unix, 31.0);
  t.on_state("fa0", true, 5u, 130.05, 31.05);
  EXPECT_NEAR(*t.view("fa0")->last_down_seconds, 0.05, 1e-9);
}

TEST(NetlinkCarrier, ALossUnderWayWhenFirstSeenHasNoStart) {
  drivers::CarrierTimeline t;
  t.on_state("fa0", false, 4u, 100.0, 1.0);
  EXPECT_TRUE(t.view("fa0")->down_now);
  EXPECT_FALSE(t.view("fa0")->last_down_unix.has_value());
  t.on_state("fa0", true, 4u, 105.0, 6.0);
  EXPECT_FALSE(t.view("fa0")->last_down_seconds.has_value());
  t.on_deleted("fa0");
  EXPECT_FALSE(t.view("fa0").has_value());
}

TEST(NetlinkCarrier, TimelineFollowsABoundedNumberOfNetdevs) {
  drivers::CarrierTimeline t;
  for (std::size_t i = 0; i < drivers::CarrierTimeline::kMaxNetdevs + 10; ++i) {
    t.on_state("n" + std::to_string(i), true, 0u, 1.0, 1.0);
  }
  EXPECT_EQ(t.followed(), drivers::CarrierTimeline::kMaxNetdevs);
}

struct FixedCarrier final : CarrierSource {
  std::variant<CarrierReading, drivers::Error> read(const std::string& netdev) override {
    ++reads;
    if (error) return *error;
    CarrierReading r;
    r.carrier = {netdev, false, 0.25, 1'800'000'000.0};
    r.down_count = 12;
    r.bytes = 100;
    return r;
  }
  int reads = 0;
  std::optional<drivers::Error> error;
};

// A kernel with no ethtool FEC or link state for the netdev (a veth): every request refused.
struct RefusingKernel final : PlayedKernel {
  Bytes answer(uint16_t, uint32_t seq, std::span<const uint8_t>) override { return error_msg(seq, -EOPNOTSUPP); }
};

TEST(NetlinkCarrier, ALinkReadCarriesTheCarrierEvenWithoutEthtoolCounters) {
  FixedCarrier carrier;
  NetlinkPortConfig cfg;
  cfg.netdev = "veth0";
  NetlinkTransport t(cfg, [](int&) { return std::make_unique<RefusingKernel>(); }, &carrier);
  auto r = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(r)) << std::get<drivers::Error>(r).message;
  const auto& h = std::get<drivers::LinkHealth>(r);
  ASSERT_EQ(h.counters.size(), 1u);
  EXPECT_EQ(h.counters[0].id, LinkCounterId::CarrierDown);
  EXPECT_EQ(h.counters[0].value, 12u);
  EXPECT_EQ(h.counters[0].link, "veth0");
  ASSERT_EQ(h.carrier.size(), 1u);
  EXPECT_FALSE(h.carrier[0].up);
  EXPECT_EQ(h.carrier[0].last_down_seconds, 0.25);
  EXPECT_EQ(h.transactions, 3u);
  // A kernel that refuses the carrier too: the link has nothing to read.
  carrier.error = drivers::Error{ErrorKind::Unsupported, "no carrier"};
  auto none = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(none));
  EXPECT_EQ(std::get<drivers::Error>(none).kind, ErrorKind::Unsupported);
  // Any other failure of the carrier read is the link read's failure, named.
  carrier.error = drivers::Error{ErrorKind::Timeout, "no netlink reply (timeout)"};
  auto slow = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(slow));
  EXPECT_NE(std::get<drivers::Error>(slow).message.find("veth0"), std::string::npos);
}

TEST(NetlinkCarrier, RealKernelCarrierOfLoopback) {
  // This machine's kernel answers RTM_GETLINK for `lo`: up, and never lost carrier.
  auto r = CarrierWatch::instance().read("lo");
  ASSERT_TRUE(std::holds_alternative<CarrierReading>(r)) << std::get<drivers::Error>(r).message;
  const auto& got = std::get<CarrierReading>(r);
  EXPECT_TRUE(got.carrier.up);
  EXPECT_EQ(got.down_count, 0u);
  EXPECT_GT(got.bytes, 32u);
  auto missing = CarrierWatch::instance().read("no-such-dev0");
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(missing));
  EXPECT_NE(std::get<drivers::Error>(missing).message.find("ENODEV"), std::string::npos)
      << std::get<drivers::Error>(missing).message;
}

}  // namespace
}  // namespace xcvr::netlink
