// The IB transport against emulated devices behind the UmadDevice seam: an emulated Quantum-2
// switch and ConnectX-7 HCA answer MADs from emulator modules. Virtual time throughout.
#include <gtest/gtest.h>

#include "emulator/catalog.hpp"
#include "tests/support/ib/fake_fabric.hpp"
#include "drivers/ib/ib_transport.hpp"

namespace xcvr::ib {
namespace {

using drivers::ErrorKind;
using base::kMillisecond;
using base::kSecond;

struct Rig {
  base::VirtualClock clock{1000 * kSecond};
  FakeFabric fabric{clock};
  FakeNode* hca = nullptr;
  FakeNode* sw = nullptr;
  std::shared_ptr<IbTarget> target;
  std::shared_ptr<MadChannel> channel;

  explicit Rig(FakeNodeConfig switch_config = {}, TargetOptions options = {}) {
    hca = &fabric.add_connectx7(1, 0x0002C90300000001ULL, "gpu-host-01 mlx5_0");
    if (switch_config.cages == 0) {
      sw = &fabric.add_quantum2(10, 0x0002C90300000A00ULL, "leaf-01");
    } else {
      sw = &fabric.add(switch_config);
    }
    options.lid = sw->config().lid;
    target = std::make_shared<IbTarget>(options, clock);
    channel = std::make_shared<MadChannel>(fabric.open(*hca), clock, nullptr, MadPolicy{}, "lane0");
  }
  IbTransport port(uint8_t module) {
    return IbTransport(target, IbLane{channel, "ib:leaf-01#0"}, module, "leaf-01/" + std::to_string(module));
  }
  std::vector<uint8_t> read(IbTransport& t, uint8_t page, uint16_t offset, uint16_t length,
                            std::optional<drivers::Error>* err_out = nullptr) {
    std::vector<uint8_t> buf(length);
    auto err = t.read({0x50, 0, page, offset, length}, buf);
    if (err_out) *err_out = err;
    else EXPECT_FALSE(err) << err->message;
    return buf;
  }
};

FakeNodeConfig quantum2(bool mcia_128 = true) {
  FakeNodeConfig c;
  c.description = "leaf-01";
  c.guid = 0x0002C90300000A00ULL;
  c.lid = 10;
  c.node_type = kNodeTypeSwitch;
  c.num_ports = 128;
  c.cages = 64;
  c.model = kQuantum2Model;
  c.mcia_128 = mcia_128;
  return c;
}

TEST(IbTransport, ProbeLearnsNameSizeAndModules) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  EXPECT_EQ(r.target->name(), "leaf-01");
  EXPECT_EQ(r.target->guid(), 0x0002C90300000A00ULL);
  EXPECT_EQ(r.target->node_type(), kNodeTypeSwitch);
  EXPECT_EQ(r.target->mcia_bytes(), 128);
  EXPECT_EQ(r.target->module_count(), 32);
  EXPECT_EQ(r.target->method(), AccessMethod::ClassA);
}

TEST(IbTransport, ReadsTheModulesMemory) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(5);
  EXPECT_EQ(t.domain(), "ib:leaf-01#0");
  const auto lower = r.read(t, 0, 0, 128);
  EXPECT_EQ(lower[0], 0x19);  // SFF-8024 OSFP
  const auto upper = r.read(t, 0, 128, 128);
  const auto* model = emulator::find_model(kQuantum2Model);
  const std::string vendor(upper.begin() + (129 - 128), upper.begin() + (129 - 128) + 16);  // CMIS 00h:129-144
  EXPECT_EQ(vendor.substr(0, model->vendor_name.size()), model->vendor_name);
  // Same bytes as the module's own memory (static page 00h upper).
  std::vector<uint8_t> direct(128);
  r.sw->with_module(5, [&](emulator::EmulatedModule& m) {
    const uint8_t page0[1] = {0};
    m.write(127, page0);
    m.read(128, direct);
  });
  EXPECT_EQ(upper, direct);
  // Page 11h (banked) selected with a 2-byte write only when the bank changes; never any other write.
  r.read(t, 0x11, 128, 74);
  EXPECT_EQ(r.sw->module_write_violations(), 0u);
  EXPECT_EQ(r.sw->mcia(5), 3u);
  EXPECT_EQ(t.counters().transactions, 3u);
}

TEST(IbTransport, LegacyMciaSplitsInto48ByteChunks) {
  Rig r(quantum2(/*mcia_128=*/false));
  ASSERT_FALSE(r.target->probe(*r.channel));
  EXPECT_EQ(r.target->mcia_bytes(), 48);
  IbTransport t = r.port(0);
  const auto bytes = r.read(t, 0, 128, 128);
  EXPECT_EQ(r.sw->mcia(0), 3u);  // 48 + 48 + 32
  Rig r128;
  ASSERT_FALSE(r128.target->probe(*r128.channel));
  IbTransport t128 = r128.port(0);
  EXPECT_EQ(r128.read(t128, 0, 128, 128), bytes);
}

TEST(IbTransport, RefusedLargeMciaFallsBackTo48) {
  TargetOptions o;
  o.mcia_bytes = 128;  // configured, but the firmware only takes 12 dwords
  Rig r(quantum2(false), o);
  IbTransport t = r.port(1);
  const auto bytes = r.read(t, 0, 0, 100);
  EXPECT_EQ(bytes[0], 0x19);
  EXPECT_EQ(r.target->mcia_bytes(), 48);
  r.read(t, 0, 128, 96);
  EXPECT_EQ(r.sw->mcia(1), 3u /*100 = 48+48+4*/ + 2u) << "the fake counts the MCIAs it accepted";
  EXPECT_EQ(t.counters().transactions, 1u /*refused*/ + 3u + 2u);
}

TEST(IbTransport, PresenceFromPmaosThenFreeWhileReadsSucceed) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(3);
  EXPECT_EQ(t.presence(), drivers::Presence::Present);
  EXPECT_EQ(r.sw->pmaos(3), 1u);
  ASSERT_TRUE(t.last_pmaos());
  EXPECT_EQ(t.last_pmaos()->oper_status, kPmaosPluggedEnabled);
  r.read(t, 0, 0, 26);
  const uint64_t mads = r.sw->mads();
  EXPECT_EQ(t.presence(), drivers::Presence::Present);
  EXPECT_EQ(r.sw->mads(), mads) << "presence of a module that reads fine costs no MAD";
  // Pull it: the next read says Absent (MCIA "not connected"), and presence asks PMAOS again.
  r.sw->remove(3);
  std::optional<drivers::Error> err;
  r.read(t, 0, 0, 26, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Absent);
  EXPECT_NE(err->message.find("not connected"), std::string::npos) << err->message;
  EXPECT_EQ(t.presence(), drivers::Presence::Absent);
  EXPECT_EQ(r.sw->pmaos(3), 2u);
}

TEST(IbTransport, TimeoutsAreResentWithBackoff) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(0);
  r.sw->drop_next(2);
  const int64_t before = r.clock.now_ns();
  r.read(t, 0, 0, 26);
  const auto c = r.channel->counters();
  EXPECT_EQ(c.timeouts, 2u);
  // Two 100 ms timeouts, backoff 20 ms then 40 ms, and the answered attempt's latency.
  EXPECT_EQ(r.clock.now_ns() - before, 200 * kMillisecond + 60 * kMillisecond + r.fabric.latency_ns());
  EXPECT_EQ(t.counters().transactions, 3u);
}

TEST(IbTransport, BusyStatusesAreAskedAgain) {
  for (FakeBusy kind : {FakeBusy::MadStatus, FakeBusy::RegisterStatus, FakeBusy::McciaI2cError}) {
    Rig r;
    ASSERT_FALSE(r.target->probe(*r.channel));
    IbTransport t = r.port(0);
    r.sw->busy_next(2, kind);
    const auto bytes = r.read(t, 0, 0, 26);
    EXPECT_EQ(bytes[0], 0x19);
    EXPECT_EQ(r.target->stats().busy, 2u);
  }
  // Busy for longer than the retries: a Busy error the poller can retry later.
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(0);
  r.sw->busy_next(100, FakeBusy::RegisterStatus);
  std::optional<drivers::Error> err;
  r.read(t, 0, 0, 26, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Busy);
  EXPECT_NE(err->message.find("device busy"), std::string::npos) << err->message;
}

TEST(IbTransport, DeadTargetOpensTheBreakerAndIsProbedLater) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(0);
  r.sw->set_dead(true);
  std::optional<drivers::Error> err;
  for (int i = 0; i < 2; ++i) {
    r.read(t, 0, 0, 26, &err);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->kind, ErrorKind::Busy);
    EXPECT_NE(err->message.find("no response after 3 attempts"), std::string::npos) << err->message;
  }
  EXPECT_TRUE(r.target->breaker_open());
  const uint64_t mads = r.sw->mads();
  const int64_t t0 = r.clock.now_ns();
  for (int i = 0; i < 50; ++i) {
    r.read(t, 0, 0, 26, &err);
    ASSERT_TRUE(err);
    EXPECT_NE(err->message.find("not answering"), std::string::npos) << err->message;
  }
  EXPECT_EQ(r.sw->mads(), mads) << "a dead target costs no MADs while the breaker is open";
  EXPECT_EQ(r.clock.now_ns(), t0) << "and no time";
  r.sw->set_dead(false);
  r.clock.advance(31 * kSecond);  // probe interval 30 s
  r.read(t, 0, 0, 26);
  EXPECT_FALSE(r.target->breaker_open());
  EXPECT_EQ(r.target->stats().breaker_opens, 1u);
}

TEST(IbTransport, GmpWhenClassARefusedAndSmpWhenOnlyThatFits) {
  FakeNodeConfig c = quantum2();
  c.class_a = false;
  Rig r(c);
  ASSERT_FALSE(r.target->probe(*r.channel));
  EXPECT_EQ(r.target->method(), AccessMethod::Gmp);
  IbTransport t = r.port(2);
  EXPECT_EQ(r.read(t, 0, 0, 8)[0], 0x19);

  c.gmp = false;
  Rig s(c);
  const auto probed = s.target->probe(*s.channel);
  EXPECT_FALSE(probed);
  EXPECT_EQ(s.target->module_count(), 0) << "MGPIR (160 B) fits no form this device answers";
  IbTransport u = s.port(2);
  EXPECT_EQ(u.presence(), drivers::Presence::Present) << "PMAOS (16 B) fits an SMP";
  EXPECT_EQ(s.target->method(), AccessMethod::Smp);
  std::optional<drivers::Error> err;
  s.read(u, 0, 0, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Unsupported);
}

TEST(IbTransport, VsKeyIsSentWhenConfigured) {
  FakeNodeConfig c = quantum2();
  c.vs_key = 0x5EC12E7;
  Rig wrong(c);
  wrong.target->probe(*wrong.channel);
  IbTransport t = wrong.port(0);
  std::optional<drivers::Error> err;
  wrong.read(t, 0, 0, 8, &err);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Busy);
  TargetOptions o;
  o.vs_key = 0x5EC12E7;
  Rig right(c, o);
  ASSERT_FALSE(right.target->probe(*right.channel));
  IbTransport u = right.port(0);
  EXPECT_EQ(right.read(u, 0, 0, 8)[0], 0x19);
}

TEST(IbTransport, MkeyProtectedSmaStillReadsByVendorMads) {
  FakeNodeConfig c = quantum2();
  c.m_key = 0xC0FFEE;
  Rig without(c);
  EXPECT_FALSE(without.target->probe(*without.channel)) << "vendor MADs answer; only the SMA is silent";
  EXPECT_EQ(without.target->name(), "lid-10");
  EXPECT_EQ(without.target->module_count(), 64);
  TargetOptions o;
  o.m_key = 0xC0FFEE;
  Rig with(c, o);
  ASSERT_FALSE(with.target->probe(*with.channel));
  EXPECT_EQ(with.target->name(), "leaf-01");
}

TEST(IbTransport, GarbledRepliesAreErrorsAndTheNextReadWorks) {
  for (FakeGarble g : {FakeGarble::Truncated, FakeGarble::Garbage, FakeGarble::WrongRegister}) {
    Rig r;
    ASSERT_FALSE(r.target->probe(*r.channel));
    IbTransport t = r.port(0);
    r.sw->garble_next(1, g);
    std::optional<drivers::Error> err;
    r.read(t, 0, 0, 8, &err);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->kind, ErrorKind::Corrupt) << err->message;
    EXPECT_EQ(r.read(t, 0, 0, 8)[0], 0x19);
  }
  // A reply with another TID is someone else's: dropped, and the re-send is answered.
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(0);
  r.sw->garble_next(1, FakeGarble::WrongTid);
  EXPECT_EQ(r.read(t, 0, 0, 8)[0], 0x19);
  EXPECT_EQ(r.channel->counters().stale, 1u);
  EXPECT_EQ(r.channel->counters().timeouts, 1u);
}

TEST(IbTransport, PagesTheModuleLacksAreUnsupported) {
  Rig r;
  ASSERT_FALSE(r.target->probe(*r.channel));
  IbTransport t = r.port(0);
  std::optional<drivers::Error> err;
  r.read(t, 0x03, 128, 16, &err);  // CMIS page 03h: the emulated module has none
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Unsupported);
  r.read(t, 0, 120, 16, &err);  // across byte 128: refused before any MAD
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, ErrorKind::Unsupported);
  EXPECT_EQ(r.sw->module_write_violations(), 0u);
}

TEST(IbTransport, ConnectX7ModuleThroughItsOwnLid) {
  base::VirtualClock clock{kSecond};
  FakeFabric fabric(clock);
  FakeNode& hca = fabric.add_connectx7(7, 0x0002C90300000701ULL, "gpu-07 mlx5_0");
  TargetOptions o;
  o.lid = 7;
  auto target = std::make_shared<IbTarget>(o, clock);
  auto ch = std::make_shared<MadChannel>(fabric.open(hca), clock, nullptr, MadPolicy{}, "lane");
  ASSERT_FALSE(target->probe(*ch));
  EXPECT_EQ(target->module_count(), 1);
  EXPECT_EQ(target->node_type(), kNodeTypeCa);
  IbTransport t(target, IbLane{ch, "ib:gpu-07#0"}, 0, "gpu-07 mlx5_0/0");
  std::vector<uint8_t> b(1);
  ASSERT_FALSE(t.read({0x50, 0, 0, 0, 1}, b));
  EXPECT_EQ(b[0], 0x19);
}

TEST(IbTransport, HcaWithoutMgpirMapsItsPortWithPmlp) {
  base::VirtualClock clock{kSecond};
  FakeFabric fabric(clock);
  FakeNodeConfig c;
  c.description = "gpu-08 mlx5_1";
  c.guid = 0x0802;
  c.lid = 8;
  c.node_type = kNodeTypeCa;
  c.num_ports = 2;
  c.cages = 2;
  c.model = kConnectX7Model;
  c.mgpir = false;
  FakeNode& hca = fabric.add(c);
  TargetOptions o;
  o.lid = 8;
  o.local_port = 2;
  IbTarget target(o, clock);
  MadChannel ch(fabric.open(hca), clock, nullptr, MadPolicy{}, "lane");
  ASSERT_FALSE(target.probe(ch));
  EXPECT_EQ(target.module_count(), 0);
  EXPECT_EQ(target.modules(), std::vector<int>{1}) << "port 2 of an HCA is module 1";
  EXPECT_EQ(hca.register_accesses(kRegPmlp), 1u);
}

TEST(IbTransport, RealUmadWithoutThatDeviceIsAClearError) {
  auto r = open_umad_device("xcvr_no_such_ca", 1, true);
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(r));
  const auto& e = std::get<drivers::Error>(r);
  EXPECT_EQ(e.kind, ErrorKind::Absent);
  EXPECT_NE(e.message.find("xcvr_no_such_ca:1"), std::string::npos) << e.message;
}

TEST(IbTransport, RateLimiterSpacesMadsOnTheClock) {
  base::VirtualClock clock{0};
  RateLimiter limiter(1000, 10, clock);
  for (int i = 0; i < 10; ++i) limiter.acquire();  // the burst
  EXPECT_EQ(clock.now_ns(), 0);
  for (int i = 0; i < 100; ++i) limiter.acquire();
  EXPECT_EQ(clock.now_ns(), 100 * base::kMillisecond);
  EXPECT_EQ(limiter.granted(), 110u);
}

}  // namespace
}  // namespace xcvr::ib
