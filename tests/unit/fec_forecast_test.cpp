// The FEC-margin forecast: the weighted line through log10 pre-FEC BER (an exact ramp gives its
// slope and crossing; a flat noisy BER, too few samples or too short a span give no number;
// months of uptime keep the sums' precision), and end to end on the emulator: ramps drawn at
// random (a seed fixed before the method was run on them), each module's BER rising on every
// lane until the emulated link's uncorrectable counter moves — the forecast must have stayed
// under two days (TransceiverFecLimitForecast) for half an hour before that first codeword.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "cmis/vdm.hpp"
#include "daemon/fec_forecast.hpp"
#include "emulator/faults.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using testing_support::Fleet;
using testing_support::TransportPath;

constexpr double kLimit = cmis::kKp4PreFecBerLimit;

TEST(FecTrend, AnExactRampGivesItsSlopeAndCrossing) {
  FecTrend t;
  // 1e-7 rising one decade a day, a sample a minute for two hours.
  const double per_s = 1.0 / 86400;
  for (int i = 0; i <= 120; ++i) t.add(i * 60.0, 1e-7 * std::pow(10.0, per_s * i * 60));
  const FecForecast f = t.estimate(7200, kLimit);
  ASSERT_TRUE(f.seconds_to_limit) << f.why_not;
  EXPECT_NEAR(f.slope_decades_per_hour, 1.0 / 24, 1e-9);
  const double now_log = -7 + per_s * 7200;
  EXPECT_NEAR(*f.seconds_to_limit, (std::log10(kLimit) - now_log) / per_s, 1.0);
  EXPECT_NEAR(f.margin_decades, std::log10(kLimit) - now_log, 1e-9);
}

TEST(FecTrend, SaysWhyWhenItCannotEstimate) {
  FecTrend few;
  for (int i = 0; i < 10; ++i) few.add(i * 600.0, 1e-6 * (1 + i));
  EXPECT_EQ(few.estimate(6000, kLimit).why_not, "too few samples");
  FecTrend brief;
  for (int i = 0; i < 100; ++i) brief.add(i * 10.0, 1e-6 * (1 + i));
  EXPECT_EQ(brief.estimate(1000, kLimit).why_not, "less than an hour of samples");
  FecTrend falling;
  for (int i = 0; i < 200; ++i) falling.add(i * 60.0, 1e-5 / (1 + i));
  EXPECT_EQ(falling.estimate(12000, kLimit).why_not, "BER not rising");
  // A healthy link: BER jitters around 2e-7 (±0.1 decade), no trend.
  FecTrend noisy;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  for (int i = 0; i < 2000; ++i) noisy.add(i * 60.0, 2e-7 * std::pow(10.0, jitter(rng)));
  const FecForecast f = noisy.estimate(120000, kLimit);
  EXPECT_FALSE(f.seconds_to_limit.has_value()) << *f.seconds_to_limit;
  EXPECT_TRUE(f.why_not == "BER too noisy for a trend" || f.why_not == "BER not rising") << f.why_not;
  FecTrend none;
  none.add(0, 0);  // nothing measured: not a sample
  EXPECT_FALSE(none.has_samples());
}

TEST(FecTrend, MonthsOfUptimeKeepThePrecision) {
  FecTrend t;
  const double start = 90 * 86400.0;  // three months of flat BER first
  for (double s = 0; s < start; s += 300) t.add(s, 3e-7);
  const double per_s = 0.5 / 86400;
  for (double s = 0; s <= 12 * 3600; s += 60) t.add(start + s, 3e-7 * std::pow(10.0, per_s * s));
  const FecForecast f = t.estimate(start + 12 * 3600, kLimit);
  ASSERT_TRUE(f.seconds_to_limit) << f.why_not;
  // The weighted line still holds part of the flat history: slower than the ramp, never faster.
  EXPECT_GT(f.slope_decades_per_hour, 0.2 * 0.5 / 24);
  EXPECT_LE(f.slope_decades_per_hour, 0.5 / 24 + 1e-9);
}

uint64_t uncorrectable(const PortSnapshot& p) {
  if (!p.link) return 0;
  for (const auto& c : p.link->counters) {
    if (c.id == drivers::LinkCounterId::FecUncorrectableBlocks) return c.value;
  }
  return 0;
}

TEST(EmulatorForecast, WarnsBeforeTheFirstUncorrectableCodeword) {
  std::mt19937_64 rng(20261207);  // chosen before the forecast was first run on these ramps
  std::uniform_real_distribution<double> decades_per_day(0.5, 3.0), start_shift(-0.5, 1.0);
  constexpr double kWarnBelow = 2 * 86400.0, kHold = 1800, kStep = 600;
  for (int ramp = 0; ramp < 5; ++ramp) {
    const double slope = decades_per_day(rng), shift = start_shift(rng);
    Fleet f(1, 1, "osfp-800g-2xsr4-finned", 720, TransportPath::Emulator, nullptr, /*links=*/true, /*dynamic=*/60);
    const std::string port = "sw/b0c0";
    emulator::FaultInjector injector(*f.buses[0]);
    emulator::Fault offset;
    offset.kind = emulator::FaultKind::BerShift;
    offset.value = shift;
    ASSERT_EQ(injector.apply(0, offset), std::nullopt);
    f.run_for(3 * 3600);  // a healthy start: the line is flat
    ASSERT_FALSE(f.port(port).fec_forecast && f.port(port).fec_forecast->seconds_to_limit &&
                 *f.port(port).fec_forecast->seconds_to_limit < kWarnBelow)
        << "ramp " << ramp << ": a warning before the ramp began";
    emulator::Fault degrade;
    degrade.kind = emulator::FaultKind::BerDegrade;
    degrade.value = slope / 1440;  // decades per minute
    ASSERT_EQ(injector.apply(0, degrade), std::nullopt);
    std::optional<double> warned_since;
    double elapsed = 0;
    for (; elapsed < 20 * 86400 && uncorrectable(f.port(port)) == 0; elapsed += kStep) {
      f.run_for(kStep);
      const auto& fc = f.port(port).fec_forecast;
      const bool warning = fc && fc->seconds_to_limit && *fc->seconds_to_limit < kWarnBelow;
      if (!warning) warned_since.reset();
      else if (!warned_since) warned_since = elapsed;
    }
    ASSERT_GT(uncorrectable(f.port(port)), 0u) << "ramp " << ramp << ": the link never reached the cliff";
    ASSERT_TRUE(warned_since) << "ramp " << ramp << ": no warning before the first uncorrectable codeword";
    const double lead_h = (elapsed - kStep - *warned_since) / 3600;
    std::printf("ramp %d: %.2f decades/day from %+.2f decades: first uncorrectable after %.1f h, warning %.1f h before it\n",
                ramp, slope, shift, elapsed / 3600, lead_h);
    EXPECT_GE(elapsed - kStep - *warned_since, kHold) << "ramp " << ramp;
  }
}

}  // namespace
}  // namespace xcvr::daemon
