#include "drivers/emulator/fleet.hpp"

#include <fstream>
#include <sstream>

#include "drivers/emulator/catalog.hpp"
#include "drivers/emulator/toml_support.hpp"
#include "drivers/safe_file.hpp"

namespace xcvr::emulator {

using toml_support::fail;
using toml_support::get_int;
using toml_support::get_number;

// A number within [lo, hi] (NaN and infinities are outside): environment values reach the
// module's integer encoders.
static std::optional<double> number_in(const toml::table& t, std::string_view key, double lo, double hi,
                                std::string_view source) {
  const auto v = get_number(t, key, source);
  if (v && !(*v >= lo && *v <= hi)) {
    toml_support::fail(source, *t.get(key), "'" + std::string(key) + "' must be " + std::to_string(lo) +
                                                " to " + std::to_string(hi));
  }
  return v;
}
using toml_support::get_string;

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

const toml::array* array_of_tables(const toml::table& t, std::string_view key,
                                   std::string_view source) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return nullptr;
  const toml::array* a = n->as_array();
  if (a == nullptr || !a->is_array_of_tables()) {
    fail(source, *n, "'" + std::string(key) + "' must be [[" + std::string(key) + "]] tables");
  }
  return a;
}

}  // namespace

struct FleetBuilder {
  std::string_view source;
  Fleet& fleet;
  uint64_t seed = 1;
  double ambient = 30.0;
  std::optional<ClockMode> clock_override;

  void emulator_section(const toml::table& doc) {
    const toml::node* n = doc.get("emulator");
    const toml::table* t = n ? n->as_table() : nullptr;
    if (n != nullptr && t == nullptr) fail(source, *n, "'emulator' must be a table");
    std::string clock = "virtual";
    if (t != nullptr) {
      toml_support::expect_keys(*t, {"clock", "seed", "ambient_celsius"}, source);
      clock = get_string(*t, "clock", source).value_or("virtual");
      seed = static_cast<uint64_t>(get_int(*t, "seed", source).value_or(1));
      ambient = number_in(*t, "ambient_celsius", -60, 150, source).value_or(30.0);
      if (clock != "virtual" && clock != "realtime") {
        fail(source, *t->get("clock"), "clock must be \"virtual\" or \"realtime\"");
      }
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
    toml_support::expect_keys(st, {"name", "description", "port_prefix", "power_budget_watts",
                                   "bus", "port"},
                              source);
    FleetSystem sys;
    const auto name = get_string(st, "name", source);
    if (!name || name->empty()) fail(source, st, "system needs a 'name'");
    for (const FleetSystem& other : fleet.systems_) {
      if (other.name == *name) fail(source, st, "duplicate system '" + *name + "'");
    }
    sys.name = *name;
    sys.description = get_string(st, "description", source).value_or("");
    sys.power_budget_watts = number_in(st, "power_budget_watts", 0, 1e6, source).value_or(0);
    const std::string prefix = get_string(st, "port_prefix", source).value_or("port");
    const toml::array* buses = array_of_tables(st, "bus", source);
    if (buses == nullptr) fail(source, st, "system '" + sys.name + "' has no [[system.bus]]");
    int port_number = 1;
    for (const toml::node& b : *buses) {
      const int n = static_cast<int>(sys.buses.size());
      sys.buses.push_back(bus(*b.as_table(), sys.name, prefix, n, port_number));
    }
    fleet.systems_.push_back(std::move(sys));
    if (const toml::array* ports = array_of_tables(st, "port", source)) {
      for (const toml::node& p : *ports) port_settings(*p.as_table(), *name);
    }
  }

  EmulatedBus* bus(const toml::table& bt, const std::string& system, const std::string& prefix,
                   int bus_number, int& port_number) {
    toml_support::expect_keys(bt, {"name", "clock_khz", "cage_form", "cage_forms", "modules",
                                   "ports", "mux", "timeout_ms"},
                              source);
    const toml::array* modules = bt.get_as<toml::array>("modules");
    if (modules == nullptr || modules->empty()) {
      fail(source, bt, "bus needs 'modules' = [catalog keys, \"\" for an empty cage]");
    }
    BusConfig cfg;
    cfg.name = get_string(bt, "name", source).value_or(system + "/i2c-" + std::to_string(bus_number));
    const int64_t khz = get_int(bt, "clock_khz", source).value_or(400);
    if (khz != 100 && khz != 400 && khz != 1000) {
      fail(source, *bt.get("clock_khz"), "clock_khz must be 100, 400 or 1000");
    }
    cfg.clock_hz = static_cast<uint32_t>(khz * 1000);
    cfg.cages = static_cast<int>(modules->size());
    if (const toml::node* mux = bt.get("mux"); mux != nullptr && !mux->value_or(true)) {
      cfg.mux_address.reset();
    }
    const int64_t timeout_ms = get_int(bt, "timeout_ms", source).value_or(25);
    if (timeout_ms < 1 || timeout_ms > 60'000) fail(source, *bt.get("timeout_ms"), "timeout_ms must be 1-60000");
    cfg.timeout_ns = timeout_ms * kMillisecond;
    for (const auto& b : fleet.buses_) {
      if (b->name() == cfg.name) fail(source, bt, "duplicate bus name '" + cfg.name + "'");
    }
    fleet.buses_.push_back(std::make_unique<EmulatedBus>(cfg, *fleet.clock_));
    EmulatedBus& bus = *fleet.buses_.back();
    fleet.injectors_.push_back(std::make_unique<FaultInjector>(bus, DynamicsConfig{}));
    const std::string form = get_string(bt, "cage_form", source).value_or("QSFP-DD");
    const toml::array* forms = bt.get_as<toml::array>("cage_forms");
    const toml::array* names = bt.get_as<toml::array>("ports");
    for (std::size_t c = 0; c < modules->size(); ++c) {
      const toml::node& m = *modules->get(c);
      if (!m.is_string()) fail(source, m, "module entries must be catalog keys (strings)");
      FleetPort port;
      port.system = system;
      port.cage_form = form;
      if (forms != nullptr && c < forms->size()) {
        port.cage_form = forms->get(c)->value_or(form);
      }
      if (port.cage_form != "OSFP" && port.cage_form != "QSFP-DD" && port.cage_form != "QSFP112" &&
          port.cage_form != "QSFP28") {
        fail(source, forms != nullptr && c < forms->size() ? *forms->get(c) : *bt.get("cage_form"),
             "cage form must be \"OSFP\", \"QSFP-DD\", \"QSFP112\" or \"QSFP28\"");
      }
      std::string local = prefix + std::to_string(port_number++);
      if (names != nullptr && c < names->size()) local = names->get(c)->value_or(local);
      port.name = system + "/" + local;
      if (fleet.find_port(port.name) != nullptr) fail(source, m, "duplicate port '" + port.name + "'");
      port.bus = &bus;
      port.cage = static_cast<int>(c);
      port.model = *m.value<std::string>();
      if (!port.model.empty()) {
        const ModuleModel* model = find_model(port.model);
        if (model == nullptr) fail(source, m, "unknown module model '" + port.model + "'");
        if (!fits(port.cage_form, model->identifier)) {
          fail(source, m, "'" + port.model + "' does not fit the " + port.cage_form + " cage of " +
                              port.name);
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
    toml_support::expect_keys(pt, {"port", "airflow", "ambient_celsius", "bias_drift_per_hour",
                                   "seed", "faults"},
                              source);
    const auto local = get_string(pt, "port", source);
    if (!local) fail(source, pt, "[[system.port]] needs 'port' (its name within the system)");
    const FleetPort* port = fleet.find_port(system + "/" + *local);
    if (port == nullptr) fail(source, *pt.get("port"), "no port '" + *local + "' in " + system);
    const auto airflow = number_in(pt, "airflow", 0.01, 100, source);
    const auto amb = number_in(pt, "ambient_celsius", -60, 150, source);
    const auto drift = number_in(pt, "bias_drift_per_hour", -10, 10, source);
    const auto port_seed_value = get_int(pt, "seed", source);
    const bool has_module = port->bus->with_module(port->cage, [&](EmulatedModule& m) {
      m.set_environment({amb.value_or(ambient), airflow.value_or(1.0)});
      if (drift) m.dynamics().bias_drift_per_hour = *drift;
      if (port_seed_value) m.dynamics().seed = static_cast<uint64_t>(*port_seed_value);
    });
    if (!has_module && (airflow || amb || drift)) {
      fail(source, pt, "port '" + port->name + "' is an empty cage");
    }
    const toml::array* faults = pt.get_as<toml::array>("faults");
    if (faults == nullptr) return;
    for (const toml::node& f : *faults) {
      const toml::table* ft = f.as_table();
      if (ft == nullptr) fail(source, f, "faults must be inline tables { kind = \"...\" }");
      toml_support::ParsedFault p = toml_support::parse_fault(*ft, source);
      FaultInjector* inj = fleet.injector(*port->bus);
      if (auto err = inj->apply(port->cage, p.event.fault)) fail(source, f, *err);
    }
  }

  void timeline(const toml::table& doc) {
    const toml::array* faults = array_of_tables(doc, "fault", source);
    if (faults == nullptr) return;
    for (const toml::node& f : *faults) {
      toml_support::ParsedFault p = toml_support::parse_fault(*f.as_table(), source);
      if (p.event.port.empty()) fail(source, f, "timeline faults name their target with 'port'");
      if (fleet.find_port(p.event.port) == nullptr) {
        fail(source, *f.as_table()->get("port"), "no port '" + p.event.port + "'");
      }
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
    const toml::table doc = toml_support::parse_document(toml_text, source_name);
    toml_support::expect_keys(doc, {"emulator", "system", "fault"}, source_name);
    FleetBuilder b{source_name, *fleet, 1, 30.0, clock_override};
    b.emulator_section(doc);
    const toml::array* systems = array_of_tables(doc, "system", source_name);
    if (systems == nullptr) throw toml_support::TomlError(std::string(source_name) + ":1:1: no [[system]]");
    for (const toml::node& s : *systems) b.system(*s.as_table());
    b.timeline(doc);
  } catch (const toml_support::TomlError& e) {
    result.error = e.what();
    return result;
  }
  result.fleet = std::move(fleet);
  return result;
}

FleetLoad load_fleet_file(const std::string& path, std::optional<ClockMode> clock_override) {
  std::string error;
  const auto text = drivers::read_regular_file(path, drivers::InputKind::Fleet, error);
  if (!text) return {nullptr, error};
  return load_fleet(*text, path, clock_override);
}

}  // namespace xcvr::emulator
