#include "drivers/ib/ib_source.hpp"

#include <set>

#include "drivers/discover_report.hpp"
#include "drivers/ib/front_panel.hpp"
#include "drivers/ib/ib_module.hpp"
#include "drivers/ib/mad_layout.hpp"
#include "drivers/ib/umad_device.hpp"

namespace xcvr::ib {
namespace {

std::string describe_ca(const IbSourceSettings& s) {
  return s.ca.empty() ? std::string("first active CA port") : "CA " + s.ca + " port " + std::to_string(s.port);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

}  // namespace

std::optional<std::string> add_ib_ports(const IbSourceSettings& settings, const drivers::BuildContext& ctx,
                                        drivers::SourceBuild& out, DeviceOpener opener,
                                        std::shared_ptr<base::Clock> clock) {
  auto opened = open_ib_source(settings, std::move(opener), std::move(clock));
  if (auto* e = std::get_if<drivers::Error>(&opened)) {
    // Without InfiniBand hardware this is where a config with an `ib` source stops: say which
    // source and which CA, and what the host lacks.
    return ctx.location + ": ib source (" + describe_ca(settings) + "): " + e->message;
  }
  auto src = std::make_shared<IbSource>(std::move(std::get<IbSource>(opened)));
  for (const std::string& w : src->ports.warnings) {
    if (ctx.warn) ctx.warn(ctx.location + ": ib " + src->device + ": " + w);
  }
  if (ctx.info) {
    if (src->ports.skipped_by_shard > 0) {
      ctx.info(ctx.location + ": ib " + src->device + ": " + std::to_string(src->ports.skipped_by_shard) +
               " targets belong to other shards (" + settings.shard + ")");
    }
    ctx.info(ctx.location + ": ib " + src->device + ": " + std::to_string(src->ports.targets.size()) + " targets, " +
             std::to_string(src->ports.ports.size()) + " modules");
  }
  for (IbModulePort& p : src->ports.ports) out.ports.push_back({p.name, p.node, "", std::move(p.transport)});
  src->ports.ports.clear();
  out.keep_alive.push_back(std::move(src));  // the clock, targets and rate limiter of its transports
  return std::nullopt;
}

void add_every_ca(const IbSourceSettings& settings, const drivers::BuildContext& ctx, drivers::SourceBuild& out,
                  const std::vector<LocalPort>& host_ports, DeviceOpener opener, std::shared_ptr<base::Clock> clock) {
  std::vector<std::string> found, skipped, refused;
  for (const LocalPort& p : host_ports) {
    const std::string name = p.ca + (p.port == 1 ? "" : "-p" + std::to_string(p.port));
    if (!is_infiniband(p.link_layer) || p.state != kPortStateActive) {
      skipped.push_back(name + " (" + (is_infiniband(p.link_layer) ? "not active" : p.link_layer) + ")");
      continue;
    }
    IbSourceSettings one = settings;
    one.ca = p.ca;
    one.port = p.port;
    one.local_name = name;
    drivers::SourceBuild built;
    if (auto err = add_ib_ports(one, ctx, built, opener, clock)) {
      refused.push_back(*err);
      continue;
    }
    for (drivers::MadePort& port : built.ports) {
      found.push_back(port.name);
      out.ports.push_back(std::move(port));
    }
    out.keep_alive.insert(out.keep_alive.end(), built.keep_alive.begin(), built.keep_alive.end());
  }
  std::string note = ctx.location + ": ib discovery (every CA): " + (found.empty() ? std::string("no module") : "ports " + joined(found)) +
                     "; InfiniBand CA ports looked at: " + std::to_string(host_ports.size());
  if (!skipped.empty()) note += "; skipped: " + joined(skipped);
  for (const std::string& r : refused) note += "; " + r;
  if (!refused.empty()) {
    note += ". To let the service open /dev/infiniband/umad*: the infiniband.conf drop-in and the udev rule "
            "(docs/installation.md, Drop-ins)";
  } else if (found.empty()) {
    note += ". On a host in InfiniBand mode (DGX): is ib_umad loaded, a port active? Fabric switches: an ib "
            "source with `discover` (docs/configuration.md)";
  }
  out.notes.push_back(std::move(note));
}

std::optional<std::string> IbSourceConfig::build(const drivers::BuildContext& ctx, drivers::SourceBuild& out) const {
  if (ib.ca != kEveryCa) return add_ib_ports(ib, ctx, out);
  if (auto bad = validate(ib)) return ctx.location + ": ib source: " + *bad;
  add_every_ca(ib, ctx, out, list_local_ports());
  return std::nullopt;
}

std::string IbSourceConfig::fingerprint() const {
  std::string fp;
  if (ib.ca != kEveryCa) return fp;
  for (const LocalPort& p : list_local_ports()) {
    fp += "\nca " + p.ca + "/" + std::to_string(p.port) + " " + p.link_layer + " " + std::to_string(p.state);
  }
  return fp;
}

namespace {

// A 64-bit key or GUID: a non-negative integer, or a string ("0x0002c90300a1b2c3") because
// TOML integers are signed 64-bit and many GUIDs do not fit.
std::optional<uint64_t> u64(base::TomlTable& t, const std::string& key) {
  const toml::node* n = t.node(key);
  if (n == nullptr) return std::nullopt;
  if (auto i = n->value_exact<int64_t>(); i && *i >= 0) return static_cast<uint64_t>(*i);
  if (auto text = n->value_exact<std::string>(); text && !text->empty() && text->size() <= 18) {
    try {
      std::size_t used = 0;
      const unsigned long long v = std::stoull(*text, &used, 0);
      if (used == text->size() && (*text)[0] != '-') return static_cast<uint64_t>(v);
    } catch (const std::exception&) {
    }
  }
  t.fail(n, key, "expected a 64-bit value (an integer or a string like \"0x0002c903000a1b2c\")");
}

void printable_name(base::TomlTable& t, const std::string& name) {
  for (char c : name) {
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
      base::toml_fail(t.raw(), t.name() + ".name: must be printable ASCII without quotes or backslashes");
    }
  }
}

IbTargetSetting read_target(base::TomlTable t) {
  IbTargetSetting out;
  out.lid = static_cast<uint16_t>(t.integer("lid", 1, 0xBFFF).value_or(0));
  out.guid = u64(t, "guid").value_or(0);
  if (out.lid == 0 && out.guid == 0) base::toml_fail(t.raw(), t.name() + ": needs lid, guid or both");
  out.name = t.str("name").value_or("");
  printable_name(t, out.name);
  const std::string range = "front-panel cage numbers " + cage_range();
  if (const toml::node* n = t.node("modules")) {
    t.fail(n, "modules", "is now `cages`: " + range + " (MCIA module + 1), as the ports are named");
  }
  if (const toml::node* n = t.node("cages")) {
    const toml::array* a = n->as_array();
    if (a == nullptr) t.fail(n, "cages", "expected an array of " + range);
    for (const toml::node& e : *a) {
      const auto c = e.value_exact<int64_t>();
      if (!c || *c < 1 || *c > kMaxCage) t.fail(&e, "cages", "expected " + range);
      out.modules.push_back(module_of_cage(static_cast<int>(*c)));
    }
  }
  t.finish();
  return out;
}

// MADs per second: far above what any subnet manager agent answers, and finite.
constexpr double kMaxMadRate = 1e6;

template <typename T>
void read_int(base::TomlTable& t, const char* key, T& out, int64_t lo, int64_t hi) {
  if (auto v = t.integer(key, lo, hi)) out = static_cast<T>(*v);
}

void read_duration(base::TomlTable& t, const char* key, double& out, double lo, double hi) {
  if (auto v = t.duration_in(key, lo, hi)) out = *v;
}

// ib::validate's findings ("shard: ...") point at their key when it is present, else at the
// source table.
std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable& t, std::span<const drivers::ListedPort>,
                                                     const std::string&) {
  auto config = std::make_unique<IbSourceConfig>();
  IbSourceSettings& s = config->ib;
  s.ca = t.str("ca").value_or("");
  read_int(t, "port", s.port, 1, 255);
  s.local = t.boolean("local").value_or(s.local);
  s.discover = t.boolean("discover").value_or(s.discover);
  s.shard = t.str("shard").value_or("");
  s.rate_limit = t.number_in("rate_limit", 0, kMaxMadRate).value_or(s.rate_limit);  // 0 = unlimited
  s.burst = t.number_in("burst", 1, kMaxMadRate).value_or(s.burst);
  read_int(t, "max_outstanding", s.max_outstanding, 1, 16);
  s.one_lane = t.boolean("one_lane").value_or(s.one_lane);
  read_duration(t, "timeout", s.timeout_s, 0.001, 60);
  read_int(t, "retries", s.retries, 0, 10);
  read_duration(t, "backoff", s.backoff_s, 0, 60);
  read_duration(t, "backoff_max", s.backoff_max_s, 0.001, 3600);
  read_int(t, "busy_retries", s.busy_retries, 0, 10);
  read_int(t, "dead_after", s.dead_after, 1, 1000);
  read_duration(t, "probe_interval", s.probe_interval_s, 1, 86400);
  s.access = t.str("access").value_or(s.access);
  read_int(t, "mcia_bytes", s.mcia_bytes, 0, 128);
  s.vs_key = u64(t, "vs_key").value_or(0);
  s.m_key = u64(t, "m_key").value_or(0);
  if (const toml::array* targets = t.tables("target")) {
    int i = 0;
    for (const toml::node& n : *targets) {
      s.targets.push_back(read_target(base::TomlTable(*n.as_table(), t.name() + ".target[" + std::to_string(i++) + "]")));
    }
  }
  if (auto bad = validate(s)) {
    static const std::set<std::string> kKeys = {"port", "shard", "rate_limit", "max_outstanding", "timeout", "retries",
                                                "backoff", "dead_after", "probe_interval", "access", "mcia_bytes"};
    const std::string key = bad->substr(0, bad->find(':'));
    const toml::node* at = kKeys.count(key) != 0 ? t.node(key) : nullptr;
    throw base::TomlInvalid{at != nullptr ? at->source() : t.where(), t.name() + (at != nullptr ? "." : ": ") + *bad};
  }
  return config;
}

constexpr drivers::CliOption kOptions[] = {
    {"ib", "InfiniBand CA:PORT to send MADs from, e.g. mlx5_0:1"},
    {"lid", "with --ib: LID of the switch or HCA (default: the CA's own)"},
    {"cage", "with --ib: front-panel cage, from 1 (its MCIA module is cage - 1; default 1)"},
};

std::variant<drivers::OpenedModule, drivers::Error> open(const drivers::CliValues& v) {
  const auto number = [&](const char* key, int absent, int max) -> std::optional<int> {
    const auto it = v.find(key);
    if (it == v.end()) return absent;
    if (it->second.empty() || it->second.size() > 6 || it->second.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
    const int n = std::stoi(it->second);
    return n <= max ? std::optional<int>(n) : std::nullopt;
  };
  const auto lid = number("lid", 0, 0xBFFF);
  const auto cage = number("cage", 1, kMaxCage);
  if (!lid) return drivers::Error{drivers::ErrorKind::Unsupported, "--lid " + v.at("lid") + " is not a unicast LID (1-49151)"};
  if (!cage || *cage < 1) {
    return drivers::Error{drivers::ErrorKind::Unsupported,
                          "--cage " + v.at("cage") + " is not a front-panel cage (" + cage_range() + ")"};
  }
  auto opened = open_ib_module_transport(v.at("ib"), *lid, module_of_cage(*cage));
  if (auto* e = std::get_if<drivers::Error>(&opened)) return *e;
  auto t = std::move(std::get<std::unique_ptr<drivers::Transport>>(opened));
  std::string label = t->describe();
  return drivers::OpenedModule{std::move(t), std::move(label)};
}

// The local ports an `ib` source can send MADs from; their fabrics are not walked here.
std::optional<std::string> discover(const drivers::CliValues&, drivers::DiscoverReport& out) {
  const std::vector<LocalPort> ports = list_local_ports();
  out.text = "ib (local InfiniBand ports, for `type = \"ib\"`): " + std::to_string(ports.size()) + "\n";
  out.json = nlohmann::json::array();
  for (const LocalPort& p : ports) {
    out.text += "  " + p.ca + ':' + std::to_string(p.port) + "  " + p.link_layer + "  state " + std::to_string(p.state) +
                "  lid " + std::to_string(p.lid) + "\n";
    out.json.push_back({{"ca", p.ca}, {"port", p.port}, {"link_layer", p.link_layer}, {"state", p.state}, {"lid", p.lid}});
    if (!is_infiniband(p.link_layer)) continue;
    out.config += "\n# This host's own modules through " + p.ca + ':' + std::to_string(p.port) +
                  " (needs the umad drop-in, docs/installation.md)\n#[[source]]\n#type = \"ib\"\n#ca = " +
                  drivers::toml_string(p.ca) + "\n#port = " + std::to_string(p.port) + "\n#local = true\n";
  }
  return std::nullopt;
}

}  // namespace

const drivers::SourceKind kIbSource{.type = "ib",
                                    .port_table = "module",
                                    .lists_devices = false,
                                    .parse = parse,
                                    .options = kOptions,
                                    .open = open,
                                    .discover = discover,
                                    .access = "run as root, or grant access to /dev/infiniband/umad* (docs/installation.md)"};

}  // namespace xcvr::ib
