// Regressions for what the config/scenario fuzz target (tests/fuzz/fuzz_config.cpp) and the soak
// turned up: fuzzed numbers that reached integer casts and int64 time arithmetic (undefined
// behaviour), NaN ranges that slipped through "out of range" checks, and the emulator's write
// log growing for as long as a daemon ran.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "coding/catalog.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/faults.hpp"
#include "emulator/fleet.hpp"
#include "emulator/module.hpp"

namespace xcvr {
namespace {

std::string timeline_error(const std::string& fault_body) {
  const auto parsed = emulator::FaultTimeline::parse("[[fault]]\nport = \"s/p1\"\n" + fault_body, "t.toml");
  return parsed.error.value_or("");
}

TEST(FuzzRegression, FaultValuesMustFitTheirKind) {
  // Each was accepted and then cast to int / uint8_t / int64_t by the injector.
  for (const char* body : {"kind = \"corrupt_byte\"\nvalue = 1e10\n", "kind = \"corrupt_byte\"\nvalue = nan\n",
                           "kind = \"garbage_identifier\"\nvalue = -1\n", "kind = \"module_fault\"\nvalue = 300\n",
                           "kind = \"module_fault\"\nvalue = 1.5\n", "kind = \"slow_module\"\nvalue = inf\n",
                           "kind = \"slow_module\"\nvalue = -5\n", "kind = \"dirty_fiber\"\nvalue = -inf\n",
                           "kind = \"overheat\"\nvalue = 1e300\n", "kind = \"rx_los\"\nvalue = nan\n"}) {
    const std::string error = timeline_error(body);
    EXPECT_EQ(error.rfind("t.toml:", 0), 0u) << body << " -> " << error;
    EXPECT_NE(error.find("'value' must be"), std::string::npos) << body;
  }
  EXPECT_EQ(timeline_error("kind = \"corrupt_byte\"\nvalue = 0x80\n"), "");
  EXPECT_EQ(timeline_error("kind = \"slow_module\"\nvalue = 20000\n"), "");
  EXPECT_EQ(timeline_error("kind = \"overheat\"\nvalue = 0.004\n"), "");
}

TEST(FuzzRegression, FaultEndTimeAndIndicesStayInRange) {
  // at + duration overflowed int64 (both are up to 9e18 ns on their own).
  EXPECT_NE(timeline_error("kind = \"rx_los\"\nat = \"2000000h\"\nduration = \"2000000h\"\n").find("too far in the future"),
            std::string::npos);
  EXPECT_EQ(timeline_error("kind = \"rx_los\"\nat = \"2000000h\"\nduration = 1\n"), "");
  // A lane of 2^32 + 1 wrapped to lane 1 when narrowed before the range check.
  EXPECT_NE(timeline_error("kind = \"rx_los\"\nlane = 4294967297\n").find("fault.lane: must be between 0 and 32"), std::string::npos);
  EXPECT_NE(timeline_error("kind = \"rx_los\"\ncage = -1\n").find("fault.cage: must be between 0 and 4096"), std::string::npos);
}

// A one-bus fleet with `emulator_keys` in [emulator], `bus_keys` on the bus and `after` last.
std::string fleet_error(const std::string& emulator_keys, const std::string& bus_keys, const std::string& after = "") {
  const std::string text = "[emulator]\nclock = \"virtual\"\n" + emulator_keys +
                           "[[system]]\nname = \"s\"\nport_prefix = \"p\"\n  [[system.bus]]\n"
                           "  modules = [\"qsfpdd-400g-sr8\"]\n" + bus_keys + after;
  return emulator::load_fleet(text, "f.toml", emulator::ClockMode::Virtual).error;
}

TEST(FuzzRegression, FleetNumbersStayInRange) {
  EXPECT_EQ(fleet_error("", ""), "");
  // timeout_ms * 1e6 overflowed int64.
  EXPECT_NE(fleet_error("", "  timeout_ms = 9223372036854775807\n").find("bus.timeout_ms: must be between 1 and 60000"), std::string::npos);
  EXPECT_NE(fleet_error("", "  timeout_ms = -3\n").find("bus.timeout_ms: must be between 1 and 60000"), std::string::npos);
  // Environment numbers reach the module's integer encoders.
  EXPECT_NE(fleet_error("ambient_celsius = nan\n", "").find("emulator.ambient_celsius: must be between -60 and 150"), std::string::npos);
  EXPECT_NE(fleet_error("ambient_celsius = 1e300\n", "").find("emulator.ambient_celsius: must be between -60 and 150"), std::string::npos);
  const std::string port = "  [[system.port]]\n  port = \"p1\"\n";
  EXPECT_NE(fleet_error("", "", port + "  airflow = inf\n").find("port.airflow: must be between 0.01 and 100"), std::string::npos);
  EXPECT_NE(fleet_error("", "", port + "  bias_drift_per_hour = nan\n").find("port.bias_drift_per_hour: must be between -10 and 10"),
            std::string::npos);
  EXPECT_EQ(fleet_error("", "", port + "  airflow = 1.4\n  ambient_celsius = 45\n"), "");
}

TEST(FuzzRegression, CatalogRangesRejectNaN) {
  for (const char* range : {"[nan, 850]", "[840, nan]", "[nan, nan]", "[-inf, 850]"}) {
    coding::Catalog c;
    const std::string text = std::string("[part.\"X\"]\nwavelength_nm = ") + range + "\n";
    const auto error = coding::parse_catalog_into(c, text, "site.toml");
    ASSERT_TRUE(error.has_value()) << range;
    EXPECT_EQ(error->line, 2) << range;
    EXPECT_NE(error->message.find("wavelength_nm"), std::string::npos) << error->message;
  }
}

TEST(FuzzRegression, EmulatorWriteLogIsBounded) {
  base::VirtualClock clock;
  const emulator::ModuleModel* model = emulator::find_model("qsfpdd-400g-sr8");
  ASSERT_NE(model, nullptr);
  emulator::EmulatedModule m(*model, clock);
  const uint8_t page = 0;
  const std::size_t total = 5 * emulator::EmulatedModule::kWriteLogKeep;
  for (std::size_t i = 0; i < total; ++i) m.write(127, std::span<const uint8_t>(&page, 1));
  EXPECT_LE(m.writes().size(), 2 * emulator::EmulatedModule::kWriteLogKeep);
  EXPECT_GE(m.writes().size(), emulator::EmulatedModule::kWriteLogKeep);
  EXPECT_EQ(m.violations(), 0u);
  const uint8_t junk = 1;
  m.write(3, std::span<const uint8_t>(&junk, 1));  // a forbidden write is still counted and logged
  EXPECT_EQ(m.violations(), 1u);
  EXPECT_TRUE(m.writes().back().violation);
}

}  // namespace
}  // namespace xcvr
