// The emulated link a cage carries: symbol-error shares that are the binomial of the RS code;
// codeword-histogram counts that agree with the binomial expectation of the modelled BER within
// statistical tolerance (several seeds, per bin and by chi-square); the uncorrectable counter
// that moves only when the BER pushes codewords past t; a flap shorter than any poll counted
// and timed; and the link through the fleet and the transport, as the daemon reads it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "emulator/fleet.hpp"
#include "emulator/link.hpp"

namespace xcvr::emulator {
namespace {

using drivers::LinkCounterId;

double binomial(int n, int k, double p) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
                  (n - k) * std::log1p(-p));
}

TEST(EmulatorLink, SymbolErrorSharesAreTheCodesBinomial) {
  const double ber = 2e-4;
  const double p = 1 - std::pow(1 - ber, 10);
  const auto shares = symbol_error_shares(cmis::kRs544, ber, 15);
  ASSERT_EQ(shares.size(), 17u);
  double sum = 0;
  for (int k = 0; k <= 15; ++k) {
    EXPECT_NEAR(shares[static_cast<std::size_t>(k)], binomial(544, k, p), 1e-12 + 1e-9 * binomial(544, k, p)) << k;
    sum += shares[static_cast<std::size_t>(k)];
  }
  EXPECT_NEAR(sum + shares.back(), 1.0, 1e-12);
  // Past t: about 5e-14 of codewords at this BER (the KP4 limit is 2.4e-4). 1 - sum cannot
  // tell (lgamma(545) leaves each term ~1e-13 relative error); the tail summed in long double can.
  long double tail = 0;
  const long double pl = 1.0L - std::pow(1.0L - static_cast<long double>(ber), 10);
  for (int k = 16; k <= 544; ++k) {
    tail += std::exp(std::lgamma(545.0L) - std::lgamma(k + 1.0L) - std::lgamma(545.0L - k) + k * std::log(pl) +
                     (544 - k) * std::log1p(-pl));
  }
  EXPECT_NEAR(shares.back(), static_cast<double>(tail), 1e-12 * static_cast<double>(tail) * 1000);
  EXPECT_EQ(symbol_error_shares(cmis::kRs528, 0, 7)[0], 1.0);
}

LinkSide side(double ber, bool carrier = true) { return {carrier, std::vector<double>(8, ber)}; }

TEST(EmulatorLink, HistogramAgreesWithTheBinomialExpectation) {
  // 800G over 8 x 100G PAM4 lanes, RS(544,514), BER 2e-4: one second, four seeds.
  LinkCode code{cmis::kRs544, 8 * 106.25e9 / 5440};
  const double ber = 2e-4;
  const auto shares = symbol_error_shares(code.code, ber, 15);
  for (uint64_t seed : {1, 2, 3, 4}) {
    EmulatedLink link(seed, 7);
    link.advance(0, 0, side(ber), code);
    link.advance(1'000'000'000, 1, side(ber), code);
    double chi2 = 0;
    int df = 0;
    std::printf("seed %llu:", static_cast<unsigned long long>(seed));
    for (int k = 0; k <= 15; ++k) {
      const double expected = code.codewords_per_second * shares[static_cast<std::size_t>(k)];
      const double got = static_cast<double>(link.bins()[static_cast<std::size_t>(k)]);
      std::printf(" %d:%.0f/%.1f", k, got, expected);
      EXPECT_LE(std::abs(got - expected), 5 * std::sqrt(expected) + 1) << "bin " << k << " seed " << seed;
      if (expected >= 5) {
        chi2 += (got - expected) * (got - expected) / expected;
        ++df;
      }
    }
    std::printf("  chi2 %.1f on %d bins\n", chi2, df);
    // Chi-square with df degrees of freedom: mean df, sd sqrt(2 df); 6 sd is far past chance.
    EXPECT_LT(chi2, df + 6 * std::sqrt(2.0 * df)) << "seed " << seed;
    EXPECT_GT(df, 8);  // the test has bins to judge by
  }
}

TEST(EmulatorLink, UncorrectableOnlyWhenCodewordsPassTheLimit) {
  LinkCode code{cmis::kRs544, 8 * 106.25e9 / 5440};
  EmulatedLink healthy(1, 1);
  healthy.advance(0, 0, side(1e-6), code);
  healthy.advance(60'000'000'000, 60, side(1e-6), code);
  EXPECT_EQ(healthy.uncorrectable(), 0u);
  EXPECT_GT(healthy.bins()[1], 0u);
  // Past the KP4 limit (2.4e-4 pre-FEC) codewords with 16+ errors appear within seconds.
  EmulatedLink cliff(1, 1);
  cliff.advance(0, 0, side(2e-3), code);
  cliff.advance(10'000'000'000, 10, side(2e-3), code);
  EXPECT_GT(cliff.uncorrectable(), 0u);
  EXPECT_GT(cliff.bins()[15], 0u);
}

TEST(EmulatorLink, AFlapShorterThanAnyPollIsCountedAndTimed) {
  LinkCode code{cmis::kRs528, 4 * 25.78125e9 / 5280};
  EmulatedLink link(1, 1);
  link.advance(0, 100, side(1e-9), code);
  link.advance(5'000'000'000, 105, side(1e-9, false), code);
  link.advance(5'050'000'000, 105.05, side(1e-9), code);
  link.advance(9'000'000'000, 109, std::nullopt, code);  // unplugged: down again
  const drivers::LinkHealth h = link.health("p1", code);
  const auto down = std::find_if(h.counters.begin(), h.counters.end(),
                                 [](const auto& c) { return c.id == LinkCounterId::CarrierDown; });
  ASSERT_NE(down, h.counters.end());
  EXPECT_EQ(down->value, 2u);
  ASSERT_EQ(h.carrier.size(), 1u);
  EXPECT_FALSE(h.carrier[0].up);
  EXPECT_NEAR(*h.carrier[0].last_down_seconds, 0.05, 1e-9);
  EXPECT_EQ(h.carrier[0].last_down_unix, 109);
  ASSERT_EQ(h.fec_histograms.size(), 1u);
  EXPECT_EQ(h.fec_histograms[0].correction_limit, 7);
  EXPECT_EQ(h.fec_histograms[0].bins.size(), 8u);
}

constexpr const char* kFleet = R"(
[emulator]
clock = "virtual"
[[system]]
name = "host"
port_prefix = "p"
links = true
  [[system.bus]]
  cage_form = "OSFP"
  modules = ["osfp-400g-sr4-flat", ""]
[[system]]
name = "plain"
  [[system.bus]]
  modules = ["qsfpdd-400g-sr8"]
[[fault]]
at = "20s"
duration = "50ms"
port = "host/p1"
kind = "link_down"
)";

TEST(EmulatorLink, ThroughTheFleetAndTheTransport) {
  FleetLoad load = load_fleet(kFleet, "links.toml");
  ASSERT_TRUE(load.fleet) << load.error;
  Fleet& fleet = *load.fleet;
  const FleetPort* p1 = fleet.find_port("host/p1");
  ASSERT_NE(p1, nullptr);
  fleet.virtual_clock()->advance(10 * base::kSecond);  // powered up, data paths active
  auto first = p1->transport->read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::LinkHealth>(first)) << std::get<drivers::Error>(first).message;
  EXPECT_TRUE(std::get<drivers::LinkHealth>(first).carrier.at(0).up);
  EXPECT_EQ(std::get<drivers::LinkHealth>(first).carrier.at(0).link, "p1");
  EXPECT_EQ(std::get<drivers::LinkHealth>(first).fec_histograms.at(0).correction_limit, 15);
  // The timeline's 50 ms flap: both its events run in one call, long after; still one loss.
  fleet.virtual_clock()->advance(15 * base::kSecond);
  EXPECT_TRUE(fleet.run_faults().empty());
  auto after = p1->transport->read_link_health();
  const auto& h = std::get<drivers::LinkHealth>(after);
  EXPECT_TRUE(h.carrier.at(0).up);
  for (const auto& c : h.counters) {
    if (c.id == LinkCounterId::CarrierDown) {
      EXPECT_EQ(c.value, 1u);
    }
  }
  // Codewords flowed while up: bin 0 holds nearly all of 25 s of 400G.
  EXPECT_GT(h.fec_histograms.at(0).bins.at(0).value, 1'000'000'000u);
  // An empty cage of a bus with links has no module yet: nothing to say. A system without
  // links has none.
  const FleetPort* p2 = fleet.find_port("host/p2");
  auto empty = p2->transport->read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(empty));
  EXPECT_EQ(std::get<drivers::Error>(empty).kind, drivers::ErrorKind::Unsupported);
  auto plain = fleet.ports().back().transport->read_link_health();
  ASSERT_TRUE(std::holds_alternative<drivers::Error>(plain));
  EXPECT_EQ(std::get<drivers::Error>(plain).kind, drivers::ErrorKind::Unsupported);
}

}  // namespace
}  // namespace xcvr::emulator
