#include "cli/port_source.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "base/spelling.hpp"
#include "cmis/codes.hpp"
#include "cmis/flags.hpp"
#include "health/values.hpp"

namespace xcvr::cli {

namespace {

// The part after the last '/': alerts of one source name "swp20" what the daemon calls
// "spine-01/swp20".
std::string leaf(const std::string& name) {
  const auto slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

std::vector<std::string> close_matches(const std::string& wanted, const std::vector<std::string>& names,
                                       std::size_t limit) {
  // Rank 0: the same leaf; 1: one contains the other; then by edit distance, within a third of
  // the name's length (a typo, not a different port).
  std::vector<std::pair<std::size_t, std::string>> ranked;
  const std::size_t tolerance = std::max<std::size_t>(2, wanted.size() / 3);
  for (const std::string& n : names) {
    std::size_t rank = 0;
    if (leaf(n) == leaf(wanted)) {
      rank = 0;
    } else if (n.find(wanted) != std::string::npos || wanted.find(n) != std::string::npos) {
      rank = 1;
    } else {
      const std::size_t d = std::min(base::edit_distance(wanted, n), base::edit_distance(leaf(wanted), leaf(n)));
      if (d > tolerance) continue;
      rank = 1 + d;
    }
    ranked.emplace_back(rank, n);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && out.size() < limit; ++i) out.push_back(ranked[i].second);
  return out;
}

std::optional<ConfigPort> open_config_port(const std::string& config_path, const std::string& port,
                                           std::string& error) {
  auto prepared = daemon::prepare_config(config_path);
  if (auto* err = std::get_if<std::string>(&prepared)) {
    error = *err;
    return std::nullopt;
  }
  ConfigPort out{std::move(std::get<daemon::PreparedConfig>(prepared)), nullptr, nullptr, {}, port, ""};
  std::vector<std::string> names;
  for (daemon::PortSpec& spec : out.prepared.built.ports) {
    if (spec.id.port == port) {
      out.transport = std::move(spec.transport);
      out.kind = drivers::source_kind(spec.id.source);  // PortIdentity::source is the source's type
      out.service = spec.id.service;
      break;
    }
    names.push_back(spec.id.port);
  }
  if (!out.transport) {
    const std::size_t configured = out.prepared.built.ports.size();
    error = config_path + ": no port '" + port + "' among its " + std::to_string(configured) + " configured ports";
    const std::vector<std::string> near = close_matches(port, names);
    for (std::size_t i = 0; i < near.size(); ++i) error += (i == 0 ? "; did you mean " : ", ") + near[i];
    if (!near.empty()) error += "?";
    // Nothing close: show how this config names its ports.
    for (std::size_t i = 0; near.empty() && i < names.size() && i < 3; ++i) {
      error += (i == 0 ? "; they are named like " : ", ") + names[i];
    }
    return std::nullopt;
  }
  out.label = port + " (" + config_path + ": " + out.transport->describe() + ")";
  return std::optional<ConfigPort>(std::move(out));
}

void add_port_options(CLI::App& cmd, PortFlags& flags, const SourceFlags& source) {
  CLI::Option* port = cmd.add_option("--port", flags.port,
                                     "A port of the daemon's config by its `port` label (as alerts name it), read "
                                     "through that port's source and judged with the daemon's catalog list");
  flags.config_option = cmd.add_option("--config", flags.config,
                                       "The daemon's config file (with --port; for verify also the catalog list)")
                            ->capture_default_str();
  for (const SourceFlags::Given& g : source.kinds) port->excludes(g.options.front());
}

std::optional<ModuleSource> open_module(const SourceFlags& source, const PortFlags& port, std::string& error) {
  ModuleSource out;
  if (!port.port.empty()) {
    out.config_port = open_config_port(port.config, port.port, error);
    if (!out.config_port) return std::nullopt;
    out.label = out.config_port->label;
    out.kind = out.config_port->kind;
  } else {
    auto opened = open_source(source, error);
    if (!opened) {
      error += error.rfind("give exactly one of", 0) == 0 ? ", or --port NAME" : "";
      return std::nullopt;
    }
    out.device = std::move(opened->transport);
    out.kind = opened->kind;
    out.label = std::move(opened->label);
  }
  if (out.transport().presence() == drivers::Presence::Absent) {  // (open_source checked a device already)
    error = out.label + ": no module in the cage";
    out.empty = true;
  }
  return std::optional<ModuleSource>(std::move(out));
}

namespace {

// Settled: ready (CMIS ModuleReady, no SFF data_not_ready) with no data path on its way up or
// down (DPInit, DPTxTurnOn, ...: only activated or deactivated ones).
bool settled(const cmis::ModuleReport& r) {
  const auto& flags = r.module_flags;
  if (std::find(flags.begin(), flags.end(), cmis::flag_name(cmis::FlagId::DataNotReady)) != flags.end()) return false;
  if (!health::module_ready(r)) return false;
  return std::all_of(r.lanes.begin(), r.lanes.end(), [](const cmis::LaneReport& l) {
    return !l.data_path_state || *l.data_path_state == "DPActivated" || *l.data_path_state == "DPDeactivated";
  });
}

}  // namespace

std::optional<drivers::Error> read_settled(ModuleSource& source, cmis::ModuleImage& image,
                                           std::vector<std::string>& skipped) {
  auto err = read_module(source.transport(), image, skipped);
  if (err || !source.config_port || settled(cmis::decode(image))) return err;
  std::this_thread::sleep_for(std::chrono::duration<double>(source.config_port->prepared.config.poll.settle_delay_s));
  image = {};
  skipped.clear();
  return read_module(source.transport(), image, skipped);
}

std::variant<DaemonCoding, std::string> daemon_coding(const PortFlags& port, const ModuleSource& source,
                                                      const std::vector<std::string>& catalogs,
                                                      const std::string& oui_registry, double now_unix) {
  std::shared_ptr<const daemon::CodingSetup> setup;
  const bool overridden = !catalogs.empty() || !oui_registry.empty();
  if (source.config_port && !overridden) {
    setup = source.config_port->prepared.coding;
  } else {
    daemon::Config config;
    if (source.config_port) {
      config = source.config_port->prepared.config;
    } else {
      std::error_code ec;
      if (port.config_given() || std::filesystem::exists(port.config, ec)) {
        auto loaded = daemon::load_config_file(port.config);
        if (auto* err = std::get_if<daemon::ConfigError>(&loaded)) return err->to_string();
        config = std::move(std::get<daemon::Config>(loaded));
      }
    }
    if (!catalogs.empty()) {
      config.catalog = catalogs;
      config.catalog_set = true;
    }
    if (!oui_registry.empty()) config.oui_registry = oui_registry;
    auto loaded = daemon::load_coding_setup(config);
    if (auto* err = std::get_if<std::string>(&loaded)) return *err;
    setup = std::get<std::shared_ptr<const daemon::CodingSetup>>(loaded);
  }
  DaemonCoding out{setup, setup->context_for(source.config_port ? source.config_port->port : "", now_unix)};
  if (!source.config_port) out.context.required_style.reset();
  return out;
}

}  // namespace xcvr::cli
