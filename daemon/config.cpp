#include "daemon/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "base/safe_file.hpp"
#include "base/spelling.hpp"
#include "base/toml_input.hpp"

#include "daemon/bcrypt_hash.hpp"
#include "daemon/logging.hpp"
#include "coding/coding.hpp"  // parse_style

namespace xcvr::daemon {
namespace {

using Invalid = base::TomlInvalid;  // thrown inside this file only, turned into ConfigError at the boundary
using Table = base::TomlTable;

std::string location(const toml::source_region& r) { return base::toml_location(r); }

void require(bool ok, const toml::source_region& where, const std::string& message) {
  if (!ok) throw Invalid{where, message};
}

void duration_in(Table& t, const std::string& key, double& out, double min_s, double max_s, bool zero_is_off = false) {
  if (auto v = t.duration_in(key, min_s, max_s, zero_is_off)) out = *v;
}

void integer(Table& t, const std::string& key, int& out, int min, int max) {
  if (auto v = t.integer(key, min, max)) out = static_cast<int>(*v);
}

PollConfig read_poll(Table t) {
  PollConfig p;
  duration_in(t, "dynamic_interval", p.dynamic_interval_s, 0.1, 3600);
  duration_in(t, "thermal_interval", p.thermal_interval_s, 0.1, 3600, /*zero_is_off=*/true);
  duration_in(t, "vdm_interval", p.vdm_interval_s, 1, 86400);
  duration_in(t, "link_interval", p.link_interval_s, 1, 86400);
  duration_in(t, "settle_delay", p.settle_delay_s, 0, 600);
  duration_in(t, "flag_hold", p.flag_hold_s, 1, 86400);
  duration_in(t, "backoff_max", p.backoff_max_s, 0.1, 86400);
  integer(t, "static_reverify_cycles", p.static_reverify_cycles, 1, 1'000'000);
  integer(t, "stale_after_intervals", p.stale_after_intervals, 1, 1000);
  integer(t, "retries", p.retries, 0, 10);
  if (p.thermal_interval_s > 0) {
    require(p.thermal_interval_s <= p.dynamic_interval_s, t.where(),
            "poll.thermal_interval must not exceed poll.dynamic_interval");
  }
  t.finish();
  return p;
}

RecorderConfig read_recorder(Table t) {
  RecorderConfig r;
  r.enabled = t.boolean("enabled").value_or(true);
  duration_in(t, "window", r.window_s, 10, 3600);
  integer(t, "samples", r.samples, 2, 1000);
  integer(t, "after_samples", r.after_samples, 0, 1000);
  integer(t, "events_per_port", r.events_per_port, 1, 100);
  integer(t, "max_events", r.max_events, 1, 10000);
  duration_in(t, "fast_interval", r.fast_interval_s, 0.1, 3600, /*zero_is_off=*/true);
  duration_in(t, "fast_for", r.fast_for_s, 1, 86400);
  integer(t, "fast_ports_per_domain", r.fast_ports_per_domain, 1, 4096);
  t.finish();
  return r;
}

WebConfig read_web(Table t) {
  WebConfig w;
  w.locations["web"] = location(t.where());
  if (const toml::node* n = t.node("listen_addresses")) {
    w.listen_addresses = t.strings("listen_addresses");
    require(!w.listen_addresses.empty(), t.where(), "web.listen_addresses: must not be empty");
    for (std::size_t i = 0; i < w.listen_addresses.size(); ++i) {
      w.locations["listen_addresses[" + std::to_string(i) + "]"] = location((*n->as_array())[i].source());
    }
  }
  for (const char* key : {"tls_cert_file", "tls_key_file"}) {
    if (const toml::node* n = t.node(key)) w.locations[key] = location(n->source());
  }
  w.tls_cert_file = t.str("tls_cert_file").value_or("");
  w.tls_key_file = t.str("tls_key_file").value_or("");
  require(w.tls_cert_file.empty() == w.tls_key_file.empty(), t.where(),
          "web: tls_cert_file and tls_key_file go together");
  if (const toml::table* users = t.subtable("basic_auth_users")) {
    for (const auto& [user, hash] : *users) {
      auto h = hash.value_exact<std::string>();
      require(h.has_value(), hash.source(), "web.basic_auth_users." + std::string(user.str()) + ": expected a bcrypt hash string");
      const std::string problem = bcrypt_hash_problem(*h);
      require(problem.empty(), hash.source(), "web.basic_auth_users." + std::string(user.str()) + ": " + problem);
      w.basic_auth_users[std::string(user.str())] = *h;
      w.locations["basic_auth_users." + std::string(user.str())] = location(hash.source());
    }
  }
  if (t.node("auth_exempt_paths") != nullptr) w.auth_exempt_paths = t.strings("auth_exempt_paths");
  if (auto n = t.number("max_request_bytes")) {
    require(*n >= 1024 && *n <= 1 << 20, t.where(), "web.max_request_bytes: must be between 1024 and 1048576");
    w.max_request_bytes = static_cast<std::size_t>(*n);
  }
  duration_in(t, "read_timeout", w.read_timeout_s, 0.1, 300);
  duration_in(t, "write_timeout", w.write_timeout_s, 0.1, 300);
  duration_in(t, "response_timeout", w.response_timeout_s, 1, 3600);
  integer(t, "max_connections", w.max_connections, 1, 4096);
  t.finish();
  return w;
}

MetricsConfig read_metrics(Table t) {
  MetricsConfig m;
  if (auto profile = t.str("profile")) {
    if (*profile == "fleet") m.profile = MetricsProfile::Fleet;
    else if (*profile != "full") t.fail(t.node("profile"), "profile", "expected \"full\" or \"fleet\", got \"" + base::shown(*profile) + "\"");
  }
  m.detail_ports = t.strings("detail_ports");
  duration_in(t, "detail_hold", m.detail_hold_s, 1, 86400, /*zero_is_off=*/true);
  t.finish();
  return m;
}

std::string resolve(const std::string& base_file, const std::string& path) {
  return drivers::resolve_path(std::filesystem::path(base_file).parent_path().string(), path);
}

// One entry of unused_lanes: a lane number or a range string "5-8" (or "5").
std::pair<int64_t, int64_t> lane_range(const toml::node& e, const std::string& key) {
  if (auto i = e.value_exact<int64_t>()) return {*i, *i};
  const auto text = e.value_exact<std::string>();
  const auto number = [](std::string_view s, int64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty() && s[0] != '-' && s[0] != '+';
  };
  int64_t first = 0, last = 0;
  const std::size_t dash = text ? text->find('-') : std::string::npos;
  const bool ok = text && (dash == std::string::npos ? number(*text, first) && number(*text, last)
                                                     : number(std::string_view(*text).substr(0, dash), first) &&
                                                           number(std::string_view(*text).substr(dash + 1), last));
  require(ok && first <= last, e.source(), key + ": expected lane numbers or ranges, e.g. [5, 6, 7, 8] or \"5-8\"");
  return {first, last};
}

// in_service and unused_lanes of a [[source.port]]: a list of lanes and "a-b" ranges, or one range
// string. Lanes are 1-based and must exist in the cage; each may appear once.
void read_service(Table& t, const std::string& cage, PortService& out) {
  out.in_service = t.boolean("in_service").value_or(true);
  const toml::node* n = t.node("unused_lanes");
  if (n == nullptr) return;
  const std::string key = t.name() + ".unused_lanes";
  const int lanes = lanes_for_cage(cage);
  std::vector<const toml::node*> items;
  if (const toml::array* a = n->as_array()) {
    for (const toml::node& e : *a) items.push_back(&e);
  } else {
    items.push_back(n);
  }
  std::set<int> seen;
  for (const toml::node* e : items) {
    const auto [first, last] = lane_range(*e, key);
    require(first >= 1 && last <= lanes, e->source(),
            key + ": lanes are 1-" + std::to_string(lanes) + " on " + (cage.empty() ? "a port without a cage type" : "a " + cage + " port"));
    for (int64_t lane = first; lane <= last; ++lane) {
      require(seen.insert(static_cast<int>(lane)).second, e->source(), key + ": lane " + std::to_string(lane) + " listed twice");
    }
  }
  require(out.in_service || seen.empty(), n->source(), key + ": the whole port is out of service (in_service = false)");
  out.unused_lanes.assign(seen.begin(), seen.end());
}

// The keys every listed port has (name, cage, in_service, unused_lanes); the type's own keys are
// left in `t` for its kind. A source that finds its own ports knows their cages: its entries
// give none.
PortConfig read_port(Table& t, bool lists_devices) {
  PortConfig p;
  p.config_location = location(t.where());
  p.name = t.str("name").value_or("");
  require(!p.name.empty(), t.where(), t.name() + ": every port needs a name");
  require(base::plain_name(p.name), t.where(),
          t.name() + ": port name '" + base::shown(p.name) + "' must be " + std::string(base::kPlainNameRule));
  if (lists_devices) p.cage = t.str("cage").value_or("");
  if (!p.cage.empty()) {
    const CageKind* kind = find_cage_kind(p.cage);
    if (kind == nullptr) {
      std::vector<std::string_view> names;
      std::string list;
      for (const CageKind& k : kCageKinds) {
        names.push_back(k.name);
        list += (list.empty() ? "" : ", ") + std::string(k.name);
      }
      // A nearer slip first ("QSFPDD"), then the whole list.
      throw Invalid{t.node("cage")->source(), t.name() + ".cage: '" + p.cage + "' is not a cage kind" +
                                                    base::did_you_mean(p.cage, names) + "; known: " + list};
    }
    p.cage = std::string(kind->name);  // one spelling for the pages and metrics
  }
  read_service(t, p.cage, p.service);
  return p;
}

// A [[source]]: its type's kind (drivers/source_registry.cpp) reads the type's keys of the table
// and of its listed ports; the keys left unread are errors.
SourceConfig read_source(Table t, const std::string& file) {
  SourceConfig s;
  s.config_location = location(t.where());
  const std::string config_dir = std::filesystem::path(file).parent_path().string();
  std::ostringstream canonical;
  canonical << t.raw() << "\n# relative to " << config_dir;
  s.canonical = canonical.str();
  const toml::node* type_node = t.node("type");
  require(type_node != nullptr, t.where(), t.name() + ": missing 'type'");
  s.type = t.str("type").value_or("");
  s.kind = drivers::source_kind(s.type);
  require(s.kind != nullptr, type_node->source(),
          t.name() + ".type: '" + s.type + "' is not one of " + drivers::source_type_list());
  const std::string port_key(s.kind->port_table);
  std::vector<Table> tables;
  if (const toml::array* ports = t.tables(port_key)) {
    for (const toml::node& n : *ports) {
      tables.emplace_back(*n.as_table(), t.name() + "." + port_key + "[" + std::to_string(tables.size()) + "]");
    }
  }
  std::vector<drivers::ListedPort> listed;
  for (Table& pt : tables) {
    s.ports.push_back(read_port(pt, s.kind->lists_devices));
    listed.push_back({s.ports.back().name, s.ports.back().config_location, &pt});
  }
  s.settings = s.kind->parse(t, listed, config_dir);
  require(!s.kind->lists_devices || !s.ports.empty() || s.settings->discovers(), t.where(),
          t.name() + ": a " + s.type + " source needs at least one [[source.port]]" +
              (s.kind->can_discover ? " (or discover = true)" : ""));
  for (const Table& pt : tables) pt.finish();
  t.finish();
  return s;
}

BudgetConfig read_budget(Table t) {
  BudgetConfig b;
  b.config_location = location(t.where());
  b.group = t.str("group").value_or("");
  require(!b.group.empty(), t.where(), t.name() + ": missing 'group'");
  b.ports = t.str("ports").value_or("*");
  const auto per_port = t.number("per_port_watts");
  const auto total = t.number("total_watts");
  require(per_port.has_value() || total.has_value(), t.where(), t.name() + ": give per_port_watts, total_watts or both");
  b.per_port_watts = per_port.value_or(0);
  b.total_watts = total.value_or(0);
  require(b.per_port_watts >= 0 && b.per_port_watts <= 100, t.where(), t.name() + ".per_port_watts: must be 0-100 W");
  require(b.total_watts >= 0 && b.total_watts <= 100000, t.where(), t.name() + ".total_watts: must be 0-100000 W");
  t.finish();
  return b;
}

CageStyleConfig read_cage_style(Table t) {
  CageStyleConfig c;
  c.config_location = location(t.where());
  c.ports = t.str("ports").value_or("*");
  const toml::node* n = t.node("style");
  require(n != nullptr, t.where(), t.name() + ": missing 'style' (\"flat-top\" or \"finned-top\")");
  const auto style = coding::parse_style(t.str("style").value_or(""));
  require(style.has_value(), n->source(), t.name() + ".style: expected \"flat-top\" (RHS) or \"finned-top\" (IHS)");
  c.style = *style;
  t.finish();
  return c;
}

// The [daemon] table.
void read_daemon(Table dt, const std::string& file, Config& c) {
  c.state_directory = dt.str("state_directory").value_or(c.state_directory);
  c.log_level = dt.str("log_level").value_or(c.log_level);
  require(logging::parse_level(c.log_level).has_value(), dt.where(),
          "daemon.log_level: '" + c.log_level + "' is not a log level (" + logging::level_names() + ")");
  if (const toml::node* n = dt.node("catalog")) {
    // One path or a list, in order: later files override earlier entries.
    std::vector<std::string> paths;
    if (auto one = n->value_exact<std::string>()) paths.push_back(*one);
    else if (n->is_array()) paths = dt.strings("catalog");
    else throw Invalid{n->source(), "daemon.catalog: expected a path or an array of paths"};
    for (const std::string& path : paths) {
      require(!path.empty(), n->source(), "daemon.catalog: an empty path");
      c.catalog.push_back(resolve(file, path));
    }
    c.catalog_set = true;
  }
  if (const toml::node* n = dt.node("oui_registry")) {
    c.oui_registry = resolve(file, dt.str("oui_registry").value_or(""));
    require(!c.oui_registry.empty(), n->source(), "daemon.oui_registry: an empty path");
  }
  dt.finish();
}

// Every table and array entry is read on its own: its first error is kept and the next one is
// read, so one run names every broken table (within a table the first error ends that table).
Config read_root(const toml::table& root, const std::string& file, std::vector<ConfigError>& errors) {
  const auto section = [&](auto&& read) {
    try {
      read();
    } catch (...) {
      errors.push_back(base::toml_error(file));
    }
  };
  Config c;
  c.path = file;
  Table t(root, "config");
  section([&] {
    if (const toml::table* d = t.subtable("daemon")) read_daemon(Table(*d, "daemon"), file, c);
  });
  section([&] {
    if (const toml::table* p = t.subtable("poll")) c.poll = read_poll(Table(*p, "poll"));
  });
  section([&] {
    if (const toml::table* r = t.subtable("recorder")) c.poll.recorder = read_recorder(Table(*r, "recorder"));
  });
  section([&] {
    if (const toml::table* w = t.subtable("web")) c.web = read_web(Table(*w, "web"));
  });
  section([&] {
    if (const toml::table* m = t.subtable("metrics")) c.metrics = read_metrics(Table(*m, "metrics"));
  });
  // Each entry of an array of tables ([[source]], [[budget]], [[cage_style]]) on its own.
  const auto each = [&](const char* key, auto&& read) {
    const toml::array* entries = nullptr;
    section([&] { entries = t.tables(key); });
    if (entries == nullptr) return;
    int i = 0;
    for (const toml::node& n : *entries) {
      const std::string name = std::string(key) + "[" + std::to_string(i++) + "]";
      section([&] { read(Table(*n.as_table(), name)); });
    }
  };
  each("source", [&](Table s) { c.sources.push_back(read_source(std::move(s), file)); });
  each("budget", [&](Table b) { c.budgets.push_back(read_budget(std::move(b))); });
  each("cage_style", [&](Table s) { c.cage_styles.push_back(read_cage_style(std::move(s))); });
  section([&] { t.finish(); });
  // Ports must be unique across all sources.
  std::map<std::string, std::string> seen;
  for (const SourceConfig& s : c.sources) {
    for (const PortConfig& p : s.ports) {
      const auto inserted = seen.emplace(p.name, p.config_location);
      if (inserted.second) continue;
      const std::string& first = inserted.first->second;
      section([&] {
        throw Invalid{root.source(), "port '" + p.name + "' defined twice: at " + first + " and " + p.config_location};
      });
    }
  }
  return c;
}

}  // namespace

const CageKind* find_cage_kind(std::string_view name) {
  const auto same = [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) == std::toupper(static_cast<unsigned char>(b));
  };
  for (const CageKind& k : kCageKinds) {
    if (std::equal(k.name.begin(), k.name.end(), name.begin(), name.end(), same)) return &k;
  }
  return nullptr;
}

int lanes_for_cage(std::string_view cage) {
  const CageKind* k = find_cage_kind(cage);
  return k ? k->lanes : 8;  // not given (or not known: refused when the config is read)
}

std::string WebConfig::location_of(const std::string& key) const {
  auto it = locations.find(key);
  if (it == locations.end()) it = locations.find("web");
  return it == locations.end() ? std::string() : it->second;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

ConfigResult parse_config(std::string_view text, const std::string& origin) {
  std::vector<ConfigError> errors;
  try {
    const toml::table root = base::parse_toml(text, origin);
    Config c = read_root(root, origin, errors);
    if (errors.empty()) return c;
  } catch (...) {
    return base::toml_error(origin);  // TOML syntax: nothing after it can be read
  }
  // The first error's place, and every other error on a line of its own after its message.
  ConfigError first = errors.front();
  for (std::size_t i = 1; i < errors.size(); ++i) first.message += "\n" + errors[i].to_string();
  return first;
}

ConfigResult load_config_file(const std::string& path) {
  std::string error;
  const auto text = base::read_regular_file(path, kConfigInput, error);
  if (!text) return ConfigError{path, 0, 0, error.substr(std::min(error.size(), path.size() + 2))};
  return parse_config(*text, path);
}

}  // namespace xcvr::daemon
