// Fleet TOML: config/demo.toml loads into the described systems; bad files give positioned errors.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "cmis/decode.hpp"
#include "emulator/fleet.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

const std::string kConfigDir = std::string(XCVR_TEST_DATA) + "/../../config";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

cmis::ModuleReport poll(const FleetPort& port) {
  const auto* model = port.bus->module(port.cage).get();
  const bool cmis = model->model().spec == cmis::Spec::Cmis;
  ImageRead r = read_image(*port.transport, standard_halves(cmis, model->model().flat_memory));
  EXPECT_TRUE(r.errors.empty()) << port.name;
  return cmis::decode(r.image);
}

TEST(EmulatorFleet, DemoFleetMatchesItsDescription) {
  FleetLoad load = load_fleet_file(kConfigDir + "/demo.toml");
  ASSERT_TRUE(load.fleet) << load.error;
  Fleet& fleet = *load.fleet;
  ASSERT_EQ(fleet.systems().size(), 4u);
  const FleetSystem& spine = fleet.systems()[0];
  EXPECT_EQ(spine.name, "spine-01");
  ASSERT_EQ(spine.buses.size(), 8u);
  std::set<std::string> forms;
  int spine_ports = 0, empty = 0;
  for (const FleetPort& p : fleet.ports()) {
    if (p.system != "spine-01") continue;
    ++spine_ports;
    forms.insert(p.cage_form);
    if (p.model.empty()) {
      ++empty;
      EXPECT_EQ(p.transport->presence(), drivers::Presence::Absent) << p.name;
    }
  }
  EXPECT_EQ(spine_ports, 64);
  EXPECT_GE(empty, 2);
  EXPECT_EQ(forms, (std::set<std::string>{"QSFP-DD"})) << "a 400G QSFP-DD Ethernet spine";
  for (EmulatedBus* b : spine.buses) EXPECT_EQ(b->cage_count(), 8);

  // A Quantum-2 QM9700: 32 OSFP cages, each a twin-port module (two NDR ports).
  const FleetSystem& quantum2 = fleet.systems()[1];
  EXPECT_EQ(quantum2.name, "qm9700-01");
  int q2_cages = 0;
  for (const FleetPort& p : fleet.ports()) {
    if (p.system != "qm9700-01") continue;
    ++q2_cages;
    EXPECT_EQ(p.cage_form, "OSFP") << p.name;
  }
  EXPECT_EQ(q2_cages, 32);
  ASSERT_NE(fleet.find_port("qm9700-01/1"), nullptr) << "front-panel cage numbers, from 1, as the ib source names them";
  EXPECT_EQ(fleet.find_port("qm9700-01/1")->model, "osfp-800g-2xsr4-finned");
  EXPECT_NE(fleet.find_port("qm9700-01/32"), nullptr);
  EXPECT_EQ(fleet.find_port("qm9700-01/0"), nullptr);

  const FleetSystem& host = fleet.systems()[2];
  EXPECT_EQ(host.buses.size(), 10u);  // 8 compute NICs + 2 storage/in-band ports, a domain each
  const FleetPort* nic = fleet.find_port("gpu-node-01/mlx5_0");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->model, "osfp-400g-sr4-flat");
  EXPECT_EQ(nic->transport->domain(), "gpu-node-01/mlx5_0");
  const FleetPort* storage = fleet.find_port("gpu-node-01/mlx5_9");
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(storage->cage_form, "QSFP112");
  EXPECT_EQ(storage->model, "qsfp112-400g-sr4");

  // A QSFP28 sits in a QSFP-DD cage and decodes as SFF-8636.
  const FleetPort* q28 = fleet.find_port("spine-01/swp60");
  ASSERT_NE(q28, nullptr);
  EXPECT_EQ(q28->cage_form, "QSFP-DD");
  fleet.virtual_clock()->advance(5 * kSecond);
  EXPECT_EQ(poll(*q28).spec, cmis::Spec::Sff8636);

  // The dirty fiber shows low rx power; the miscoded module its bad vendor coding.
  const cmis::ModuleReport dirty = poll(*fleet.find_port("spine-01/swp41"));
  EXPECT_NE(std::find(dirty.lanes[0].flags.begin(), dirty.lanes[0].flags.end(),
                      "rx_power_low_warning"),
            dirty.lanes[0].flags.end());
  EXPECT_EQ(poll(*fleet.find_port("spine-01/swp20")).id.vendor_oui, "00:00:00");

  // The overheating module (its airflow blocked) settles past its warning threshold; its
  // timeline's overheat (run_faults, not called here) takes it further.
  fleet.virtual_clock()->advance(4 * 3600 * kSecond);
  const cmis::ModuleReport hot = poll(*fleet.find_port("spine-01/swp12"));
  const cmis::ModuleReport normal = poll(*fleet.find_port("spine-01/swp11"));
  EXPECT_GT(*hot.temperature_celsius, 70.0);
  EXPECT_LT(*normal.temperature_celsius, 60.0);
}

TEST(EmulatorFleet, DemoTimelineAndScenariosRun) {
  FleetLoad load = load_fleet_file(kConfigDir + "/demo.toml");
  ASSERT_TRUE(load.fleet) << load.error;
  Fleet& fleet = *load.fleet;
  for (const char* s : {"flapping-link.toml", "sick-bus.toml"}) {
    const std::string path = kConfigDir + "/scenarios/" + s;
    EXPECT_EQ(fleet.add_scenario(slurp(path), path), std::nullopt) << s;
  }
  // demo.toml's timeline pulls swp60 at 90 s and reseats it 3 minutes later.
  const FleetPort& swp60 = *fleet.find_port("spine-01/swp60");
  fleet.virtual_clock()->advance(90 * kSecond + 1);
  EXPECT_TRUE(fleet.run_faults().empty());
  EXPECT_EQ(swp60.transport->presence(), drivers::Presence::Absent);
  fleet.virtual_clock()->advance(180 * kSecond);
  EXPECT_TRUE(fleet.run_faults().empty());
  EXPECT_EQ(swp60.transport->presence(), drivers::Presence::Present);
}

TEST(EmulatorFleet, ErrorsNameFileLineAndColumn) {
  const auto error = [](std::string_view text) {
    FleetLoad l = load_fleet(text, "fleet.toml");
    EXPECT_FALSE(l.fleet);
    return l.error;
  };
  EXPECT_EQ(error("[[system]]\nname = \"s\"\n[[system.bus]]\nmodules = [\"qsfpdd-400g-xx\"]\n")
                .rfind("fleet.toml:4:12: unknown module model 'qsfpdd-400g-xx'", 0),
            0u);
  EXPECT_EQ(error("[[system]]\nname = \"s\"\n[[system.bus]]\ncage_form = \"QSFP-DD\"\n"
                  "modules = [\"osfp-800g-aec\"]\n")
                .rfind("fleet.toml:5:12: 'osfp-800g-aec' does not fit the QSFP-DD cage", 0),
            0u);
  EXPECT_EQ(error("[[system]]\nname = \"s\"\n[[system.bus]]\nclock_khz = 300\nmodules = [\"\"]\n")
                .rfind("fleet.toml:4:13: clock_khz must be", 0),
            0u);
  EXPECT_EQ(error("[emulator]\nclock = \"virtual\"\nsed = 3\n").rfind("fleet.toml:3:1: unknown key 'sed' in emulator", 0),
            0u);
  EXPECT_EQ(error("[[system]]\nname = \"s\"\n[[system.bus]]\nmodules = [\"\"]\n"
                  "[[fault]]\nport = \"s/port9\"\nkind = \"rx_los\"\n")
                .rfind("fleet.toml:6:8: no port 's/port9'", 0),
            0u);
  EXPECT_EQ(error("[[system]\n").rfind("fleet.toml:1:", 0), 0u);
  // #39: a port name with a newline or an escape sequence is refused, and the error shows its
  // bytes escaped (it reached the log and the terminal raw).
  const std::string escape = error("[[system]]\nname = \"s\"\n[[system.bus]]\nmodules = [\"\"]\n"
                                   "ports = [\"p1\\u001b[31m\"]\n");
  EXPECT_EQ(escape.rfind("fleet.toml:5:10: port name 's/p1\\x1b[31m' must be printable ASCII", 0), 0u) << escape;
  EXPECT_EQ(escape.find('\x1b'), std::string::npos);
  EXPECT_NE(error("[[system]]\nname = \"s\\nx\"\n[[system.bus]]\nmodules = [\"\"]\n").find("port name 's\\x0ax/port1'"),
            std::string::npos);
  FleetLoad missing = load_fleet_file("/nonexistent/fleet.toml");
  EXPECT_FALSE(missing.fleet);
  EXPECT_NE(missing.error.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace xcvr::emulator
