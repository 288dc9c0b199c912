// Config validation: good configs load; each malformed config fails with the right location.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

#include "daemon/config.hpp"
#include "dumpfile/file_source.hpp"
#include "emulator/emulator_source.hpp"
#include "drivers/netlink/netlink_source.hpp"
#include "drivers/i2c/i2c_source.hpp"
#include "drivers/ib/ib_source.hpp"
#include "drivers/optoe/optoe_source.hpp"
#include "base/spelling.hpp"
#include "base/toml_input.hpp"

namespace xcvr::daemon {
namespace {

Config load_ok(const std::string& text) {
  auto r = parse_config(text, "/etc/t/config.toml");
  if (auto* e = std::get_if<ConfigError>(&r)) {
    ADD_FAILURE() << e->to_string();
    return {};
  }
  return std::get<Config>(r);
}

TEST(Config, DefaultsFromAnEmptyFile) {
  const Config c = load_ok("");
  EXPECT_EQ(c.web.listen_addresses, std::vector<std::string>{":10458"});
  EXPECT_EQ(c.poll.dynamic_interval_s, 5);
  EXPECT_EQ(c.poll.settle_delay_s, 2);
  EXPECT_EQ(c.state_directory, "/var/lib/transceiver-exporter");
  EXPECT_FALSE(c.catalog_set);  // the shipped catalog and the site directory, where present
  EXPECT_EQ(c.oui_registry, "/usr/share/ieee-data");
  EXPECT_TRUE(c.cage_styles.empty());
}

TEST(Config, CodingKeys) {
  Config c = load_ok("[daemon]\ncatalog = \"cat\"\noui_registry = \"ieee/oui.csv\"\n"
                     "[[cage_style]]\nports = \"q2-*\"\nstyle = \"IHS\"\n[[cage_style]]\nstyle = \"flat-top\"\n");
  EXPECT_TRUE(c.catalog_set);
  EXPECT_EQ(c.catalog, std::vector<std::string>{"/etc/t/cat"});  // relative to the config file
  EXPECT_EQ(c.oui_registry, "/etc/t/ieee/oui.csv");
  ASSERT_EQ(c.cage_styles.size(), 2u);
  EXPECT_EQ(c.cage_styles[0].ports, "q2-*");
  EXPECT_EQ(c.cage_styles[0].style, "finned-top");  // aliases normalized
  EXPECT_EQ(c.cage_styles[1].ports, "*");
  c = load_ok("[daemon]\ncatalog = [\"/usr/share/x\", \"site\"]\n");
  EXPECT_EQ(c.catalog, (std::vector<std::string>{"/usr/share/x", "/etc/t/site"}));
  c = load_ok("[daemon]\ncatalog = []\n");  // explicitly none
  EXPECT_TRUE(c.catalog_set);
  EXPECT_TRUE(c.catalog.empty());
}

TEST(Config, FullExample) {
  const Config c = load_ok(R"(
[daemon]
state_directory = "/tmp/x"
log_level = "debug"
[poll]
dynamic_interval = "2s"
thermal_interval = "500ms"
vdm_interval = 30
settle_delay = "1.5s"
stale_after_intervals = 4
[web]
listen_addresses = [":10458", "[::1]:10459"]
[web.basic_auth_users]
ops = "$2y$10$abcdefghijklmnopqrstuuNjVUYHJbX/1pNpi4NnAi0fzZiAGj6gO"
[[source]]
type = "emulator"
fleet = "fleet.toml"
clock = "wallclock"
scenarios = ["scen/a.toml"]
[[source]]
type = "file"
[[source.port]]
name = "dump1"
path = "dumps/a.txt"
cage = "QSFP-DD"
[[budget]]
group = "spine"
ports = "spine1/*"
per_port_watts = 5
total_watts = 320
)");
  EXPECT_EQ(c.poll.dynamic_interval_s, 2);
  EXPECT_DOUBLE_EQ(c.poll.thermal_interval_s, 0.5);
  EXPECT_EQ(c.poll.vdm_interval_s, 30);
  EXPECT_EQ(c.poll.stale_after_intervals, 4);
  ASSERT_EQ(c.sources.size(), 2u);
  const auto& emulated = c.sources[0].as<emulator::EmulatorSource>();
  EXPECT_EQ(emulated.fleet, "/etc/t/fleet.toml");  // relative to the config file
  EXPECT_EQ(emulated.clock, emulator::ClockMode::Wallclock);
  EXPECT_EQ(emulated.scenarios, std::vector<std::string>{"/etc/t/scen/a.toml"});
  EXPECT_EQ(c.sources[1].as<dumpfile::FileSource>().ports.at(0).path, "/etc/t/dumps/a.txt");
  EXPECT_EQ(c.sources[1].ports.at(0).cage, "QSFP-DD");
  EXPECT_EQ(c.budgets[0].total_watts, 320);
  EXPECT_EQ(c.web.basic_auth_users.at("ops").substr(0, 4), "$2y$");
}

struct Bad {
  const char* name;
  const char* text;
  int line;
  int column;
  const char* message_part;
};

const std::string kTooLongPattern = "[[source]]\ntype = \"optoe\"\nexclude = \"" + std::string(201, '(') + "\"\n";

class BadConfig : public ::testing::TestWithParam<Bad> {};

TEST_P(BadConfig, FailsAtTheRightPlace) {
  const Bad& b = GetParam();
  auto r = parse_config(b.text, "cfg.toml");
  ASSERT_TRUE(std::holds_alternative<ConfigError>(r)) << b.name << " was accepted";
  const ConfigError& e = std::get<ConfigError>(r);
  EXPECT_EQ(e.file, "cfg.toml");
  EXPECT_EQ(e.line, b.line) << e.to_string();
  EXPECT_EQ(e.column, b.column) << e.to_string();
  EXPECT_NE(e.message.find(b.message_part), std::string::npos) << e.to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Table, BadConfig,
    ::testing::Values(
        Bad{"syntax", "[poll\n", 1, 6, ""},
        Bad{"unknown_top_key", "\n\nbogus = 1\n", 3, 1, "unknown key 'bogus'"},
        Bad{"unknown_poll_key", "[poll]\ndynamic_interval = 5\nintervall = 3\n", 3, 1, "unknown key 'intervall' in poll"},
        Bad{"misspelt_poll_key", "[poll]\ndynamic_intervall = 5\n", 2, 1,
            "unknown key 'dynamic_intervall' in poll (did you mean 'dynamic_interval'?)"},
        Bad{"interval_wrong_type", "[poll]\ndynamic_interval = true\n", 2, 20, "expected a duration"},
        Bad{"interval_bad_unit", "[poll]\ndynamic_interval = \"5 parsecs\"\n", 2, 20, "expected a duration"},
        Bad{"interval_zero", "[poll]\ndynamic_interval = 0\n", 2, 20, "must be between"},
        Bad{"interval_negative", "[poll]\ndynamic_interval = -1\n", 2, 20, "expected a duration"},
        Bad{"thermal_slower_than_dynamic", "[poll]\ndynamic_interval = 1\nthermal_interval = 2\n", 1, 1, "thermal_interval"},
        Bad{"stale_not_integer", "[poll]\nstale_after_intervals = 2.5\n", 2, 25, "expected an integer"},
        Bad{"stale_out_of_range", "[poll]\nstale_after_intervals = 0\n", 2, 25, "between 1 and 1000"},
        Bad{"poll_not_table", "poll = 5\n", 1, 8, "expected a table"},
        Bad{"listen_empty", "[web]\nlisten_addresses = []\n", 1, 1, "must not be empty"},
        Bad{"listen_not_strings", "[web]\nlisten_addresses = [10458]\n", 2, 21, "array of strings"},
        Bad{"tls_half", "[web]\ntls_cert_file = \"/c.pem\"\n", 1, 1, "go together"},
        Bad{"auth_not_bcrypt", "[web.basic_auth_users]\nops = \"plaintext\"\n", 2, 7, "not a bcrypt hash"},
        Bad{"netlink_bad_regex", "[[source]]\ntype = \"netlink\"\ninclude = \"ens(\"\n", 3, 11,
            "source[0].include: not a regular expression"},
        Bad{"discovery_regex_too_long", kTooLongPattern.c_str(), 3, 11,
            "source[0].exclude: longer than 200 characters"},
        Bad{"optoe_drivers_not_names", "[[source]]\ntype = \"optoe\"\ndrivers = [\"optoe1\", \"at 24\"]\n", 3, 11,
            "source[0].drivers: i2c driver names"},
        Bad{"netlink_has_no_drivers", "[[source]]\ntype = \"netlink\"\ndrivers = [\"optoe1\"]\n", 3, 1,
            "unknown key 'drivers'"},
        Bad{"netlink_nothing_to_read", "[[source]]\ntype = \"netlink\"\ndiscover = false\n", 1, 1,
            "needs at least one [[source.port]] (or discover = true)"},
        Bad{"log_level", "[daemon]\nlog_level = \"loud\"\n", 1, 1, "'loud' is not a log level (trace, debug, info, warn, error, critical, off)"},
        Bad{"source_not_array", "[source]\ntype = \"file\"\n", 1, 1, "array of tables"},
        Bad{"source_no_type", "[[source]]\nfleet = \"x\"\n", 1, 1, "missing 'type'"},
        Bad{"source_bad_type", "[[source]]\ntype = \"carrier-pigeon\"\n", 2, 8, "is not one of"},
        Bad{"emulator_no_fleet", "[[source]]\ntype = \"emulator\"\n", 1, 1, "needs 'fleet'"},
        Bad{"file_no_ports", "[[source]]\ntype = \"file\"\n", 1, 1, "at least one"},
        Bad{"port_no_name", "[[source]]\ntype = \"file\"\n[[source.port]]\npath = \"a\"\n", 3, 1, "needs a name"},
        Bad{"port_name_space", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a b\"\npath = \"a\"\n", 3, 1, "printable ASCII"},
        Bad{"port_name_escape", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\\u001b]0;x\\u0007\"\npath = \"a\"\n", 3, 1,
            "port name 'a\\x1b]0;x\\x07' must be"},
        Bad{"port_name_dots", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"..\"\npath = \"a\"\n", 3, 1, "not \".\" or \"..\""},
        Bad{"port_no_path", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\n", 3, 1, "needs path"},
        Bad{"port_unknown_key", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"p\"\ncolour = \"red\"\n", 6, 1, "unknown key 'colour'"},
        Bad{"duplicate_port", "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"p\"\n[[source.port]]\nname = \"a\"\npath = \"q\"\n", 1, 1, "defined twice"},
        Bad{"budget_no_group", "[[budget]]\nper_port_watts = 5\n", 1, 1, "missing 'group'"},
        Bad{"budget_no_numbers", "[[budget]]\ngroup = \"g\"\n", 1, 1, "per_port_watts, total_watts"},
        Bad{"budget_absurd", "[[budget]]\ngroup = \"g\"\nper_port_watts = 500\n", 1, 1, "0-100 W"},
        Bad{"budget_wrong_type", "[[budget]]\ngroup = \"g\"\ntotal_watts = \"lots\"\n", 3, 15, "expected a number"},
        Bad{"catalog_wrong_type", "[daemon]\ncatalog = 5\n", 2, 11, "daemon.catalog: expected a path or an array"},
        Bad{"catalog_empty_path", "[daemon]\ncatalog = [\"a\", \"\"]\n", 2, 11, "daemon.catalog: an empty path"},
        Bad{"cage_style_no_style", "[[cage_style]]\nports = \"q2-*\"\n", 1, 1, "cage_style[0]: missing 'style'"},
        Bad{"cage_style_unknown", "[[cage_style]]\nports = \"q2-*\"\nstyle = \"round-top\"\n", 3, 9, "expected \"flat-top\""},
        Bad{"max_request_tiny", "[web]\nmax_request_bytes = 10\n", 1, 1, "between 1024"},
        Bad{"max_connections", "[web]\nmax_connections = 0\n", 2, 19, "between 1 and 4096"},
        // type = "ib": drivers/ib/ib_settings.hpp keys; ib::validate's findings point at their key.
        Bad{"ib_shard", "[[source]]\ntype = \"ib\"\nshard = \"3/2\"\n", 3, 9, "source[0].shard: '3/2' is not k/n"},
        Bad{"ib_shard_zero", "[[source]]\ntype = \"ib\"\nshard = \"0/4\"\n", 3, 9, "is not k/n"},
        Bad{"ib_port_range", "[[source]]\ntype = \"ib\"\nport = 0\n", 3, 8, "source[0].port: must be between 1 and 255"},
        Bad{"ib_access", "[[source]]\ntype = \"ib\"\naccess = \"fast\"\n", 3, 10, "access: 'fast' is not auto"},
        Bad{"ib_mcia_bytes", "[[source]]\ntype = \"ib\"\nmcia_bytes = 64\n", 3, 14, "mcia_bytes: must be 48 or 128"},
        Bad{"ib_no_targets", "[[source]]\ntype = \"ib\"\nlocal = false\n", 1, 1, "source[0]: no targets"},
        Bad{"ib_local_not_bool", "[[source]]\ntype = \"ib\"\nlocal = \"yes\"\n", 3, 9, "expected true or false"},
        Bad{"ib_timeout_zero", "[[source]]\ntype = \"ib\"\ntimeout = 0\n", 3, 11, "must be between"},
        Bad{"ib_rate_negative", "[[source]]\ntype = \"ib\"\nrate_limit = -1\n", 3, 14, "rate_limit: must be between 0 and 1e+06"},
        Bad{"ib_rate_inf", "[[source]]\ntype = \"ib\"\nrate_limit = inf\n", 3, 14, "rate_limit: must be between 0 and 1e+06"},
        Bad{"ib_burst_zero", "[[source]]\ntype = \"ib\"\nburst = 0\n", 3, 9, "burst: must be between 1 and 1e+06"},
        Bad{"ib_backoff_over_max", "[[source]]\ntype = \"ib\"\nbackoff = \"2s\"\nbackoff_max = \"1s\"\n", 3, 11,
            "backoff: must be >= 0 and <= backoff_max"},
        Bad{"ib_max_outstanding", "[[source]]\ntype = \"ib\"\nmax_outstanding = 0\n", 3, 19, "between 1 and 16"},
        Bad{"ib_vs_key_garbage", "[[source]]\ntype = \"ib\"\nvs_key = \"0xZZ\"\n", 3, 10, "expected a 64-bit value"},
        Bad{"ib_unknown_key", "[[source]]\ntype = \"ib\"\ncolour = 1\n", 3, 1, "unknown key 'colour' in source[0]"},
        Bad{"ib_port_table", "[[source]]\ntype = \"ib\"\n[[source.port]]\nname = \"a\"\n", 3, 1, "source[0].port: expected an integer"},
        Bad{"ib_target_empty", "[[source]]\ntype = \"ib\"\n[[source.target]]\nname = \"x\"\n", 3, 1,
            "source[0].target[0]: needs lid, guid or both"},
        Bad{"ib_target_multicast_lid", "[[source]]\ntype = \"ib\"\n[[source.target]]\nlid = 49152\n", 4, 7,
            "target[0].lid: must be between 1 and 49151"},
        Bad{"ib_target_guid_negative", "[[source]]\ntype = \"ib\"\n[[source.target]]\nguid = -5\n", 4, 8,
            "target[0].guid: expected a 64-bit value"},
        Bad{"ib_target_cage_range", "[[source]]\ntype = \"ib\"\n[[source.target]]\nlid = 5\ncages = [1, 257]\n", 5, 13,
            "cages: expected front-panel cage numbers 1-256"},
        Bad{"ib_target_cage_zero", "[[source]]\ntype = \"ib\"\n[[source.target]]\nlid = 5\ncages = [0]\n", 5, 10,
            "cages: expected front-panel cage numbers 1-256"},
        Bad{"ib_target_modules_renamed", "[[source]]\ntype = \"ib\"\n[[source.target]]\nlid = 5\nmodules = [0]\n", 5, 11,
            "modules: is now `cages`: front-panel cage numbers 1-256 (MCIA module + 1)"},
        Bad{"ib_target_unknown_key", "[[source]]\ntype = \"ib\"\n[[source.target]]\nlid = 5\nport = 3\n", 5, 1,
            "unknown key 'port' in source[0].target[0]"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Config, InfinibandSource) {
  const Config c = load_ok(R"(
[[source]]
type = "ib"
ca = "mlx5_1"
port = 2
local = false
discover = true
shard = "2/4"
rate_limit = 1500
burst = 16
max_outstanding = 4
timeout = "250ms"
retries = 3
backoff = "10ms"
backoff_max = "2s"
busy_retries = 5
dead_after = 4
probe_interval = "1m"
access = "gmp"
mcia_bytes = 48
vs_key = "0xfedcba9876543210"
m_key = 42
[[source.target]]
lid = 17
name = "spine-a"
cages = [1, 32]
[[source.target]]
guid = "0xe41d2d0300a1b2c3"
)");
  ASSERT_EQ(c.sources.size(), 1u);
  const ib::IbSourceSettings& s = c.sources[0].as<ib::IbSourceConfig>().ib;
  EXPECT_EQ(s.ca, "mlx5_1");
  EXPECT_EQ(s.port, 2);
  EXPECT_FALSE(s.local);
  EXPECT_TRUE(s.discover);
  EXPECT_EQ(s.shard, "2/4");
  EXPECT_EQ(s.rate_limit, 1500);
  EXPECT_EQ(s.burst, 16);
  EXPECT_EQ(s.max_outstanding, 4);
  EXPECT_DOUBLE_EQ(s.timeout_s, 0.25);
  EXPECT_EQ(s.retries, 3);
  EXPECT_DOUBLE_EQ(s.backoff_s, 0.01);
  EXPECT_EQ(s.backoff_max_s, 2);
  EXPECT_EQ(s.busy_retries, 5);
  EXPECT_EQ(s.dead_after, 4);
  EXPECT_EQ(s.probe_interval_s, 60);
  EXPECT_EQ(s.access, "gmp");
  EXPECT_EQ(s.mcia_bytes, 48);
  EXPECT_EQ(s.vs_key, 0xfedcba9876543210ULL);
  EXPECT_EQ(s.m_key, 42u);
  ASSERT_EQ(s.targets.size(), 2u);
  EXPECT_EQ(s.targets[0].lid, 17);
  EXPECT_EQ(s.targets[0].name, "spine-a");
  EXPECT_EQ(s.targets[0].modules, (std::vector<int>{0, 31}));
  EXPECT_EQ(s.targets[1].guid, 0xe41d2d0300a1b2c3ULL);
  EXPECT_TRUE(c.sources[0].ports.empty());
  // Defaults: the local HCA's modules from the first active port.
  const ib::IbSourceSettings d = load_ok("[[source]]\ntype = \"ib\"\n").sources.at(0).as<ib::IbSourceConfig>().ib;
  EXPECT_EQ(d.ca, "");
  EXPECT_EQ(d.port, 1);
  EXPECT_TRUE(d.local);
  EXPECT_FALSE(d.discover);
  EXPECT_EQ(d.max_outstanding, 2);
  EXPECT_DOUBLE_EQ(d.timeout_s, 0.1);
}

TEST(Config, Durations) {
  EXPECT_EQ(base::parse_duration("500ms"), 0.5);
  EXPECT_EQ(base::parse_duration("5s"), 5);
  EXPECT_EQ(base::parse_duration("2m"), 120);
  EXPECT_EQ(base::parse_duration("1h"), 3600);
  EXPECT_EQ(base::parse_duration("7"), 7);
  EXPECT_FALSE(base::parse_duration("s"));
  EXPECT_FALSE(base::parse_duration("5 s"));
  EXPECT_FALSE(base::parse_duration("5d"));
  EXPECT_FALSE(base::parse_duration(""));
  // The same grammar as the emulator's fault timelines: ns and us too.
  EXPECT_DOUBLE_EQ(base::parse_duration("250us").value_or(-1), 250e-6);
  EXPECT_DOUBLE_EQ(base::parse_duration("40ns").value_or(-1), 40e-9);
  EXPECT_FALSE(base::parse_duration("."));
}

TEST(Config, NetlinkDiscovery) {
  const auto netlink = [](const Config& c) -> const netlink::NetlinkSource& { return c.sources.at(0).as<netlink::NetlinkSource>(); };
  const auto optoe = [](const Config& c) -> const optoe::OptoeSource& { return c.sources.at(0).as<optoe::OptoeSource>(); };
  const Config shipped = load_ok("[[source]]\ntype = \"netlink\"\n");
  ASSERT_EQ(shipped.sources.size(), 1u);
  EXPECT_TRUE(netlink(shipped).discovery.discover) << "no ports listed: the source finds them";
  EXPECT_TRUE(shipped.sources[0].settings->watches());
  const Config listed = load_ok("[[source]]\ntype = \"netlink\"\n[[source.port]]\nname = \"gpu0\"\n");
  EXPECT_FALSE(netlink(listed).discovery.discover) << "ports listed: only those, unless asked";
  EXPECT_EQ(netlink(listed).ports.at(0).netdev, "gpu0") << "netdev defaults to the port name";
  const Config both = load_ok(
      "[[source]]\ntype = \"netlink\"\ndiscover = true\ninclude = \"^ens\"\nexclude = \"^ens(9|10)np\"\n"
      "[[source.port]]\nname = \"gpu0\"\n");
  const drivers::Discovery& s = netlink(both).discovery;
  EXPECT_TRUE(s.discover);
  EXPECT_TRUE(s.selects("ens1f0np0"));
  EXPECT_FALSE(s.selects("ens9np0"));
  EXPECT_FALSE(s.selects("eth0"));
  EXPECT_TRUE(drivers::Discovery{}.selects("eth0")) << "no include: every netdev";
  EXPECT_TRUE(optoe(load_ok("[[source]]\ntype = \"optoe\"\nexclude = \"^module\"\n")).discovery.discover)
      << "optoe finds its devices the same way";
  EXPECT_TRUE(optoe(load_ok("[[source]]\ntype = \"optoe\"\n")).drivers.empty()) << "optoe's own";
  EXPECT_EQ(optoe(load_ok("[[source]]\ntype = \"optoe\"\ndrivers = [\"sff8436\", \"24c02\"]\n")).drivers,
            (std::vector<std::string>{"sff8436", "24c02"}));
  EXPECT_EQ(optoe(load_ok("[[source]]\ntype = \"optoe\"\nsonic_port_map = \"none\"\n")).sonic_port_map, "none");
  EXPECT_EQ(optoe(load_ok("[[source]]\ntype = \"optoe\"\n")).sonic_port_map, "") << "SONiC's own places";
  EXPECT_FALSE(load_ok("[[source]]\ntype = \"i2c\"\n[[source.port]]\nname = \"c\"\nbus = \"/dev/i2c-1\"\n")
                   .sources[0].settings->discovers())
      << "i2c stays explicit: probing arbitrary buses is unsafe";
  EXPECT_FALSE(load_ok("[[source]]\ntype = \"i2c\"\n[[source.port]]\nname = \"c\"\nbus = \"/dev/i2c-1\"\n")
                   .sources[0].settings->watches());
}

TEST(Config, Glob) {
  EXPECT_TRUE(glob_match("spine1/*", "spine1/port12"));
  EXPECT_FALSE(glob_match("spine1/*", "spine2/port12"));
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_TRUE(glob_match("p?rt*", "port7"));
  EXPECT_FALSE(glob_match("p?rt", "port7"));
}

TEST(Config, MissingFileIsAnError) {
  auto r = load_config_file("/nonexistent/config.toml");
  ASSERT_TRUE(std::holds_alternative<ConfigError>(r));
  EXPECT_NE(std::get<ConfigError>(r).message.find("cannot open"), std::string::npos);
}

// ---- ports and lanes out of service -----------------------------------------------------------

TEST(Config, PortsAndLanesOutOfService) {
  const Config c = load_ok(
      "[[source]]\ntype = \"i2c\"\n"
      "[[source.port]]\nname = \"E0\"\ncage = \"OSFP\"\nbus = \"/dev/i2c-1\"\nunused_lanes = [8, 5, \"6-7\"]\n"
      "[[source.port]]\nname = \"E1\"\nbus = \"/dev/i2c-2\"\nin_service = false\n"
      "[[source.port]]\nname = \"E2\"\ncage = \"QSFP28\"\nbus = \"/dev/i2c-3\"\nunused_lanes = \"3-4\"\n"
      "[[source.port]]\nname = \"E3\"\nbus = \"/dev/i2c-4\"\nunused_lanes = [\"2\"]\n"
      "[[source]]\ntype = \"emulator\"\nfleet = \"f.toml\"\n[[source.port]]\nname = \"q2/port1\"\nunused_lanes = \"5-8\"\n"
      "[[source]]\ntype = \"ib\"\n[[source.module]]\nname = \"leaf-3/12\"\nin_service = false\n");
  ASSERT_EQ(c.sources.size(), 3u);
  const auto& p = c.sources[0].ports;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TRUE(p[0].service.in_service);
  EXPECT_EQ(p[0].service.unused_lanes, (std::vector<int>{5, 6, 7, 8}));  // sorted
  EXPECT_FALSE(p[1].service.in_service);
  EXPECT_TRUE(p[1].service.unused_lanes.empty());
  EXPECT_EQ(p[2].service.unused_lanes, (std::vector<int>{3, 4}));
  EXPECT_EQ(p[3].service.unused_lanes, (std::vector<int>{2}));
  EXPECT_EQ(c.sources[1].ports.at(0).service.unused_lanes, (std::vector<int>{5, 6, 7, 8}));
  EXPECT_EQ(c.sources[2].ports.at(0).name, "leaf-3/12");
  EXPECT_FALSE(c.sources[2].ports.at(0).service.in_service);
  EXPECT_EQ(c.sources[2].as<ib::IbSourceConfig>().ib.port, 1);  // `port` stays the CA port
}

TEST(Config, LanesPerCage) {
  EXPECT_EQ(lanes_for_cage("OSFP"), 8);
  EXPECT_EQ(lanes_for_cage("QSFP-DD"), 8);
  EXPECT_EQ(lanes_for_cage(""), 8);
  EXPECT_EQ(lanes_for_cage("qsfp28"), 4);
  EXPECT_EQ(lanes_for_cage("QSFP112"), 4);
  EXPECT_EQ(lanes_for_cage("SFP28"), 1);
  EXPECT_EQ(lanes_for_cage("SFP-DD"), 2);
  EXPECT_EQ(lanes_for_cage("OSFP-XD"), 16);
  EXPECT_EQ(find_cage_kind("QSFPDD"), nullptr);  // refused when read, never a 4-lane QSFP
  ASSERT_NE(find_cage_kind("qsfp-dd"), nullptr);
  EXPECT_EQ(find_cage_kind("qsfp-dd")->name, "QSFP-DD");
}

// One run names every broken table: here [poll], the second [[source]]'s port and an unknown
// top-level key, each at its own file:line:col, the first as the error's place.
TEST(Config, EveryBrokenTableIsReportedInOneRun) {
  const auto r = parse_config("[poll]\ndynamic_interval = \"fast\"\n"
                              "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"p\"\n"
                              "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"b\"\npath = \"q\"\ncage = \"QSFPDD\"\n"
                              "[budgets]\n",
                              "c.toml");
  const auto* e = std::get_if<ConfigError>(&r);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->line, 2);
  const std::string all = e->to_string();
  EXPECT_NE(all.find("c.toml:2:"), std::string::npos) << all;
  EXPECT_NE(all.find("\nc.toml:13:8: source[1].port[0].cage: 'QSFPDD' is not a cage kind"), std::string::npos) << all;
  EXPECT_NE(all.find("unknown key 'budgets' in config (did you mean 'budget'?)"), std::string::npos) << all;
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 2) << all;
}

// docs/configuration.md's "Cage kinds" table lists every kind the config takes, at its lanes.
TEST(Config, CageKindsAreDocumented) {
  std::ifstream in(std::string(XCVR_TEST_DATA) + "/../../docs/configuration.md");
  ASSERT_TRUE(in);
  std::map<std::string, int> documented;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "### Cage kinds") in_table = true;
    else if (line.starts_with("### ")) in_table = false;
    if (!in_table || !line.starts_with("| ") || !std::isdigit(static_cast<unsigned char>(line[2]))) continue;
    const int lanes = std::stoi(line.substr(2));
    for (std::size_t at = line.find('`'); at != std::string::npos; at = line.find('`', line.find('`', at + 1) + 1)) {
      documented[line.substr(at + 1, line.find('`', at + 1) - at - 1)] = lanes;
    }
  }
  EXPECT_EQ(documented.size(), std::size(kCageKinds));
  for (const CageKind& k : kCageKinds) EXPECT_EQ(documented[std::string(k.name)], k.lanes) << k.name;
}

TEST(Spelling, NearestWordIsASlipNotAGuess) {
  const std::vector<std::string_view> words = {"dynamic_interval", "thermal_interval", "vdm_interval"};
  EXPECT_EQ(base::nearest("dynamic_intervall", words), "dynamic_interval");
  EXPECT_EQ(base::nearest("dyanmic_interval", words), "dynamic_interval");  // a transposition
  EXPECT_EQ(base::nearest("vdm_intreval", words), "vdm_interval");
  EXPECT_EQ(base::nearest("colour", words), std::nullopt);
  EXPECT_EQ(base::edit_distance("QSFP-DD", "qsfp-dd"), 0u);
  EXPECT_EQ(base::did_you_mean("thermal", words), "");
}

#define FILE_PORT "[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"p\"\n"

INSTANTIATE_TEST_SUITE_P(
    Service, BadConfig,
    ::testing::Values(
        Bad{"lane_past_8", FILE_PORT "unused_lanes = [9]\n", 6, 17, "lanes are 1-8 on a port without a cage type"},
        Bad{"lane_past_cage", FILE_PORT "cage = \"QSFP28\"\nunused_lanes = [3, 5]\n", 7, 20, "lanes are 1-4 on a QSFP28 port"},
        Bad{"lane_zero", FILE_PORT "unused_lanes = [0]\n", 6, 17, "lanes are 1-8"},
        Bad{"cage_unknown", FILE_PORT "cage = \"banana\"\n", 6, 8, "cage: 'banana' is not a cage kind; known: SFP, "},
        Bad{"cage_misspelt", FILE_PORT "cage = \"QSFPDD\"\n", 6, 8,
            "'QSFPDD' is not a cage kind (did you mean 'QSFP-DD'?)"},
        Bad{"lane_negative", FILE_PORT "unused_lanes = [-1]\n", 6, 17, "lanes are 1-8"},
        Bad{"lane_twice", FILE_PORT "unused_lanes = [5, \"4-6\"]\n", 6, 20, "lane 5 listed twice"},
        Bad{"range_reversed", FILE_PORT "unused_lanes = \"8-5\"\n", 6, 16, "expected lane numbers or ranges"},
        Bad{"range_open", FILE_PORT "unused_lanes = \"5-\"\n", 6, 16, "expected lane numbers or ranges"},
        Bad{"range_words", FILE_PORT "unused_lanes = [\"five\"]\n", 6, 17, "expected lane numbers or ranges"},
        Bad{"lane_float", FILE_PORT "unused_lanes = [5.0]\n", 6, 17, "expected lane numbers or ranges"},
        Bad{"in_service_string", FILE_PORT "in_service = \"no\"\n", 6, 14, "in_service: expected true or false"},
        Bad{"lanes_of_a_port_out_of_service", FILE_PORT "in_service = false\nunused_lanes = [5]\n", 7, 16,
            "whole port is out of service"},
        Bad{"emulator_port_with_cage", "[[source]]\ntype = \"emulator\"\nfleet = \"f\"\n[[source.port]]\nname = \"x\"\ncage = \"OSFP\"\n",
            6, 1, "unknown key 'cage' in source[0].port[0]"},
        Bad{"ib_module_lane", "[[source]]\ntype = \"ib\"\n[[source.module]]\nname = \"x/1\"\nunused_lanes = [9]\n", 5, 17,
            "source[0].module[0].unused_lanes: lanes are 1-8"},
        Bad{"ib_module_no_name", "[[source]]\ntype = \"ib\"\n[[source.module]]\nin_service = false\n", 3, 1,
            "every port needs a name"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

#undef FILE_PORT

}  // namespace
}  // namespace xcvr::daemon
