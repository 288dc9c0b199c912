#include "cli/module_read.hpp"

#include <algorithm>

#include "cli/commands.hpp"
#include "cmis/read_plan.hpp"
#include "drivers/module_reader.hpp"

namespace xcvr::cli {

void add_source_options(CLI::App& cmd, SourceFlags& flags, bool file_positional) {
  for (const drivers::SourceKind* kind : drivers::source_kinds()) {
    if (kind->options.empty()) continue;
    SourceFlags::Given given{kind, {}};
    for (const drivers::CliOption& o : kind->options) {
      std::string name = "--" + std::string(o.name);
      if (!o.alias.empty()) name += ",--" + std::string(o.alias);
      if (file_positional && o.name == "file") name = "file," + name;
      CLI::Option* opt = o.is_flag ? cmd.add_flag(name)->description(std::string(o.help))
                                   : cmd.add_option(name, flags.values[std::string(o.name)], std::string(o.help));
      if (!given.options.empty()) opt->needs(given.options.front());
      given.options.push_back(opt);
    }
    for (const SourceFlags::Given& other : flags.kinds) given.options.front()->excludes(other.options.front());
    flags.kinds.push_back(std::move(given));
  }
}

std::optional<OpenedSource> open_source(const SourceFlags& flags, std::string& error) {
  const SourceFlags::Given* chosen = nullptr;
  std::string names;
  int given = 0;
  for (const SourceFlags::Given& g : flags.kinds) {
    names += (names.empty() ? "--" : ", --") + std::string(g.kind->options.front().name);
    if (g.options.front()->count() != 0) {
      chosen = &g;
      ++given;
    }
  }
  if (given != 1) {
    error = "give exactly one of " + names;
    return std::nullopt;
  }
  drivers::CliValues values;
  for (std::size_t i = 0; i < chosen->options.size(); ++i) {
    if (chosen->options[i]->count() == 0) continue;
    const std::string name(chosen->kind->options[i].name);
    values[name] = chosen->kind->options[i].is_flag ? "true" : flags.values.at(name);
  }
  auto opened = chosen->kind->open(values);
  if (auto* e = std::get_if<drivers::Error>(&opened)) {
    error = e->message;
    if (const std::string hint = drivers::error_hint(*chosen->kind, *e, /*opening=*/true); !hint.empty()) error += "\n" + hint;
    return std::nullopt;
  }
  auto& module = std::get<drivers::OpenedModule>(opened);
  OpenedSource out{chosen->kind, std::move(module.transport), std::move(module.label)};
  // Cages with a presence line say so before any read (netlink and dumps have none to ask).
  if (out.transport->presence() == drivers::Presence::Absent) {
    error = out.label + ": no module in the cage";
    return std::nullopt;
  }
  return out;
}

void refresh_dynamic(drivers::Transport& t, cmis::ModuleImage& image) {
  // Only pages the static read got; an error leaves the bytes of the static read.
  std::vector<cmis::ReadRange> plan = cmis::dynamic_reads(image);
  std::erase_if(plan, [&](const cmis::ReadRange& r) { return !image.has(r.page); });
  drivers::UnreachablePages unreachable;
  drivers::read_ranges(t, plan, image, unreachable, {});
}

std::optional<drivers::Error> read_module(drivers::Transport& t, cmis::ModuleImage& image,
                                          std::vector<std::string>& skipped) {
  drivers::UnreachablePages unreachable;
  drivers::ReadResult r = drivers::read_static(t, image, unreachable, {});
  for (const drivers::Error& e : r.skipped) skipped.push_back(e.message);
  return std::move(r.error);
}

int report_exit_code(const cmis::ModuleReport& report) {
  const bool bad_checksum = std::any_of(report.checksums.begin(), report.checksums.end(),
                                        [](const cmis::Checksum& c) { return !c.ok(); });
  return bad_checksum || !report.problems.empty() ? kExitProblems : kExitClean;
}

}  // namespace xcvr::cli
