// Scrape cost, exporter vs baseline (tests/bench/scrape_baseline.hpp), at 64 and 2048 ports of
// 8-lane modules. Render: the baseline serializes prebuilt families; the exporter builds them
// from the snapshot first (and, in render(), gzips and caches the result). HTTP: GET /metrics
// over loopback with keep-alive and "Accept-Encoding: gzip" as Prometheus sends it; "Fresh"
// publishes a new snapshot before every request, so every scrape pays a full render.
// Counters: p50/p99 latency (ms) and response bytes. Concurrency and throughput: scrape_bench.sh.
// The floor, measured on the exporter's own body in the same run: writing its bytes from series
// prefixes built beforehand plus formatting each value (render floor), and compressing them at
// level 1 with zlib and with libdeflate (gzip floor).
#include <benchmark/benchmark.h>
#include <httplib.h>
#include <libdeflate.h>
#include <prometheus/text_serializer.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include "daemon/allocator.hpp"
#include "exporters/http/server.hpp"
#include "exporters/metrics.hpp"
#include "exporters/text_exposition.hpp"
#include "tests/support/metric_families.hpp"
#include "tests/bench/scrape_baseline.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

// The daemon's allocator policy (set before main), so the render figures are what it pays.
const bool kAllocatorPolicy = (xcvr::daemon::apply_allocator_policy(), true);

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
  const auto families = xcvr::exporters::build_families(xcvr::health::FleetView(*fleet(state)));
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
  std::vector<std::size_t> family_bytes;  // kept from render to render, as SnapshotCollector does
  for (auto _ : state) {
    const auto start = Clock::now();
    auto text = xcvr::exporters::render_body(xcvr::health::FleetView(*snapshot), {}, &family_bytes);
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

// The exporter's body as the floor's input: every comment line as constant text, every sample
// line as its prefix ("name{labels} ") and its value, parsed back.
struct PrefixedBody {
  struct Line {
    std::string prefix;  // comment lines: the whole line with its newline, and no value
    std::optional<double> value;
  };
  std::vector<Line> lines;
  std::size_t bytes = 0;
  explicit PrefixedBody(const std::string& body) : bytes(body.size()) {
    for (std::size_t at = 0; at < body.size();) {
      const std::size_t end = body.find('\n', at);
      const std::string_view line(body.data() + at, end - at);
      at = end + 1;
      if (line.starts_with('#')) {
        lines.push_back({std::string(line) + "\n", std::nullopt});
        continue;
      }
      const std::size_t space = line.rfind(' ');
      const std::string value(line.substr(space + 1));
      const double v = value == "Nan" ? std::nan("") : std::strtod(value.c_str(), nullptr);  // also "+Inf"
      lines.push_back({std::string(line.substr(0, space + 1)), v});
    }
  }
};

void BM_RenderFloor(benchmark::State& state) {  // prefixes + values: the least a render can write
  const PrefixedBody body(xcvr::exporters::render_text(xcvr::health::FleetView(*fleet(state))));
  Latencies lat;
  for (auto _ : state) {
    const auto start = Clock::now();
    std::string out;
    out.reserve(body.bytes);
    for (const auto& line : body.lines) {
      out += line.prefix;
      if (line.value) {
        xcvr::exporters::append_sample_value(out, *line.value);
        out += '\n';
      }
    }
    lat.add(start);
    lat.bytes = out.size();
    if (out.size() != body.bytes) state.SkipWithError("floor body differs in size from the exporter's");
    benchmark::DoNotOptimize(out);
  }
  lat.report(state);
}

void BM_GzipFloorZlib(benchmark::State& state) {  // zlib level 1, one call, as the exporter did
  const std::string body = xcvr::exporters::render_text(xcvr::health::FleetView(*fleet(state)));
  Latencies lat;
  std::string out;
  for (auto _ : state) {
    const auto start = Clock::now();
    uLongf n = compressBound(static_cast<uLong>(body.size()));
    out.resize(n);
    z_stream z{};
    deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    z.avail_in = static_cast<uInt>(body.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    lat.add(start);
    lat.bytes = z.total_out;
    deflateEnd(&z);
  }
  lat.report(state);
}

void BM_GzipFloorLibdeflate(benchmark::State& state) {  // libdeflate level 1, compressor kept
  const std::string body = xcvr::exporters::render_text(xcvr::health::FleetView(*fleet(state)));
  libdeflate_compressor* c = libdeflate_alloc_compressor(1);
  std::string out(libdeflate_gzip_compress_bound(c, body.size()), '\0');
  Latencies lat;
  for (auto _ : state) {
    const auto start = Clock::now();
    const std::size_t n = libdeflate_gzip_compress(c, body.data(), body.size(), out.data(), out.size());
    lat.add(start);
    lat.bytes = n;
  }
  libdeflate_free_compressor(c);
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
BENCHMARK(BM_RenderFloor)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GzipFloorZlib)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GzipFloorLibdeflate)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpBaseline)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpExporter)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpExporterFresh)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);

}  // namespace
