#include "daemon/service.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include <spdlog/spdlog.h>

#include "daemon/logging.hpp"

namespace xcvr::daemon {

namespace {

// Globs of budget groups and cage-style rules that match none of the configured ports: a typo
// there is otherwise a group that silently counts nothing.
std::vector<std::string> unmatched_globs(const Config& config, const BuiltSources& built) {
  std::vector<std::string> names;
  for (const BuiltSource& s : built.sources) names.insert(names.end(), s.port_names.begin(), s.port_names.end());
  auto matches_none = [&](const std::string& glob) {
    return std::none_of(names.begin(), names.end(), [&](const std::string& n) { return glob_match(glob, n); });
  };
  std::vector<std::string> out;
  const std::string of = " matches none of the " + std::to_string(names.size()) + " configured ports";
  for (const BudgetConfig& b : config.budgets) {
    if (matches_none(b.ports)) out.push_back(b.config_location + ": budget group '" + b.group + "': ports = \"" + b.ports + "\"" + of);
  }
  for (const CageStyleConfig& c : config.cage_styles) {
    if (matches_none(c.ports)) out.push_back(c.config_location + ": cage_style: ports = \"" + c.ports + "\"" + of);
  }
  return out;
}

// The sources of a loaded config built (`running`: unchanged ones kept), with its warnings.
// Never throws: a failure (bad_alloc, a filesystem error) is refused like a bad config, as
// "<path>: <what>" (`path`: the config file).
std::variant<PreparedConfig, std::string> prepare_sources(Config config, std::shared_ptr<const CodingSetup> coding,
                                                          const BuiltSources* running, const std::string& path) {
  try {
    auto built = build_sources(config, running);
    if (auto* err = std::get_if<SourceError>(&built)) return err->message;
    auto warnings = unmatched_globs(config, std::get<BuiltSources>(built));
    return PreparedConfig{std::move(config), std::move(coding), std::move(std::get<BuiltSources>(built)),
                          std::move(warnings)};
  } catch (const std::exception& e) {
    return path + ": " + e.what();
  }
}

}  // namespace

std::variant<PreparedConfig, std::string> prepare_config(const std::string& path, const BuiltSources* running,
                                                         const std::function<void(const Config&)>& loaded_hook) {
  try {
    auto loaded = load_config_file(path);
    if (auto* err = std::get_if<ConfigError>(&loaded)) return err->to_string();
    if (loaded_hook) loaded_hook(std::get<Config>(loaded));
    auto coding = load_coding_setup(std::get<Config>(loaded));
    if (auto* err = std::get_if<std::string>(&coding)) return *err;  // a broken catalog keeps the running one
    return prepare_sources(std::move(std::get<Config>(loaded)),
                           std::move(std::get<std::shared_ptr<const CodingSetup>>(coding)), running, path);
  } catch (const std::exception& e) {  // e.g. bad_alloc: refused like any bad config
    return path + ": " + e.what();
  }
}

std::string Service::start(const std::string& path) {
  path_ = path;
  // The config's level before building its sources, which log (a reload's waits for launch()).
  auto prepared = prepare_config(path, nullptr, [](const Config& c) { logging::apply_config_level(c.log_level); });
  if (auto* err = std::get_if<std::string>(&prepared)) return *err;
  launch(std::move(std::get<PreparedConfig>(prepared)), Launch::Start);
  return "";
}

namespace {
void log_coding(const CodingSetup& c) {
  if (c.catalog) {
    spdlog::info("coding checks: catalog {} ({} parts, {} generic profiles, {} vendors)", fmt::join(c.catalog_paths, ", "),
                 c.catalog->parts().size(), c.catalog->generics().size(), c.catalog->vendors().size());
  }
  if (c.oui->available()) spdlog::info("coding checks: OUI registry {} ({} entries)", c.oui->source(), c.oui->size());
  for (const std::string& w : c.warnings) spdlog::warn("coding checks: {}", w);
}
}  // namespace

// The engine's pollers in port order: those of reused sources, and discovered ports found again,
// taken over from the running engine (their modules stay inserted, counters and flag history
// intact), the others new.
// Pollers of sources that went away are destroyed here, while their resources still live.
std::vector<std::unique_ptr<PortPoller>> Service::pollers_for(PreparedConfig& prepared, std::size_t& kept) {
  kept = 0;
  std::map<std::string, std::unique_ptr<PortPoller>> running;
  if (engine_) {
    for (auto& p : engine_->release_pollers()) {
      const std::string name = p->name();
      running.emplace(name, std::move(p));
    }
  }
  std::vector<std::unique_ptr<PortPoller>> out;
  const auto take_over = [&](decltype(running)::iterator it) {
    it->second->reconfigure(prepared.config.poll, prepared.coding, clock_.monotonic(), clock_.wall());
    out.push_back(std::move(it->second));
    running.erase(it);
    ++kept;
  };
  auto fresh = prepared.built.ports.begin();
  for (const BuiltSource& source : prepared.built.sources) {
    for (const std::string& name : source.port_names) {
      if (source.reused) {
        auto it = running.find(name);
        if (it != running.end()) take_over(it);  // (always: a reused source's ports ran)
      } else if (fresh != prepared.built.ports.end()) {
        // A discovered port found again as it was (same name, same device) keeps its poller
        // while its source is rebuilt around it, e.g. when another netdev appeared.
        auto it = fresh->discovered ? running.find(name) : running.end();
        if (it != running.end() && it->second->transport().describe() == fresh->transport->describe()) {
          take_over(it);
        } else {
          out.push_back(std::make_unique<PortPoller>(std::move(fresh->id), std::move(fresh->transport),
                                                     prepared.config.poll, prepared.coding));
        }
        ++fresh;
      }
    }
  }
  return out;  // `running` now holds the dropped pollers: destroyed on return
}

void Service::launch(PreparedConfig prepared, Launch why) {
  const bool is_reload = why != Launch::Start;
  if (engine_) engine_->stop();
  std::size_t kept = 0;
  std::vector<std::unique_ptr<PortPoller>> pollers = pollers_for(prepared, kept);
  engine_.reset();
  sources_ = std::move(prepared.built);  // resources of dropped sources go after their transports
  Config config = std::move(prepared.config);
  if (why == Launch::Reload) logging::apply_config_level(config.log_level);  // before this reload's lines
  if (!aging_) aging_ = std::make_unique<AgingStore>();
  aging_->set_directory(config.state_directory, clock_.wall());  // a changed one on reload too; logs its errors
  if (!recorder_) recorder_ = std::make_unique<RecorderStore>();
  recorder_->set_directory(config.poll.recorder.enabled ? config.state_directory : "", clock_.wall());
  config_ = std::move(config);
  coding_ = std::move(prepared.coding);
  if (why != Launch::Rediscovery) {  // the same catalog and config as before: said already
    log_coding(*coding_);
    for (const std::string& w : prepared.warnings) spdlog::warn("config: {}", w);
  }
  for (const std::string& n : sources_.notes) spdlog::info("{}", n);
  if (why != Launch::Rediscovery) {
    spdlog::debug("config {}: {} sources, {} ports, log level {}, dynamic poll every {} s", path_, config_.sources.size(),
                  sources_.port_count(), config_.log_level, config_.poll.dynamic_interval_s);
  }
  if (is_reload) {
    spdlog::info("{}: {} ports kept running, {} built anew",
                 why == Launch::Reload ? std::string("reload") : std::string(rediscovered_) + " changed", kept,
                 sources_.port_count() - kept);
  }
  engine_ = std::make_unique<PollEngine>(config_, std::move(pollers), clock_, store_, *aging_, coding_);
  engine_->set_recorder(*recorder_);
  if (why == Launch::Reload) {
    last_reload_ok_ = true;
    last_reload_unix_ = clock_.wall();
  }
  engine_->set_reload_stats(reloads_attempted_, reloads_failed_, last_reload_ok_, last_reload_unix_);
  engine_->set_source_notes(sources_.notes);
  // One watch per kind whose sources watch, kept across launches.
  std::map<std::string, std::unique_ptr<drivers::DiscoveryWatch>, std::less<>> watches;
  for (const SourceConfig& s : config_.sources) {
    if (s.kind->watch == nullptr || !s.settings->watches() || watches.count(s.type) != 0) continue;
    auto& w = watches[s.type];
    if (const auto old = watches_.find(s.type); old != watches_.end()) {
      w = std::move(old->second);
      continue;
    }
    w = s.kind->watch();
    if (!w->error().empty()) {
      spdlog::warn("{} discovery: {}; the {} are compared on every check instead", s.type, w->error(), w->what());
    }
  }
  watches_ = std::move(watches);
}

std::string Service::reload(const WebApply& web) {
  ++reloads_attempted_;
  auto prepared = prepare_config(path_, &sources_);
  std::string error;
  if (auto* err = std::get_if<std::string>(&prepared)) {
    error = *err;
  } else if (web) {
    try {
      error = web(std::get<PreparedConfig>(prepared).config.web);
    } catch (const std::exception& e) {
      error = std::string("web: ") + e.what();
    }
  }
  if (!error.empty()) {
    ++reloads_failed_;
    last_reload_ok_ = false;
    last_reload_unix_ = clock_.wall();
    if (engine_) engine_->set_reload_stats(reloads_attempted_, reloads_failed_, false, last_reload_unix_);
    return error;
  }
  const bool was_running = running_;
  launch(std::move(std::get<PreparedConfig>(prepared)), Launch::Reload);
  if (was_running) run();
  return "";
}

bool Service::follow_discovery() {
  const double now = clock_.monotonic();
  drivers::DiscoveryWatch* changed = nullptr;
  for (auto& watch : watches_) {  // each is asked: a change is true once
    if (watch.second->changed(now) && changed == nullptr) changed = watch.second.get();
  }
  if (changed == nullptr) return false;
  auto prepared = prepare_sources(config_, coding_, &sources_, path_);
  if (auto* err = std::get_if<std::string>(&prepared)) {  // e.g. a port name now taken twice
    spdlog::error("{} changed, but the ports cannot be built again, keeping them: {}", changed->what(), *err);
    return false;
  }
  spdlog::info("{} changed, discovering again; {}", changed->what(), changed->seen());
  rediscovered_ = changed->what();
  const bool was_running = running_;
  launch(std::move(std::get<PreparedConfig>(prepared)), Launch::Rediscovery);
  if (was_running) run();
  return true;
}

void Service::run() {
  if (!engine_) return;
  engine_->start();
  running_ = true;
}

void Service::stop() {
  if (engine_) engine_->stop();
  if (aging_) aging_->flush(clock_.wall());  // clean shutdown: unsaved baselines reach the disk
  if (recorder_) recorder_->flush(clock_.wall());
  running_ = false;
}

}  // namespace xcvr::daemon
