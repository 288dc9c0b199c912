// Link health over InfiniBand: PMA PortCounters of the ports a module carries (PMLP map),
// saturation of the narrow counters, PortCountersExtended where ClassPortInfo offers the 64-bit
// error counters, and the MADs one link-health poll costs. Emulated Quantum-2 switch and
// ConnectX-7 HCA behind the UmadDevice seam, virtual time.
#include <gtest/gtest.h>

#include "drivers/ib/ib_transport.hpp"
#include "tests/support/ib/fake_fabric.hpp"

namespace xcvr::ib {
namespace {

using drivers::LinkCounterId;
using emulator::kSecond;

struct LinkRig {
  emulator::VirtualClock clock{1000 * kSecond};
  FakeFabric fabric{clock};
  FakeNode* hca = nullptr;
  FakeNode* sw = nullptr;
  std::shared_ptr<MadChannel> channel;

  LinkRig() {
    hca = &fabric.add_connectx7(1, 0x0002C90300000001ULL, "gpu-host-01 mlx5_0");
    sw = &fabric.add_quantum2(10, 0x0002C90300000A00ULL, "leaf-01");
    channel = std::make_shared<MadChannel>(fabric.open(*hca), clock, nullptr, MadPolicy{}, "lane0");
  }
  std::shared_ptr<IbTarget> target(uint16_t lid) {
    TargetOptions o;
    o.lid = lid;
    auto t = std::make_shared<IbTarget>(o, clock);
    EXPECT_FALSE(t->probe(*channel));
    return t;
  }
};

const drivers::LinkCounter* find(const drivers::LinkHealth& h, LinkCounterId id, const std::string& link) {
  for (const auto& c : h.counters) {
    if (c.id == id && c.link == link) return &c;
  }
  return nullptr;
}

TEST(IbLinkHealth, PortCountersOfBothPortsOfATwinPortCage) {
  LinkRig r;
  // Module 5 of a twin-port Quantum-2 carries local ports 11 and 12 (PMLP).
  r.sw->set_port_counters(11, {70000, 3, 2, 17, 1, 0});  // symbol errors past 16 bits
  r.sw->set_port_counters(12, {5, 0, 255, 0, 15, 4});    // downed and integrity at their maximum
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 5, "leaf-01/5");
  auto first = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(first)) << std::get<drivers::Error>(first).message;
  const auto& h = std::get<drivers::LinkHealth>(first);
  ASSERT_EQ(h.counters.size(), 12u);
  const auto* sym = find(h, LinkCounterId::SymbolErrors, "11");
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->value, 0xFFFFu);
  EXPECT_TRUE(sym->saturated) << "a 16-bit counter at 0xFFFF no longer counts";
  EXPECT_EQ(find(h, LinkCounterId::RcvErrors, "11")->value, 17u);
  EXPECT_FALSE(find(h, LinkCounterId::RcvErrors, "11")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::LinkDowned, "12")->value, 255u);
  EXPECT_TRUE(find(h, LinkCounterId::LinkDowned, "12")->saturated);
  EXPECT_TRUE(find(h, LinkCounterId::LocalLinkIntegrityErrors, "12")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::ExcessiveBufferOverrunErrors, "12")->value, 4u);
  // The first poll learns the module -> port map (PMLP of the 128 ports) and ClassPortInfo once.
  EXPECT_EQ(h.transactions, 128u + 1u + 2u);
  EXPECT_EQ(h.bytes, h.transactions * 2 * kMadSize);
  auto second = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(second));
  EXPECT_EQ(std::get<drivers::LinkHealth>(second).transactions, 2u) << "steady state: one PortCounters per port";
  EXPECT_EQ(r.sw->pma_mads(), 1u + 2u + 2u);
}

TEST(IbLinkHealth, ExtendedErrorCountersWhereClassPortInfoOffersThem) {
  LinkRig r;
  FakeNodeConfig c;
  c.description = "leaf-02";
  c.guid = 0x0002C90300000B00ULL;
  c.lid = 11;
  c.num_ports = 8;
  c.cages = 4;
  c.model = kQuantum2Model;
  c.pma = {kPmCapExtendedWidth, kPmCap2AdditionalExtCounters};
  FakeNode& sw = r.fabric.add(c);
  sw.set_port_counters(1, {70000, 300, 2, 1ULL << 40, 0, 0});
  IbTransport t(r.target(11), IbLane{r.channel, "ib:leaf-02#0"}, 0, "leaf-02/0");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "1")->value, 70000u);
  EXPECT_FALSE(find(h, LinkCounterId::SymbolErrors, "1")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::LinkErrorRecovery, "1")->value, 300u);
  EXPECT_EQ(find(h, LinkCounterId::RcvErrors, "1")->value, 1ULL << 40);
  EXPECT_TRUE(find(h, LinkCounterId::SymbolErrors, "2"));
  EXPECT_FALSE(find(h, LinkCounterId::SymbolErrors, "3")) << "ports 3-4 belong to module 1";
}

TEST(IbLinkHealth, AnHcaModuleIsItsLocalPort) {
  LinkRig r;
  r.hca->set_port_counters(1, {9, 0, 1, 0, 0, 0});
  auto target = r.target(1);
  IbTransport t(target, IbLane{r.channel, "ib:hca#0"}, static_cast<uint8_t>(target->modules().at(0)), "hca/0");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "1")->value, 9u);
  EXPECT_EQ(h.transactions, 2u);  // ClassPortInfo + PortCounters: no PMLP map for an HCA
}

TEST(IbLinkHealth, AnUnansweredTargetIsAnErrorNotZeros) {
  LinkRig r;
  auto target = r.target(10);
  IbTransport t(target, IbLane{r.channel, "ib:leaf-01#0"}, 0, "leaf-01/0");
  r.sw->set_dead(true);
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(got));
  EXPECT_NE(std::get<drivers::Error>(got).message.find("leaf-01/0: link counters"), std::string::npos);
}

}  // namespace
}  // namespace xcvr::ib
