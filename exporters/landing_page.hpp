// The daemon's own pages: "/" (name, version, links, the problems list worst first, a port map
// of every device's cages coloured and labelled by health with their reasons, a table of all
// ports) and "/port/<name>" (one module in detail, with its verdict's reasons). Both reload
// themselves (meta refresh).
// Plain HTML + inline CSS + inline SVG: no scripts, no external assets; every string from a
// module or the configuration is HTML-escaped.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "daemon/snapshot.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

struct LandingOptions {
  std::string version;  // shown when the snapshot carries none
  std::string metrics_path = "/metrics";
  int refresh_seconds = 10;  // meta refresh of "/" and "/port/..."; 0 = none
};

// Verdicts, reasons, headroom and margins are the ports' views (health/fleet_view.hpp).
std::string landing_page_html(const health::FleetView& views, const LandingOptions& options);

// nullopt when the snapshot has no such port.
std::optional<std::string> port_page_html(const health::FleetView& views, std::string_view port,
                                          const LandingOptions& options);

// A small page for 404s.
std::string not_found_html(std::string_view what);

// Shared frame: <!doctype>, <head> with the inline stylesheet (and a meta refresh when
// refresh_seconds > 0), then the body.
std::string html_page(std::string_view title, std::string_view body_html, int refresh_seconds = 0);

// "This page reloads every N s. Refresh now." with a link to self_href.
std::string refresh_note(const LandingOptions& options, std::string_view self_href);

// <span class="badge h-NAME">NAME</span>, and the reasons of a port's verdict as a list.
std::string badge(health::Health h);
std::string reasons_list(const health::PortView& view);

}  // namespace xcvr::exporters
