#include "daemon/coding_setup.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <unordered_map>

#include "daemon/aging.hpp"

namespace xcvr::daemon {

namespace fs = std::filesystem;

std::optional<std::string> required_style_for(const std::string& port, const std::vector<CageStyleRule>& rules) {
  for (const CageStyleRule& r : rules) {
    if (glob_match(r.ports, port)) return coding::parse_style(r.style);
  }
  return std::nullopt;
}

VerifyContext CodingSetup::context_for(const std::string& port, double now_unix) const {
  VerifyContext ctx;
  ctx.catalog = catalog.get();
  ctx.oui = oui.get();
  ctx.now_unix = now_unix;
  ctx.required_style = required_style_for(port, cage_styles);
  return ctx;
}

std::vector<std::string> default_catalog_paths(const std::string& executable_dir) {
  std::vector<std::string> out;
  if (std::string shipped = coding::default_catalog_dir(executable_dir); !shipped.empty()) out.push_back(std::move(shipped));
  std::error_code ec;
  if (fs::is_directory(kSiteCatalogDir, ec)) out.emplace_back(kSiteCatalogDir);
  return out;
}

std::variant<std::shared_ptr<const CodingSetup>, std::string> load_coding_setup(const Config& config,
                                                                               const std::string& executable_dir) {
  auto setup = std::make_shared<CodingSetup>();
  if (config.catalog_set) {
    setup->catalog_paths = config.catalog;
  } else {
    std::string dir = executable_dir;
    if (dir.empty()) {
      std::error_code ec;
      const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
      if (!ec) dir = exe.parent_path().string();
    }
    setup->catalog_paths = default_catalog_paths(dir);
  }
  if (setup->catalog_paths.empty()) {
    setup->warnings.push_back(config.catalog_set
                                  ? "catalog = []: catalog checks skipped"
                                  : std::string("no optic catalog (") + coding::kInstalledCatalogDir +
                                        " is missing): catalog checks skipped");
  } else {
    // An explicitly named file or directory that is missing is the operator's typo, not a
    // degradation: load_catalog() names it.
    auto loaded = coding::load_catalog(setup->catalog_paths);
    if (auto* err = std::get_if<coding::CatalogError>(&loaded)) return "catalog: " + err->to_string();
    setup->catalog = std::make_shared<const Catalog>(std::move(std::get<Catalog>(loaded)));
  }
  auto oui = std::make_shared<OuiRegistry>(OuiRegistry::load(config.oui_registry));
  if (!oui->available()) {
    setup->warnings.push_back("OUI registry unavailable: " + oui->error() +
                              "; vendor_oui reports every module's OUI as unverifiable (a warning)");
  }
  setup->oui = std::move(oui);
  for (const CageStyleConfig& c : config.cage_styles) setup->cage_styles.push_back({c.ports, c.style});
  return std::shared_ptr<const CodingSetup>(std::move(setup));
}

void add_fleet_findings(std::vector<PortSnapshot>& ports, const AgingStore* aging) {
  std::vector<coding::FleetPort> fleet;
  fleet.reserve(ports.size());
  std::unordered_map<std::string_view, PortSnapshot*> by_name;  // a finding per port of a batch
  by_name.reserve(ports.size());                                 // of copies: no scan per finding
  for (PortSnapshot& p : ports) {
    by_name.emplace(p.port, &p);
    if (p.report && !p.stale && p.presence != PortPresence::Absent) fleet.push_back({p.port, p.report});
  }
  for (coding::FleetFinding& f : coding::verify_fleet(fleet, aging)) {
    const auto it = by_name.find(f.port);
    if (it == by_name.end()) continue;
    // A port keeps one finding per check id.
    auto& found = it->second->coding;
    found.erase(std::remove_if(found.begin(), found.end(),
                               [&](const coding::CodingFinding& c) { return c.check == f.finding.check; }),
                found.end());
    found.push_back(std::move(f.finding));
  }
}

}  // namespace xcvr::daemon
