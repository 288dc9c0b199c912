// transceiver_exporter: watches pluggable optics and serves them to Prometheus.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include "base/spelling.hpp"
#include "daemon/allocator.hpp"
#include "daemon/build_info.hpp"
#include "daemon/logging.hpp"
#include "daemon/service.hpp"
#include "daemon/sources.hpp"
#include "exporters/http/frontend.hpp"
#include "exporters/textfile.hpp"
#include "exporters/verdict_log.hpp"

namespace {

using namespace xcvr;

struct Options {
  std::string config = daemon::kDefaultConfigPath;
  bool check_config = false;
  std::vector<std::string> listen;
  std::string textfile;
  std::string log_level;
  std::string log_format = "text";
};

// A CLI11 check naming the accepted words, as the config's errors do.
template <typename Parse>
std::function<std::string(const std::string&)> one_of(Parse parse, std::string what, std::string accepted) {
  return [=](const std::string& v) {
    return parse(v) ? std::string() : "'" + v + "' is not " + what + " (" + accepted + ")";
  };
}

// Signals are taken synchronously by the main thread (sigtimedwait), never in a handler.
sigset_t service_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) sigaddset(&set, s);
  return set;
}

// The web settings in force: the config's, with --web.listen-address replacing its addresses.
daemon::WebConfig effective_web(daemon::WebConfig web, const Options& o) {
  if (o.listen.empty()) return web;
  web.listen_addresses = o.listen;
  for (std::size_t i = 0; i < o.listen.size(); ++i) {
    web.locations["listen_addresses[" + std::to_string(i) + "]"] = "--web.listen-address";
  }
  return web;
}

// What the web frontend would refuse to serve with: the web settings (check_web), then the
// --textfile path. "" when both are fine.
std::string frontend_problem(const daemon::WebConfig& web, const Options& o, exporters::BindCheck bind) {
  if (std::string err = exporters::check_web(web, bind); !err.empty()) return err;
  return o.textfile.empty() ? "" : exporters::textfile_problem(o.textfile);
}

// Refuses what a start refuses (the same prepare_config and frontend_problem), except that a listen
// address in use is fine: the running daemon holds it. It also refuses a port whose config names
// what this host lacks (a netdev, an i2c bus, an optoe or presence file), which a running daemon
// exports as misconfigured instead of stopping: hardware can appear after the daemon starts.
int check_config(const Options& o) {
  auto prepared = daemon::prepare_config(o.config);
  if (auto* err = std::get_if<std::string>(&prepared)) {
    std::cerr << *err << '\n';
    return 2;
  }
  const auto& p = std::get<daemon::PreparedConfig>(prepared);
  if (const std::string err = frontend_problem(effective_web(p.config.web, o), o, exporters::BindCheck::InUseOk);
      !err.empty()) {
    std::cerr << err << '\n';
    return 2;
  }
  for (const std::string& w : p.warnings) std::cout << "warning: " << w << '\n';
  for (const std::string& n : p.built.notes) std::cout << "note: " << n << '\n';
  std::size_t missing = 0;
  for (const daemon::PortSpec& port : p.built.ports) {
    if (const auto why = port.transport->missing()) {
      std::cerr << o.config << ": port " << base::shown(port.id.port) << ": " << *why << '\n';
      ++missing;
    }
  }
  if (missing > 0) {
    std::cerr << o.config << ": " << missing << " of " << p.built.port_count()
              << " ports name what this host lacks (the daemon would export them as misconfigured)\n";
    return 2;
  }
  for (const std::string& d : daemon::replayed_duplicate_serials(p.built.ports)) std::cout << "warning: " << d << '\n';
  std::cout << o.config << ": OK (" << p.built.port_count() << " ports)\n";
  for (const std::string& w : p.coding->warnings) std::cout << "note: coding checks: " << w << '\n';
  return 0;
}

int run(const Options& o) {
  const sigset_t signals = service_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before any thread starts: all inherit it

  // The level is in force before the first line: --log-level's now, else the config's as soon
  // as it is parsed (Service::start), and a reload's after it succeeded — unless --log-level.
  if (!o.log_level.empty()) daemon::logging::set_command_line_level(daemon::logging::parse_level(o.log_level));
  base::SteadyClock clock;
  daemon::SnapshotStore store;
  daemon::Service service(clock, store);
  if (const std::string err = service.start(o.config); !err.empty()) {
    std::cerr << err << '\n';
    return 2;
  }

  const daemon::WebConfig web = effective_web(service.config().web, o);
  if (const std::string err = frontend_problem(web, o, exporters::BindCheck::Strict); !err.empty()) {
    std::cerr << err << '\n';
    return 2;
  }
  exporters::Frontend frontend(web, store, o.textfile);
  if (const std::string err = frontend.start(); !err.empty()) {
    std::cerr << err << '\n';
    return 1;
  }
  service.run();
  spdlog::info("transceiver_exporter {} running: {} domains, listening on {}", daemon::build_info::describe(),
               service.engine()->domain_count(), fmt::join(web.listen_addresses, ", "));
  // (after a reload the frontend logs its new addresses itself)

  uint64_t watchdog_usec = 0;
  const bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  sd_notify(0, "READY=1");
  exporters::VerdictLog verdicts;
  const timespec tick{0, 250'000'000};
  constexpr int kTicksPerTrim = static_cast<int>(4 * daemon::kHeapTrimIntervalSeconds);
  for (int ticks = 1;; ++ticks) {
    if (ticks % kTicksPerTrim == 0) daemon::return_free_heap_to_os();
    const int sig = sigtimedwait(&signals, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT) break;
    if (sig == SIGHUP) {
      sd_notify(0, "RELOADING=1");
      const auto apply_web = [&](const daemon::WebConfig& w) { return frontend.reconfigure(effective_web(w, o)); };
      if (const std::string err = service.reload(apply_web); !err.empty()) {
        spdlog::error("config reload failed, keeping the running config: {}", err);
      } else {
        spdlog::info("config reloaded from {}", o.config);
      }
      sd_notify(0, "READY=1");
    }
    if (sig == SIGUSR1) {
      spdlog::info("re-reading the static pages of every module");
      service.engine()->request_reverify_all();
    }
    service.follow_discovery();  // e.g. netdevs appeared, went or were renamed: discover again
    frontend.tick();
    // Once a second: judging 2048 healthy ports costs about 4 ms (a log line may lag by 1 s).
    if (ticks % 4 == 0) verdicts.observe(*health::shared_views(store.current()));
    // Pet the watchdog only while every domain worker is alive: a hung bus thread gets us restarted.
    if (watchdog && service.engine()->oldest_domain_heartbeat_age() < static_cast<double>(watchdog_usec) / 2e6) {
      sd_notify(0, "WATCHDOG=1");
    }
  }
  sd_notify(0, "STOPPING=1");
  spdlog::info("stopping");
  frontend.stop();
  service.stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace logging = daemon::logging;
  CLI::App app{"transceiver_exporter — pluggable optics (CMIS, SFF-8636, SFF-8472) for Prometheus"};
  Options o;
  app.set_version_flag("--version", "transceiver_exporter " + daemon::build_info::describe());
  app.add_option("--config", o.config, "Config file")->capture_default_str();
  app.add_flag("--check-config", o.check_config, "Validate the config (and its sources) and exit: 0 ok, 2 invalid");
  app.add_option("--web.listen-address", o.listen, "Address to listen on (repeatable; overrides web.listen_addresses)");
  app.add_option("--textfile", o.textfile, "Also write metrics atomically to this file (node_exporter textfile collector)");
  app.add_option("--log-level", o.log_level,
                 logging::level_names() + " (overrides daemon.log_level, also after a reload)")
      ->check(one_of(logging::parse_level, "a log level", logging::level_names()));
  app.add_option("--log.format", o.log_format, logging::format_names() + ": one line per message, times in UTC")
      ->capture_default_str()
      ->check(one_of(logging::parse_format, "a log format", logging::format_names()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // Logs go to stderr (the journal under systemd); stdout stays for --check-config's answer.
  logging::install_stderr_logger(
      {*logging::parse_format(o.log_format), logging::is_journal_stream(STDERR_FILENO, std::getenv("JOURNAL_STREAM"))});
  // Nothing may escape as an uncaught exception (an abort, rc 134): report it and exit.
  try {
    if (o.check_config) return check_config(o);
    daemon::apply_allocator_policy();
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << "transceiver_exporter: " << e.what() << '\n';
    return 1;
  }
}
