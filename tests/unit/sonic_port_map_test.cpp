// SONiC's front-panel maps (drivers/optoe/sonic_port_map.hpp) on files recorded from
// sonic-buildimage (tests/data/sonic/README.md), and optoe discovery naming ports through them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "drivers/optoe/optoe_transport.hpp"
#include "drivers/optoe/sonic_port_map.hpp"

namespace xcvr::optoe {
namespace {

namespace fs = std::filesystem;
const std::string kSonic = std::string(XCVR_TEST_DATA) + "/sonic/";

SonicPortMap load_ok(const std::string& name) {
  auto r = load_sonic_port_map(kSonic + name);
  if (auto* e = std::get_if<SonicMapError>(&r)) ADD_FAILURE() << e->message;
  return std::get_if<SonicPortMap>(&r) != nullptr ? std::get<SonicPortMap>(r) : SonicPortMap{};
}

std::string error_of(const std::variant<SonicPortMap, SonicMapError>& r) {
  return std::holds_alternative<SonicMapError>(r) ? std::get<SonicMapError>(r).message : "accepted";
}

TEST(SonicPortMap, PortConfigIniOfA32PortQsfpDdSwitchIsZeroBased) {
  const SonicPortMap m = load_ok("accton-as9716-32d.port_config.ini");
  ASSERT_EQ(m.by_index.size(), 32u);
  EXPECT_EQ(m.by_index.at(0), "Ethernet0");
  EXPECT_EQ(m.by_index.at(1), "Ethernet8");
  EXPECT_EQ(m.by_index.at(31), "Ethernet248");
  EXPECT_EQ(m.source, kSonic + "accton-as9716-32d.port_config.ini");
}

TEST(SonicPortMap, PlatformJsonAndPortConfigIniOfOnePlatformAgree) {
  const SonicPortMap json = load_ok("cel-seastone-2.platform.json");
  const SonicPortMap ini = load_ok("cel-seastone-2.port_config.ini");
  ASSERT_EQ(json.by_index.size(), 33u) << "32 QSFP28 ports and the SFP+ port";
  EXPECT_EQ(json.by_index.at(1), "Ethernet0");
  EXPECT_EQ(json.by_index.at(3), "Ethernet8");
  EXPECT_EQ(json.by_index.at(33), "Ethernet128");
  EXPECT_EQ(json.by_index, ini.by_index);
}

TEST(SonicPortMap, ABrokenOutPortIsNamedByItsLowestLane) {
  const char* ini =
      "# name lanes alias index speed\n"
      "Ethernet6 7,8 Eth1/4 1 100000\n"
      "Ethernet0 1,2 Eth1/1 1 100000\n"
      "Ethernet2 3,4 Eth1/2 1 100000\n"
      "Ethernet8 9,10,11,12,13,14,15,16 Eth2 2 400000\n";
  const auto r = parse_port_config_ini(ini, "p.ini");
  ASSERT_TRUE(std::holds_alternative<SonicPortMap>(r)) << error_of(r);
  EXPECT_EQ(std::get<SonicPortMap>(r).by_index.at(1), "Ethernet0");
  EXPECT_EQ(std::get<SonicPortMap>(r).by_index.at(2), "Ethernet8");
  // The columns come from the header, in whatever order it lists them.
  const auto reordered = parse_port_config_ini("#name index lanes\nEthernet4 7 5,6\n", "q.ini");
  ASSERT_TRUE(std::holds_alternative<SonicPortMap>(reordered)) << error_of(reordered);
  EXPECT_EQ(std::get<SonicPortMap>(reordered).by_index.at(7), "Ethernet4");
}

TEST(SonicPortMap, ErrorsNameTheFileLineAndColumn) {
  EXPECT_EQ(error_of(parse_port_config_ini("# name lanes alias index\nEthernet0 1,2 Eth1 x1\n", "p.ini")),
            "p.ini:2:20: index 'x1' is not a port number");
  EXPECT_EQ(error_of(parse_port_config_ini("# name lanes alias index\nEthernet0 1,2\n", "p.ini")),
            "p.ini:2:1: expected a 'name' and an 'index' field (2 fields)");
  EXPECT_EQ(error_of(parse_port_config_ini("# just a comment\n\n", "p.ini")), "p.ini: no interfaces");
  const std::string json_error = error_of(parse_platform_json("{\n  \"interfaces\": {\n    \"Ethernet0\": [1,\n}", "pl.json"));
  EXPECT_EQ(json_error.rfind("pl.json:4:1: not JSON: parse error", 0), 0u) << json_error;
  EXPECT_EQ(error_of(parse_platform_json("{\"chassis\": {}}", "pl.json")), "pl.json: no \"interfaces\" object");
  // Found by fuzz_sonic_port_map: a number past double is nlohmann's out_of_range, not a parse error.
  EXPECT_EQ(error_of(parse_platform_json("1999E99999", "pl.json")).rfind("pl.json: not usable JSON: ", 0), 0u);
  EXPECT_EQ(error_of(parse_platform_json("{\"interfaces\": {\"Ethernet0\": {\"index\": \"a\"}}}", "pl.json")),
            "pl.json: interfaces.Ethernet0.index: not a port number");
  EXPECT_NE(error_of(load_sonic_port_map(kSonic + "missing.ini")).find("missing.ini"), std::string::npos);
}

TEST(SonicPortMap, FrontPanelNumbersAsPlatformsWriteThem) {
  EXPECT_EQ(front_panel_number("port0"), 0);   // Accton
  EXPECT_EQ(front_panel_number("Port12"), 12);  // Juniper
  EXPECT_EQ(front_panel_number("7"), 7);        // Quanta
  EXPECT_EQ(front_panel_number("Ethernet48"), std::nullopt);
  EXPECT_EQ(front_panel_number("port"), std::nullopt);
  EXPECT_EQ(front_panel_number("port-1"), std::nullopt);
  EXPECT_EQ(front_panel_number("unitialized"), std::nullopt);
}

// A SONiC host's layout: /host/machine.conf names the platform, device/<platform>/default_sku
// its SKU; the pmon container's /usr/share/sonic/hwsku comes first.
TEST(SonicPortMap, LookupFindsTheMapWhereSonicKeepsIt) {
  const fs::path root = fs::temp_directory_path() / ("xcvr-sonic-" + std::to_string(::getpid()));
  fs::remove_all(root);
  EXPECT_FALSE(lookup_sonic_port_map("", root.string()).map) << "not a SONiC host: no map, nothing to say";
  EXPECT_TRUE(lookup_sonic_port_map("", root.string()).note.empty());
  const fs::path device = root / "usr/share/sonic/device/x86_64-accton_as9716_32d-r0";
  fs::create_directories(device / "Accton-AS9716-32D");
  fs::create_directories(root / "host");
  std::ofstream(root / "host/machine.conf") << "onie_arch=x86_64\nonie_platform=x86_64-accton_as9716_32d-r0\n";
  std::ofstream(device / "default_sku") << "Accton-AS9716-32D t1\n";
  fs::copy_file(kSonic + "accton-as9716-32d.port_config.ini", device / "Accton-AS9716-32D/port_config.ini");
  const SonicMapLookup host = lookup_sonic_port_map("", root.string());
  ASSERT_TRUE(host.map);
  EXPECT_EQ(host.map->by_index.at(1), "Ethernet8");
  EXPECT_NE(host.note.find("(32 front-panel ports)"), std::string::npos) << host.note;
  fs::create_directories(root / "usr/share/sonic/hwsku");
  std::ofstream(root / "usr/share/sonic/hwsku/port_config.ini") << "# name lanes alias index\nEthernet0 1 x\n";
  const SonicMapLookup broken = lookup_sonic_port_map("", root.string());
  EXPECT_FALSE(broken.map) << "a map SONiC keeps that does not parse is ignored, not fatal";
  EXPECT_NE(broken.note.find("ignored"), std::string::npos) << broken.note;
  EXPECT_TRUE(broken.error.empty());
  EXPECT_FALSE(lookup_sonic_port_map("none", root.string()).map);
  EXPECT_FALSE(lookup_sonic_port_map((root / "nope.ini").string()).error.empty()) << "a configured file must exist";
  fs::remove_all(root);
}

// optoe clients as Accton's platform init leaves them (optoe1, port_name "port<i>" 0-based, the
// same numbers as its port_config.ini `index`), one a platform named itself, one unnamed.
TEST(SonicPortMap, OptoeDiscoveryNamesPortsByTheSonicInterface) {
  const fs::path root = fs::temp_directory_path() / ("xcvr-sonic-optoe-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path devices = root / "devices";
  auto client = [&](const char* entry, const char* port_name) {
    fs::create_directories(devices / entry);
    std::ofstream(devices / entry / "name") << "optoe1\n";
    std::ofstream(devices / entry / "eeprom") << std::string(256, '\0');
    if (port_name != nullptr) std::ofstream(devices / entry / "port_name") << port_name << "\n";
  };
  client("25-0050", "port0");
  client("26-0050", "port1");
  client("56-0050", "port31");
  client("57-0050", "port40");  // a number the map lacks
  client("58-0050", "Ethernet512");
  client("59-0050", nullptr);
  const SonicPortMap map = load_ok("accton-as9716-32d.port_config.ini");
  const EepromDiscovery d = discover_optoe(devices.string(), (root / "none").string(), kOptoeDrivers, &map);
  std::vector<std::string> names;
  for (const auto& e : d.found) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"Ethernet0", "Ethernet8", "Ethernet248", "port40", "Ethernet512", "optoe-59"}));
  const EepromDiscovery plain = discover_optoe(devices.string(), (root / "none").string());
  EXPECT_EQ(plain.found[0].name, "port0") << "no map: the front-panel number";
  fs::remove_all(root);
}

}  // namespace
}  // namespace xcvr::optoe
