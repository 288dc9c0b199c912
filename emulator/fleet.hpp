// Fleet: emulated systems (switches, GPU hosts) described in TOML — buses, cages, the catalog
// module in each cage, per-port environment and faults, and a fault timeline. The daemon (and
// tests) load one and poll its transports as if they were real i2c buses.
//
//   [emulator]  clock = "virtual" | "realtime", seed, ambient_celsius
//   [[system]]  name, description, port_prefix, power_budget_watts, links (its cages carry
//               links the host reads: FEC statistics, codeword histogram, carrier; emulator/link.hpp)
//   [[system.bus]]  clock_khz, cage_form ("OSFP", "QSFP-DD", "QSFP28"), modules = [catalog keys,
//                   "" for an empty cage], optional name, ports, cage_forms, mux, timeout_ms
//   [[system.port]] port (name within the system), airflow, ambient_celsius,
//                   bias_drift_per_hour, seed, faults = [{ kind = "...", ... }] applied at load
//   [[fault]]   timeline events (see FaultTimeline), targeted by port = "<system>/<port>"
//
// Errors name "file:line:column".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/safe_file.hpp"
#include "emulator/bus.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/faults.hpp"

namespace xcvr::emulator {

struct FleetPort {
  std::string name;       // "<system>/<port>", unique in the fleet
  std::string system;
  std::string cage_form;  // "OSFP", "QSFP-DD", "QSFP28"
  std::string model;      // catalog key inserted at load; empty cage: ""
  EmulatedBus* bus = nullptr;
  int cage = 0;
  std::shared_ptr<EmulatorTransport> transport;
};

struct FleetSystem {
  std::string name;
  std::string description;
  double power_budget_watts = 0;  // 0: none given
  std::vector<EmulatedBus*> buses;
};

class Fleet {
 public:
  Clock& clock() const { return *clock_; }
  VirtualClock* virtual_clock() const { return virtual_clock_; }  // nullptr in real time
  const std::vector<std::unique_ptr<EmulatedBus>>& buses() const { return buses_; }
  const std::vector<FleetSystem>& systems() const { return systems_; }
  const std::vector<FleetPort>& ports() const { return ports_; }
  const FleetPort* find_port(std::string_view name) const;
  FaultInjector* injector(const EmulatedBus& bus);
  FaultTimeline& timeline() { return timeline_; }
  int64_t started_at_ns() const { return started_at_ns_; }
  // Adds the [[fault]] events of a scenario file (config/scenarios/*.toml) to the timeline.
  std::optional<std::string> add_scenario(std::string_view toml_text, std::string_view source);
  // Applies timeline events due by now (times count from the fleet's start); returns failures.
  std::vector<std::string> run_faults();

 private:
  friend struct FleetBuilder;
  std::unique_ptr<Clock> owned_clock_;
  Clock* clock_ = nullptr;
  VirtualClock* virtual_clock_ = nullptr;
  std::vector<std::unique_ptr<EmulatedBus>> buses_;
  std::vector<std::unique_ptr<FaultInjector>> injectors_;  // one per bus, same order
  std::vector<FleetSystem> systems_;
  std::vector<FleetPort> ports_;
  FaultTimeline timeline_;
  int64_t started_at_ns_ = 0;
};

struct FleetLoad {
  std::unique_ptr<Fleet> fleet;
  std::string error;  // "file:line:column: message" when fleet is null
};

// How fleet time passes: Virtual (advanced by bus time and tests), Realtime (the wall clock;
// every transaction sleeps its wire time), Wallclock (the wall clock; bus time is accounted but
// not slept — large fleets at full speed).
enum class ClockMode { Virtual, Realtime, Wallclock };

// `clock_override` replaces the file's [emulator] clock (the daemon runs fleets in real time).
FleetLoad load_fleet(std::string_view toml_text, std::string_view source_name,
                     std::optional<ClockMode> clock_override = std::nullopt);

// A fleet file, for base/safe_file: its name in messages and its size cap.
inline constexpr base::InputKind kFleetInput{"fleet file", std::size_t{4} << 20};

FleetLoad load_fleet_file(const std::string& path, std::optional<ClockMode> clock_override = std::nullopt);

}  // namespace xcvr::emulator
