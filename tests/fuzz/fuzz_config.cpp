// libFuzzer target: every TOML loader that reads operator-supplied files, each fed the same
// bytes — the daemon config (daemon/config.cpp), the coding catalog (coding/catalog.cpp), an
// emulator fleet (emulator/fleet.cpp) and a fault-timeline scenario. A scenario that
// loads is added to a small fixed fleet and played: every event is applied and every port's
// memory read after it, so fuzzed fault parameters reach the injector and the emulated modules.
//
// A config that parses also goes through the reload path (daemon/service.cpp): a running Service
// (a fixed base config) reloads it and must either take it or refuse it with a message, then
// reload the base config again successfully. Only configs whose state_directory is the
// fuzzer's own (/tmp/xcvr-fuzz-reload/state; a reload creates it) are committed; the others
// stop after prepare_config (parse, catalog, sources built), which has no side effect.
//
// Fails on a crash, a sanitizer report (UBSan: overflowing casts and arithmetic on fuzzed
// numbers), an error that does not name "file:line:col: message", or a config that loads with a
// non-finite or non-positive interval, or a catalog range that is not finite min <= max.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <filesystem>
#include <fstream>
#include <memory>

#include "coding/catalog.hpp"
#include "daemon/config.hpp"
#include "daemon/service.hpp"
#include "emulator/fleet.hpp"

namespace {

using xcvr::emulator::ClockMode;

// "<origin>:<line>:<col>: <message>" with a non-empty message.
bool names_position(const std::string& error, std::string_view origin) {
  if (error.compare(0, origin.size(), origin) != 0) return false;
  std::size_t i = origin.size();
  for (int field = 0; field < 2; ++field) {
    if (i >= error.size() || error[i] != ':') return false;
    const std::size_t start = ++i;
    while (i < error.size() && error[i] >= '0' && error[i] <= '9') ++i;
    if (i == start) return false;
  }
  return error.compare(i, 2, ": ") == 0 && error.size() > i + 2;
}

void check_config(std::string_view text) {
  const auto result = xcvr::daemon::parse_config(text, "fuzz-config.toml");
  if (const auto* error = std::get_if<xcvr::daemon::ConfigError>(&result)) {
    if (error->message.empty() || error->line < 0 || error->column < 0) __builtin_trap();
    return;
  }
  const auto& poll = std::get<xcvr::daemon::Config>(result).poll;
  for (double positive : {poll.dynamic_interval_s, poll.vdm_interval_s, poll.backoff_max_s}) {
    if (!std::isfinite(positive) || positive <= 0) __builtin_trap();
  }
  for (double non_negative : {poll.thermal_interval_s, poll.settle_delay_s}) {
    if (!std::isfinite(non_negative) || non_negative < 0) __builtin_trap();
  }
}

void check_catalog(std::string_view text) {
  xcvr::coding::Catalog catalog;
  if (const auto error = xcvr::coding::parse_catalog_into(catalog, text, "fuzz-catalog.toml")) {
    if (error->message.empty() || error->line < 0 || error->column < 0) __builtin_trap();
    return;
  }
  // Ranges that load are real ranges: finite, min <= max.
  auto bad_range = [](const std::optional<std::pair<double, double>>& r) {
    return r && !(std::isfinite(r->first) && std::isfinite(r->second) && r->first <= r->second);
  };
  for (const auto* entries : {&catalog.parts(), &catalog.generics()}) {
    for (const auto& [key, entry] : *entries) {
      if (bad_range(entry.wavelength_nm) || bad_range(entry.max_power_watts)) __builtin_trap();
    }
  }
}

// Reads what the poller would: lower memory and upper page 00h, plus page 11h on CMIS.
void read_ports(const xcvr::emulator::Fleet& fleet) {
  std::array<uint8_t, 128> buf{};
  for (const auto& port : fleet.ports()) {
    if (!port.transport) continue;
    for (uint8_t page : {uint8_t{0}, uint8_t{0x11}}) {
      xcvr::drivers::ReadRequest request;
      request.page = page;
      request.offset = page == 0 ? 0 : 128;
      request.length = 128;
      (void)port.transport->read(request, buf);
    }
  }
}

void check_fleet(std::string_view text) {
  const auto load = xcvr::emulator::load_fleet(text, "fuzz-fleet.toml", ClockMode::Virtual);
  if (!load.fleet) {
    if (!names_position(load.error, "fuzz-fleet.toml")) __builtin_trap();
    return;
  }
  if (load.fleet->ports().size() <= 16) read_ports(*load.fleet);
}

constexpr std::string_view kSmallFleet = R"(
[emulator]
clock = "virtual"
[[system]]
name = "s"
port_prefix = "p"
  [[system.bus]]
  modules = ["qsfpdd-400g-sr8", "qsfp28-100g-sr4", ""]
)";

void check_scenario(std::string_view text) {
  const auto load = xcvr::emulator::load_fleet(kSmallFleet, "small-fleet.toml", ClockMode::Virtual);
  if (!load.fleet) __builtin_trap();
  xcvr::emulator::Fleet& fleet = *load.fleet;
  if (const auto error = fleet.add_scenario(text, "fuzz-scenario.toml")) {
    if (!names_position(*error, "fuzz-scenario.toml")) __builtin_trap();
    return;
  }
  // Play the timeline event by event (bounded), reading every port after each.
  std::vector<int64_t> times;
  for (const auto& event : fleet.timeline().events()) times.push_back(event.at_ns);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.size() > 64) times.resize(64);
  xcvr::base::VirtualClock& clock = *fleet.virtual_clock();
  for (int64_t at : times) {
    if (at > INT64_MAX / 2) break;  // beyond any run; keeps the clock arithmetic defined
    clock.advance(fleet.started_at_ns() + at - clock.now_ns());
    for (const std::string& failure : fleet.run_faults()) {
      if (!names_position(failure, "fuzz-scenario.toml")) __builtin_trap();
    }
    read_ports(fleet);
  }
}

struct ReloadRig {
  // Fixed, so that a seed (scripts/fuzz.sh) can name it as its state_directory.
  std::string dir = "/tmp/xcvr-fuzz-reload";
  std::string path = dir + "/config.toml";
  std::string base = "[daemon]\nstate_directory = \"" + dir + "/state\"\ncatalog = []\noui_registry = \"" + dir + "\"\n";
  xcvr::base::VirtualClock clock{1000 * xcvr::base::kSecond};
  xcvr::daemon::SnapshotStore store;
  std::unique_ptr<xcvr::daemon::Service> service;

  ReloadRig() {
    std::filesystem::create_directories(dir);
    write(base);
    service = std::make_unique<xcvr::daemon::Service>(clock, store);
    if (!service->start(path).empty()) __builtin_trap();
  }
  void write(std::string_view text) const { std::ofstream(path, std::ios::binary | std::ios::trunc) << text; }
};

void check_reload(std::string_view text) {
  static ReloadRig rig;
  const auto parsed = xcvr::daemon::parse_config(text, rig.path);
  if (!std::holds_alternative<xcvr::daemon::Config>(parsed)) return;
  rig.write(text);
  if (std::get<xcvr::daemon::Config>(parsed).state_directory != rig.dir + "/state") {
    const auto prepared = xcvr::daemon::prepare_config(rig.path);
    if (const auto* error = std::get_if<std::string>(&prepared); error && error->empty()) __builtin_trap();
    return;
  }
  const uint64_t failed = rig.service->reloads_failed();
  const std::string error = rig.service->reload();
  if (!error.empty() && rig.service->reloads_failed() != failed + 1) __builtin_trap();  // refused = counted
  if (error.empty() && rig.service->engine() != nullptr) rig.service->engine()->step();
  rig.write(rig.base);
  if (!rig.service->reload().empty()) __builtin_trap();  // and back
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_config(text);
  check_catalog(text);
  check_fleet(text);
  check_scenario(text);
  check_reload(text);
  return 0;
}
