// Poll-engine scenario runner for docs/benchmarks.md (prints one JSON object).
//   - bytes and transactions per CMIS module per steady-state poll, vs the dynamic-set floor and
//     vs a full `ethtool -m` style read (lower + 00h + 01h + 02h + 10h + 11h = 768 bytes)
//   - cycle time ÷ bus-time floor, 64 ports on 8 buses and on 1 bus, real bus time (the emulated
//     bus sleeps each transaction's wire time; the engine runs one thread per bus)
//   - daemon CPU per port poll and RSS at 64 and 2048 ports (wall clock, wire time not slept);
//     the emulated fleet lives in this process, so its heap (measured by mallinfo2 before the
//     engine exists) is reported apart and subtracted to give the daemon's own share
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "daemon/allocator.hpp"
#include "exporters/gzip.hpp"
#include "exporters/metrics.hpp"
#include "daemon/poll_engine.hpp"
#include "cmis/read_plan.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"

namespace {

using namespace xcvr;


struct Rig {
  std::unique_ptr<base::Clock> clock;
  std::vector<std::unique_ptr<emulator::EmulatedBus>> buses;
  daemon::Config config;
  daemon::SnapshotStore store;
  daemon::AgingStore aging{""};
  std::unique_ptr<daemon::PollEngine> engine;

  std::vector<daemon::PortSpec> ports;

  Rig(int bus_count, int cages, bool sleep_wire_time, double interval, bool start_engine = true) {
    clock = std::make_unique<base::SteadyClock>(sleep_wire_time);
    config.poll.dynamic_interval_s = interval;
    config.poll.settle_delay_s = 0;
    const emulator::ModuleModel* model = emulator::find_model("qsfpdd-400g-sr8");
    for (int b = 0; b < bus_count; ++b) {
      emulator::BusConfig bc;
      bc.name = "bus" + std::to_string(b);
      bc.cages = cages;
      buses.push_back(std::make_unique<emulator::EmulatedBus>(bc, *clock));
      for (int c = 0; c < cages; ++c) {
        emulator::DynamicsConfig dyn;
        dyn.seed = static_cast<uint64_t>(b * cages + c + 1);
        buses.back()->insert(c, std::make_shared<emulator::EmulatedModule>(*model, *clock, dyn));
        const std::string name = "p" + std::to_string(b * cages + c);
        ports.push_back({daemon::PortIdentity{name, "", "emulator", "QSFP-DD", {}, {}},
                         std::make_unique<emulator::EmulatorTransport>(*buses.back(), c, name)});
      }
    }
    if (start_engine) make_engine();
  }
  void make_engine() {
    engine = std::make_unique<daemon::PollEngine>(config, std::move(ports), *clock, store, aging);
  }
  emulator::BusStats totals() const {
    emulator::BusStats t;
    for (const auto& b : buses) {
      const auto s = b->stats();
      t.transactions += s.transactions;
      t.bytes_read += s.bytes_read;
      t.bytes_written += s.bytes_written;
      t.address_bytes += s.address_bytes;
      t.mux_selects += s.mux_selects;
      t.wire_ns += s.wire_ns;
    }
    return t;
  }
  uint64_t cycles() const {
    uint64_t n = 0;
    for (const auto& d : store.current()->domains) n += d.cycles_total;
    return n;
  }
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double rss_mib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      double kb = 0;
      in >> kb;
      return kb / 1024;
    }
    std::getline(in, key);
  }
  return 0;
}

double heap_mib() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
}

// Steady-state wire cost per module poll (real threads, wire time slept).
void bytes_per_poll(std::map<std::string, double>& out) {
  Rig rig(1, 1, true, 0.05);
  rig.engine->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // settle + static read
  for (auto& b : rig.buses) b->reset_stats();
  const uint64_t c0 = rig.cycles();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  rig.engine->stop();
  const auto t = rig.totals();
  const double polls = static_cast<double>(rig.cycles() - c0);
  out["poll_data_bytes_read"] = static_cast<double>(t.bytes_read) / polls;
  out["poll_wire_bytes"] = static_cast<double>(t.bytes_read + t.bytes_written + t.address_bytes) / polls;
  out["poll_transactions"] = static_cast<double>(t.transactions) / polls;
  cmis::ModuleImage probe;  // the floor: the dynamic set itself
  out["dynamic_set_bytes"] = static_cast<double>(cmis::plan_bytes(cmis::dynamic_reads(
      rig.engine->port("p0")->image())));
}

// Waits until domain 0 has finished `n` more cycles than `from` (snapshots are published just
// after each cycle); returns the snapshot that shows it.
std::shared_ptr<const daemon::Snapshot> after_cycles(const Rig& rig, uint64_t from, uint64_t n) {
  for (;;) {
    auto snap = rig.store.current();
    if (!snap->domains.empty() && snap->domains[0].cycles_total >= from + n) return snap;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// Cycle time vs the bus-time floor: every port is always due (interval far below the cycle).
// The window starts and ends on domain 0's cycle boundaries, after the static reads, so the
// wire time summed by the buses belongs to the cycles counted.
void cycle_vs_floor(int buses, int cages, const char* key, std::map<std::string, double>& out) {
  Rig rig(buses, cages, true, 0.0005);
  rig.engine->start();
  auto snap0 = after_cycles(rig, 0, 3);  // static reads and module start-up done
  snap0 = after_cycles(rig, snap0->domains[0].cycles_total, 1);
  for (auto& b : rig.buses) b->reset_stats();
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t window = buses == 1 ? 10 : 100;
  auto snap1 = after_cycles(rig, snap0->domains[0].cycles_total, window);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<int64_t> wire;
  for (auto& b : rig.buses) wire.push_back(b->stats().wire_ns);
  rig.engine->stop();
  double ratio_sum = 0;
  int domains = 0;
  for (std::size_t i = 0; i < snap1->domains.size(); ++i) {
    const auto& a = snap0->domains[i];
    const auto& b = snap1->domains[i];
    const double cycles = static_cast<double>(b.cycles_total - a.cycles_total);
    if (cycles < 2) continue;
    const double cycle = (b.cycle_seconds_sum - a.cycle_seconds_sum) / cycles;
    const double floor = static_cast<double>(wire[i]) / 1e9 / cycles;
    ratio_sum += cycle / floor;
    ++domains;
    if (i == 0) {
      out[std::string(key) + "_cycle_ms"] = cycle * 1e3;
      out[std::string(key) + "_floor_ms"] = floor * 1e3;
      // Start to start, including the work between cycles (snapshots), not just the cycle.
      out[std::string(key) + "_period_over_floor"] = elapsed / cycles / floor;
    }
  }
  out[std::string(key) + "_cycle_over_floor"] = ratio_sum / domains;
}

// CPU per port poll and RSS, wire time accounted but not slept (the daemon's own cost).
void cpu_and_rss(int buses, const char* key, std::map<std::string, double>& out, bool recorder = true) {
  malloc_trim(0);
  const double heap0 = heap_mib();
  Rig rig(buses, 8, false, 0.2, false);
  rig.config.poll.recorder.enabled = recorder;
  const double emulator_heap = heap_mib() - heap0;  // the emulated modules, before any daemon object
  rig.make_engine();
  rig.engine->start();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  // A snapshot from 4 s before the measurement stays held, as a served daemon's scrape cache holds
  // the last scraped one (exporters/per_snapshot.hpp): its reports and port records are a second
  // generation beside the current one. Without it the 2,048-port daemon RSS is ~11 MiB lower.
  const auto scraped = rig.store.current();
  const double cpu0 = cpu_seconds();
  const uint64_t cycles0 = rig.cycles();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  const double cpu1 = cpu_seconds();
  const uint64_t cycles1 = rig.cycles();
  out[std::string(key) + "_untrimmed_rss_mib"] = rss_mib();
  // As the daemon's main loop does every kHeapTrimIntervalSeconds: RSS is what it holds then.
  daemon::return_free_heap_to_os();
  const double rss = rss_mib();
  out[std::string(key) + "_rss_mib"] = rss;
  out[std::string(key) + "_emulator_heap_mib"] = emulator_heap;
  out[std::string(key) + "_daemon_heap_mib"] = heap_mib() - heap0 - emulator_heap;
  out[std::string(key) + "_daemon_rss_mib"] = rss - emulator_heap;
  rig.engine->stop();
  // The flight recorder's rings: allocated whole at a module's first sample.
  double ring_bytes = 0;
  for (const auto& p : rig.store.current()->ports) ring_bytes += static_cast<double>(rig.engine->port(p.port)->recorder().ring_bytes());
  out[std::string(key) + "_recorder_bytes_per_port"] = ring_bytes / (buses * 8);
  const double port_polls = static_cast<double>(cycles1 - cycles0) * 8;
  out[std::string(key) + "_cpu_us_per_port_poll"] = (cpu1 - cpu0) / port_polls * 1e6;
}

}  // namespace

// Series and bytes per healthy module in each metric profile: 64 emulated 8-lane QSFP-DD SR8
// modules (VDM on), read to steady state (insertion events cleared), the same snapshot rendered
// in both profiles. Bytes: the exposition lines that name a port, and the whole body gzipped
// (as a scrape receives it), per module.
void series_per_profile(std::map<std::string, double>& out) {
  Rig rig(8, 8, false, 0.2, false);
  rig.config.poll.flag_hold_s = 1;
  rig.make_engine();
  rig.engine->start();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  rig.engine->stop();
  const auto snapshot = rig.store.current();
  const double modules = static_cast<double>(snapshot->ports.size());
  for (const auto profile : {daemon::MetricsProfile::Full, daemon::MetricsProfile::Fleet}) {
    auto s = std::make_shared<daemon::Snapshot>(*snapshot);
    daemon::MetricsConfig config;
    config.profile = profile;
    s->metrics = std::make_shared<const daemon::MetricsConfig>(config);
    const health::FleetView views(*s);
    exporters::SeriesPlanner planner;
    const std::string body = exporters::render_text(views, {}, planner.plan(views));
    double series = 0, bytes = 0;
    for (std::size_t at = 0; at < body.size();) {
      const std::size_t end = std::min(body.find('\n', at), body.size());
      const std::string_view line(body.data() + at, end - at);
      if (!line.starts_with('#') && line.find("port=\"") != std::string_view::npos) {
        ++series;
        bytes += static_cast<double>(line.size() + 1);
      }
      at = end + 1;
    }
    const std::string key = "profile_" + std::string(daemon::metrics_profile_name(profile));
    out[key + "_series_per_module"] = series / modules;
    out[key + "_bytes_per_module"] = bytes / modules;
    out[key + "_gzip_bytes_per_module"] = static_cast<double>(exporters::gzip_compress(body).value_or("").size()) / modules;
  }
}

// `run_poll [scenario...]` runs only the named scenarios (bytes, floor8, floor1, cpu64,
// cpu2048, profiles), e.g. under a profiler; no argument runs them all.
int main(int argc, char** argv) {
  const auto wanted = [&](const char* name) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]) == name) return true;
    }
    return false;
  };
  // The emulated bus sleeps each transaction's wire time; the default 50 µs timer slack would
  // add up to 50 µs of oversleep per transaction, an emulator artefact (a real i2c-dev read
  // waits for its completion interrupt, not a timer).
  spdlog::set_level(spdlog::level::warn);  // stdout carries the JSON; no per-port insertion lines
  daemon::apply_allocator_policy();  // the daemon's policy (its periodic trim is not applied here)
  if (std::getenv("XCVR_BENCH_DEFAULT_TIMERSLACK") == nullptr) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::map<std::string, double> out;
  if (wanted("bytes")) bytes_per_poll(out);
  if (wanted("floor8")) cycle_vs_floor(8, 8, "ports64_buses8", out);
  if (wanted("floor1")) cycle_vs_floor(1, 64, "ports64_buses1", out);
  if (wanted("profiles")) series_per_profile(out);
  if (wanted("cpu64")) cpu_and_rss(8, "ports64", out);
  if (wanted("cpu2048")) cpu_and_rss(256, "ports2048", out);
  // Only when named, in a process of its own (scripts/bench.sh): after another 2,048-port run
  // in the same process, the allocator's leftovers would count as this one's memory.
  if (argc >= 2 && wanted("cpu2048_norecorder")) cpu_and_rss(256, "ports2048_norecorder", out, false);
  std::printf("{");
  const char* sep = "";
  for (const auto& [k, v] : out) {
    std::printf("%s\"%s\": %.6g", sep, k.c_str(), v);
    sep = ", ";
  }
  std::printf("}\n");
}
