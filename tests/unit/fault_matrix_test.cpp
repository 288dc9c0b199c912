// Fault matrix: every emulator fault kind on one cage of a 2-bus fleet, polled in virtual time,
// through each transport path that reaches an emulated module: the emulator's transport and the
// production i2c-dev transport over the syscall seam. For each: the daemon keeps publishing; the faulty port is marked (error counter, stale,
// absent, flag, state, checksum or visibly changed values); ports on the other bus keep their
// cycle time (±10 %); nothing is served as fresh after a failed read; no write violation.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "emulator/faults.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

using testing_support::Fleet;
using testing_support::TransportPath;

constexpr const char* kFaulty = "sw/b1c0";
constexpr const char* kHealthy = "sw/b0c0";

double mean_cycle(const DomainStats& before, const DomainStats& after) {
  const double n = static_cast<double>(after.cycles_total - before.cycles_total);
  return n == 0 ? 0 : (after.cycle_seconds_sum - before.cycle_seconds_sum) / n;
}

uint64_t errors(const PortSnapshot& p) {
  uint64_t n = 0;
  for (const auto& [kind, count] : p.read_errors_total) n += count;
  return n;
}

uint64_t flags(const PortSnapshot& p) {
  uint64_t n = 0;
  for (const FlagHistory& f : p.flags) n += f.raised_total;
  return n;
}

bool checksum_bad(const PortSnapshot& p) {
  return p.report && std::any_of(p.report->checksums.begin(), p.report->checksums.end(),
                                 [](const cmis::Checksum& c) { return !c.ok(); });
}

bool carrier_lost(const PortSnapshot& p) {
  if (!p.link) return false;
  for (const auto& c : p.link->counters) {
    if (c.id == drivers::LinkCounterId::CarrierDown && c.value > 0) return true;
  }
  return false;
}

// What an operator would see change on the faulty port.
bool marked(const PortSnapshot& before, const PortSnapshot& after) {
  if (carrier_lost(after) && !carrier_lost(before)) return true;
  if (after.presence != PortPresence::Present || after.stale || errors(after) > errors(before)) return true;
  if (flags(after) > flags(before) || after.insertions_total > before.insertions_total) return true;
  if (!after.report || !before.report) return after.report != before.report;
  const cmis::ModuleReport& a = *after.report;
  const cmis::ModuleReport& b = *before.report;
  if (checksum_bad(after) || a.problems.size() > b.problems.size()) return true;
  if (a.module_state && b.module_state && a.module_state->code != b.module_state->code) return true;
  if (a.id.vendor_name != b.id.vendor_name || a.id.serial != b.id.serial) return true;
  if (a.temperature_celsius && b.temperature_celsius && *a.temperature_celsius > *b.temperature_celsius + 2) return true;
  if (a.thresholds != b.thresholds) return true;
  for (std::size_t i = 0; i < std::min(a.lanes.size(), b.lanes.size()); ++i) {
    const auto& la = a.lanes[i];
    const auto& lb = b.lanes[i];
    if (la.rx_power_watts && lb.rx_power_watts && *la.rx_power_watts < 0.7 * *lb.rx_power_watts) return true;
  }
  return false;
}

class FaultMatrix : public ::testing::TestWithParam<std::tuple<emulator::FaultKind, TransportPath>> {};

TEST_P(FaultMatrix, IsolatedMarkedAndNeverServedAsFresh) {
  const auto [kind, path] = GetParam();
  // A host-side link drop shows in the link's counters, which no i2c read reaches.
  if (kind == emulator::FaultKind::LinkDown && path == TransportPath::I2cDev) GTEST_SKIP() << "no link counters over i2c";
  Fleet f(2, 2, "qsfpdd-400g-sr8", 720, path, nullptr, /*links=*/true);
  f.run_for(5.0);
  const PortSnapshot before = f.port(kFaulty);
  ASSERT_EQ(daemon::port_state_name(before.state), "ok");
  const DomainStats healthy_0 = f.store.current()->domains[0];
  f.run_for(5.0);
  const DomainStats healthy_1 = f.store.current()->domains[0];
  const double baseline = mean_cycle(healthy_0, healthy_1);
  ASSERT_GT(baseline, 0);

  emulator::FaultInjector injector(*f.buses[1]);
  emulator::Fault fault;
  fault.kind = kind;
  if (kind == emulator::FaultKind::Insert) fault.model = "qsfpdd-400g-dr4";
  const double fault_wall = f.clock.wall();
  ASSERT_EQ(injector.apply(0, fault), std::nullopt) << emulator::fault_kind_name(kind);
  const double taken_before = f.store.current()->taken_unix;
  f.run_for(12.0);
  const auto snap = f.store.current();
  // Memory faults show at the next static read: ask for one, as SIGUSR1 does.
  f.engine->request_reverify_all();
  f.run_for(2.0);
  EXPECT_GT(snap->taken_unix, taken_before) << "the daemon stopped publishing";

  const PortSnapshot after = f.port(kFaulty);
  const DomainStats healthy_2 = snap->domains[0];
  EXPECT_TRUE(marked(before, after)) << emulator::fault_kind_name(kind) << ": state " << daemon::port_state_name(after.state);

  // Ports on the other bus: same cycle time (±10 %), still fresh.
  const double during = mean_cycle(healthy_1, healthy_2);
  EXPECT_NEAR(during, baseline, 0.1 * baseline) << emulator::fault_kind_name(kind);
  EXPECT_EQ(daemon::port_state_name(f.port(kHealthy).state), "ok");

  // A port whose reads fail is never shown with a fresh timestamp: its last good read is older
  // than its last (failed) poll.
  if (daemon::port_state_name(after.state) == "failing" || daemon::port_state_name(after.state) == "stale") {
    EXPECT_LE(after.last_good_read_unix, f.clock.wall() - f.config.poll.dynamic_interval_s);
    EXPECT_GE(after.last_good_read_unix, fault_wall - f.config.poll.dynamic_interval_s);
  }
  for (auto& bus : f.buses) {
    for (int c = 0; c < bus->cage_count(); ++c) {
      if (auto m = bus->module(c)) {
        EXPECT_EQ(m->violations(), 0u) << bus->name() << " cage " << c;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKind, FaultMatrix,
                         ::testing::Combine(::testing::ValuesIn(emulator::all_fault_kinds()),
                                            ::testing::Values(TransportPath::Emulator, TransportPath::I2cDev)),
                         [](const auto& param_info) {
                           const bool i2c = std::get<1>(param_info.param) == TransportPath::I2cDev;
                           return std::string(emulator::fault_kind_name(std::get<0>(param_info.param))) +
                                  (i2c ? "_i2cdev" : "_emulator");
                         });

}  // namespace
}  // namespace xcvr::daemon
