// The flight recorder: the ring, its triggers and events (daemon/flight_recorder), their JSON
// and file (daemon/recorder_file), the store's bounds and persistence (daemon/recorder_store),
// and the whole path through the poller on an emulated link that flaps.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "daemon/flight_recorder.hpp"
#include "daemon/recorder_file.hpp"
#include "daemon/recorder_store.hpp"
#include "exporters/format.hpp"
#include "exporters/http/server.hpp"
#include "tests/e2e/synthetic_fleet.hpp"
#include "tests/support/emulated_engine.hpp"

namespace xcvr::daemon {
namespace {

constexpr double kWall0 = 1.8e9;

cmis::ModuleReport report_with(int lanes, double rx_watts, const char* dp = "DPActivated") {
  cmis::ModuleReport r;
  r.id.serial = "SER123";
  r.temperature_celsius = 35.5;
  r.supply_voltage_volts = 3.3001;
  for (int l = 1; l <= lanes; ++l) {
    cmis::LaneReport lr;
    lr.lane = l;
    lr.rx_power_watts = rx_watts * l;
    lr.tx_power_watts = 0.0008;
    lr.tx_bias_amperes = 0.0075;
    lr.data_path_state = dp;
    r.lanes.push_back(lr);
  }
  return r;
}

// Polls every `step` seconds from t0 to t1 (monotonic = seconds, wall = kWall0 + seconds).
void feed(PortRecorder& rec, const cmis::ModuleReport& r, double t0, double t1, double step = 1,
          const RecorderLinkInput& link = {}) {
  for (double t = t0; t <= t1 + 1e-9; t += step) rec.record(t, kWall0 + t, "p1", &r, link);
}

TEST(FlightRecorder, AnEventHoldsTheMinuteBeforeItsTriggerAndWhatFollows) {
  PortRecorder rec;  // defaults: 13 slots over 60 s (one sample each 5 s, the default poll), 4 after
  const cmis::ModuleReport healthy = report_with(8, 0.0005);
  feed(rec, healthy, 0, 100);
  rec.trigger({"link_down", "p1: carrier lost", kWall0 + 100.5});
  feed(rec, healthy, 101, 101);  // the trigger's sample, taken at once
  EXPECT_TRUE(rec.take_closed().empty()) << "still open: its aftermath is recorded first";
  feed(rec, healthy, 102, 130);
  const RecorderEvents events = rec.take_closed();
  ASSERT_EQ(events.size(), 1u);
  const RecorderEvent& e = *events[0];
  EXPECT_EQ(e.port, "p1");
  EXPECT_EQ(e.serial, "SER123");
  ASSERT_EQ(e.triggers.size(), 1u);
  EXPECT_EQ(e.triggers[0].kind, "link_down");
  EXPECT_EQ(e.lanes, 8);
  EXPECT_EQ(e.trigger_sample, 13u);
  ASSERT_EQ(e.samples.size(), 18u);
  const double trigger_t = e.samples[e.trigger_sample].unix();
  EXPECT_DOUBLE_EQ(trigger_t, kWall0 + 101);
  EXPECT_GE(trigger_t - e.samples.front().unix(), 60.0) << "the minute before";
  for (std::size_t i = 1; i < e.samples.size(); ++i) EXPECT_GT(e.samples[i].unix(), e.samples[i - 1].unix());
  // Lossless in the module's units: 0.1 uW, 2 uA, 1/256 C, 100 uV.
  EXPECT_EQ(e.lane(0, 3).rx_power, 15000u);  // 1.5 mW
  EXPECT_EQ(e.lane(0, 1).tx_bias, 3750u);    // 7.5 mA
  EXPECT_EQ(e.samples[0].temperature, 35.5 * 256);
  EXPECT_EQ(e.samples[0].supply_voltage, 33001u);
  EXPECT_EQ(e.samples[0].active_lanes, 0xFF);
}

TEST(FlightRecorder, TriggersWhileAnEventIsOpenJoinIt) {
  PortRecorder rec;
  const cmis::ModuleReport r = report_with(4, 0.0005);
  feed(rec, r, 0, 70);
  rec.trigger({"link_down", "first", kWall0 + 70.5});
  feed(rec, r, 71, 75);
  rec.trigger({"link_down", "second", kWall0 + 75.5});  // twice in a minute: one event
  feed(rec, r, 76, 200);
  const RecorderEvents events = rec.take_closed();
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0]->triggers.size(), 2u);
  EXPECT_EQ(events[0]->triggers[1].detail, "second");
  EXPECT_GE(events[0]->samples.back().unix() - kWall0, 76 + 4 * 5 - 1) << "the aftermath of the second trigger too";
}

TEST(FlightRecorder, ATriggerWithNothingBeforeItIsNoEvent) {
  PortRecorder rec;
  const cmis::ModuleReport r = report_with(4, 0.0005);
  rec.trigger({"flag", "rx_los lane 1", kWall0});  // the first read of a module that came up dark
  feed(rec, r, 0, 100);
  EXPECT_TRUE(rec.take_closed().empty());
}

TEST(FlightRecorder, ADataPathLeavingActivatedAndATailJumpAreTriggers) {
  PortRecorder rec;
  RecorderLinkInput link;
  link.fec_tail = 3;
  link.carrier_up = true;
  feed(rec, report_with(8, 0.0005), 0, 70, 1, link);
  feed(rec, report_with(8, 0.0005, "DPDeactivated"), 71, 71, 1, link);
  link.fec_tail = 5;  // +2 over the minute's highest: noise, not a jump
  feed(rec, report_with(8, 0.0005, "DPDeactivated"), 72, 95, 1, link);
  auto events = rec.take_closed();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]->triggers.at(0).kind, "data_path");
  EXPECT_EQ(events[0]->triggers.at(0).detail, "lane 1 left DPActivated");
  EXPECT_EQ(events[0]->triggers.size(), 1u);
  link.fec_tail = 9;  // 5 -> 9: a jump
  feed(rec, report_with(8, 0.0005, "DPDeactivated"), 96, 130, 1, link);
  events = rec.take_closed();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]->triggers.at(0).kind, "fec_tail_jump");
  EXPECT_EQ(events[0]->samples[events[0]->trigger_sample].fec_tail, 9);
}

TEST(FlightRecorder, LinkReadsGiveRatesAndLossTriggers) {
  drivers::LinkHealth a, b;
  a.counters = {{drivers::LinkCounterId::FecCorrectedBlocks, "eth0", 0, 1000, false},
                {drivers::LinkCounterId::CarrierDown, "eth0", 0, 2, false}};
  a.carrier = {{"eth0", true, {}, {}}};
  b = a;
  b.counters[0].value = 3000;
  b.counters[1].value = 3;  // a loss that came and went between the reads
  const RecorderLinkInput in = recorder_link_input(&a, b, 2.0);
  EXPECT_DOUBLE_EQ(*in.fec_corrected_per_s, 1000.0);
  EXPECT_FALSE(in.fec_uncorrectable_per_s);
  EXPECT_TRUE(*in.carrier_up);
  const auto triggers = link_down_triggers(&a, b, kWall0);
  ASSERT_EQ(triggers.size(), 1u);
  EXPECT_EQ(triggers[0].detail, "eth0: 1 loss since the read before");
  b.counters[0].value = 10;  // the device reset its counters: no rate, never a negative one
  EXPECT_FALSE(recorder_link_input(&a, b, 2.0).fec_corrected_per_s);
  EXPECT_TRUE(link_down_triggers(nullptr, b, kWall0).empty());
}

RecorderEvent sample_event() {
  PortRecorder rec;
  cmis::ModuleReport r = report_with(8, 0.0005);
  r.lanes[2].flags = {"rx_los"};
  r.lanes[2].rx_power_watts = 0;
  RecorderLinkInput link;
  link.fec_corrected_per_s = 12345.5;
  link.fec_tail = 4;
  link.carrier_up = false;
  feed(rec, report_with(8, 0.0005), 0, 70);
  rec.trigger({"flag", "rx_los lane 3", kWall0 + 70.25});
  feed(rec, r, 71, 100, 1, link);
  return *rec.take_closed().at(0);
}

TEST(RecorderFile, JsonRoundTripsEveryByte) {
  const RecorderEvent e = sample_event();
  const nlohmann::json j = recorder_event_json(e);
  EXPECT_EQ(j["samples"]["flags"].back(), nlohmann::json::array({"rx_los"}));
  EXPECT_EQ(j["samples"]["alarm_lanes"].back(), nlohmann::json::array({3}));
  EXPECT_EQ(j["samples"]["rx_power_watts"].back()[2], 0.0);
  EXPECT_EQ(j["samples"]["carrier_up"].back(), false);
  EXPECT_EQ(j["samples"]["fec_corrected_per_second"].back(), 12345.5);
  EXPECT_EQ(j["samples"]["supply_voltage_volts"][0], 3.3001);
  RecorderEvent back;
  ASSERT_EQ(recorder_event_from_json(nlohmann::json::parse(j.dump()), back), "");
  EXPECT_EQ(recorder_event_json(back), j);
  ASSERT_EQ(back.samples.size(), e.samples.size());
  EXPECT_EQ(std::memcmp(back.samples.data(), e.samples.data(), e.samples.size() * sizeof(RecorderSample)), 0);
  EXPECT_EQ(std::memcmp(back.lane_values.data(), e.lane_values.data(), e.lane_values.size() * sizeof(RecorderLane)), 0);
}

TEST(RecorderFile, OneBadEventIsDroppedAloneWithItsPosition) {
  const auto e = std::make_shared<RecorderEvent>(sample_event());
  std::string text = recorder_file_text({e, e, e});
  // The second event's first rx power becomes impossible (1 W: the unit cannot hold it).
  const std::size_t second = text.find('\n', text.find('\n') + 1) + 1;
  const std::size_t at = text.find("\"rx_power_watts\":[[", second) + 19;
  text.replace(at, text.find(',', at) - at, "1.0");
  const ParsedRecorder p = parse_recorder("r.json", text);
  EXPECT_TRUE(p.fatal.empty()) << p.fatal;
  EXPECT_EQ(p.events.size(), 2u);
  ASSERT_EQ(p.dropped.size(), 1u);
  EXPECT_EQ(p.dropped[0].rfind("r.json:3:1: event 2 (port \"p1\"): samples: \"rx_power_watts\" sample 1: lane 1 out of range", 0), 0u)
      << p.dropped[0];
}

TEST(RecorderFile, ATruncatedFileKeepsTheEventsBeforeTheCut) {
  const auto e = std::make_shared<RecorderEvent>(sample_event());
  const std::string text = recorder_file_text({e, e, e});
  const ParsedRecorder p = parse_recorder("r.json", text.substr(0, text.size() * 3 / 4));
  EXPECT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.fatal.rfind("r.json:4:", 0), 0u) << p.fatal;
  for (const char* bad : {"", "[]", "{\"events\":{}}", "{\"version\":1}", "\x01"}) {
    EXPECT_FALSE(parse_recorder("r.json", bad).fatal.empty()) << bad;
  }
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/recorder-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

std::shared_ptr<const RecorderEvent> event_at(const std::string& port, double unix) {
  auto e = std::make_shared<RecorderEvent>(sample_event());
  e->port = port;
  e->triggers[0].unix = unix;
  return e;
}

TEST(RecorderStore, KeepsTheNewestEventsPerPortAndInAll) {
  RecorderStore store;
  store.set_bounds(2, 5);
  for (int i = 0; i < 4; ++i) store.add(event_at("a", kWall0 + i), kWall0 + i);
  ASSERT_EQ(store.of_port("a")->size(), 2u);
  EXPECT_EQ(store.of_port("a")->front()->unix(), kWall0 + 2);
  for (int i = 0; i < 4; ++i) store.add(event_at("p" + std::to_string(i), kWall0 + 10 + i), kWall0 + 10 + i);
  EXPECT_EQ(store.all().size(), 5u);
  EXPECT_EQ(store.of_port("a")->size(), 1u) << "the daemon's bound takes the oldest, whichever port";
  EXPECT_EQ(store.recorded_total(), 8u);
}

TEST(RecorderStore, EventsSurviveARestartAndACorruptFileIsSetAside) {
  TempDir dir;
  {
    RecorderStore store;
    store.set_directory(dir.path.string(), kWall0);
    store.add(event_at("a", kWall0 + 1), kWall0 + 1);  // written at once (first write)
    store.add(event_at("b", kWall0 + 2), kWall0 + 2);  // within the save interval: at shutdown
  }
  {
    RecorderStore store;
    store.set_directory(dir.path.string(), kWall0 + 100);
    ASSERT_EQ(store.all().size(), 2u);
    EXPECT_EQ(store.of_port("b")->at(0)->samples.size(), sample_event().samples.size());
  }
  // Cut the file inside its second event: the first survives, the file is kept aside.
  const auto file = dir.path / RecorderStore::kFileName;
  std::string text;
  {
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  {
    std::ofstream out(file, std::ios::trunc);
    out << text.substr(0, text.size() - 200);
  }
  RecorderStore store;
  store.set_directory(dir.path.string(), kWall0 + 200);
  EXPECT_EQ(store.all().size(), 1u);
  int aside = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir.path)) aside += f.path().filename().string().find(".corrupt-") != std::string::npos;
  EXPECT_EQ(aside, 1);
  ParsedRecorder rewritten;
  {
    std::ifstream in(file);
    std::string now((std::istreambuf_iterator<char>(in)), {});
    rewritten = parse_recorder(file.string(), now);
  }
  EXPECT_TRUE(rewritten.fatal.empty()) << rewritten.fatal;
  EXPECT_EQ(rewritten.events.size(), 1u) << "what was kept is back under the normal name";
}

// The whole path: an emulated link (its carrier from the module, as a NIC's) goes down; the
// poller's ring becomes an event in the snapshot with the minute before it.
TEST(FlightRecorderEngine, AnEmulatedFlapIsRecordedWithTheMinuteBefore) {
  using testing_support::Fleet;
  Fleet fleet(1, 2, "qsfpdd-400g-sr8", 720, testing_support::TransportPath::Emulator, nullptr, /*links=*/true,
              /*dynamic_interval_s=*/2);
  fleet.run_for(120);
  EXPECT_FALSE(fleet.port("sw/b0c0").events) << "a healthy link records nothing";
  const double down_at = fleet.clock.wall();
  fleet.buses[0]->module(0)->faults().link_down = true;
  fleet.buses[0]->observe_link(0);
  fleet.run_for(1);
  fleet.buses[0]->module(0)->faults().link_down = false;  // a one-second flap
  fleet.buses[0]->observe_link(0);
  fleet.run_for(30);
  const PortSnapshot& p = fleet.port("sw/b0c0");
  ASSERT_TRUE(p.events);
  ASSERT_EQ(p.events->size(), 1u);
  const RecorderEvent& e = *p.events->front();
  EXPECT_EQ(e.triggers.at(0).kind, "link_down");
  const double trigger_t = e.samples[e.trigger_sample].unix();
  EXPECT_GE(trigger_t, down_at);
  EXPECT_GE(trigger_t - e.samples.front().unix(), 60.0);
  EXPECT_EQ(e.lanes, 8);
  EXPECT_NE(e.lane(0, 1).rx_power, RecorderSample::kNoneU16) << "the optic's values before the loss";
  EXPECT_FALSE(fleet.port("sw/b0c1").events);
  EXPECT_EQ(fleet.store.current()->recorder_events_total, 1u);
}

}  // namespace
}  // namespace xcvr::daemon

namespace xcvr::daemon {
namespace {

// The fast poll after an event stays within its bus budget: two ports of one bus flap, one is
// polled fast (every 0.5 s, a sample each poll), the other at its normal interval; when the
// fast period is over, neither.
TEST(FlightRecorderEngine, TheFastPollKeepsToItsBudgetPerBus) {
  using testing_support::Fleet;
  Fleet fleet(1, 3, "qsfpdd-400g-sr8", 720, testing_support::TransportPath::Emulator, nullptr, /*links=*/true,
              /*dynamic_interval_s=*/2);
  PollConfig poll = fleet.config.poll;
  poll.recorder.fast_interval_s = 0.5;
  poll.recorder.fast_for_s = 30;
  const auto budget = std::make_shared<FastPollBudget>(1);
  for (const char* name : {"sw/b0c0", "sw/b0c1", "sw/b0c2"}) {
    PortPoller* p = fleet.engine->port(name);
    p->reconfigure(poll, nullptr, fleet.clock.monotonic(), fleet.clock.wall());
    p->set_fast_budget(budget);
  }
  fleet.run_for(90);
  for (int cage : {0, 1}) {
    fleet.buses[0]->module(cage)->faults().link_down = true;
    fleet.buses[0]->observe_link(cage);
  }
  fleet.run_for(3);
  for (int cage : {0, 1}) {
    fleet.buses[0]->module(cage)->faults().link_down = false;
    fleet.buses[0]->observe_link(cage);
  }
  fleet.run_for(5);
  const int fast = fleet.engine->port("sw/b0c0")->polling_fast() + fleet.engine->port("sw/b0c1")->polling_fast();
  EXPECT_EQ(fast, 1) << "one port of the bus at a time";
  EXPECT_FALSE(fleet.engine->port("sw/b0c2")->polling_fast()) << "no event, no fast poll";
  fleet.run_for(60);
  EXPECT_FALSE(fleet.engine->port("sw/b0c0")->polling_fast());
  EXPECT_FALSE(fleet.engine->port("sw/b0c1")->polling_fast());
  // Both events were recorded all the same; the fast port's were sampled at every poll.
  EXPECT_TRUE(fleet.port("sw/b0c0").events);
  EXPECT_TRUE(fleet.port("sw/b0c1").events);
}

}  // namespace
}  // namespace xcvr::daemon

namespace xcvr::daemon {
namespace {

// /api/v1/events and /api/v1/events/<port> through the server's routes, and the port page's
// plots: what the e2e sees of a real daemon, here for a snapshot built by hand.
TEST(RecorderApi, EventsAreServedPerPortAndPlottedOnThePortPage) {
  Snapshot s = xcvr::testing::make_fleet(2);
  auto events = std::make_shared<RecorderEvents>();
  events->push_back(std::make_shared<RecorderEvent>(sample_event()));
  s.ports[0].events = events;
  SnapshotStore store;
  store.publish(std::make_shared<const Snapshot>(s));
  exporters::HttpServer server(exporters::WebConfig{}, store);
  const auto body = [&](const std::string& path) {
    const std::string out = server.serve_bytes("GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n");
    return std::pair{std::stoi(out.substr(9, 3)), out.substr(out.find("\r\n\r\n") + 4)};
  };
  const auto [all_status, all] = body("/api/v1/events");
  EXPECT_EQ(all_status, 200);
  const auto j = nlohmann::json::parse(all);
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0], recorder_event_json(*events->front()));
  const std::string other = exporters::url_path_escape(s.ports[1].port);
  EXPECT_EQ(nlohmann::json::parse(body("/api/v1/events/" + other).second)["events"].size(), 0u);
  EXPECT_EQ(body("/api/v1/events/no-such-port").first, 404);
  const auto [page_status, page] = body("/port/" + exporters::url_path_escape(s.ports[0].port));
  EXPECT_EQ(page_status, 200);
  EXPECT_NE(page.find("Flight recorder"), std::string::npos);
  EXPECT_NE(page.find("rx_los lane 3"), std::string::npos);
  std::size_t polylines = 0;
  for (std::size_t at = page.find("<polyline"); at != std::string::npos; at = page.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 8u + 8u + 2u + 1u + 2u) << "rx and bias per lane, FEC x2, tail, carrier and alarms";
  EXPECT_NE(page.find("worst media pre-FEC BER</tspan></text><text x=\"56\" y=\"44\" font-size=\"10\">no values"), std::string::npos)
      << "a module without VDM: the BER plot says so";
}

}  // namespace
}  // namespace xcvr::daemon
