#include "daemon/service.hpp"

#include <filesystem>
#include <optional>

#include <spdlog/spdlog.h>

namespace xcvr::daemon {

std::string Service::start(const std::string& path) {
  path_ = path;
  auto loaded = load_config_file(path);
  if (auto* err = std::get_if<ConfigError>(&loaded)) return err->to_string();
  auto coding = load_coding_setup(std::get<Config>(loaded));
  if (auto* err = std::get_if<std::string>(&coding)) return *err;
  auto built = build_sources(std::get<Config>(loaded));
  if (auto* err = std::get_if<SourceError>(&built)) return err->message;
  launch(std::move(std::get<Config>(loaded)), std::move(std::get<BuiltSources>(built)),
         std::move(std::get<std::shared_ptr<const CodingSetup>>(coding)), false);
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

void Service::launch(Config config, BuiltSources built, std::shared_ptr<const CodingSetup> coding, bool is_reload) {
  if (engine_) engine_->stop();
  engine_.reset();  // transports of the old sources go before their resources
  sources_ = std::move(built);
  if (!aging_) aging_ = std::make_unique<AgingStore>();
  aging_->set_directory(config.state_directory, clock_.wall());  // a changed one on reload too; logs its errors
  config_ = std::move(config);
  coding_ = std::move(coding);
  log_coding(*coding_);
  engine_ = std::make_unique<PollEngine>(config_, std::move(sources_.ports), clock_, store_, *aging_, coding_);
  engine_->set_reload_stats(reloads_ok_, reloads_failed_, true, is_reload ? clock_.wall() : 0);
}

std::string Service::reload() {
  auto loaded = load_config_file(path_);
  std::string error;
  std::optional<BuiltSources> built;
  std::shared_ptr<const CodingSetup> coding;
  if (auto* err = std::get_if<ConfigError>(&loaded)) {
    error = err->to_string();
  } else if (auto setup = load_coding_setup(std::get<Config>(loaded)); std::holds_alternative<std::string>(setup)) {
    error = std::get<std::string>(setup);  // a broken catalog keeps the running one, as a broken config does
  } else {
    coding = std::get<std::shared_ptr<const CodingSetup>>(std::move(setup));
    // Build the new sources before touching the running engine: a failure leaves it alone.
    auto result = build_sources(std::get<Config>(loaded));
    if (auto* serr = std::get_if<SourceError>(&result)) error = serr->message;
    else built = std::move(std::get<BuiltSources>(result));
  }
  if (!error.empty()) {
    ++reloads_failed_;
    if (engine_) engine_->set_reload_stats(reloads_ok_, reloads_failed_, false, clock_.wall());
    return error;
  }
  ++reloads_ok_;
  const bool was_running = running_;
  launch(std::move(std::get<Config>(loaded)), std::move(*built), std::move(coding), true);
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
