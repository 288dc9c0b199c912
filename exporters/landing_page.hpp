// The daemon's own pages: "/" (name, version, links, a port map of every device's cages coloured
// and labelled by health, a table of all ports) and "/port/<name>" (one module in detail).
// Plain HTML + inline CSS + inline SVG: no scripts, no external assets; every string from a
// module or the configuration is HTML-escaped.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "daemon/snapshot.hpp"
#include "exporters/health.hpp"

namespace xcvr::exporters {

struct LandingOptions {
  HealthOptions health;
  std::string version;  // shown when the snapshot carries none
  std::string metrics_path = "/metrics";
};

std::string landing_page_html(const daemon::Snapshot& snapshot, const LandingOptions& options);

// nullopt when the snapshot has no such port.
std::optional<std::string> port_page_html(const daemon::Snapshot& snapshot, std::string_view port,
                                          const LandingOptions& options);

// A small page for 404s.
std::string not_found_html(std::string_view what);

// Shared frame: <!doctype>, <head> with the inline stylesheet, header with links.
std::string html_page(std::string_view title, std::string_view body_html);

}  // namespace xcvr::exporters
