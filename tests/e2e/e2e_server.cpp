// Serves a synthetic fleet over HTTP(S) for the e2e scripts and the wrk benchmark:
//   xcvr_e2e_server [--listen ADDR]... [--ports N | --rich] [--tls-cert F --tls-key F]
//                   [--user NAME:BCRYPT]... [--max-threads N] [--baseline] [--fresh]
//   xcvr_e2e_server --bcrypt PASSWORD     (prints a bcrypt hash and exits)
//   xcvr_e2e_server [--ports N] --bench-render REPEATS   (render CPU as JSON, then exits)
// Prints "listening <port>" per listener, then serves until SIGINT/SIGTERM.
// --fresh: a new snapshot (two equal ones, alternating) is published as soon as a scrape has
// taken the current one, so every scrape renders, as in service where every poll publishes.
#include <httplib.h>
#include <prometheus/text_serializer.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "daemon/allocator.hpp"
#include "exporters/http/basic_auth.hpp"
#include "exporters/http/server.hpp"
#include "exporters/metrics.hpp"
#include "tests/support/metric_families.hpp"
#include "tests/bench/scrape_baseline.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

std::atomic<bool> g_stop{false};  // lock-free: set by the signal handler, read by the publisher
void on_signal(int) { g_stop = true; }

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "xcvr_e2e_server: " << why << "\n";
  std::exit(2);
}

void wait_for_signal() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  while (!g_stop) pause();
}

using SnapshotPtr = std::shared_ptr<const xcvr::daemon::Snapshot>;

// Median process CPU time of `work` over n runs, `before` (untimed) ahead of each: the figure
// the peers' --bench-render print (tests/bench/peers/).
double median_cpu_ms(int n, const std::function<void()>& before, const std::function<void()>& work) {
  auto cpu_ms = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
  };
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    if (before) before();
    const double start = cpu_ms();
    work();
    ms.push_back(cpu_ms() - start);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Render CPU of the exporter (fresh: a new snapshot before each render; cached: the same one)
// and of the bare prometheus-cpp baseline (tests/bench/scrape_baseline.hpp: serializes prebuilt
// families, gzips with cpp-httplib's compressor as its server does).
void bench_render(const SnapshotPtr& a, int n) {
  const SnapshotPtr b = std::make_shared<const xcvr::daemon::Snapshot>(*a);
  xcvr::daemon::SnapshotStore store;
  store.publish(a);
  xcvr::exporters::SnapshotCollector collector(store);
  bool flip = false;
  auto publish = [&] { store.publish((flip = !flip) ? b : a); };
  std::shared_ptr<const xcvr::exporters::RenderedMetrics> rendered;
  std::vector<std::size_t> family_bytes;  // kept from render to render, as SnapshotCollector does
  xcvr::exporters::TextBuffer body;
  const double e_text = median_cpu_ms(n, {}, [&] { body = xcvr::exporters::render_body(xcvr::health::FleetView(*a), {}, &family_bytes); });
  const double e_fresh = median_cpu_ms(n, publish, [&] { rendered = collector.render(); });
  const double e_cached = median_cpu_ms(n, {}, [&] { rendered = collector.render(); });

  const auto families = xcvr::exporters::build_families(xcvr::health::FleetView(*a));
  std::string base_text, base_gzip;
  auto gzip = [&] {
    base_gzip.clear();
    httplib::detail::gzip_compressor().compress(base_text.data(), base_text.size(), true,
                                                [&](const char* d, std::size_t len) {
                                                  base_gzip.append(d, len);
                                                  return true;
                                                });
  };
  const double b_text = median_cpu_ms(n, {}, [&] { base_text = prometheus::TextSerializer{}.Serialize(families); });
  const double b_gzip = median_cpu_ms(n, {}, [&] {
    base_text = prometheus::TextSerializer{}.Serialize(families);
    gzip();
  });
  // The exporter's cached render is the cache hit: text and gzip were made by the fresh one.
  std::printf(
      "{\"exporter\": {\"render_ms_fresh\": %.4f, \"render_gzip_ms_fresh\": %.4f, \"render_ms_cached\": %.4f, "
      "\"render_gzip_ms_cached\": %.4f, \"bytes\": %zu, \"gzip_bytes\": %zu},\n"
      " \"baseline\": {\"render_ms_cached\": %.4f, \"render_gzip_ms_cached\": %.4f, \"bytes\": %zu, \"gzip_bytes\": %zu}}\n",
      e_text, e_fresh, e_cached, e_cached, body.size(), rendered ? rendered->gzip.size() : 0, b_text, b_gzip,
      base_text.size(), base_gzip.size());
}

}  // namespace

int main(int argc, char** argv) {
  xcvr::daemon::apply_allocator_policy();  // the daemon's allocator policy, so HTTP figures are its
  xcvr::exporters::WebConfig cfg;
  cfg.listen_addresses.clear();
  int ports = 64;
  bool rich = false, baseline = false, fresh = false;
  int bench_repeats = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--listen") cfg.listen_addresses.push_back(next());
    else if (a == "--ports") ports = std::atoi(next().c_str());
    else if (a == "--rich") rich = true;
    else if (a == "--baseline") baseline = true;
    else if (a == "--fresh") fresh = true;
    else if (a == "--bench-render") bench_repeats = std::atoi(next().c_str());
    else if (a == "--tls-cert") cfg.tls_cert_file = next();
    else if (a == "--tls-key") cfg.tls_key_file = next();
    else if (a == "--max-threads") cfg.max_threads = static_cast<std::size_t>(std::atoi(next().c_str()));
    else if (a == "--user") {
      const std::string v = next();
      const auto colon = v.find(':');
      if (colon == std::string::npos) usage("--user wants NAME:BCRYPT");
      cfg.basic_auth_users[v.substr(0, colon)] = v.substr(colon + 1);
    } else if (a == "--bcrypt") {
      const auto hash = xcvr::exporters::bcrypt_hash(next(), 10);
      if (!hash) usage("bcrypt failed");
      std::cout << *hash << "\n";
      return 0;
    } else {
      usage("unknown argument " + a);
    }
  }
  if (cfg.listen_addresses.empty()) cfg.listen_addresses = {"127.0.0.1:0"};
  const SnapshotPtr snapshot = std::make_shared<const xcvr::daemon::Snapshot>(
      rich ? xcvr::testing::make_rich_snapshot() : xcvr::testing::make_fleet(ports));
  if (bench_repeats > 0) {
    bench_render(snapshot, bench_repeats);
    return 0;
  }

  if (baseline) {
    xcvr::bench::BaselineServer server(*snapshot);
    const auto colon = cfg.listen_addresses[0].rfind(':');
    const int port = server.start(cfg.listen_addresses[0].substr(0, colon),
                                  std::atoi(cfg.listen_addresses[0].substr(colon + 1).c_str()));
    if (port < 0) usage("cannot listen on " + cfg.listen_addresses[0]);
    std::cout << "listening " << port << std::endl;
    wait_for_signal();
    return 0;
  }
  xcvr::daemon::SnapshotStore store;
  store.publish(snapshot);
  xcvr::exporters::HttpServer server(cfg, store);
  try {
    server.start();
  } catch (const std::exception& e) {
    usage(e.what());
  }
  std::thread publisher;
  if (fresh) {
    // A scrape counts itself before it renders, so the next snapshot is in place long before
    // the next request (a render takes milliseconds; this checks every 100 µs).
    publisher = std::thread([&store, seen = store.scrapes(), a = snapshot,
                             b = std::make_shared<const xcvr::daemon::Snapshot>(*snapshot)]() mutable {
      bool flip = false;
      while (!g_stop) {
        if (store.scrapes() != seen) {
          seen = store.scrapes();
          store.publish((flip = !flip) ? b : a);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
  }
  for (int p : server.ports()) std::cout << "listening " << p << std::endl;
  wait_for_signal();
  if (publisher.joinable()) publisher.join();
  server.stop();
  return 0;
}
