#include "daemon/service.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include <spdlog/spdlog.h>

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

}  // namespace

std::variant<PreparedConfig, std::string> prepare_config(const std::string& path, const BuiltSources* running) {
  try {
    auto loaded = load_config_file(path);
    if (auto* err = std::get_if<ConfigError>(&loaded)) return err->to_string();
    auto coding = load_coding_setup(std::get<Config>(loaded));
    if (auto* err = std::get_if<std::string>(&coding)) return *err;  // a broken catalog keeps the running one
    auto built = build_sources(std::get<Config>(loaded), running);
    if (auto* err = std::get_if<SourceError>(&built)) return err->message;
    auto warnings = unmatched_globs(std::get<Config>(loaded), std::get<BuiltSources>(built));
    return PreparedConfig{std::move(std::get<Config>(loaded)),
                          std::move(std::get<std::shared_ptr<const CodingSetup>>(coding)),
                          std::move(std::get<BuiltSources>(built)), std::move(warnings)};
  } catch (const std::exception& e) {  // e.g. bad_alloc: refused like any bad config
    return path + ": " + e.what();
  }
}

std::string Service::start(const std::string& path) {
  path_ = path;
  auto prepared = prepare_config(path);
  if (auto* err = std::get_if<std::string>(&prepared)) return *err;
  launch(std::move(std::get<PreparedConfig>(prepared)), false);
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

// The engine's pollers in port order: those of reused sources taken over from the running
// engine (their modules stay inserted, counters and flag history intact), the others new.
// Pollers of sources that went away are destroyed here, while their resources still live.
std::vector<std::unique_ptr<PortPoller>> Service::pollers_for(PreparedConfig& prepared) {
  std::map<std::string, std::unique_ptr<PortPoller>> running;
  if (engine_) {
    for (auto& p : engine_->release_pollers()) {
      const std::string name = p->name();
      running.emplace(name, std::move(p));
    }
  }
  std::vector<std::unique_ptr<PortPoller>> out;
  auto fresh = prepared.built.ports.begin();
  for (const BuiltSource& source : prepared.built.sources) {
    for (const std::string& name : source.port_names) {
      if (source.reused) {
        auto it = running.find(name);
        if (it == running.end()) continue;  // cannot happen: a reused source's ports ran
        it->second->reconfigure(prepared.config.poll, prepared.coding, clock_.monotonic(), clock_.wall());
        out.push_back(std::move(it->second));
        running.erase(it);
      } else if (fresh != prepared.built.ports.end()) {
        out.push_back(std::make_unique<PortPoller>(std::move(fresh->id), std::move(fresh->transport),
                                                   prepared.config.poll, prepared.coding));
        ++fresh;
      }
    }
  }
  return out;  // `running` now holds the dropped pollers: destroyed on return
}

void Service::launch(PreparedConfig prepared, bool is_reload) {
  if (engine_) engine_->stop();
  std::vector<std::unique_ptr<PortPoller>> pollers = pollers_for(prepared);
  engine_.reset();
  sources_ = std::move(prepared.built);  // resources of dropped sources go after their transports
  Config config = std::move(prepared.config);
  if (!aging_) aging_ = std::make_unique<AgingStore>();
  aging_->set_directory(config.state_directory, clock_.wall());  // a changed one on reload too; logs its errors
  config_ = std::move(config);
  coding_ = std::move(prepared.coding);
  log_coding(*coding_);
  for (const std::string& w : prepared.warnings) spdlog::warn("config: {}", w);
  for (const std::string& n : sources_.notes) spdlog::info("{}", n);
  if (is_reload) {
    std::size_t kept = 0;
    for (const BuiltSource& s : sources_.sources) kept += s.reused ? s.port_names.size() : 0;
    spdlog::info("reload: {} ports kept running, {} built anew", kept, sources_.port_count() - kept);
  }
  engine_ = std::make_unique<PollEngine>(config_, std::move(pollers), clock_, store_, *aging_, coding_);
  engine_->set_reload_stats(reloads_attempted_, reloads_failed_, true, is_reload ? clock_.wall() : 0);
  engine_->set_source_notes(sources_.notes);
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
    if (engine_) engine_->set_reload_stats(reloads_attempted_, reloads_failed_, false, clock_.wall());
    return error;
  }
  const bool was_running = running_;
  launch(std::move(std::get<PreparedConfig>(prepared)), true);
  if (was_running) run();
  return "";
}

void Service::run() {
  if (!engine_) return;
  engine_->start();
  running_ = true;
}

void Service::stop() {
  if (engine_) engine_->stop();
  if (aging_) aging_->flush(clock_.wall());  // clean shutdown: unsaved baselines reach the disk
  running_ = false;
}

}  // namespace xcvr::daemon
