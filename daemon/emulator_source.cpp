// The "emulator" source: an emulated fleet (drivers/emulator) described by a fleet TOML file,
// polled through the same engine as real buses. Its fault timeline runs on its own thread.
#include <atomic>
#include <thread>

#include <spdlog/spdlog.h>

#include "daemon/sources.hpp"
#include "drivers/emulator/emulator_transport.hpp"
#include "drivers/emulator/fleet.hpp"
#include "drivers/safe_file.hpp"

namespace xcvr::daemon {
namespace {

class EmulatedFleet final : public SourceResources {
 public:
  explicit EmulatedFleet(std::unique_ptr<emulator::Fleet> fleet) : fleet_(std::move(fleet)) {
    timeline_ = std::thread([this] {
      while (!stop_.load()) {
        for (const std::string& failure : fleet_->run_faults()) spdlog::warn("emulator fault: {}", failure);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  ~EmulatedFleet() override {
    stop_ = true;
    timeline_.join();
  }
  emulator::Fleet& fleet() { return *fleet_; }

 private:
  std::unique_ptr<emulator::Fleet> fleet_;
  std::atomic<bool> stop_{false};
  std::thread timeline_;
};

}  // namespace

std::optional<SourceError> add_emulator_source(const SourceConfig& s, BuiltSources& out) {
  const auto mode = s.clock == "wallclock" ? emulator::ClockMode::Wallclock : emulator::ClockMode::Realtime;
  emulator::FleetLoad loaded = emulator::load_fleet_file(s.fleet, mode);
  if (!loaded.fleet) return SourceError{s.config_location + ": fleet: " + loaded.error};
  for (const std::string& path : s.scenarios) {
    std::string error;
    const auto text = drivers::read_regular_file(path, drivers::InputKind::Scenario, error);
    if (!text) return SourceError{s.config_location + ": scenario " + error};
    if (auto err = loaded.fleet->add_scenario(*text, path)) return SourceError{*err};
  }
  auto resources = std::make_shared<EmulatedFleet>(std::move(loaded.fleet));
  const std::size_t first = out.ports.size();
  for (const emulator::FleetPort& p : resources->fleet().ports()) {
    out.ports.push_back({PortIdentity{p.name, "", "emulator", p.cage_form, {}, {}},
                         std::make_unique<emulator::EmulatorTransport>(*p.bus, p.cage, p.name)});
  }
  // The fleet file is fixed: a [[source.port]] naming no fleet port is a mistake.
  const auto problems = apply_port_service(s, std::span<PortSpec>(out.ports).subspan(first));
  if (!problems.empty()) return SourceError{problems.front()};
  out.resources.push_back(std::move(resources));
  return std::nullopt;
}

}  // namespace xcvr::daemon
