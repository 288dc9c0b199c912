// What the daemon needs to verify module coding: the optic catalog, the IEEE OUI registry and
// the cage-style rules, loaded once at start and at each reload (never per poll) and shared,
// read-only, by every port poller of one engine.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "coding/catalog.hpp"
#include "coding/coding.hpp"
#include "daemon/config.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::daemon {

class AgingStore;

using coding::Catalog;
using coding::OuiRegistry;
using coding::VerifyContext;

// Port groups whose cages need finned-top (IHS, e.g. air-cooled Quantum-2 switch cages) or
// flat-top (RHS, e.g. ConnectX-7 cages with riding heat sinks) modules.
struct CageStyleRule {
  std::string ports;  // glob over port names, as budget groups use ("q2-*")
  std::string style;  // "flat-top" or "finned-top"
};
// The style the first matching rule requires, or nullopt.
std::optional<std::string> required_style_for(const std::string& port, const std::vector<CageStyleRule>& rules);

struct CodingSetup {
  std::shared_ptr<const Catalog> catalog;  // nullptr: no catalog (catalog checks skip)
  std::shared_ptr<const OuiRegistry> oui;  // never nullptr; !available(): vendor_oui unverifiable
  std::vector<CageStyleRule> cage_styles;  // first matching rule wins
  std::vector<std::string> catalog_paths;  // loaded, in order
  // Degradations worth a log line: no catalog, no OUI registry.
  std::vector<std::string> warnings;

  // The context for one port (its cage-style requirement) at wall time `now_unix`.
  VerifyContext context_for(const std::string& port, double now_unix) const;
};

// The catalog directories when `[daemon] catalog` is not given: the shipped catalog (installed,
// or the source tree's config/catalog when run from a build tree) and the site directory, each
// only if it exists.
inline constexpr const char* kSiteCatalogDir = "/etc/transceiver-exporter/catalog.d";
std::vector<std::string> default_catalog_paths(const std::string& executable_dir);

// Loads what `config` names. A catalog error (file:line:col) is returned as text: at start the
// daemon refuses to run, at reload the running config stays. A missing OUI registry is not an
// error (see CodingSetup::warnings). `executable_dir` "" means the running binary's directory.
std::variant<std::shared_ptr<const CodingSetup>, std::string> load_coding_setup(
    const Config& config, const std::string& executable_dir = "");

// Appends coding::verify_fleet() findings to each port's `coding`, one per check id (ports
// without a report, or stale, take no part). `aging` remembers serials across runs.
void add_fleet_findings(std::vector<PortSnapshot>& ports, const AgingStore* aging);

}  // namespace xcvr::daemon
