// The emulator's own CPU cost per I2C transaction, so poll benchmarks running on top of it can
// subtract it. Virtual clock: no sleeping, wire time only accounted. Counters:
//   cpu_per_transaction  CPU time per bus transaction (inverse rate)
//   wire_per_poll_us     emulated wire time one iteration would take on a real 400 kHz bus
#include <benchmark/benchmark.h>

#include <memory>

#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"

namespace xcvr::emulator {
namespace {

struct BenchRig {
  explicit BenchRig(const char* key)
      : bus(BusConfig{"bench", kFastModeHz, 1, std::nullopt, 25 * kMillisecond}, clock),
        transport(bus, 0) {
    bus.insert(0, std::make_shared<EmulatedModule>(*find_model(key), clock));
    clock.advance(2 * kSecond);
  }
  VirtualClock clock;
  EmulatedBus bus;
  EmulatorTransport transport;
};

void report(benchmark::State& state, const EmulatedBus& bus) {
  const BusStats s = bus.stats();
  state.counters["cpu_per_transaction"] = benchmark::Counter(
      static_cast<double>(s.transactions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["wire_per_poll_us"] =
      static_cast<double>(s.wire_ns) / 1e3 / static_cast<double>(state.iterations());
}

// One transaction: offset write + 26-byte read of lower memory (module state, flags, monitors).
void BM_EmulatorLowerRead(benchmark::State& state) {
  BenchRig rig("qsfpdd-400g-sr8");
  uint8_t buf[26];
  rig.bus.reset_stats();
  for (auto _ : state) {
    benchmark::DoNotOptimize(rig.transport.read({0x50, 0, 0, 0, 26}, buf));
  }
  report(state, rig.bus);
}
BENCHMARK(BM_EmulatorLowerRead);

// One transaction: page 11h bytes 128-201 (8-lane states, flags, monitors), page already selected.
void BM_EmulatorLaneStatusRead(benchmark::State& state) {
  BenchRig rig("qsfpdd-400g-sr8");
  uint8_t buf[74];
  rig.transport.read({0x50, 0, 0x11, 128, 74}, buf);
  rig.bus.reset_stats();
  for (auto _ : state) {
    benchmark::DoNotOptimize(rig.transport.read({0x50, 0, 0x11, 128, 74}, buf));
  }
  report(state, rig.bus);
}
BENCHMARK(BM_EmulatorLaneStatusRead);

// A CMIS 8-lane dynamic poll: lower 0-25 + 11h 128-201 (two transactions).
void BM_EmulatorCmisPoll(benchmark::State& state) {
  BenchRig rig("osfp-800g-2xsr4-finned");
  uint8_t lower[26], lanes[74];
  rig.transport.read({0x50, 0, 0x11, 128, 74}, lanes);
  rig.bus.reset_stats();
  for (auto _ : state) {
    benchmark::DoNotOptimize(rig.transport.read({0x50, 0, 0, 0, 26}, lower));
    benchmark::DoNotOptimize(rig.transport.read({0x50, 0, 0x11, 128, 74}, lanes));
  }
  report(state, rig.bus);
}
BENCHMARK(BM_EmulatorCmisPoll);

// Alternating pages: each read costs page write + read-back + read (three transactions).
void BM_EmulatorPageSwitchRead(benchmark::State& state) {
  BenchRig rig("qsfpdd-400g-dr4");
  uint8_t buf[128];
  bool odd = false;
  rig.bus.reset_stats();
  for (auto _ : state) {
    const uint8_t page = odd ? 0x02 : 0x11;
    odd = !odd;
    benchmark::DoNotOptimize(rig.transport.read({0x50, 0, page, 128, 128}, buf));
  }
  report(state, rig.bus);
}
BENCHMARK(BM_EmulatorPageSwitchRead);

// The raw bus, no transport: SMBus read byte data.
void BM_EmulatorBusReadByte(benchmark::State& state) {
  BenchRig rig("qsfp28-100g-sr4");
  uint8_t v = 0;
  rig.bus.reset_stats();
  for (auto _ : state) {
    benchmark::DoNotOptimize(rig.bus.read_byte_data(0, kModuleAddress, 22, v));
  }
  report(state, rig.bus);
}
BENCHMARK(BM_EmulatorBusReadByte);

}  // namespace
}  // namespace xcvr::emulator
