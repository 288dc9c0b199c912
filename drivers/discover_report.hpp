// What `xcvrctl discover` shows of one source kind: what the kind would find on this host, as
// text for people, as [[source]] tables to edit (--emit-config) and as its member of --json.
// A kind fills it in its SourceKind::discover (drivers/<folder>/<type>_source.cpp); xcvrctl
// only joins the kinds' reports in the registry's order.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace xcvr::drivers {

struct DiscoverReport {
  std::string text;     // a heading line, then one indented line per find ("  eth0  pci:…")
  std::string config;   // "\n[[source]]\n…" naming what was found; "" for nothing
  nlohmann::json json;  // the kind's member of --json; null: none
};

// `s` as a TOML basic string: "…" with " and \ escaped.
inline std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace xcvr::drivers
