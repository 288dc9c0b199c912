// What the daemon needs to verify module coding: the optic catalog, the IEEE OUI registry and
// the cage-style rules, loaded once at start and at each reload (never per poll) and shared,
// read-only, by every port poller of one engine.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "daemon/catalog.hpp"
#include "daemon/coding.hpp"
#include "daemon/config.hpp"

namespace xcvr::daemon {

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

}  // namespace xcvr::daemon
