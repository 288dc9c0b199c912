// Test support: a PollEngine over emulated buses in virtual time (the emulator's clock is the
// engine's clock, so bus time spent by reads is time passed).
#pragma once

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "daemon/coding_setup.hpp"
#include "daemon/poll_engine.hpp"
#include "daemon/port_poller.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "tests/support/emulated_i2c_syscalls.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"

namespace xcvr::daemon::testing_support {

using base::kSecond;

// Runs one poller in virtual time until `until` seconds after `epoch_ns`: each due poll at its
// time, the emulator's clock moved along so bus time and module dynamics follow. `now` carries
// the last poll time between calls.
inline void run_poller(PortPoller& poller, base::VirtualClock& clock, double& now, double until,
                       int64_t epoch_ns = 1000 * kSecond) {
  while (poller.next_due() <= until) {
    now = std::max(now, poller.next_due());
    const auto target = static_cast<int64_t>(static_cast<double>(epoch_ns) + now * kSecond);
    if (target > clock.now_ns()) clock.advance(target - clock.now_ns());
    poller.poll(now, 1.7e9 + now);
  }
}

inline std::shared_ptr<emulator::EmulatedModule> make_module(const char* key, const base::Clock& clock,
                                                      uint64_t seed = 1) {
  const emulator::ModuleModel* model = emulator::find_model(key);
  EXPECT_NE(model, nullptr) << key;
  emulator::DynamicsConfig dyn;
  dyn.seed = seed;
  // A unit of its own per seed: modules with different seeds have different serials.
  return std::make_shared<emulator::EmulatedModule>(emulator::unit_of(*model, seed), clock, dyn);
}

// A Tx fault on lane `lane` (1-based) that comes and goes between two polls: only the module's
// latch remembers it.
inline void pulse_tx_fault(emulator::EmulatedModule& m, int lane) {
  m.faults().tx_fault.set(lane - 1);
  m.update();
  m.faults().tx_fault.reset(lane - 1);
  m.update();
}

// How the engine reaches the emulated cages: the emulator's own transport, or the production
// i2c-dev transport over the syscall seam (one adapter per cage, as behind a mux; the cages of
// one bus share a serialization domain).
enum class TransportPath { Emulator, I2cDev };

struct Fleet {
  base::VirtualClock clock{1000 * kSecond};
  std::vector<std::unique_ptr<emulator::EmulatedBus>> buses;
  Config config;
  SnapshotStore store;
  AgingStore aging{""};
  std::vector<std::unique_ptr<i2c::EmulatedI2cSyscalls>> syscalls;  // I2cDev path, one per cage
  std::unique_ptr<PollEngine> engine;

  Fleet(int bus_count, int cages, const char* model = "qsfpdd-400g-sr8", int reverify_cycles = 720,
        TransportPath path = TransportPath::Emulator, std::shared_ptr<const CodingSetup> coding = nullptr,
        bool links = false, double dynamic_interval_s = 1) {
    config.poll.static_reverify_cycles = reverify_cycles;
    config.poll.dynamic_interval_s = dynamic_interval_s;
    config.poll.settle_delay_s = 2;
    config.poll.stale_after_intervals = 3;
    config.poll.backoff_max_s = 4;
    if (links) config.poll.link_interval_s = std::max(2.0, dynamic_interval_s);
    std::vector<PortSpec> ports;
    for (int b = 0; b < bus_count; ++b) {
      emulator::BusConfig bc;
      bc.name = "i2c-" + std::to_string(b);
      bc.cages = cages;
      bc.links = links;  // each cage carries a link the engine reads (emulator transport only)
      buses.push_back(std::make_unique<emulator::EmulatedBus>(bc, clock));
      for (int c = 0; c < cages; ++c) {
        if (model != nullptr) buses.back()->insert(c, make_module(model, clock, static_cast<uint64_t>(b * 100 + c)));
        const std::string name = "sw/b" + std::to_string(b) + "c" + std::to_string(c);
        if (path == TransportPath::Emulator) {
          ports.push_back({PortIdentity{name, "", "emulator", "QSFP-DD", {}, {}},
                           std::make_unique<emulator::EmulatorTransport>(*buses.back(), c, name)});
          continue;
        }
        i2c::I2cPortConfig ic;
        ic.device = "/dev/i2c-" + std::to_string(10 + b * cages + c);
        ic.port = name;
        ic.domain = bc.name;
        ic.lock_dir = "";  // no flock: the test owns the only "process"
        syscalls.push_back(std::make_unique<i2c::EmulatedI2cSyscalls>(*buses.back(), c, ic.device));
        ports.push_back({PortIdentity{name, "", "i2c", "QSFP-DD", {}, {}},
                         std::make_unique<i2c::I2cDevTransport>(ic, *syscalls.back())});
      }
    }
    engine = std::make_unique<PollEngine>(config, std::move(ports), clock, store, aging, std::move(coding));
  }

  // Runs the engine for `seconds` of virtual time, one step per due time.
  void run_for(double seconds) {
    const double end = clock.monotonic() + seconds;
    while (clock.monotonic() < end) {
      const double next = engine->step();
      const double target = std::min(std::max(next, clock.monotonic() + 1e-3), end);
      clock.advance(static_cast<int64_t>((target - clock.monotonic()) * 1e9) + 1);
    }
  }
  const PortSnapshot& port(const std::string& name) const {
    snap = store.current();
    for (const PortSnapshot& p : snap->ports) {
      if (p.port == name) return p;
    }
    throw std::runtime_error("no port " + name);
  }
  mutable std::shared_ptr<const Snapshot> snap;
};

}  // namespace xcvr::daemon::testing_support
