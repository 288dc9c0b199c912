// Every fault kind, observed through EmulatorTransport and the decoder; the TOML timeline.
#include <gtest/gtest.h>

#include <climits>
#include <memory>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "emulator/faults.hpp"
#include "emulator/image_reader.hpp"

namespace xcvr::emulator {
namespace {

using cmis::CmisField;
using cmis::cmis_field;
using drivers::ErrorKind;

constexpr cmis::PageKey kLower{0x50, 0, cmis::kLowerPage};
constexpr cmis::PageKey kPage00{0x50, 0, 0x00};
constexpr cmis::PageKey kPage11{0x50, 0, 0x11};

struct Rig {
  explicit Rig(std::string_view key = "qsfpdd-400g-sr8")
      : bus(BusConfig{"bus0", kFastModeHz, 2, 0x70, 25 * kMillisecond}, clock),
        transport(bus, 0),
        injector(bus) {
    bus.insert(0, std::make_shared<EmulatedModule>(*find_model(key), clock));
    bus.insert(1, std::make_shared<EmulatedModule>(*find_model(key), clock));
    clock.advance(2 * kSecond);
  }
  Fault fault(FaultKind kind, int lane = 0, std::optional<double> value = std::nullopt) {
    Fault f;
    f.kind = kind;
    f.lane = lane;
    f.value = value;
    return f;
  }
  void apply(const Fault& f) { ASSERT_EQ(injector.apply(0, f), std::nullopt); }
  void clear(const Fault& f) { ASSERT_EQ(injector.clear(0, f), std::nullopt); }
  ImageRead read(std::vector<cmis::PageKey> halves) { return read_image(transport, halves); }
  cmis::ModuleImage image(std::vector<cmis::PageKey> halves) {
    ImageRead r = read(std::move(halves));
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].second.message);
    return r.image;
  }
  cmis::ModuleReport decoded() {
    return cmis::decode(image(standard_halves(true, false)));
  }
  std::optional<drivers::Error> error_reading(cmis::PageKey key) {
    ImageRead r = read({key});
    if (r.errors.empty()) return std::nullopt;
    return r.errors[0].second;
  }
  VirtualClock clock;
  EmulatedBus bus;
  EmulatorTransport transport;
  FaultInjector injector;
};

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(EmulatorFaults, EveryKindHasAName) {
  for (FaultKind k : all_fault_kinds()) {
    EXPECT_EQ(parse_fault_kind(fault_kind_name(k)), k);
  }
  EXPECT_EQ(all_fault_kinds().size(), 24u);
}

TEST(EmulatorFaults, UnplugThenInsertADifferentModule) {
  Rig rig;
  rig.image({kPage11});  // transport now believes page 11h is selected
  rig.apply(rig.fault(FaultKind::Unplug));
  auto e = rig.error_reading(kLower);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Absent);
  EXPECT_EQ(rig.transport.presence(), drivers::Presence::Absent);
  Fault insert = rig.fault(FaultKind::Insert);
  insert.model = "qsfp28-100g-sr4";  // a QSFP28 in the QSFP-DD cage
  rig.apply(insert);
  rig.clock.advance(kSecond);
  const cmis::ModuleReport r = cmis::decode(rig.image({kLower, kPage00, {0x50, 0, 0x03}}));
  EXPECT_EQ(r.spec, cmis::Spec::Sff8636);
  EXPECT_EQ(r.id.part_number, "QSFP-100G-SR4-E");
  // Unplug again and re-insert the parked module: the first one cannot come back twice.
  rig.apply(rig.fault(FaultKind::Unplug));
  rig.apply(rig.fault(FaultKind::Insert));
  EXPECT_EQ(cmis::decode(rig.image({kLower, kPage00})).id.part_number, "QSFP-100G-SR4-E");
}

TEST(EmulatorFaults, AddressNackOnAPresentModuleIsNack) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::AddressNack));
  auto e = rig.error_reading(kLower);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Nack);
  EXPECT_EQ(rig.transport.presence(), drivers::Presence::Present);
  rig.clear(rig.fault(FaultKind::AddressNack));
  EXPECT_FALSE(rig.error_reading(kLower));
}

TEST(EmulatorFaults, TimeoutCostsTheAdapterTimeout) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::Timeout));
  const int64_t t0 = rig.clock.now_ns();
  auto e = rig.error_reading(kLower);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Timeout);
  EXPECT_EQ(rig.clock.now_ns() - t0, 25 * kMillisecond);
  EXPECT_EQ(rig.bus.stats().timeouts, 1u);
  rig.clear(rig.fault(FaultKind::Timeout));
  EXPECT_FALSE(rig.error_reading(kLower));
}

TEST(EmulatorFaults, StuckBusTimesOutEveryCage) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::StuckBus));
  EmulatorTransport other(rig.bus, 1);
  uint8_t b[1];
  auto e = other.read({0x50, 0, 0, 0, 1}, b);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Timeout);
  EXPECT_TRUE(rig.error_reading(kLower));
  rig.clear(rig.fault(FaultKind::StuckBus));
  EXPECT_FALSE(other.read({0x50, 0, 0, 0, 1}, b));
}

TEST(EmulatorFaults, SlowModuleStretchesEveryByte) {
  Rig rig;
  rig.image({kLower});
  rig.bus.reset_stats();
  rig.image({kLower});
  const int64_t normal = rig.bus.stats().wire_ns;
  rig.apply(rig.fault(FaultKind::SlowModule, 0, 10'000));
  rig.bus.reset_stats();
  rig.image({kLower});
  EXPECT_EQ(rig.bus.stats().wire_ns - normal, 129 * 10'000);  // offset byte + 128 data bytes
}

TEST(EmulatorFaults, CorruptByteAndBadChecksumFailTheChecksums) {
  for (FaultKind k : {FaultKind::CorruptByte, FaultKind::BadChecksum}) {
    Rig rig;
    rig.apply(rig.fault(k));
    const cmis::ModuleReport r = rig.decoded();
    const auto bad = std::count_if(r.checksums.begin(), r.checksums.end(),
                                   [](const cmis::Checksum& c) { return !c.ok(); });
    EXPECT_EQ(bad, 1) << fault_kind_name(k);
    rig.clear(rig.fault(k));
    for (const cmis::Checksum& c : rig.decoded().checksums) EXPECT_TRUE(c.ok());
  }
}

TEST(EmulatorFaults, CorruptByteAtAChosenLocation) {
  Rig rig;
  Fault f = rig.fault(FaultKind::CorruptByte, 0, 0xFF);
  f.page = cmis::kLowerPage;
  f.offset = 0;
  rig.apply(f);
  EXPECT_EQ(cmis::read_uint(rig.image({kLower}), cmis_field(CmisField::Identifier)), 0x18u ^ 0xFF);
}

TEST(EmulatorFaults, PageSelectIgnoredIsCorrupt) {
  Rig rig;
  rig.image({kPage11});
  rig.apply(rig.fault(FaultKind::PageSelectIgnored));
  auto e = rig.error_reading({0x50, 0, 0x02});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Corrupt);
  EXPECT_NE(e->message.find("reads back page 11h"), std::string::npos) << e->message;
  rig.clear(rig.fault(FaultKind::PageSelectIgnored));
  EXPECT_FALSE(rig.error_reading({0x50, 0, 0x02}));
}

TEST(EmulatorFaults, StuckInLowPowerUntilCleared) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::StuckLowPower));
  rig.clock.advance(10 * kSecond);
  const cmis::Field& state = cmis_field(CmisField::ModuleState);
  EXPECT_EQ(cmis::read_uint(rig.image({kLower}), state), 1u);
  rig.clear(rig.fault(FaultKind::StuckLowPower));
  rig.clock.advance(100 * kMillisecond);
  EXPECT_EQ(cmis::read_uint(rig.image({kLower}), state), 2u);  // powering up again
  rig.clock.advance(kSecond);
  EXPECT_EQ(cmis::read_uint(rig.image({kLower}), state), 3u);
}

TEST(EmulatorFaults, ModuleFaultStateAndCause) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::ModuleFault, 0, 2));
  const cmis::ModuleReport r = rig.decoded();
  ASSERT_TRUE(r.module_state && r.module_fault_cause);
  EXPECT_EQ(r.module_state->code, 5u);
  EXPECT_EQ(r.module_fault_cause->code, 2u);
  ASSERT_FALSE(r.lanes.empty());
  EXPECT_EQ(r.lanes[0].tx_power_watts.value_or(-1), 0.0);  // lasers off
}

TEST(EmulatorFaults, LaneFlagsForRxLosTxFaultAndTxLos) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::RxLos, 3));
  rig.apply(rig.fault(FaultKind::TxFault, 5));
  rig.apply(rig.fault(FaultKind::TxLos, 7));
  const cmis::ModuleReport r = rig.decoded();
  EXPECT_TRUE(has(r.lanes[2].flags, "rx_los"));
  EXPECT_EQ(r.lanes[2].rx_power_watts.value_or(-1), 0.0);
  EXPECT_FALSE(has(r.lanes[1].flags, "rx_los"));
  EXPECT_TRUE(has(r.lanes[4].flags, "tx_fault"));
  EXPECT_EQ(r.lanes[4].tx_power_watts.value_or(-1), 0.0);
  EXPECT_TRUE(has(r.lanes[6].flags, "tx_los"));
}

TEST(EmulatorFaults, LanePowerDropAndDirtyFiberLowerRxPower) {
  Rig rig;
  const double before = *rig.decoded().lanes[2].rx_power_watts;
  rig.apply(rig.fault(FaultKind::LanePowerDrop, 3, 6.0));
  cmis::ModuleReport r = rig.decoded();
  EXPECT_NEAR(*r.lanes[2].rx_power_watts / before, 0.251, 0.02);
  EXPECT_NEAR(*r.lanes[2].tx_power_watts / *rig.decoded().lanes[2].tx_power_watts, 1.0, 0.05);
  rig.clear(rig.fault(FaultKind::LanePowerDrop, 3));
  rig.apply(rig.fault(FaultKind::DirtyFiber, 0, 8.0));
  r = rig.decoded();
  for (const cmis::LaneReport& lane : r.lanes) {
    EXPECT_TRUE(has(lane.flags, "rx_power_low_warning")) << lane.lane;
  }
}

TEST(EmulatorFaults, OverheatingRampsPastWarningThenAlarm) {
  Rig rig("qsfpdd-400g-dr4");
  rig.apply(rig.fault(FaultKind::Overheat, 0, 0.5));  // +0.5 degC per second
  bool warned = false, alarmed = false;
  double last = 0;
  for (int minute = 0; minute < 10 && !alarmed; ++minute) {
    rig.clock.advance(60 * kSecond);
    const cmis::ModuleReport r = rig.decoded();
    last = *r.temperature_celsius;
    warned = warned || has(r.module_flags, "temperature_high_warning");
    alarmed = alarmed || has(r.module_flags, "temperature_high_alarm");
    if (!warned) {
      EXPECT_LT(last, 70.5);
    }
  }
  EXPECT_TRUE(warned);
  EXPECT_TRUE(alarmed);
  EXPECT_GT(last, 75.0);
}

TEST(EmulatorFaults, MiscodedVendorFieldsKeepValidChecksums) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::MiscodedVendor));
  const cmis::ModuleReport r = rig.decoded();
  EXPECT_EQ(r.id.vendor_name, "nvidia");
  EXPECT_EQ(r.id.vendor_oui, "00:00:00");
  EXPECT_EQ(r.id.date_code.substr(0, 8), "2024-1-1");
  for (const cmis::Checksum& c : r.checksums) EXPECT_TRUE(c.ok()) << c.page;
}

TEST(EmulatorFaults, ThresholdsOutOfOrder) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::ThresholdsOutOfOrder));
  const cmis::ModuleReport r = rig.decoded();
  const cmis::Thresholds& t = r.thresholds.at("temperature_celsius");
  EXPECT_LT(*t.high_alarm, *t.low_alarm);
}

TEST(EmulatorFaults, GarbageIdentifierAndAllFF) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::GarbageIdentifier));
  const cmis::ModuleReport r = cmis::decode(rig.image({kLower, kPage00}));
  EXPECT_EQ(r.id.identifier.code, 0x5Au);
  EXPECT_FALSE(r.problems.empty());
  rig.apply(rig.fault(FaultKind::AllFF));
  const cmis::ModuleImage img = rig.image({kLower});
  for (uint8_t b : img.find(kLower)->bytes) EXPECT_EQ(b, 0xFF);
  rig.clear(rig.fault(FaultKind::AllFF));
  rig.clear(rig.fault(FaultKind::GarbageIdentifier));
  EXPECT_EQ(cmis::read_uint(rig.image({kLower}), cmis_field(CmisField::Identifier)), 0x18u);
}

TEST(EmulatorFaults, InjectingIntoAnEmptyCageIsAnError) {
  Rig rig;
  rig.apply(rig.fault(FaultKind::Unplug));
  EXPECT_TRUE(rig.injector.apply(0, rig.fault(FaultKind::RxLos)));
  EXPECT_TRUE(rig.injector.apply(7, rig.fault(FaultKind::RxLos)));
  Fault bad = rig.fault(FaultKind::Insert);
  bad.model = "no-such-model";
  EXPECT_TRUE(rig.injector.apply(0, bad));
}

TEST(EmulatorFaultTimeline, RunsEventsAtTheirTimesAndClearsAfterDuration) {
  const auto parsed = FaultTimeline::parse(R"(
[[fault]]
at = "1s"
duration = "500ms"
bus = "bus0"
cage = 0
kind = "rx_los"
lane = 2

[[fault]]
at = 3
bus = "bus0"
cage = 1
kind = "unplug"
)",
                                           "timeline.toml");
  ASSERT_FALSE(parsed.error) << *parsed.error;
  FaultTimeline timeline = parsed.timeline;
  ASSERT_EQ(timeline.events().size(), 3u);
  Rig rig;
  auto resolve = [&](const TimedFault& e) -> std::pair<FaultInjector*, int> {
    return {e.bus == "bus0" ? &rig.injector : nullptr, e.cage};
  };
  // Timeline times count from the start of the run (the caller passes elapsed time).
  const auto at = [](double s) { return static_cast<int64_t>(s * 1e9); };
  EXPECT_TRUE(timeline.run_due(at(0.5), resolve).empty());
  EXPECT_FALSE(rig.bus.module(0)->faults().rx_los[1]);
  EXPECT_TRUE(timeline.run_due(at(1.0), resolve).empty());
  EXPECT_TRUE(rig.bus.module(0)->faults().rx_los[1]);
  EXPECT_TRUE(timeline.run_due(at(1.6), resolve).empty());
  EXPECT_FALSE(rig.bus.module(0)->faults().rx_los[1]);
  EXPECT_TRUE(rig.bus.present(1));
  EXPECT_TRUE(timeline.run_due(at(3.0), resolve).empty());
  EXPECT_FALSE(rig.bus.present(1));
  EXPECT_EQ(timeline.pending(), 0u);
}

TEST(EmulatorFaultTimeline, ErrorsNameFileLineAndColumn) {
  auto r = FaultTimeline::parse("[[fault]]\nbus = \"b\"\nkind = \"melted\"\n", "t.toml");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->rfind("t.toml:3:8: unknown fault kind 'melted'", 0), 0u) << *r.error;
  r = FaultTimeline::parse("[[fault]]\nkind = \"rx_los\"\nbus = \"b\"\nat = \"soon\"\n", "t.toml");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->rfind("t.toml:4:6:", 0), 0u) << *r.error;
  r = FaultTimeline::parse("[[fault]]\nkind = \"rx_los\"\nbus = \"b\"\nlnae = 2\n", "t.toml");
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("t.toml:4:1: unknown key 'lnae' in fault"), std::string::npos) << *r.error;
  r = FaultTimeline::parse("[[fault]\n", "t.toml");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->rfind("t.toml:1:", 0), 0u) << *r.error;
}

TEST(EmulatorFaultTimeline, Durations) {
  EXPECT_EQ(parse_duration_ns("250ms"), 250 * kMillisecond);
  EXPECT_EQ(parse_duration_ns("2m"), 120 * kSecond);
  EXPECT_EQ(parse_duration_ns("1.5s"), 1500 * kMillisecond);
  EXPECT_EQ(parse_duration_ns("10us"), 10 * kMicrosecond);
  EXPECT_FALSE(parse_duration_ns("fast"));
  EXPECT_FALSE(parse_duration_ns("5 parsecs"));
  EXPECT_FALSE(parse_duration_ns(""));
}

}  // namespace
}  // namespace xcvr::emulator
