// "Load a dump as a module": published dumps replayed by EmulatedModule::from_image.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cmis/decode.hpp"
#include "dumpfile/dump_parser.hpp"
#include "emulator/bus.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

std::optional<cmis::ModuleImage> load_dump(const std::string& folder) {
  std::ifstream in(std::string(XCVR_TEST_DATA) + "/" + folder + "/raw.txt", std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  auto parsed = dumpfile::parse(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  if (auto* ok = std::get_if<dumpfile::ParsedDump>(&parsed)) return ok->image;
  return std::nullopt;
}

std::vector<cmis::PageKey> keys_of(const cmis::ModuleImage& image) {
  std::vector<cmis::PageKey> keys;
  for (const auto& e : image.entries()) keys.push_back(e.key);
  return keys;
}

TEST(EmulatorReplay, DumpsReplayTheirIdentityWithLiveMonitors) {
  for (const char* folder : {"osfp800g-juniper-dr8-xai01-port40", "qsfp28-lr4-dell-3mfxg",
                             "qsfp28-sr4-finisar-ftlc9551repm"}) {
    SCOPED_TRACE(folder);
    const auto dump = load_dump(folder);
    ASSERT_TRUE(dump);
    VirtualClock clock;
    EmulatedBus bus(BusConfig{"bus0", kFastModeHz, 1, std::nullopt, 25 * kMillisecond}, clock);
    bus.insert(0, EmulatedModule::from_image(*dump, clock));
    EmulatorTransport transport(bus, 0);
    const std::vector<cmis::PageKey> keys = keys_of(*dump);
    ImageRead first = read_image(transport, keys);
    EXPECT_TRUE(first.errors.empty()) << first.errors.front().second.message;
    const cmis::ModuleReport want = cmis::decode(*dump);
    const cmis::ModuleReport got = cmis::decode(first.image);
    EXPECT_EQ(got.id.part_number, want.id.part_number);
    EXPECT_EQ(got.id.serial, want.id.serial);
    EXPECT_EQ(got.id.vendor_oui, want.id.vendor_oui);
    ASSERT_EQ(got.checksums.size(), want.checksums.size());
    for (std::size_t i = 0; i < got.checksums.size(); ++i) {
      EXPECT_EQ(got.checksums[i].ok(), want.checksums[i].ok()) << got.checksums[i].page;
    }
    if (want.temperature_celsius) {
      ASSERT_TRUE(got.temperature_celsius);
      EXPECT_NEAR(*got.temperature_celsius, *want.temperature_celsius, 0.5);
    }
    // Live: monitors move (noise) over time but stay near the dumped values.
    clock.advance(10 * kSecond);
    const cmis::ModuleReport later = cmis::decode(read_image(transport, keys).image);
    if (want.temperature_celsius) {
      EXPECT_NEAR(*later.temperature_celsius, *want.temperature_celsius, 0.5);
    }
    for (std::size_t l = 0; l < want.lanes.size() && l < later.lanes.size(); ++l) {
      if (!want.lanes[l].rx_power_watts || *want.lanes[l].rx_power_watts == 0) continue;
      EXPECT_NEAR(*later.lanes[l].rx_power_watts, *want.lanes[l].rx_power_watts,
                  0.05 * *want.lanes[l].rx_power_watts);
    }
    // Pages the dump lacks are unsupported, as on a module without them.
    uint8_t buf[8];
    const auto e = transport.read({0x50, 0, 0x9F, 128, 8}, buf);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, drivers::ErrorKind::Unsupported);
    EXPECT_EQ(bus.module(0)->violations(), 0u);
  }
}

}  // namespace
}  // namespace xcvr::emulator
