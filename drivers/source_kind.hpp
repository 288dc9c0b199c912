// Source types: what `[[source]] type = "…"` in the config and a source flag of xcvrctl build.
// Each transport's folder defines its SourceKind (drivers/<folder>/<type>_source.cpp: its
// settings, its strict TOML keys, its factory, its xcvrctl flags) and drivers/source_registry.cpp
// lists them, one line each. The config, the daemon and xcvrctl know source types only through
// that table: a transport is its folder plus its registry line.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/safe_file.hpp"
#include "base/toml_input.hpp"
#include "drivers/transport.hpp"

namespace xcvr::drivers {

// A [[source.port]] (or [[source.module]]) entry as the config read it: the keys every type
// shares (name, cage, in_service, unused_lanes) are taken (the daemon applies them by name);
// `table` still holds the type's own.
struct ListedPort {
  std::string name;
  std::string location;    // "file:line:col" of its table
  base::TomlTable* table;  // valid while the kind's parse runs
};

// One port a source made.
struct MadePort {
  std::string name;  // the exported `port` label
  std::string node;  // the switch or HCA it sits in (ib), else ""
  std::string cage;  // form factor when the source knows it ("" otherwise)
  std::unique_ptr<Transport> transport;
  bool discovered = false;  // found by the source, not listed in the config
};

// What a source made: its ports, what must outlive their transports (an emulated fleet, an IB
// subnet's clock and channels), and what discovery looked at (logged, and served at /status).
struct SourceBuild {
  std::vector<MadePort> ports;
  std::vector<std::shared_ptr<void>> keep_alive;
  std::vector<std::string> notes;
};

// What a source's build gets from the daemon.
struct BuildContext {
  std::string location;  // "file:line:col" of the [[source]] table: every error names it
  // What the config's listed ports claim, across every source: names and devices
  // ("netdev:eth0", "path:/sys/…"). Discovery leaves them to the listed port.
  const std::set<std::string>* claimed = nullptr;
  std::function<void(const std::string&)> warn;  // logged at warning level
  std::function<void(const std::string&)> info;
};

// A configured source of one type: what its [[source]] table said, parsed.
class SourceSettings {
 public:
  virtual ~SourceSettings() = default;
  // Makes the source's ports (devices may be opened lazily by their transports: a missing bus
  // is a port that shows absent, not a refusal). The error names ctx.location.
  virtual std::optional<std::string> build(const BuildContext& ctx, SourceBuild& out) const = 0;
  // What besides the source's TOML text decides whether a running source can be kept on a
  // reload: the bytes of the files it reads once, what its discovery would find now.
  virtual std::string fingerprint() const { return {}; }
  // The devices its listed ports name ("netdev:eth0", "path:/dev/i2c-3"), for claimed.
  virtual std::vector<std::string> claims() const { return {}; }
  // Whether it finds ports itself now (`discover`): it may then list none.
  virtual bool discovers() const { return false; }
  // Whether its kind's watch (SourceKind::watch) should run while it does: it finds its ports
  // itself, and what it finds can change while it runs (a netdev appearing or going).
  virtual bool watches() const { return false; }
  // Whether the ports it finds vary (a fabric, a shard): a [[source.module]] naming none of them
  // is then a warning, not a refusal.
  virtual bool ports_vary() const { return false; }
};

// A flag of xcvrctl's show and verify that selects, or tunes, a source of this kind.
struct CliOption {
  std::string_view name;  // "i2c" -> --i2c; the first option of a kind is named after its type
  std::string_view help;
  bool is_flag = false;   // a switch without a value
  std::string_view alias = {};  // an older name still accepted ("netdev" -> --netdev)
};

// The values given to a kind's flags ("address" -> "0x51"; a switch given -> "true").
using CliValues = std::map<std::string, std::string, std::less<>>;

struct DiscoverReport;  // drivers/discover_report.hpp

// Tells the daemon when what a kind's discovery finds may have changed (netlink: netdevs that
// appear, go or are renamed), so it builds the sources again. SourceKind::watch makes one.
class DiscoveryWatch {
 public:
  virtual ~DiscoveryWatch() = default;
  // What it watches, for the log: "<what> changed, discovering again; <seen()>".
  virtual std::string_view what() const = 0;
  // True once per change since the last true. `now`: monotonic seconds.
  virtual bool changed(double now) = 0;
  virtual std::string seen() const = 0;
  // Why it is not told of changes and compares on every call instead; "" when it is.
  virtual const std::string& error() const = 0;
};

struct OpenedModule {
  std::unique_ptr<Transport> transport;
  std::string label;  // what was opened, for the report header
};

struct SourceKind {
  std::string_view type;        // the config's `type`, and xcvrctl's first flag of the kind
  std::string_view port_table;  // "port": [[source.port]]; "module": [[source.module]]
  // true: listed ports name devices (at least one, unless the source discovers). false: the
  // source finds its own ports and a listed entry carries only service settings.
  bool lists_devices = true;
  bool can_discover = false;  // has `discover`, `include`, `exclude` (drivers::Discovery)
  // Reads the type's keys of the [[source]] table and of each listed port; throws
  // base::TomlInvalid at the offending key. Relative paths resolve against `config_dir`.
  std::unique_ptr<const SourceSettings> (*parse)(base::TomlTable& source, std::span<const ListedPort> ports,
                                                 const std::string& config_dir) = nullptr;
  // xcvrctl: options[0] names the source (its value is the device); the rest tune it.
  std::span<const CliOption> options;
  std::variant<OpenedModule, Error> (*open)(const CliValues& values) = nullptr;
  // xcvrctl discover: the options that say where to look (a value is given only when the
  // option is), and what the kind finds on this host: an error naming the option, or nullopt
  // with `out` filled. nullptr: the kind finds nothing by itself (a fleet, a dump file).
  std::span<const CliOption> discover_options = {};
  std::optional<std::string> (*discover)(const CliValues& values, DiscoverReport& out) = nullptr;
  // The daemon's watch while a source of the kind watches (SourceSettings::watches); nullptr:
  // what the kind finds does not change while it runs.
  std::unique_ptr<DiscoveryWatch> (*watch)() = nullptr;
  // Who may open this kind's devices, for the hint after a Permission error.
  std::string_view access = "run as root";
};

// Every registered kind, in the registry's order; the kind of a type, or nullptr.
std::span<const SourceKind* const> source_kinds();
const SourceKind* source_kind(std::string_view type);
std::string source_type_list();  // "emulator, file, i2c, ..." for messages

// A source's claims (SourceSettings::claims): `prefix` + the device each listed port names.
template <typename Port, typename Device>
std::vector<std::string> claims_of(const std::vector<Port>& ports, std::string_view prefix, Device device) {
  std::vector<std::string> out;
  for (const Port& p : ports) out.push_back(std::string(prefix) + device(p));
  return out;
}

// The one hint printed under a read or open error ("(no module in the cage?)"), or "".
std::string error_hint(const SourceKind& kind, const Error& e, bool opening);

// "path <hash>:<size>" (or "path unreadable <why>") of a file a source reads once, for its
// fingerprint: an edited fleet or dump file rebuilds its source on a reload.
std::string file_fingerprint(const std::string& path, base::InputKind kind);

// A path from the config: relative ones resolve against the config file's directory.
std::string resolve_path(const std::string& config_dir, const std::string& path);

// The settings of a source that finds its own ports (netlink, optoe): `discover` (default: when
// no port is listed), `include` / `exclude` regexes over the names it would give.
struct Discovery {
  bool discover = false;
  std::string include;  // ECMAScript regex a found port's name must match ("" = every one)
  std::string exclude;  // regex of names to leave out
  static Discovery read(base::TomlTable& source, bool ports_listed);
  bool selects(const std::string& name) const;
};

// A port a discovering source found, before the listed ports and include/exclude have a say.
struct FoundPort {
  std::string name;   // the port name it would get
  std::string claim;  // the key a listed port claims it by ("netdev:eth0", "path:/sys/...")
  std::function<std::unique_ptr<Transport>()> transport;
};

// Adds each found port that no listed port claims and that the discovery selects, and notes
// what discovery looked at and found; when nothing, `hint` says what to do.
struct FoundReport {
  std::string what;       // "netlink"
  std::string none;       // "no netdev with a module interface"
  std::string looked_at;  // "physical netdevs looked at: 3"
  std::string hint;
};
void add_found(const Discovery& d, const BuildContext& ctx, const std::vector<FoundPort>& found,
               const FoundReport& report, SourceBuild& out);

}  // namespace xcvr::drivers
