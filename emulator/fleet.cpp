#include "emulator/fleet.hpp"

#include <fstream>
#include <sstream>

#include "emulator/catalog.hpp"
#include "emulator/toml_support.hpp"
#include "base/toml_input.hpp"
#include "base/safe_file.hpp"
#include "base/spelling.hpp"

namespace xcvr::emulator {

using base::toml_fail;
using Table = base::TomlTable;

namespace {

// Which SFF-8024 identifiers a cage accepts (a QSFP-DD cage takes QSFP28 modules too).
bool fits(std::string_view cage_form, uint8_t identifier) {
  if (cage_form == "OSFP") return identifier == 0x19;
  if (cage_form == "QSFP-DD") {
    return identifier == 0x18 || identifier == 0x11 || identifier == 0x0D ||
           identifier == 0x0C || identifier == 0x1E;
  }
  if (cage_form == "QSFP28") return identifier == 0x11 || identifier == 0x0D || identifier == 0x0C;
  if (cage_form == "QSFP112") {  // takes the QSFP28/QSFP56 modules before it too
    return identifier == 0x1E || identifier == 0x11 || identifier == 0x0D || identifier == 0x0C;
  }
  return false;
}

uint64_t port_seed(uint64_t seed, std::size_t index) {
  return seed * 0x9E3779B97F4A7C15ull + index + 1;
}


}  // namespace

struct FleetBuilder {
  Fleet& fleet;
  uint64_t seed = 1;
  double ambient = 30.0;
  std::optional<ClockMode> clock_override;
  bool links = false;  // the current system's: its cages carry links (emulator/link.hpp)

  void emulator_section(Table& root) {
    const toml::table* section = root.subtable("emulator");
    std::string clock = "virtual";
    if (section != nullptr) {
      Table t(*section, "emulator");
      t.allow({"clock", "seed", "ambient_celsius"});
      clock = t.str("clock").value_or("virtual");
      seed = static_cast<uint64_t>(t.integer("seed").value_or(1));
      ambient = t.number_in("ambient_celsius", -60, 150).value_or(30.0);
      if (clock != "virtual" && clock != "realtime") toml_fail(*t.node("clock"), "clock must be \"virtual\" or \"realtime\"");
    }
    ClockMode mode = clock == "virtual" ? ClockMode::Virtual : ClockMode::Realtime;
    if (clock_override) mode = *clock_override;
    if (mode == ClockMode::Virtual) {
      auto v = std::make_unique<VirtualClock>();
      fleet.virtual_clock_ = v.get();
      fleet.owned_clock_ = std::move(v);
    } else if (mode == ClockMode::Realtime) {
      fleet.owned_clock_ = std::make_unique<SteadyClock>();
    } else {
      fleet.owned_clock_ = std::make_unique<SteadyClock>(/*sleep_for_bus_time=*/false);
    }
    fleet.clock_ = fleet.owned_clock_.get();
    fleet.started_at_ns_ = fleet.clock_->now_ns();
  }

  void system(const toml::table& st) {
    Table t(st, "system");
    t.allow({"name", "description", "port_prefix", "power_budget_watts", "links", "bus", "port"});
    FleetSystem sys;
    const auto name = t.str("name");
    if (!name || name->empty()) toml_fail(st, "system needs a 'name'");
    for (const FleetSystem& other : fleet.systems_) {
      if (other.name == *name) toml_fail(st, "duplicate system '" + *name + "'");
    }
    sys.name = *name;
    sys.description = t.str("description").value_or("");
    sys.power_budget_watts = t.number_in("power_budget_watts", 0, 1e6).value_or(0);
    const std::string prefix = t.str("port_prefix").value_or("port");
    links = t.boolean("links").value_or(false);
    const toml::array* buses = t.tables("bus");
    if (buses == nullptr || buses->empty()) toml_fail(st, "system '" + sys.name + "' has no [[system.bus]]");
    int port_number = 1;
    for (const toml::node& b : *buses) {
      const int n = static_cast<int>(sys.buses.size());
      sys.buses.push_back(bus(*b.as_table(), sys.name, prefix, n, port_number));
    }
    fleet.systems_.push_back(std::move(sys));
    if (const toml::array* ports = t.tables("port")) {
      for (const toml::node& p : *ports) port_settings(*p.as_table(), *name);
    }
  }

  EmulatedBus* bus(const toml::table& bt, const std::string& system, const std::string& prefix,
                   int bus_number, int& port_number) {
    Table t(bt, "bus");
    t.allow({"name", "clock_khz", "cage_form", "cage_forms", "modules", "ports", "mux", "timeout_ms"});
    const toml::array* modules = bt.get_as<toml::array>("modules");
    if (modules == nullptr || modules->empty()) toml_fail(bt, "bus needs 'modules' = [catalog keys, \"\" for an empty cage]");
    BusConfig cfg;
    cfg.name = t.str("name").value_or(system + "/i2c-" + std::to_string(bus_number));
    const int64_t khz = t.integer("clock_khz").value_or(400);
    if (khz != 100 && khz != 400 && khz != 1000) toml_fail(*t.node("clock_khz"), "clock_khz must be 100, 400 or 1000");
    cfg.clock_hz = static_cast<uint32_t>(khz * 1000);
    cfg.cages = static_cast<int>(modules->size());
    if (const toml::node* mux = bt.get("mux"); mux != nullptr && !mux->value_or(true)) {
      cfg.mux_address.reset();
    }
    const int64_t timeout_ms = t.integer("timeout_ms", 1, 60'000).value_or(25);
    cfg.timeout_ns = timeout_ms * kMillisecond;
    cfg.links = links;
    cfg.link_seed = seed;
    for (const auto& b : fleet.buses_) {
      if (b->name() == cfg.name) toml_fail(bt, "duplicate bus name '" + cfg.name + "'");
    }
    fleet.buses_.push_back(std::make_unique<EmulatedBus>(cfg, *fleet.clock_));
    EmulatedBus& bus = *fleet.buses_.back();
    fleet.injectors_.push_back(std::make_unique<FaultInjector>(bus, DynamicsConfig{}));
    const std::string form = t.str("cage_form").value_or("QSFP-DD");
    const toml::array* forms = bt.get_as<toml::array>("cage_forms");
    const toml::array* names = bt.get_as<toml::array>("ports");
    for (std::size_t c = 0; c < modules->size(); ++c) {
      const toml::node& m = *modules->get(c);
      if (!m.is_string()) toml_fail(m, "module entries must be catalog keys (strings)");
      FleetPort port;
      port.system = system;
      port.cage_form = form;
      if (forms != nullptr && c < forms->size()) {
        port.cage_form = forms->get(c)->value_or(form);
      }
      if (port.cage_form != "OSFP" && port.cage_form != "QSFP-DD" && port.cage_form != "QSFP112" &&
          port.cage_form != "QSFP28") {
        toml_fail(forms != nullptr && c < forms->size() ? *forms->get(c) : *bt.get("cage_form"),
                  "cage form must be \"OSFP\", \"QSFP-DD\", \"QSFP112\" or \"QSFP28\"");
      }
      std::string local = prefix + std::to_string(port_number++);
      if (names != nullptr && c < names->size()) local = names->get(c)->value_or(local);
      port.name = system + "/" + local;
      if (!base::plain_name(port.name)) {
        toml_fail(names != nullptr && c < names->size() ? *names->get(c) : m,
                  "port name '" + base::shown(port.name) + "' must be " + std::string(base::kPlainNameRule));
      }
      if (fleet.find_port(port.name) != nullptr) toml_fail(m, "duplicate port '" + port.name + "'");
      port.bus = &bus;
      port.cage = static_cast<int>(c);
      port.model = *m.value<std::string>();
      if (!port.model.empty()) {
        const ModuleModel* model = find_model(port.model);
        if (model == nullptr) toml_fail(m, "unknown module model '" + port.model + "'");
        if (!fits(port.cage_form, model->identifier)) {
          toml_fail(m, "'" + port.model + "' does not fit the " + port.cage_form + " cage of " + port.name);
        }
        DynamicsConfig dyn;
        dyn.seed = port_seed(seed, fleet.ports_.size());
        // Each cage gets a unit of its own (a unique serial), numbered by fleet position.
        auto module = std::make_shared<EmulatedModule>(unit_of(*model, fleet.ports_.size() + 1), *fleet.clock_, dyn);
        module->set_environment({ambient, 1.0});
        bus.insert(port.cage, std::move(module));
      }
      port.transport = std::make_shared<EmulatorTransport>(bus, port.cage, port.name);
      fleet.ports_.push_back(std::move(port));
    }
    return &bus;
  }

  void port_settings(const toml::table& pt, const std::string& system) {
    Table t(pt, "port");
    t.allow({"port", "airflow", "ambient_celsius", "bias_drift_per_hour", "seed", "faults"});
    const auto local = t.str("port");
    if (!local) toml_fail(pt, "[[system.port]] needs 'port' (its name within the system)");
    const FleetPort* port = fleet.find_port(system + "/" + *local);
    if (port == nullptr) toml_fail(*t.node("port"), "no port '" + *local + "' in " + system);
    const auto airflow = t.number_in("airflow", 0.01, 100);
    const auto amb = t.number_in("ambient_celsius", -60, 150);
    const auto drift = t.number_in("bias_drift_per_hour", -10, 10);
    const auto port_seed_value = t.integer("seed");
    const bool has_module = port->bus->with_module(port->cage, [&](EmulatedModule& m) {
      m.set_environment({amb.value_or(ambient), airflow.value_or(1.0)});
      if (drift) m.dynamics().bias_drift_per_hour = *drift;
      if (port_seed_value) m.dynamics().seed = static_cast<uint64_t>(*port_seed_value);
    });
    if (!has_module && (airflow || amb || drift)) {
      toml_fail(pt, "port '" + port->name + "' is an empty cage");
    }
    const toml::array* faults = pt.get_as<toml::array>("faults");
    if (faults == nullptr) return;
    for (const toml::node& f : *faults) {
      const toml::table* ft = f.as_table();
      if (ft == nullptr) toml_fail(f, "faults must be inline tables { kind = \"...\" }");
      toml_support::ParsedFault p = toml_support::parse_fault(*ft);
      FaultInjector* inj = fleet.injector(*port->bus);
      if (auto err = inj->apply(port->cage, p.event.fault)) toml_fail(f, *err);
    }
  }

  void timeline(Table& root) {
    const toml::array* faults = root.tables("fault");
    if (faults == nullptr) return;
    for (const toml::node& f : *faults) {
      toml_support::ParsedFault p = toml_support::parse_fault(*f.as_table());
      if (p.event.port.empty()) toml_fail(f, "timeline faults name their target with 'port'");
      if (fleet.find_port(p.event.port) == nullptr) toml_fail(*f.as_table()->get("port"), "no port '" + p.event.port + "'");
      fleet.timeline_.add(std::move(p.event), p.duration_ns);
    }
  }
};

const FleetPort* Fleet::find_port(std::string_view name) const {
  for (const FleetPort& p : ports_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

FaultInjector* Fleet::injector(const EmulatedBus& bus) {
  for (std::size_t i = 0; i < buses_.size(); ++i) {
    if (buses_[i].get() == &bus) return injectors_[i].get();
  }
  return nullptr;
}

std::optional<std::string> Fleet::add_scenario(std::string_view toml_text,
                                               std::string_view source) {
  TimelineParse parsed = FaultTimeline::parse(toml_text, source);
  if (parsed.error) return parsed.error;
  for (const TimedFault& e : parsed.timeline.events()) {
    if (find_port(e.port) == nullptr) {
      return e.where + ": no port '" + (e.port.empty() ? e.bus : e.port) + "' in the fleet";
    }
  }
  for (const TimedFault& e : parsed.timeline.events()) timeline_.add(e);
  return std::nullopt;
}

std::vector<std::string> Fleet::run_faults() {
  return timeline_.run_due(clock_->now_ns() - started_at_ns_,
                           [this](const TimedFault& e) -> std::pair<FaultInjector*, int> {
                             const FleetPort* p = find_port(e.port);
                             if (p == nullptr) return {nullptr, 0};
                             return {injector(*p->bus), p->cage};
                           });
}

FleetLoad load_fleet(std::string_view toml_text, std::string_view source_name,
                     std::optional<ClockMode> clock_override) {
  FleetLoad result;
  auto fleet = std::unique_ptr<Fleet>(new Fleet());
  try {
    const toml::table doc = base::parse_toml(toml_text, source_name);
    Table root(doc, "fleet");
    root.allow({"emulator", "system", "fault"});
    FleetBuilder b{*fleet, 1, 30.0, clock_override};
    b.emulator_section(root);
    const toml::array* systems = root.tables("system");
    if (systems == nullptr || systems->empty()) {
      result.error = std::string(source_name) + ":1:1: no [[system]]";
      return result;
    }
    for (const toml::node& s : *systems) b.system(*s.as_table());
    b.timeline(root);
  } catch (...) {
    result.error = base::toml_error_text(source_name);  // rethrows what is not a TOML error
    return result;
  }
  result.fleet = std::move(fleet);
  return result;
}

FleetLoad load_fleet_file(const std::string& path, std::optional<ClockMode> clock_override) {
  std::string error;
  const auto text = base::read_regular_file(path, kFleetInput, error);
  if (!text) return {nullptr, error};
  return load_fleet(*text, path, clock_override);
}

}  // namespace xcvr::emulator
