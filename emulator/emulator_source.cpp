#include "emulator/emulator_source.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "emulator/emulator_transport.hpp"

namespace xcvr::emulator {
namespace {

constexpr base::InputKind kScenarioInput{"scenario file", std::size_t{4} << 20};

// The fleet, and the thread that runs its fault timeline, for as long as its ports are polled.
class RunningFleet {
 public:
  RunningFleet(std::unique_ptr<Fleet> fleet, std::function<void(const std::string&)> warn)
      : fleet_(std::move(fleet)) {
    timeline_ = std::thread([this, warn = std::move(warn)] {
      while (!stop_.load()) {
        for (const std::string& failure : fleet_->run_faults()) {
          if (warn) warn("emulator fault: " + failure);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  ~RunningFleet() {
    stop_ = true;
    timeline_.join();
  }
  Fleet& fleet() { return *fleet_; }

 private:
  std::unique_ptr<Fleet> fleet_;
  std::atomic<bool> stop_{false};
  std::thread timeline_;
};

std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable& t, std::span<const drivers::ListedPort>,
                                                     const std::string& config_dir) {
  auto s = std::make_unique<EmulatorSource>();
  s->fleet = drivers::resolve_path(config_dir, t.str("fleet").value_or(""));
  if (s->fleet.empty()) base::toml_fail(t.raw(), t.name() + ": an emulator source needs 'fleet' (a fleet TOML file)");
  const std::string clock = t.str("clock").value_or("realtime");
  if (clock != "realtime" && clock != "wallclock") {
    base::toml_fail(t.raw(), t.name() + ".clock: must be \"realtime\" (bus time is slept) or \"wallclock\" (accounted, not slept)");
  }
  s->clock = clock == "wallclock" ? ClockMode::Wallclock : ClockMode::Realtime;
  for (const std::string& path : t.strings("scenarios")) s->scenarios.push_back(drivers::resolve_path(config_dir, path));
  return s;
}

}  // namespace

std::optional<std::string> EmulatorSource::build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const {
  FleetLoad loaded = load_fleet_file(fleet, clock);
  if (!loaded.fleet) return ctx.location + ": fleet: " + loaded.error;
  for (const std::string& path : scenarios) {
    std::string error;
    const auto text = base::read_regular_file(path, kScenarioInput, error);
    if (!text) return ctx.location + ": scenario " + error;
    if (auto err = loaded.fleet->add_scenario(*text, path)) return *err;
  }
  auto running = std::make_shared<RunningFleet>(std::move(loaded.fleet), ctx.warn);
  for (const FleetPort& p : running->fleet().ports()) {
    out.ports.push_back({p.name, "", p.cage_form, std::make_unique<EmulatorTransport>(*p.bus, p.cage, p.name)});
  }
  out.keep_alive.push_back(std::move(running));
  return std::nullopt;
}

std::string EmulatorSource::fingerprint() const {
  std::string fp = drivers::file_fingerprint(fleet, kFleetInput);
  for (const std::string& path : scenarios) fp += drivers::file_fingerprint(path, kScenarioInput);
  return fp;
}

// The fleet's ports are its own: [[source.port]] entries name them for service settings only.
const drivers::SourceKind kEmulatorSource{
    .type = "emulator", .port_table = "port", .lists_devices = false, .parse = parse, .options = {}, .open = nullptr};

}  // namespace xcvr::emulator
