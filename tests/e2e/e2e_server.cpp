// Serves a synthetic fleet over HTTP(S) for the e2e scripts and the wrk benchmark:
//   xcvr_e2e_server [--listen ADDR]... [--ports N | --rich] [--tls-cert F --tls-key F]
//                   [--user NAME:BCRYPT]... [--max-threads N] [--baseline]
//   xcvr_e2e_server --bcrypt PASSWORD     (prints a bcrypt hash and exits)
// Prints "listening <port>" per listener, then serves until SIGINT/SIGTERM.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <unistd.h>

#include "exporters/basic_auth.hpp"
#include "exporters/http_server.hpp"
#include "tests/bench/scrape_baseline.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "xcvr_e2e_server: " << why << "\n";
  std::exit(2);
}

void wait_for_signal() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  while (g_stop == 0) pause();
}

}  // namespace

int main(int argc, char** argv) {
  xcvr::exporters::WebConfig cfg;
  cfg.listen_addresses.clear();
  int ports = 64;
  bool rich = false, baseline = false;
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
  const xcvr::daemon::Snapshot snapshot =
      rich ? xcvr::testing::make_rich_snapshot() : xcvr::testing::make_fleet(ports);

  if (baseline) {
    xcvr::bench::BaselineServer server(snapshot);
    const auto colon = cfg.listen_addresses[0].rfind(':');
    const int port = server.start(cfg.listen_addresses[0].substr(0, colon),
                                  std::atoi(cfg.listen_addresses[0].substr(colon + 1).c_str()));
    if (port < 0) usage("cannot listen on " + cfg.listen_addresses[0]);
    std::cout << "listening " << port << std::endl;
    wait_for_signal();
    return 0;
  }
  xcvr::daemon::SnapshotStore store;
  store.publish(std::make_shared<const xcvr::daemon::Snapshot>(snapshot));
  xcvr::exporters::HttpServer server(cfg, store);
  try {
    server.start();
  } catch (const std::exception& e) {
    usage(e.what());
  }
  for (int p : server.ports()) std::cout << "listening " << p << std::endl;
  wait_for_signal();
  server.stop();
  return 0;
}
