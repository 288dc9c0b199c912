// /api/v1/modules cost per request at 64 and 2048 ports of 8-lane modules (the synthetic fleet of
// tests/e2e/synthetic_fleet.hpp): CPU and the heap a request takes beyond its body. The exporter
// writes the body port by port (exporters::modules_body); the baseline, measured in the same run,
// builds the whole fleet as one nlohmann document and dumps it (what the API did before #39).
// Heap: the peak of bytes allocated and not yet freed during one request (operator new/delete of
// this program, counted only while a request is measured), ÷ the body's bytes.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "daemon/allocator.hpp"
#include "exporters/api_json.hpp"
#include "health/fleet_view.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

std::atomic<bool> counting{false};
std::atomic<long> live{0}, peak{0};

void* allocate(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  if (counting.load(std::memory_order_relaxed)) {
    const long now = live.fetch_add(static_cast<long>(malloc_usable_size(p))) + static_cast<long>(malloc_usable_size(p));
    long seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
  }
  return p;
}

void release(void* p) {
  if (p != nullptr && counting.load(std::memory_order_relaxed)) live.fetch_sub(static_cast<long>(malloc_usable_size(p)));
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }

namespace {

const bool kAllocatorPolicy = (xcvr::daemon::apply_allocator_policy(), true);  // as the daemon runs

// The peak heap one call of `request` takes beyond what it returns, ÷ what it returns.
template <typename F>
double peak_over_body(F request) {
  live = 0;
  peak = 0;
  counting = true;
  const std::string body = request();
  counting = false;
  return static_cast<double>(peak.load()) / static_cast<double>(body.size());
}

void report(benchmark::State& state, std::size_t body_bytes, double peak_ratio) {
  const double modules = static_cast<double>(state.range(0));
  state.counters["body_bytes_per_module"] = static_cast<double>(body_bytes) / modules;
  state.counters["peak_heap_over_body"] = peak_ratio;
  state.counters["modules"] = modules;
}

void BM_ApiModulesExporter(benchmark::State& state) {
  const xcvr::daemon::Snapshot snapshot = xcvr::testing::make_fleet(static_cast<int>(state.range(0)));
  const xcvr::health::FleetView views(snapshot);  // the server keeps one per snapshot
  std::size_t hint = 0;
  const auto request = [&] { return xcvr::exporters::modules_body(views, hint); };
  hint = request().size();
  const double ratio = peak_over_body(request);
  for (auto _ : state) benchmark::DoNotOptimize(request());
  report(state, hint, ratio);
}

void BM_ApiModulesOneDocument(benchmark::State& state) {
  const xcvr::daemon::Snapshot snapshot = xcvr::testing::make_fleet(static_cast<int>(state.range(0)));
  const xcvr::health::FleetView views(snapshot);
  const auto request = [&] {
    nlohmann::json modules = nlohmann::json::array();
    for (std::size_t i = 0; i < snapshot.ports.size(); ++i) {
      modules.push_back(xcvr::exporters::port_json(snapshot, snapshot.ports[i], views.port(i)));
    }
    return xcvr::exporters::json_text({{"modules", std::move(modules)}});
  };
  std::size_t bytes = request().size();
  const double ratio = peak_over_body(request);
  for (auto _ : state) benchmark::DoNotOptimize(request());
  report(state, bytes, ratio);
}

}  // namespace

BENCHMARK(BM_ApiModulesExporter)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ApiModulesOneDocument)->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond);
