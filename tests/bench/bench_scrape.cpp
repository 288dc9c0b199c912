// Scrape cost, exporter vs baseline (tests/bench/scrape_baseline.hpp), at 64 and 2048 ports of
// 8-lane modules. Render: the baseline serializes prebuilt families; the exporter builds them
// from the snapshot first (and, in render(), gzips and caches the result). HTTP: GET /metrics
// over loopback with keep-alive and "Accept-Encoding: gzip" as Prometheus sends it; "Fresh"
// publishes a new snapshot before every request, so every scrape pays a full render.
// Counters: p50/p99 latency (ms) and response bytes. Concurrency and throughput: scrape_bench.sh.
#include <benchmark/benchmark.h>
#include <httplib.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "exporters/http_server.hpp"
#include "exporters/metrics.hpp"
#include "tests/bench/scrape_baseline.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using SnapshotPtr = std::shared_ptr<const xcvr::daemon::Snapshot>;

struct Latencies {
  std::vector<double> ms;
  std::size_t bytes = 0;
  void add(Clock::time_point start) {
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  void report(benchmark::State& state) {
    if (ms.empty()) return;
    std::sort(ms.begin(), ms.end());
    state.counters["p50_ms"] = ms[ms.size() / 2];
    state.counters["p99_ms"] = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    state.counters["bytes"] = static_cast<double>(bytes);
  }
};

SnapshotPtr fleet(const benchmark::State& state) {
  return std::make_shared<const xcvr::daemon::Snapshot>(xcvr::testing::make_fleet(static_cast<int>(state.range(0))));
}

void BM_RenderBaseline(benchmark::State& state) {
  const auto families = xcvr::exporters::build_families(*fleet(state));
  Latencies lat;
  for (auto _ : state) {
    const auto start = Clock::now();
    auto text = prometheus::TextSerializer{}.Serialize(families);
    lat.add(start);
    lat.bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  lat.report(state);
}

void BM_RenderExporter(benchmark::State& state) {  // build families + serialize, no cache
  const auto snapshot = fleet(state);
  Latencies lat;
  for (auto _ : state) {
    const auto start = Clock::now();
    auto text = xcvr::exporters::render_text(*snapshot);
    lat.add(start);
    lat.bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  lat.report(state);
}

void BM_RenderExporterWithGzip(benchmark::State& state) {  // what the first scrape after a publish pays
  const SnapshotPtr a = fleet(state), b = std::make_shared<const xcvr::daemon::Snapshot>(*a);
  xcvr::daemon::SnapshotStore store;
  xcvr::exporters::SnapshotCollector collector(store);
  Latencies lat;
  bool flip = false;
  for (auto _ : state) {
    store.publish((flip = !flip) ? a : b);
    const auto start = Clock::now();
    auto rendered = collector.render();
    lat.add(start);
    lat.bytes = rendered->gzip.size();
    benchmark::DoNotOptimize(rendered);
  }
  lat.report(state);
}

void scrape_loop(benchmark::State& state, int port, const std::function<void()>& before = {}) {
  httplib::Client client("127.0.0.1", port);
  client.set_keep_alive(true);
  client.set_decompress(false);
  Latencies lat;
  for (auto _ : state) {
    if (before) before();
    const auto start = Clock::now();
    auto res = client.Get("/metrics", {{"Accept-Encoding", "gzip"}});
    lat.add(start);
    if (!res || res->status != 200) {
      state.SkipWithError("scrape failed");
      break;
    }
    lat.bytes = res->body.size();
  }
  lat.report(state);
}

void BM_HttpBaseline(benchmark::State& state) {
  xcvr::bench::BaselineServer server(*fleet(state));
  scrape_loop(state, server.start());
}

void BM_HttpExporter(benchmark::State& state) {  // steady snapshot: cached body
  xcvr::daemon::SnapshotStore store;
  store.publish(fleet(state));
  xcvr::exporters::WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  xcvr::exporters::HttpServer server(cfg, store);
  server.start();
  scrape_loop(state, server.ports().at(0));
}

void BM_HttpExporterFresh(benchmark::State& state) {  // new snapshot before every scrape
  const SnapshotPtr a = fleet(state), b = std::make_shared<const xcvr::daemon::Snapshot>(*a);
  xcvr::daemon::SnapshotStore store;
  xcvr::exporters::WebConfig cfg;
  cfg.listen_addresses = {"127.0.0.1:0"};
  xcvr::exporters::HttpServer server(cfg, store);
  server.start();
  bool flip = false;
  scrape_loop(state, server.ports().at(0), [&] { store.publish((flip = !flip) ? a : b); });
}

BENCHMARK(BM_RenderBaseline)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenderExporter)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenderExporterWithGzip)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpBaseline)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpExporter)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpExporterFresh)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);

}  // namespace
