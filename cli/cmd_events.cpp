// xcvrctl events: the flight recorder's events as the daemon saved them (recorder.json in its
// state directory, written within 10 s of an event and at shutdown), with the samples around
// each — readable while the daemon runs and after it stopped, with no HTTP access needed.
//   xcvrctl events [--config PATH | --state-dir DIR | --file PATH] [--port NAME] [--last N] [--json]
// Exit codes: 0 the events printed (or none recorded), 1 the file had bad events (named on stderr,
// the good ones printed), 2 no file could be read or its top level is broken.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "base/files/files.hpp"
#include "cli/commands.hpp"
#include "daemon/config.hpp"
#include "daemon/recorder_file.hpp"
#include "daemon/recorder_store.hpp"
#include "daemon/recorder_units.hpp"
#include "health/text.hpp"

namespace xcvr::cli {
namespace {

struct EventsOptions {
  std::string config = daemon::kDefaultConfigPath;
  std::string state_dir, file, port;
  std::size_t last = 0;  // 0 = all
  bool json = false;
};

std::string recorder_path(const EventsOptions& o, std::string& error) {
  if (!o.file.empty()) return o.file;
  if (!o.state_dir.empty()) return (std::filesystem::path(o.state_dir) / daemon::RecorderStore::kFileName).string();
  auto loaded = daemon::load_config_file(o.config);
  if (const auto* e = std::get_if<daemon::ConfigError>(&loaded)) {
    error = e->to_string() + " (give --state-dir or --file to read the events without the config)";
    return "";
  }
  return (std::filesystem::path(std::get<daemon::Config>(loaded).state_directory) / daemon::RecorderStore::kFileName).string();
}

std::string cell(double v, int decimals) { return std::isfinite(v) ? health::fixed(v, decimals) : "-"; }

void print_event(const daemon::RecorderEvent& e) {
  using S = daemon::RecorderSample;
  const double trigger_t = e.samples[e.trigger_sample].unix();
  std::cout << health::utc_time(e.unix()) << "  port " << e.port << "  serial " << (e.serial.empty() ? "-" : e.serial) << "\n";
  for (const auto& t : e.triggers) std::cout << fmt::format("  {}: {} ({:+.1f} s)\n", t.kind, t.detail, t.unix - trigger_t);
  if (e.more_triggers > 0) std::cout << "  " << e.more_triggers << " more triggers\n";
  std::cout << fmt::format("  {:>7} {:>6} {:>5} {:>9} {:>9} {:>4} {:>4}  rx dBm per lane / flags\n", "t s", "temp C",
                           "vcc V", "preFEC", "corr/s", "tail", "link");
  for (std::size_t i = 0; i < e.samples.size(); ++i) {
    const S& s = e.samples[i];
    std::string rx;
    for (int lane = 1; lane <= e.lanes; ++lane) {
      const auto watts = daemon::recorder_units::si(e.lane(i, lane).rx_power, daemon::recorder_units::kPerWatt);
      const auto dbm = watts ? health::watts_to_dbm(*watts) : std::nullopt;
      rx += !watts ? "     -" : !dbm ? "  dark" : fmt::format(" {:5.1f}", *dbm);
    }
    std::string flags;
    for (const std::string& f : daemon::recorder_flag_labels(s)) flags += " " + f;
    std::cout << fmt::format("  {:>+7.1f} {:>6} {:>5} {:>9} {:>9} {:>4} {:>4} {}{}{}\n", s.unix() - trigger_t,
                             s.temperature == S::kNoneI16 ? "-" : cell(s.temperature / daemon::recorder_units::kPerCelsius, 1),
                             cell(daemon::recorder_units::si(s.supply_voltage, daemon::recorder_units::kPerVolt).value_or(NAN), 2),
                             std::isfinite(s.pre_fec_ber) ? fmt::format("{:.2e}", s.pre_fec_ber) : "-",
                             std::isfinite(s.fec_corrected_per_s) ? fmt::format("{:.3g}", s.fec_corrected_per_s) : "-",
                             s.fec_tail == S::kNone8 ? "-" : std::to_string(s.fec_tail),
                             s.carrier == S::kNone8 ? "-" : s.carrier ? "up" : "DOWN", rx, flags.empty() ? "" : " |",
                             flags);
  }
  std::cout << "\n";
}

int run_events(const EventsOptions& o) {
  std::string error;
  const std::string path = recorder_path(o, error);
  if (path.empty()) {
    std::cerr << "xcvrctl events: " << error << '\n';
    return kExitUnreadable;
  }
  const files::ReadResult r = files::read_regular_file(path, daemon::RecorderLimits{}.max_file_bytes);
  if (r.status == files::ReadStatus::Missing) {
    std::cerr << "xcvrctl events: " << path << ": no events recorded (the daemon writes it at its first event)\n";
    return o.json ? (std::cout << "{\"events\":[]}\n", kExitClean) : kExitClean;
  }
  if (r.status != files::ReadStatus::Ok) {
    std::cerr << "xcvrctl events: " << r.error.message << '\n';
    return kExitUnreadable;
  }
  daemon::ParsedRecorder parsed = daemon::parse_recorder(path, r.data);
  for (const std::string& d : parsed.dropped) std::cerr << "xcvrctl events: " << d << '\n';
  if (!parsed.fatal.empty()) std::cerr << "xcvrctl events: " << parsed.fatal << '\n';
  daemon::RecorderEvents events;
  for (auto& e : parsed.events) {
    if (o.port.empty() || e->port == o.port) events.push_back(std::move(e));
  }
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a->unix() < b->unix(); });
  if (o.last > 0 && events.size() > o.last) events.erase(events.begin(), events.end() - static_cast<std::ptrdiff_t>(o.last));
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : events) out.push_back(daemon::recorder_event_json(*e));
    std::cout << nlohmann::json{{"events", std::move(out)}}.dump(1) << '\n';
  } else {
    if (events.empty()) std::cout << "no events" << (o.port.empty() ? "" : " for port " + o.port) << " in " << path << "\n";
    for (const auto& e : events) print_event(*e);
  }
  if (!parsed.fatal.empty() && parsed.events.empty()) return kExitUnreadable;
  return parsed.dropped.empty() && parsed.fatal.empty() ? kExitClean : kExitProblems;
}

}  // namespace

void add_events_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EventsOptions>();
  CLI::App* cmd = app.add_subcommand("events", "Print the flight recorder's events (the samples around each link "
                                               "down, alarm flag, data-path change or FEC tail jump) the daemon saved");
  auto* config = cmd->add_option("--config", o->config, "The daemon's config, for its state directory")->capture_default_str();
  auto* dir = cmd->add_option("--state-dir", o->state_dir, "The daemon's state directory (holds recorder.json)");
  auto* file = cmd->add_option("--file", o->file, "A recorder.json file");
  config->excludes(dir)->excludes(file);
  dir->excludes(file);
  cmd->add_option("--port", o->port, "Only this port's events");
  cmd->add_option("--last", o->last, "Only the newest N events");
  cmd->add_flag("--json", o->json, "Print the events as the daemon's /api/v1/events serves them");
  cmd->callback([o, &exit_code] { exit_code = run_events(*o); });
}

}  // namespace xcvr::cli
