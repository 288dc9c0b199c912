// Link health over InfiniBand: PMA PortCounters of the ports a module carries (PMLP map),
// saturation of the narrow counters, PortCountersExtended where ClassPortInfo offers the 64-bit
// error counters, PPCNT's physical layer BER (mlxlink's figures) through the first
// AccessRegisterGMP block, the RS-FEC codeword histogram (PPHCR's bins, PPCNT group 0x23's
// counts), and the MADs one link-health poll costs. Emulated Quantum-2 switch and
// ConnectX-7 HCA behind the UmadDevice seam, virtual time.
#include <gtest/gtest.h>

#include <functional>

#include "daemon/fec_tail.hpp"
#include "drivers/ib/ib_transport.hpp"
#include "tests/support/ib/fake_fabric.hpp"

namespace xcvr::ib {
namespace {

using drivers::LinkCounterId;
using base::kSecond;

struct LinkRig {
  base::VirtualClock clock{1000 * kSecond};
  FakeFabric fabric{clock};
  FakeNode* hca = nullptr;
  FakeNode* sw = nullptr;
  std::shared_ptr<MadChannel> channel;

  LinkRig() {
    hca = &fabric.add_connectx7(1, 0x0002C90300000001ULL, "gpu-host-01 mlx5_0");
    sw = &fabric.add_quantum2(10, 0x0002C90300000A00ULL, "leaf-01");
    channel = std::make_shared<MadChannel>(fabric.open(*hca), clock, nullptr, MadPolicy{}, "lane0");
  }
  // A small switch (8 ports, 4 twin-port cages) at `lid`, as `tweak` changes it.
  FakeNode& add_switch(const std::string& name, uint16_t lid, const std::function<void(FakeNodeConfig&)>& tweak = {}) {
    FakeNodeConfig c;
    c.description = name;
    c.guid = 0x0002C90300000000ULL | static_cast<uint64_t>(lid) << 8;
    c.lid = lid;
    c.num_ports = 8;
    c.cages = 4;
    c.model = kQuantum2Model;
    if (tweak) tweak(c);
    return fabric.add(c);
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
  // Module 5 (front-panel cage 6) of a twin-port Quantum-2 carries local ports 11 and 12
  // (PMLP: module lanes 0-3 and 4-7), the panel's 6/1 and 6/2.
  r.sw->set_port_counters(11, {70000, 3, 2, 17, 1, 0});  // symbol errors past 16 bits
  r.sw->set_port_counters(12, {5, 0, 255, 0, 15, 4});    // downed and integrity at their maximum
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 5, "leaf-01/6");
  auto first = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(first)) << std::get<drivers::Error>(first).message;
  const auto& h = std::get<drivers::LinkHealth>(first);
  ASSERT_EQ(h.counters.size(), 12u);
  EXPECT_EQ(h.ber.size(), 4u) << "raw and effective BER of both ports (PPCNT)";
  const auto* sym = find(h, LinkCounterId::SymbolErrors, "6/1");
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->value, 0xFFFFu);
  EXPECT_TRUE(sym->saturated) << "a 16-bit counter at 0xFFFF no longer counts";
  EXPECT_EQ(find(h, LinkCounterId::RcvErrors, "6/1")->value, 17u);
  EXPECT_FALSE(find(h, LinkCounterId::RcvErrors, "6/1")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::LinkDowned, "6/2")->value, 255u);
  EXPECT_TRUE(find(h, LinkCounterId::LinkDowned, "6/2")->saturated);
  EXPECT_TRUE(find(h, LinkCounterId::LocalLinkIntegrityErrors, "6/2")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::ExcessiveBufferOverrunErrors, "6/2")->value, 4u);
  ASSERT_EQ(h.ib_ports.size(), 2u);
  EXPECT_EQ(h.ib_ports[0].link, "6/1");
  EXPECT_EQ(h.ib_ports[0].ib_port, 11);
  EXPECT_EQ(h.ib_ports[1].link, "6/2");
  EXPECT_EQ(h.ib_ports[1].ib_port, 12);
  // The first poll learns the module -> port map (PMLP of the 64 ports), ClassPortInfo and
  // GeneralInfo (does the switch take AccessRegisterGMP) once, and each port's histogram bins
  // (PPHCR); then per port PortCounters, PPCNT BER and PPCNT histogram counts.
  EXPECT_EQ(h.transactions, 64u + 1u + 1u + 2u + 2u + 2u + 2u);
  EXPECT_EQ(h.bytes, h.transactions * 2 * kMadSize);
  auto second = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(second));
  EXPECT_EQ(std::get<drivers::LinkHealth>(second).transactions, 6u)
      << "steady state: one PortCounters and two PPCNT (BER, FEC histogram) per port";
  EXPECT_EQ(r.sw->pma_mads(), 1u + 2u + 2u);
}

// The panel's x/1 is the port on the module's first lanes, whatever its local port number.
TEST(IbLinkHealth, TwinPortLinksAreNamedInPanelOrderByModuleLane) {
  LinkRig r;
  FakeNode& sw = r.add_switch("leaf-05", 14, [](FakeNodeConfig& c) { c.twin_ports_reversed = true; });
  sw.set_port_counters(3, {31, 0, 0, 0, 0, 0});  // local port 3: cage 2, module lanes 4-7
  sw.set_port_counters(4, {42, 0, 0, 0, 0, 0});  // local port 4: cage 2, module lanes 0-3
  IbTransport t(r.target(14), IbLane{r.channel, "ib:leaf-05#0"}, 1, "leaf-05/2");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "2/1")->value, 42u);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "2/2")->value, 31u);
  ASSERT_EQ(h.ib_ports.size(), 2u);
  EXPECT_EQ(h.ib_ports[0].ib_port, 4);
}

TEST(IbLinkHealth, ExtendedErrorCountersWhereClassPortInfoOffersThem) {
  LinkRig r;
  FakeNode& sw = r.add_switch(
      "leaf-02", 11, [](FakeNodeConfig& c) { c.pma = {kPmCapExtendedWidth, kPmCap2AdditionalExtCounters}; });
  sw.set_port_counters(1, {70000, 300, 2, 1ULL << 40, 0, 0});
  IbTransport t(r.target(11), IbLane{r.channel, "ib:leaf-02#0"}, 0, "leaf-02/1");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "1/1")->value, 70000u);
  EXPECT_FALSE(find(h, LinkCounterId::SymbolErrors, "1/1")->saturated);
  EXPECT_EQ(find(h, LinkCounterId::LinkErrorRecovery, "1/1")->value, 300u);
  EXPECT_EQ(find(h, LinkCounterId::RcvErrors, "1/1")->value, 1ULL << 40);
  EXPECT_TRUE(find(h, LinkCounterId::SymbolErrors, "1/2"));
  EXPECT_FALSE(find(h, LinkCounterId::SymbolErrors, "2/1")) << "ports 3-4 belong to cage 2";
}

TEST(IbLinkHealth, AnHcaModuleIsItsLocalPort) {
  LinkRig r;
  r.hca->set_port_counters(1, {9, 0, 1, 0, 0, 0});
  auto target = r.target(1);
  IbTransport t(target, IbLane{r.channel, "ib:hca#0"}, static_cast<uint8_t>(target->modules().at(0)), "hca/1");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  EXPECT_EQ(find(h, LinkCounterId::SymbolErrors, "1")->value, 9u);
  EXPECT_TRUE(h.ib_ports.empty()) << "an HCA's link is its IB port number already";
  // ClassPortInfo + GeneralInfo + PortCounters + PPCNT + PPHCR + PPCNT group 0x23: no PMLP
  // map for an HCA
  EXPECT_EQ(h.transactions, 6u);
}

const drivers::LinkBer* find_ber(const drivers::LinkHealth& h, drivers::LinkBerId id, const std::string& link) {
  for (const auto& b : h.ber) {
    if (b.id == id && b.link == link) return &b;
  }
  return nullptr;
}

TEST(IbLinkHealth, PpcntLayoutAsTheRegisterTableLaysItOut) {
  // mstflint register_access_table.adb: ppcnt_reg_ext dword 0 local_port[23:16], grp[5:0];
  // phys_layer_stat_cntrs_ext from byte 8: time_since_last_clear (64 bits) at 0x00, raw BER
  // dword at 0x60 (coef[3:0], magnitude[15:8]), effective BER at 0x64.
  Ppcnt p;
  p.local_port = 11;
  p.stats.time_since_clear_ms = 0x0000000100000002ULL;
  p.stats.raw_ber = {2, 7};
  p.stats.effective_ber = {15, 255};
  const auto img = encode_ppcnt(p);
  EXPECT_EQ(img.size(), 220u) << "one GMP block";
  EXPECT_EQ(be32(img, 0), 0x000B0016u);
  EXPECT_EQ(be32(img, 8), 0x00000001u);
  EXPECT_EQ(be32(img, 12), 0x00000002u);
  EXPECT_EQ(be32(img, 8 + 0x60), 0x00000702u);
  EXPECT_EQ(be32(img, 8 + 0x64), 0x0000FF0Fu);
  const auto back = decode_ppcnt(img);
  ASSERT_TRUE(back);
  EXPECT_DOUBLE_EQ(*back->stats.raw_ber.value(), 2e-7);
  EXPECT_DOUBLE_EQ(*back->stats.effective_ber.value(), 1.5e-254) << "firmware's 'no errors'";
  EXPECT_FALSE((BerFigure{0, 9}.value())) << "coefficient 0: not computed";
  EXPECT_FALSE(decode_ppcnt(std::span(img).first(8 + 0x67)));
}

TEST(IbLinkHealth, PhysicalLayerBerOfEachPortAsMlxlinkShowsIt) {
  LinkRig r;
  PhysLayerStats a;
  a.time_since_clear_ms = 3'600'000;
  a.raw_ber = {2, 5};  // 2e-5 (coef is one digit, 4 bits)
  r.sw->set_phys_layer(11, a);
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 5, "leaf-01/6");
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  const auto& h = std::get<drivers::LinkHealth>(got);
  const auto* raw = find_ber(h, drivers::LinkBerId::Raw, "6/1");
  ASSERT_TRUE(raw);
  EXPECT_DOUBLE_EQ(raw->value, 2e-5);
  EXPECT_DOUBLE_EQ(raw->window_s, 3600);
  EXPECT_FALSE(find_ber(h, drivers::LinkBerId::Effective, "6/1")) << "a figure the device did not compute is absent";
  EXPECT_DOUBLE_EQ(find_ber(h, drivers::LinkBerId::Effective, "6/2")->value, 1.5e-254) << "firmware's 'no errors'";
  EXPECT_TRUE(find_ber(h, drivers::LinkBerId::Raw, "6/2")) << "the cage's second port";
  EXPECT_EQ(r.sw->register_accesses(kRegPpcnt), 4u) << "group 0x16 and group 0x23 of each port";
  EXPECT_EQ(r.sw->module_write_violations(), 0u);
}

TEST(IbLinkHealth, ADeviceWithoutGmpKeepsItsPortCountersAndIsNotAskedForBerAgain) {
  LinkRig r;
  // Older firmware: Class 0xA only, which cannot carry PPCNT.
  FakeNode& sw = r.add_switch("leaf-03", 12, [](FakeNodeConfig& c) { c.gmp = false; });
  sw.set_port_counters(1, {9, 0, 0, 0, 0, 0});
  IbTransport t(r.target(12), IbLane{r.channel, "ib:leaf-03#0"}, 0, "leaf-03/1");
  auto first = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(first)) << std::get<drivers::Error>(first).message;
  EXPECT_EQ(find(std::get<drivers::LinkHealth>(first), LinkCounterId::SymbolErrors, "1/1")->value, 9u);
  EXPECT_TRUE(std::get<drivers::LinkHealth>(first).ber.empty());
  auto second = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(second));
  EXPECT_EQ(std::get<drivers::LinkHealth>(second).transactions, 2u) << "PortCounters only";
  EXPECT_EQ(sw.register_accesses(kRegPpcnt), 0u);
}

TEST(IbLinkHealth, ADeviceWithoutPpcntIsAskedOnce) {
  LinkRig r;
  FakeNode& sw = r.add_switch("leaf-04", 13, [](FakeNodeConfig& c) { c.ppcnt = false; });
  IbTransport t(r.target(13), IbLane{r.channel, "ib:leaf-04#0"}, 0, "leaf-04/1");
  for (int i = 0; i < 3; ++i) {
    auto got = t.read_link_health();
    ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
    EXPECT_TRUE(std::get<drivers::LinkHealth>(got).ber.empty());
  }
  EXPECT_EQ(sw.register_accesses(kRegPpcnt), 2u) << "group 0x16 once, group 0x23 once";
}

// ---- The RS-FEC codeword histogram: PPHCR's bins, PPCNT group 0x23's counts ----

drivers::LinkHealth read_ok(IbTransport& t) {
  auto got = t.read_link_health();
  EXPECT_TRUE(std::holds_alternative<drivers::LinkHealth>(got)) << std::get<drivers::Error>(got).message;
  return std::holds_alternative<drivers::LinkHealth>(got) ? std::get<drivers::LinkHealth>(got) : drivers::LinkHealth{};
}

TEST(IbLinkHealth, FecHistogramOfEachPortWithItsBinsAndCorrectionLimit) {
  LinkRig r;
  RsHistogramCounts counts{};
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = 1000u >> i;
  r.sw->set_rs_histogram(11, counts);
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 5, "leaf-01/6");
  const auto h = read_ok(t);
  ASSERT_EQ(h.fec_histograms.size(), 2u);
  const drivers::LinkFecHistogram& a = h.fec_histograms[0];
  EXPECT_EQ(a.link, "6/1") << "named as the port's other link health";
  EXPECT_EQ(a.correction_limit, 15) << "RS(544,514)";
  EXPECT_FALSE(a.tail) << "the poller's";
  ASSERT_EQ(a.bins.size(), 16u);
  EXPECT_EQ(a.bins[3].low, 3);
  EXPECT_EQ(a.bins[3].high, 3);
  EXPECT_EQ(a.bins[3].value, 125u);
  EXPECT_EQ(h.fec_histograms[1].link, "6/2");
  EXPECT_EQ(h.fec_histograms[1].bins[0].value, 0u);
  read_ok(t);
  read_ok(t);
  EXPECT_EQ(r.sw->register_accesses(kRegPphcr), 2u) << "the bins: once per port";
  EXPECT_EQ(r.sw->register_accesses(kRegPpcnt), 3u * 4u) << "BER and histogram counts: every read";
}

TEST(IbLinkHealth, FecTailFromTwoReadsAndAfterADeviceReset) {
  LinkRig r;
  FakeNode& sw = r.add_switch("leaf-06", 15, [](FakeNodeConfig& c) { c.rs_histogram_growth = {1000, 50, 2, 1}; });
  IbTransport t(r.target(15), IbLane{r.channel, "ib:leaf-06#0"}, 0, "leaf-06/1");
  auto before = read_ok(t);
  daemon::add_fec_tails(nullptr, before);
  EXPECT_FALSE(before.fec_histograms.at(0).tail) << "withheld on the first read";
  auto now = read_ok(t);
  daemon::add_fec_tails(&before, now);
  EXPECT_EQ(now.fec_histograms.at(0).tail, 3) << "bin 3 grew, nothing above";
  sw.set_rs_histogram(1, {5});  // the device cleared its counters: bins went down
  auto after = read_ok(t);
  daemon::add_fec_tails(&now, after);
  EXPECT_EQ(after.fec_histograms.at(0).tail, 3) << "the highest non-zero bin since the reset";
}

TEST(IbLinkHealth, FecBinsAreAskedAgainAfterTheLinkWentDown) {
  LinkRig r;
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 0, "leaf-01/1");
  read_ok(t);
  Pphcr rs528;
  rs528.active_hist_type = kPphcrHistRs528;
  rs528.num_of_bins = 9;
  for (uint8_t i = 0; i < 8; ++i) rs528.bin_range[i] = {i, i};
  rs528.bin_range[8] = {8, 15};
  r.sw->set_fec_bins(rs528);
  EXPECT_EQ(read_ok(t).fec_histograms.at(0).correction_limit, 15) << "the bins were read; the link stayed up";
  r.sw->set_port_counters(1, {0, 0, 1, 0, 0, 0});  // LinkDowned moved: port 1 retrained
  const auto h = read_ok(t);
  EXPECT_EQ(h.fec_histograms.at(0).correction_limit, 7);
  EXPECT_EQ(h.fec_histograms.at(0).bins.size(), 9u);
  EXPECT_EQ(h.fec_histograms.at(1).correction_limit, 15) << "port 2 did not go down";
  EXPECT_EQ(r.sw->register_accesses(kRegPphcr), 3u);
}

TEST(IbLinkHealth, APortWithoutAHistogramHasItsBinsAskedAgainNotItsCounts) {
  LinkRig r;
  r.sw->set_fec_bins({});  // active_hist_type 0: no histogram (FEC off, the link down)
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 0, "leaf-01/1");
  EXPECT_TRUE(read_ok(t).fec_histograms.empty());
  EXPECT_EQ(read_ok(t).transactions, 6u) << "PortCounters, PPCNT BER, PPHCR per port";
  EXPECT_EQ(r.sw->register_accesses(kRegPpcnt), 4u) << "group 0x16 only";
  Pphcr one;
  one.active_hist_type = kPphcrHistRs544;
  one.num_of_bins = 1;
  one.bin_range[0] = {0, 15};
  r.sw->set_fec_bins(one);
  EXPECT_EQ(read_ok(t).fec_histograms.size(), 2u) << "configured since: read at once";
}

TEST(IbLinkHealth, ADeviceWithoutTheHistogramIsAskedOnce) {
  for (const auto& [name, tweak] : std::initializer_list<std::pair<const char*, std::function<void(FakeNodeConfig&)>>>{
           {"no PPHCR", [](FakeNodeConfig& c) { c.pphcr = false; }},
           {"no PPCNT group 0x23", [](FakeNodeConfig& c) { c.rs_histogram = false; }},
           {"no GMP (Class 0xA carries PPHCR, not PPCNT)", [](FakeNodeConfig& c) { c.gmp = false; }}}) {
    LinkRig r;
    FakeNode& sw = r.add_switch("leaf-07", 16, tweak);
    IbTransport t(r.target(16), IbLane{r.channel, "ib:leaf-07#0"}, 0, "leaf-07/1");
    uint64_t second = 0;
    for (int i = 0; i < 3; ++i) {
      const auto h = read_ok(t);
      EXPECT_TRUE(h.fec_histograms.empty()) << name;
      EXPECT_FALSE(h.counters.empty()) << name << ": the PortCounters stay";
      if (i == 1) second = h.transactions;
    }
    EXPECT_EQ(sw.register_accesses(kRegPphcr), 1u) << name;
    EXPECT_EQ(second, sw.config().gmp ? 4u : 2u) << name << ": PortCounters and PPCNT BER per port";
  }
}

TEST(IbLinkHealth, HostileFecBinsAreAnErrorAndAskedAgain) {
  LinkRig r;
  IbTransport t(r.target(10), IbLane{r.channel, "ib:leaf-01#0"}, 0, "leaf-01/1");
  Pphcr bad;
  bad.active_hist_type = kPphcrHistRs544;
  bad.num_of_bins = 17;
  r.sw->set_fec_bins(bad);
  for (int i = 0; i < 2; ++i) {
    auto got = t.read_link_health();
    ASSERT_TRUE(std::holds_alternative<drivers::Error>(got));
    EXPECT_EQ(std::get<drivers::Error>(got).kind, drivers::ErrorKind::Corrupt);
    EXPECT_EQ(std::get<drivers::Error>(got).message, "leaf-01/1: link counters: PPHCR has 17 bins, PPCNT counts 16");
  }
  bad.num_of_bins = 2;
  bad.bin_range[0] = {0, 3};
  bad.bin_range[1] = {2, 15};
  r.sw->set_fec_bins(bad);
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(got));
  EXPECT_NE(std::get<drivers::Error>(got).message.find("bin 1 (2-15): not above bin 0"), std::string::npos);
  bad.bin_range[1] = {4, 15};
  r.sw->set_fec_bins(bad);
  EXPECT_EQ(read_ok(t).fec_histograms.at(0).bins.size(), 2u) << "asked again at each read until it makes sense";
  EXPECT_EQ(r.sw->register_accesses(kRegPphcr), 3u + 2u);
}

TEST(IbLinkHealth, AnUnansweredTargetIsAnErrorNotZeros) {
  LinkRig r;
  auto target = r.target(10);
  IbTransport t(target, IbLane{r.channel, "ib:leaf-01#0"}, 0, "leaf-01/1");
  r.sw->set_dead(true);
  auto got = t.read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(got));
  EXPECT_NE(std::get<drivers::Error>(got).message.find("leaf-01/1: link counters"), std::string::npos);
}

}  // namespace
}  // namespace xcvr::ib
