// xcvrctl emulate: an emulated module (emulator) read through the daemon's read plan.
//   xcvrctl emulate MODEL                     a catalog module alone in a cage
//   xcvrctl emulate --fleet FILE --port P     port "<system>/<port>" of a fleet, its faults applied
//   xcvrctl emulate --list                    the catalog
// Prints the memory as `ethtool -m hex on` pages, which `xcvrctl decode` and the daemon's file
// source read back; --json prints the decoded report instead. Time is virtual: --seconds of
// module life pass (power-up, data-path init, fault timelines) before the read.
// Exit codes: 0 clean, 1 the decoded module has problems, 2 unknown model, port or fleet error.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/module_read.hpp"
#include "cmis/report_json.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "base/clock.hpp"
#include "emulator/fleet.hpp"
#include "emulator/module.hpp"

namespace xcvr::cli {
namespace {

struct EmulateOptions {
  std::string model;
  std::string fleet;
  std::string port;
  double seconds = 2.0;  // past power-up and data-path init of every catalog model
  bool list = false;
  bool json = false;
};

std::string hex_byte(uint8_t b) {
  char s[3];
  std::snprintf(s, sizeof s, "%02x", b);
  return s;
}

// One "$ ethtool -m NAME page P [bank B] hex on" block per half-page, rows at window offsets
// (the layout ethtool prints for `page` reads; dump_parser.hpp reads it back).
void print_ethtool(const cmis::ModuleImage& image, const std::string& name) {
  for (const auto& entry : image.entries()) {
    const cmis::PageKey& key = entry.key;
    std::string header = "$ ethtool -m " + name;
    if (key.device == cmis::kDeviceA2) header += " i2c 0x51";
    header += key.page == cmis::kLowerPage ? " page 0"
                                           : " page 0x" + hex_byte(static_cast<uint8_t>(key.page));
    if (key.bank != 0) header += " bank " + std::to_string(key.bank);
    std::cout << header << " hex on\nOffset\t\tValues\n------\t\t------\n";
    const std::size_t base = key.page == cmis::kLowerPage ? 0 : cmis::kPageSize;
    for (std::size_t row = 0; row < cmis::kPageSize; row += 16) {
      char offset[16];
      std::snprintf(offset, sizeof offset, "0x%04zx:", base + row);
      std::cout << offset << "\t\t";
      for (std::size_t i = 0; i < 16; ++i) std::cout << (i ? " " : "") << hex_byte(entry.bytes[row + i]);
      std::cout << '\n';
    }
  }
}

int list_catalog(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : emulator::catalog()) out.push_back({{"model", m.key}, {"description", m.description}});
    std::cout << out.dump(2) << '\n';
  } else {
    for (const auto& m : emulator::catalog()) std::cout << m.key << "\t" << m.description << '\n';
  }
  return kExitClean;
}

int read_and_print(drivers::Transport& t, const std::string& name, bool json) {
  cmis::ModuleImage image;
  std::vector<std::string> skipped;
  const auto err = read_module(t, image, skipped);
  if (err && image.empty()) {
    std::cerr << "xcvrctl emulate: " << err->message << '\n';
    return kExitUnreadable;
  }
  const cmis::ModuleReport report = cmis::decode(image);
  if (json) {
    std::cout << cmis::to_json(report).dump(2) << '\n';
  } else {
    print_ethtool(image, name);
  }
  for (const std::string& s : skipped) std::cerr << "not available: " << s << '\n';
  if (err) {
    std::cerr << "incomplete: " << err->message << '\n';
    return kExitProblems;
  }
  return report_exit_code(report);
}

int run_emulate(const EmulateOptions& o) {
  if (o.list) return list_catalog(o.json);
  if (!std::isfinite(o.seconds) || o.seconds < 0 || o.seconds > 365.0 * 86400) {
    std::cerr << "xcvrctl emulate: --seconds must be between 0 and one year\n";
    return kExitUnreadable;
  }
  const auto elapsed = static_cast<int64_t>(o.seconds * static_cast<double>(base::kSecond));
  if (!o.fleet.empty()) {
    emulator::FleetLoad load = emulator::load_fleet_file(o.fleet, emulator::ClockMode::Virtual);
    if (!load.fleet) {
      std::cerr << load.error << '\n';
      return kExitUnreadable;
    }
    emulator::Fleet& fleet = *load.fleet;
    const emulator::FleetPort* port = fleet.find_port(o.port);
    if (port == nullptr) {
      std::cerr << o.fleet << ": no port '" << o.port << "' (ports are named <system>/<port>)\n";
      return kExitUnreadable;
    }
    fleet.virtual_clock()->advance(elapsed);
    for (const std::string& f : fleet.run_faults()) std::cerr << o.fleet << ": " << f << '\n';
    if (port->model.empty()) {
      std::cerr << "xcvrctl emulate: " << o.port << " is an empty cage\n";
      return kExitUnreadable;
    }
    return read_and_print(*port->transport, o.port, o.json);
  }
  const emulator::ModuleModel* model = emulator::find_model(o.model);
  if (model == nullptr) {
    std::cerr << "xcvrctl emulate: unknown model '" << o.model << "' (xcvrctl emulate --list)\n";
    return kExitUnreadable;
  }
  base::VirtualClock clock;
  emulator::BusConfig bus_config;
  bus_config.name = "emulated";
  bus_config.mux_address = std::nullopt;
  emulator::EmulatedBus bus(bus_config, clock);
  bus.insert(0, std::make_shared<emulator::EmulatedModule>(*model, clock));
  clock.advance(elapsed);
  emulator::EmulatorTransport transport(bus, 0, model->key);
  return read_and_print(transport, model->key, o.json);
}

}  // namespace

void add_emulate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EmulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "emulate", "Read an emulated module and print its memory as `ethtool -m hex on` pages");
  auto* model = cmd->add_option("model", o->model, "catalog model, e.g. osfp-800g-2xsr4-finned");
  auto* fleet = cmd->add_option("--fleet", o->fleet, "fleet TOML file (e.g. config/demo.toml)");
  auto* port = cmd->add_option("--port", o->port, "with --fleet: port <system>/<port>")->needs(fleet);
  fleet->needs(port);
  auto* list = cmd->add_flag("--list", o->list, "list the catalog models");
  cmd->add_option("--seconds", o->seconds, "virtual seconds since insertion before the read")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print the decoded JSON report (with --list: the catalog)");
  model->excludes(fleet, list);
  fleet->excludes(list);
  cmd->callback([o, &exit_code, model, fleet, list] {
    if (model->count() + fleet->count() + list->count() != 1) {
      std::cerr << "xcvrctl emulate: give a MODEL, --fleet FILE --port P, or --list\n";
      exit_code = kExitUnreadable;
      return;
    }
    exit_code = run_emulate(*o);
  });
}

}  // namespace xcvr::cli
