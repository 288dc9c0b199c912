#include "drivers/i2c/i2c_source.hpp"

#include "drivers/discover_report.hpp"

namespace xcvr::i2c {

std::optional<std::string> I2cSource::build(const drivers::BuildContext&, drivers::SourceBuild& out) const {
  for (const I2cPortConfig& c : ports) out.ports.push_back({c.port, "", "", std::make_unique<I2cDevTransport>(c)});
  return std::nullopt;
}

std::vector<std::string> I2cSource::claims() const {
  return drivers::claims_of(ports, "path:", [](const I2cPortConfig& p) { return p.device; });
}

namespace {

// A 7-bit address other than the reserved ones (0x00-0x02, 0x78-0x7F).
constexpr int64_t kFirstAddress = 0x03, kLastAddress = 0x77;

std::unique_ptr<const drivers::SourceSettings> parse(base::TomlTable&, std::span<const drivers::ListedPort> listed,
                                                     const std::string& config_dir) {
  auto s = std::make_unique<I2cSource>();
  for (const drivers::ListedPort& p : listed) {
    base::TomlTable& t = *p.table;
    I2cPortConfig c;
    c.port = p.name;
    c.device = drivers::resolve_path(config_dir, t.str("bus").value_or(""));
    if (c.device.empty()) base::toml_fail(t.raw(), t.name() + ": '" + p.name + "' needs bus");
    c.address = static_cast<uint8_t>(t.integer("address", kFirstAddress, kLastAddress).value_or(c.address));
    c.presence_file = t.str("presence_file").value_or("");
    c.presence_active_low = t.boolean("presence_active_low").value_or(false);
    c.domain = t.str("domain").value_or("");
    c.restore_page0 = t.boolean("restore_page0").value_or(c.restore_page0);
    c.lock_timeout_ms = static_cast<uint32_t>(t.integer("lock_timeout_ms", 0, 60000).value_or(c.lock_timeout_ms));
    s->ports.push_back(std::move(c));
  }
  return s;
}

constexpr drivers::CliOption kOptions[] = {
    {"i2c", "i2c-dev bus device of the cage, e.g. /dev/i2c-7 (takes the daemon's bus lock)"},
    {"address", "module I2C address with --i2c (default 0x50)"},
};

std::variant<drivers::OpenedModule, drivers::Error> open(const drivers::CliValues& v) {
  I2cPortConfig cfg;
  cfg.device = cfg.port = v.at("i2c");
  if (auto a = v.find("address"); a != v.end()) {
    std::size_t used = 0;
    unsigned long address = 0;
    try {
      address = std::stoul(a->second, &used, 0);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != a->second.size() || address < kFirstAddress || address > kLastAddress) {
      return drivers::Error{drivers::ErrorKind::Unsupported, "--address " + a->second + " is not a 7-bit I2C address"};
    }
    cfg.address = static_cast<uint8_t>(address);
  }
  auto t = std::make_unique<I2cDevTransport>(cfg);
  if (auto e = t->open()) return *e;  // the clearest message for a missing node or an owned address
  std::string label = t->describe() + " via " + std::string(i2c_method_name(t->method()));
  return drivers::OpenedModule{std::move(t), std::move(label)};
}

// Probing an arbitrary bus can upset what sits on it (a write-on-read device, a mux), so i2c
// finds nothing by itself and says so.
std::optional<std::string> discover(const drivers::CliValues&, drivers::DiscoverReport& out) {
  out.text = "i2c: never probed (unsafe on arbitrary buses); `i2cdetect -l` lists the adapters\n";
  return std::nullopt;
}

}  // namespace

const drivers::SourceKind kI2cSource{
    .type = "i2c", .port_table = "port", .lists_devices = true, .parse = parse, .options = kOptions, .open = open,
    .discover = discover,
    .access = "run as root, or as a member of the i2c group"};

}  // namespace xcvr::i2c
