// The source registry (drivers/source_registry.cpp) is the one list of source types: the
// config accepts exactly its types, xcvrctl offers exactly its flags, and every transport setting
// is reachable from TOML through its kind.
#include <gtest/gtest.h>

#include <set>

#include "daemon/config.hpp"
#include "daemon/sources.hpp"
#include "drivers/netlink/netlink_source.hpp"
#include "drivers/i2c/i2c_source.hpp"
#include "drivers/source_kind.hpp"
#include "tests/support/run_command.hpp"

namespace xcvr {
namespace {

daemon::Config load_ok(const std::string& text) {
  auto r = daemon::parse_config(text, "/etc/t/config.toml");
  if (auto* e = std::get_if<daemon::ConfigError>(&r)) ADD_FAILURE() << e->to_string();
  return std::get<daemon::Config>(r);
}

std::string load_error(const std::string& text) {
  auto r = daemon::parse_config(text, "/etc/t/config.toml");
  return std::holds_alternative<daemon::ConfigError>(r) ? std::get<daemon::ConfigError>(r).to_string() : "";
}

TEST(SourceRegistry, TheConfigKnowsExactlyTheRegisteredTypes) {
  std::set<std::string> types;
  for (const drivers::SourceKind* k : drivers::source_kinds()) {
    EXPECT_TRUE(types.insert(std::string(k->type)).second) << k->type << " registered twice";
    EXPECT_EQ(drivers::source_kind(k->type), k);
    ASSERT_NE(k->parse, nullptr) << k->type;
    EXPECT_TRUE(k->options.empty() == (k->open == nullptr)) << k->type << ": flags and an opener go together";
  }
  EXPECT_EQ(types, (std::set<std::string>{"emulator", "file", "i2c", "optoe", "netlink", "ib"}));
  const std::string unknown = load_error("[[source]]\ntype = \"spi\"\n");
  EXPECT_NE(unknown.find("config.toml:2:8: source[0].type: 'spi' is not one of " + drivers::source_type_list()),
            std::string::npos)
      << unknown;
}

TEST(SourceRegistry, XcvrctlOffersEveryKindsFlagsOnShowAndVerify) {
  for (const char* command : {"show", "verify"}) {
    const test::CommandResult help = test::run_command(std::string(XCVRCTL_PATH) + " " + command + " --help 2>&1");
    for (const drivers::SourceKind* k : drivers::source_kinds()) {
      for (const drivers::CliOption& o : k->options) {
        EXPECT_NE(help.out.find("--" + std::string(o.name)), std::string::npos) << command << " lacks --" << o.name;
      }
    }
  }
}

// Every i2c-dev and netlink transport setting, from the port's keys to the transport.
TEST(SourceRegistry, EveryTransportSettingIsReachableFromToml) {
  const daemon::Config c = load_ok(R"(
[[source]]
type = "i2c"
[[source.port]]
name = "osfp1"
bus = "/dev/i2c-30"
address = 0x51
presence_file = "/sys/cpld/osfp1_present"
presence_active_low = true
domain = "mux0"
restore_page0 = false
lock_timeout_ms = 500
[[source]]
type = "netlink"
trust_banks = true
[[source.port]]
name = "gpu0"
netdev = "ens1np0"
[[source.port]]
name = "gpu1"
trust_banks = false
)");
  const i2c::I2cPortConfig& p = c.sources.at(0).as<i2c::I2cSource>().ports.at(0);
  EXPECT_EQ(p.device, "/dev/i2c-30");
  EXPECT_EQ(p.address, 0x51);
  EXPECT_EQ(p.presence_file, "/sys/cpld/osfp1_present");
  EXPECT_TRUE(p.presence_active_low);
  EXPECT_EQ(p.domain, "mux0");
  EXPECT_FALSE(p.restore_page0);
  EXPECT_EQ(p.lock_timeout_ms, 500u);
  const auto& netlink = c.sources.at(1).as<netlink::NetlinkSource>();
  EXPECT_TRUE(netlink.ports.at(0).trust_banks) << "the source's default";
  EXPECT_EQ(netlink.ports.at(0).netdev, "ens1np0");
  EXPECT_FALSE(netlink.ports.at(1).trust_banks) << "the port's own";
  // Built: the transports carry them (devices open lazily, so no hardware is needed).
  auto built = daemon::build_sources(c);
  ASSERT_TRUE(std::holds_alternative<daemon::BuiltSources>(built)) << std::get<daemon::SourceError>(built).message;
  const auto& ports = std::get<daemon::BuiltSources>(built).ports;
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_NE(ports[0].transport->describe().find("0x51"), std::string::npos) << ports[0].transport->describe();
  EXPECT_EQ(ports[0].transport->domain(), "mux0");
  EXPECT_EQ(ports[0].id.source, "i2c");
}

// A key of another type is not silently ignored: it is an error at its line.
TEST(SourceRegistry, AKeyOfAnotherTypeIsAnErrorAtItsLine) {
  EXPECT_NE(load_error("[[source]]\ntype = \"netlink\"\n[[source.port]]\nname = \"a\"\nbus = \"/dev/i2c-1\"\n")
                .find("config.toml:5:1: unknown key 'bus' in source[0].port[0]"),
            std::string::npos)
      << load_error("[[source]]\ntype = \"netlink\"\n[[source.port]]\nname = \"a\"\nbus = \"/dev/i2c-1\"\n");
  EXPECT_NE(load_error("[[source]]\ntype = \"file\"\n[[source.port]]\nname = \"a\"\npath = \"a.txt\"\ndomain = \"x\"\n")
                .find("unknown key 'domain'"),
            std::string::npos);
  EXPECT_NE(load_error("[[source]]\ntype = \"i2c\"\n[[source.port]]\nname = \"a\"\nbus = \"/dev/i2c-1\"\naddress = 0x80\n")
                .find("config.toml:6:11: source[0].port[0].address: must be between 3 and 119"),
            std::string::npos)
      << load_error("[[source]]\ntype = \"i2c\"\n[[source.port]]\nname = \"a\"\nbus = \"/dev/i2c-1\"\naddress = 0x80\n");
  EXPECT_NE(load_error("[[source]]\ntype = \"emulator\"\nfleet = \"f.toml\"\ntrust_banks = true\n").find("unknown key 'trust_banks'"),
            std::string::npos);
}

}  // namespace
}  // namespace xcvr
