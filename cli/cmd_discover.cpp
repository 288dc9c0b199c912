// xcvrctl discover [--emit-config]: what each source kind would find on this host, the same
// discovery the daemon runs, asked of every kind in the source registry that discovers
// (SourceKind::discover, each with its options of where to look). --emit-config prints it as
// config to edit (rename ports, drop some) instead of relying on discovery; --json as one object.
#include <iostream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "drivers/discover_report.hpp"
#include "drivers/source_kind.hpp"

namespace xcvr::cli {
namespace {

struct DiscoverOptions {
  bool emit_config = false;
  bool json = false;
  std::map<std::string, std::string> values;  // every kind's discover options, by name
  std::map<std::string, CLI::Option*> given;
};

int run_discover(const DiscoverOptions& o) {
  std::string text, config;
  nlohmann::json json = nlohmann::json::object();
  for (const drivers::SourceKind* kind : drivers::source_kinds()) {
    if (kind->discover == nullptr) continue;
    drivers::CliValues values;
    for (const drivers::CliOption& opt : kind->discover_options) {
      const std::string name(opt.name);
      if (o.given.at(name)->count() != 0) values[name] = o.values.at(name);
    }
    drivers::DiscoverReport report;
    if (const auto error = kind->discover(values, report)) {
      std::cerr << "xcvrctl discover: " << *error << '\n';
      return kExitUnreadable;
    }
    text += report.text;
    config += report.config;
    if (!report.json.is_null()) json[std::string(kind->type)] = std::move(report.json);
  }
  if (o.json) {
    std::cout << json.dump(2) << '\n';
  } else if (o.emit_config) {
    std::cout << "# Written by xcvrctl discover --emit-config: the ports found on this host, named as\n"
                 "# discovery names them. Rename or drop ports, then use it instead of discovery.\n"
              << config;
  } else {
    std::cout << text;
  }
  return kExitClean;
}

}  // namespace

void add_discover_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<DiscoverOptions>();
  CLI::App* cmd = app.add_subcommand("discover", "What each source type would find on this host (the daemon's discovery)");
  cmd->add_flag("--emit-config", opts->emit_config, "Print the ports found as config to edit");
  cmd->add_flag("--json", opts->json, "Print what was found as JSON");
  for (const drivers::SourceKind* kind : drivers::source_kinds()) {
    for (const drivers::CliOption& o : kind->discover_options) {
      const std::string name(o.name);
      opts->given[name] = cmd->add_option("--" + name, opts->values[name], std::string(o.help));
    }
  }
  cmd->callback([opts, &exit_code] { exit_code = run_discover(*opts); });
}

}  // namespace xcvr::cli
