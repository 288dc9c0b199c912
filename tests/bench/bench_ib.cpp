// InfiniBand MAD transport on emulated devices, virtual time (no sleeping). Figures in
// docs/benchmarks-ib.md. Counters:
//   mads_per_module  MADs one steady-state poll of a module costs (the daemon's dynamic plan:
//                    lower 0-25 + page 11h 128-201; presence is free while reads succeed)
//   virtual_ms       emulated time for one synchronized poll of every module (DesClock: lanes
//                    run in parallel, each with one MAD in flight)
//   bound_ms         the lower bound for that latency, concurrency and rate limit:
//                    max(busiest lane's MADs x latency, (all MADs - burst) / rate)
//   ratio            virtual_ms / bound_ms
// The benchmark's own time is the CPU the emulation costs, not a figure of merit.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>

#include "tests/support/ib/fabric_sweep.hpp"
#include "tests/support/ib/fake_fabric.hpp"
#include "drivers/ib/ib_ports.hpp"

namespace xcvr::ib {
namespace {

using base::kMicrosecond;
using base::kSecond;

struct FabricRig {
  DesClock clock{1000 * kSecond};
  FakeFabric fabric{clock};
  IbPorts ib;
  std::vector<IbTransport*> ports;
  double rate;
  double burst = 32;

  FabricRig(int switches, int cages, int64_t latency_ns, int lanes, double rate_per_second, bool mcia_128)
      : rate(rate_per_second) {
    fabric.set_latency_ns(latency_ns);
    FakeNode& hca = fabric.add_connectx7(1, 1, "bench-host mlx5_0");
    std::vector<TargetSpec> targets;
    for (int i = 0; i < switches; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "leaf-%02d", i);
      FakeNode& sw = fabric.add_quantum2(static_cast<uint16_t>(100 + i), 0x1000 + static_cast<uint64_t>(i), name, cages);
      sw.set_mcia_128(mcia_128);
      TargetSpec t;
      t.options.lid = static_cast<uint16_t>(100 + i);
      targets.push_back(t);
    }
    IbPortsOptions o;
    o.lanes_per_target = lanes;
    o.rate_per_second = rate_per_second;
    o.burst = burst;
    auto built = build_ib_ports(
        targets, [&] { return std::variant<std::unique_ptr<UmadDevice>, drivers::Error>(fabric.open(hca)); }, clock, o);
    ib = std::move(std::get<IbPorts>(built));
    for (auto& p : ib.ports) ports.push_back(p.transport.get());
  }
};

// One module's steady-state poll, 128-byte (arg 1) or 48-byte (arg 0) MCIA.
void BM_IbMadsPerModulePoll(benchmark::State& state) {
  FabricRig rig(1, 64, 200 * kMicrosecond, 1, 0, state.range(0) != 0);
  const auto plan = cmis_dynamic_plan();
  std::vector<uint8_t> buf;
  uint64_t polls = 0;
  uint64_t before = 0;
  for (IbTransport* p : rig.ports) before += p->counters().transactions;
  for (auto _ : state) {
    IbTransport* p = rig.ports[polls % rig.ports.size()];
    for (const drivers::ReadRequest& r : plan) {
      buf.assign(r.length, 0);
      if (p->read(r, buf)) state.SkipWithError("read failed");
    }
    ++polls;
  }
  uint64_t after = 0;
  for (IbTransport* p : rig.ports) after += p->counters().transactions;
  state.counters["mads_per_module"] = static_cast<double>(after - before) / static_cast<double>(polls);
}
BENCHMARK(BM_IbMadsPerModulePoll)->Arg(1)->Arg(0);

// 16 switches x 64 modules: {latency us, lanes per switch, subnet rate (0 = none), 128-byte MCIA}.
void BM_IbFabricSweep16x64(benchmark::State& state) {
  const int64_t latency = state.range(0) * kMicrosecond;
  FabricRig rig(16, 64, latency, static_cast<int>(state.range(1)), static_cast<double>(state.range(2)),
                state.range(3) != 0);
  const auto plan = cmis_dynamic_plan();
  SweepResult last;
  double total = 0;
  for (auto _ : state) {
    rig.clock.advance(5 * kSecond);  // the poll interval between sweeps: the bucket refills
    last = sweep(rig.ports, plan, rig.clock, latency, rig.rate, rig.burst);
    total += last.seconds;
    if (last.errors != 0) state.SkipWithError("reads failed");
  }
  state.counters["virtual_ms"] = total / static_cast<double>(state.iterations()) * 1e3;
  state.counters["bound_ms"] = last.bound_seconds * 1e3;
  state.counters["ratio"] = last.bound_seconds > 0 ? (total / static_cast<double>(state.iterations())) / last.bound_seconds : 0;
  state.counters["mads"] = static_cast<double>(last.mads);
  state.counters["lanes"] = static_cast<double>(last.lanes);
}
BENCHMARK(BM_IbFabricSweep16x64)
    ->ArgNames({"lat_us", "lanes", "rate", "mcia128"})
    ->Args({1000, 1, 0, 1})
    ->Args({1000, 2, 0, 1})
    ->Args({1000, 4, 0, 1})
    ->Args({200, 2, 0, 1})
    ->Args({5000, 2, 0, 1})
    ->Args({1000, 2, 0, 0})
    ->Args({1000, 2, 20000, 1})
    ->Args({1000, 4, 5000, 1})
    ->Args({1000, 2, 2000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace xcvr::ib
