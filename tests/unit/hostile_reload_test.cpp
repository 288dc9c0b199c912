// Hostile configs (issue 16, "Config and reload"): every input a config names is opened safely,
// toml++ never sees a document deep enough to overflow its stack, a reload applies everything or
// nothing (and keeps unchanged sources' modules inserted), --check-config refuses what a start
// refuses with file:line:col, error kinds keep timeouts and NACKs apart from busy. Registered
// with ctest label "hostile". Every case is bounded by count and input size.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "coding/catalog.hpp"
#include "daemon/service.hpp"
#include "daemon/sources.hpp"
#include "dumpfile/dump_parser.hpp"
#include "emulator/fleet.hpp"
#include "base/safe_file.hpp"
#include "base/toml_input.hpp"
#include "drivers/transport.hpp"
#include "exporters/http/frontend.hpp"
#include "tests/support/run_command.hpp"

namespace xcvr {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-hostile-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(counter++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
  std::string fifo(const std::string& name) const {
    const std::string p = (path / name).string();
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    return p;
  }
  static inline int counter = 0;
};

std::string dump(const std::string& dir) { return std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt"; }

// "@DIR@" stands for the test's own directory (Daemon substitutes it).
const std::string kHeader = "[daemon]\nstate_directory = \"@DIR@/state\"\n[poll]\ndynamic_interval = 1\nsettle_delay = 0\n";

std::string file_source(const std::vector<std::pair<std::string, std::string>>& ports) {
  std::string s = "[[source]]\ntype = \"file\"\n";
  for (const auto& [name, path] : ports) s += "[[source.port]]\nname = \"" + name + "\"\npath = \"" + path + "\"\n";
  return s;
}

std::string deep_key(int parts) {
  std::string s = "a";
  for (int i = 1; i < parts; ++i) s += ".a";
  return s + " = 1\n";
}

// "file:line:col: " at the start, with a real line.
bool located(const std::string& error) {
  static const std::regex kAt(R"(^[^:]+:[1-9][0-9]*:[1-9][0-9]*: .+)");
  return std::regex_search(error, kAt);
}

// ---- every TOML reader: a depth pre-check, never a stack overflow ----------------------------

TEST(HostileToml, FiftyThousandPartDottedKeyIsAnErrorInEveryReader) {
  const std::string key = deep_key(50'000);
  const std::string header_form = "[" + key.substr(0, key.size() - 5) + "]\n";
  for (const std::string& text : {key, header_form, "x = " + std::string(40'000, '[') + std::string(40'000, ']') + "\n"}) {
    auto config = daemon::parse_config(text, "deep.toml");
    ASSERT_TRUE(std::holds_alternative<daemon::ConfigError>(config));
    const auto& e = std::get<daemon::ConfigError>(config);
    EXPECT_EQ(e.line, 1);
    EXPECT_GT(e.column, 0);
    EXPECT_NE(e.message.find("refused before parsing"), std::string::npos) << e.message;
    coding::Catalog catalog;
    EXPECT_TRUE(coding::parse_catalog_into(catalog, text, "deep-catalog.toml").has_value());
    EXPECT_EQ(emulator::load_fleet(text, "deep-fleet.toml", std::nullopt).fleet, nullptr);
  }
}

TEST(HostileToml, DepthCountsDottedKeysInsideInlineTablesAndArrays) {
  // 20 inline tables each opened by a 4-part key: 100 levels although no key exceeds the part limit.
  std::string text = "x = ";
  for (int i = 0; i < 20; ++i) text += "{a.b.c.d = ";
  text += "1" + std::string(20, '}') + "\n";
  EXPECT_THROW(base::parse_toml(text, "t.toml"), toml::parse_error);
  // Strings and comments hide brackets and dots: not counted.
  const std::string quoted = "k = \"" + std::string(500, '[') + "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a\"  # [[[[ a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a\n"
                             "m = '''\n" + std::string(300, '{') + "'''\n\"q.q.q.q.q.q.q.q.q.q.q.q.q.q.q.q.q.q\" = 2\n";
  EXPECT_NO_THROW(base::parse_toml(quoted, "q.toml"));
  // Ordinary nesting stays fine.
  EXPECT_NO_THROW(base::parse_toml("[a.b.c]\nd.e.f = { g = [[1, 2], [3]], h.i = 'x' }\n[[a.list]]\nz = 1\n", "ok.toml"));
}

TEST(HostileToml, ShippedConfigsStillParse) {
  const std::string root = std::string(XCVR_TEST_DATA) + "/../../config/";
  EXPECT_TRUE(std::holds_alternative<daemon::Config>(daemon::load_config_file(root + "demo-exporter.toml")));
  EXPECT_TRUE(std::holds_alternative<daemon::Config>(daemon::load_config_file(root + "config.toml")));
  EXPECT_NE(emulator::load_fleet_file(root + "demo.toml", std::nullopt).fleet, nullptr);
}

// ---- regular files only, never blocking, capped -------------------------------------------

TEST(HostileFiles, DirectoryFifoDeviceAndOversizedFilesAreRefusedByName) {
  TempDir d;
  const std::string fifo = d.fifo("pipe");  // no writer: a blocking open would hang here
  const std::string big = d.write("big.toml", std::string(daemon::kConfigInput.max_bytes + 1, '#'));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {d.path.string(), "a directory"}, {fifo, "a FIFO"}, {"/dev/zero", "a character device"}, {big, "larger than 1 MiB"}};
  for (const auto& [path, why] : cases) {
    std::string error;
    EXPECT_FALSE(base::read_regular_file(path, daemon::kConfigInput, error)) << path;
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find(why), std::string::npos) << error;
    EXPECT_FALSE(base::read_regular_file_lines(path, daemon::kConfigInput, [](std::string_view) {}, error));
  }
  // Each reader says so, with the path: config, fleet, dump, catalog.
  for (const auto& [path, why] : cases) {
    auto c = daemon::load_config_file(path);
    ASSERT_TRUE(std::holds_alternative<daemon::ConfigError>(c));
    EXPECT_NE(std::get<daemon::ConfigError>(c).to_string().find(why), std::string::npos);
    if (path == big) continue;  // within the fleet and dump caps (4 MiB)
    EXPECT_NE(emulator::load_fleet_file(path, std::nullopt).error.find(why), std::string::npos);
    EXPECT_NE(std::get<dumpfile::ParseError>(dumpfile::parse_file(path)).message.find(why), std::string::npos);
    auto cat = coding::load_catalog({path == d.path.string() ? fifo : path});
    EXPECT_TRUE(std::holds_alternative<coding::CatalogError>(cat));
  }
}

// A symlink loop (ELOOP) is named whole: the path once, then what went wrong (the config's message
// used to lose its first characters: "r.toml: pen r.toml: ...").
TEST(HostileFiles, ASymlinkLoopIsNamedWhole) {
  TempDir d;
  const std::string loop = (d.path / "r.toml").string();
  ASSERT_EQ(::symlink("r.toml", loop.c_str()), 0);
  auto c = daemon::load_config_file(loop);
  ASSERT_TRUE(std::holds_alternative<daemon::ConfigError>(c));
  EXPECT_EQ(std::get<daemon::ConfigError>(c).to_string(),
            loop + ": cannot read config file: Too many levels of symbolic links (ELOOP)");
}

// ---- reload: all or nothing ------------------------------------------------------------------

struct Daemon {
  TempDir dir;
  std::string config;
  base::VirtualClock clock{1000 * base::kSecond};
  daemon::SnapshotStore store;
  daemon::Service svc{clock, store};

  std::string expand(std::string text) const {
    for (std::size_t at; (at = text.find("@DIR@")) != std::string::npos;) text.replace(at, 5, dir.path.string());
    return text;
  }
  explicit Daemon(const std::string& text) : config(dir.write("config.toml", expand(text))) {
    EXPECT_EQ(svc.start(config), "");
    cycle();
  }
  void cycle() {
    for (int i = 0; i < 3; ++i) {
      svc.engine()->step();
      clock.advance(base::kSecond);
    }
  }
  std::string reload_to(const std::string& text) {
    dir.write("config.toml", expand(text));
    return svc.reload();
  }
};

TEST(HostileReload, BadInputsNamedByAConfigKeepTheRunningOneServing) {
  Daemon d(kHeader + file_source({{"a", dump("qsfp28-lr4-dell-3mfxg")}}));
  const std::string fifo = d.dir.fifo("fleet.fifo");
  const std::string keep = kHeader;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {keep + file_source({{"a", d.dir.path.string()}}), "a directory"},
      {keep + file_source({{"a", fifo}}), "a FIFO"},
      {keep + "[[source]]\ntype = \"emulator\"\nfleet = \"/dev/zero\"\n", "a character device"},
      {keep + "[[source]]\ntype = \"emulator\"\nfleet = \"" + fifo + "\"\n", "a FIFO"},
      {keep + "[[source]]\ntype = \"emulator\"\nfleet = \"" + d.dir.path.string() + "\"\n", "a directory"},
      {keep + deep_key(50'000), "refused before parsing"},
      {keep + "[daemon.x" + std::string(20'000, '.') + "]\n", "refused before parsing"},
  };
  uint64_t failed = 0;
  for (const auto& [text, why] : bad) {
    const std::string err = d.reload_to(text);
    EXPECT_NE(err.find(why), std::string::npos) << err;
    EXPECT_EQ(d.svc.reloads_failed(), ++failed);
    d.cycle();
    ASSERT_EQ(d.store.current()->ports.size(), 1u);
    EXPECT_EQ(daemon::port_state_name(d.store.current()->ports[0].state), "ok");
    EXPECT_FALSE(d.store.current()->last_config_reload_ok);
  }
  // The config path itself turned into a FIFO or a directory: refused at once, not waited on.
  fs::remove(d.config);
  ASSERT_EQ(::mkfifo(d.config.c_str(), 0600), 0);
  EXPECT_NE(d.svc.reload().find("a FIFO"), std::string::npos);
  fs::remove(d.config);
  fs::create_directory(d.config);
  EXPECT_NE(d.svc.reload().find("a directory"), std::string::npos);
  EXPECT_EQ(d.svc.reloads_attempted(), failed + 2);
  d.cycle();
  EXPECT_EQ(d.store.current()->config_reloads_total, failed + 2);
  EXPECT_EQ(d.store.current()->config_reload_failures_total, failed + 2);
}

TEST(HostileReload, AConfigWithNoSourcesServesNoStalePorts) {
  Daemon d(kHeader + file_source({{"a", dump("qsfp28-lr4-dell-3mfxg")}, {"b", dump("sfp28-sr-finisar-ftlf8536p4bcl")}}));
  ASSERT_EQ(d.store.current()->ports.size(), 2u);
  const double before = d.store.current()->taken_unix;
  d.svc.run();  // real threads: nothing would ever publish for an engine without domains
  EXPECT_EQ(d.reload_to(kHeader), "");
  d.svc.stop();
  EXPECT_TRUE(d.store.current()->ports.empty());
  EXPECT_GE(d.store.current()->taken_unix, before);
  EXPECT_TRUE(d.store.current()->last_config_reload_ok);
}

TEST(HostileReload, UnchangedSourcesKeepTheirModulesInsertedChangedOnesStartOver) {
  const std::string sources = file_source({{"a", dump("qsfp28-lr4-dell-3mfxg")}}) +
                              file_source({{"b", dump("sfp28-sr-finisar-ftlf8536p4bcl")}});
  Daemon d(kHeader + sources);
  auto port = [&](const std::string& name) -> const daemon::PortSnapshot& {
    for (const auto& p : d.store.current()->ports) {
      if (p.port == name) return p;
    }
    static daemon::PortSnapshot none;
    ADD_FAILURE() << "no port " << name;
    return none;
  };
  ASSERT_EQ(port("a").insertions_total, 1u);
  daemon::PortPoller* a = d.svc.engine()->port("a");
  daemon::PortPoller* b = d.svc.engine()->port("b");
  // Ten reloads of the same config, then one that changes only poll settings: nothing re-inserted.
  for (int i = 0; i < 10; ++i) ASSERT_EQ(d.svc.reload(), "");
  const std::string slower = "[daemon]\nstate_directory = \"@DIR@/state\"\n[poll]\ndynamic_interval = 2\nsettle_delay = 0\n";
  ASSERT_EQ(d.reload_to(slower + sources), "");
  d.cycle();
  EXPECT_EQ(d.svc.engine()->port("a"), a);
  EXPECT_EQ(d.svc.engine()->port("b"), b);
  EXPECT_EQ(port("a").insertions_total, 1u);
  EXPECT_EQ(daemon::port_state_name(port("a").state), "ok");
  // Source b changes (another dump): b starts over, a is still the same poller.
  ASSERT_EQ(d.reload_to(slower + file_source({{"a", dump("qsfp28-lr4-dell-3mfxg")}}) +
                        file_source({{"b", dump("qsfp28-sr4-finisar-ftlc9551repm")}})), "");
  d.cycle();
  EXPECT_EQ(d.svc.engine()->port("a"), a);
  EXPECT_NE(port("b").report, nullptr);
  EXPECT_EQ(port("b").report->id.part_number, "FTLC9551REPM");
  EXPECT_EQ(d.svc.reloads_attempted(), 12u);
  EXPECT_EQ(d.svc.reloads_failed(), 0u);
}

TEST(HostileReload, WebSettingsRefusedByTheFrontendLeaveEverythingAsItWas) {
  Daemon d(kHeader + file_source({{"a", dump("qsfp28-lr4-dell-3mfxg")}}));
  daemon::PortPoller* a = d.svc.engine()->port("a");
  d.dir.write("config.toml", d.expand(kHeader) + file_source({{"z", dump("sfp28-sr-finisar-ftlf8536p4bcl")}}));
  const std::string err = d.svc.reload([](const daemon::WebConfig&) { return std::string("web: cannot listen"); });
  EXPECT_EQ(err, "web: cannot listen");
  EXPECT_EQ(d.svc.engine()->port("a"), a);
  EXPECT_EQ(d.svc.engine()->port("z"), nullptr);
  EXPECT_EQ(d.svc.reloads_failed(), 1u);
}

// ---- --check-config refuses what a start refuses, with file:line:col ---------------------

std::string check(const std::string& text) {
  TempDir d;
  const std::string path = d.write("config.toml", text);
  auto prepared = daemon::prepare_config(path);
  if (auto* e = std::get_if<std::string>(&prepared)) return *e;
  return exporters::check_web(std::get<daemon::PreparedConfig>(prepared).config.web, exporters::BindCheck::InUseOk);
}

TEST(HostileCheckConfig, WhatAStartRefusesIsALocatedError) {
  TempDir d;
  const std::string fleet = d.write("fleet.toml", "[[system]]\nname = \"sw\"\nport_prefix = \"p\"\n[[system.bus]]\n"
                                                  "cage_form = \"OSFP\"\nmodules = [\"osfp-800g-2xsr4-finned\"]\n");
  const std::string emu = "[[source]]\ntype = \"emulator\"\nclock = \"wallclock\"\nfleet = \"" + fleet + "\"\n";
  const std::string hash = "$2b$10$" + std::string(53, 'a');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[web]\nlisten_addresses = [\":99999\"]\n", "bad port"},
      {"[web]\nlisten_addresses = [\"no-such-host.invalid:10458\"]\n", "cannot resolve host"},
      {"[web]\nlisten_addresses = [\"127.0.0.1:10458\", \"127.0.0.1:10458\"]\n", "overlaps"},
      {"[web]\nlisten_addresses = [\":10458\", \"[::1]:10458\"]\n", "overlaps"},
      {"[web]\ntls_cert_file = \"/nonexistent/cert.pem\"\ntls_key_file = \"/nonexistent/key.pem\"\n", "cannot open"},
      {"[web]\ntls_cert_file = \"" + d.path.string() + "\"\ntls_key_file = \"/dev/zero\"\n", "a directory"},
      {"[web.basic_auth_users]\nprom = \"$2b$99$" + std::string(53, 'a') + "\"\n", "bcrypt cost 99"},
      {"[web.basic_auth_users]\nprom = \"$2b$10$short\"\n", "malformed bcrypt hash"},
      {"[web.basic_auth_users]\nprom = \"" + hash.substr(0, 59) + "!\"\n", "malformed bcrypt hash"},
      {emu + emu, "is also defined by the source at"},
      {"[poll]\ndynamic_interval = 1e-10\n", "between 100 ms and 1 h"},
      {"[poll]\ndynamic_interval = 1e308\n", "between 100 ms and 1 h"},
      {"[poll]\nbackoff_max = \"99999999h\"\n", "between"},
      {"[web]\nread_timeout = 1e-10\n", "between"},
      {"[[source]]\ntype = \"ib\"\ntimeout = 1e-10\n", "between 1 ms and 1 min"},
  };
  for (const auto& [text, why] : cases) {
    const std::string err = check(text);
    EXPECT_TRUE(located(err)) << text << " -> " << err;
    EXPECT_NE(err.find(why), std::string::npos) << text << " -> " << err;
  }
  // The same checks pass what is fine.
  EXPECT_EQ(check("[web]\nlisten_addresses = [\"127.0.0.1:0\", \"[::1]:0\"]\n[web.basic_auth_users]\nprom = \"" + hash + "\"\n"), "");
}

TEST(HostileCheckConfig, StartBindCheckNamesTheLineOfAnAddressInUse) {
  daemon::WebConfig web;
  web.listen_addresses = {"127.0.0.1:0"};
  EXPECT_EQ(exporters::check_web(web, exporters::BindCheck::Strict), "");
  // Hold a port, then ask for it.
  daemon::SnapshotStore store;
  exporters::Frontend holder(web, store, "");
  ASSERT_EQ(holder.start(), "");
  web.listen_addresses = {"127.0.0.1:" + std::to_string(holder.ports().at(0))};
  web.locations["listen_addresses[0]"] = "config.toml:3:21";
  EXPECT_EQ(exporters::check_web(web, exporters::BindCheck::InUseOk), "");  // --check-config beside a running daemon
  const std::string err = exporters::check_web(web, exporters::BindCheck::Strict);
  EXPECT_EQ(err.rfind("config.toml:3:21: ", 0), 0u) << err;
  EXPECT_NE(err.find("Address already in use"), std::string::npos) << err;
  holder.stop();
}

// #39: a config that replays one dump in 2,000 cages (a counterfeit batch) is accepted, but
// --check-config says so once, in one bounded line, not once per port or with every port named.
TEST(HostileCheckConfig, ReplayedModulesSharingASerialAreOneWarningLine) {
  TempDir d;
  const std::string data = XCVR_TEST_DATA;
  std::string text = "[[source]]\ntype = \"file\"\n";
  const auto port = [&](const std::string& name, const std::string& dump) {
    text += "[[source.port]]\nname = \"" + name + "\"\npath = \"" + data + "/" + dump + "/raw.txt\"\n";
  };
  for (int i = 1; i <= 2000; ++i) port("copy" + std::to_string(i), "qsfp28-lr4-dell-3mfxg");
  port("other-a", "qsfp28-sr4-finisar-ftlc9551repm");
  port("other-b", "sfp28-sr-finisar-ftlf8536p4bcl");
  auto prepared = daemon::prepare_config(d.write("config.toml", text));
  ASSERT_TRUE(std::holds_alternative<daemon::PreparedConfig>(prepared)) << std::get<std::string>(prepared);
  const auto& built = std::get<daemon::PreparedConfig>(prepared).built;
  const std::vector<std::string> lines = daemon::replayed_duplicate_serials(built.ports);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("is in 2000 ports: copy1, copy2, copy3 and 1997 more (2000 ports in all)"), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("serial_duplicate"), std::string::npos);
  EXPECT_LT(lines[0].size(), 400u);
}

// ---- error kinds: timeouts and NACKs are not "busy" --------------------------------------

TEST(HostileErrorKinds, OneErrnoMapKeepsTimeoutNackAndBusyApart) {
  using drivers::ErrorKind;
  EXPECT_EQ(drivers::kind_of_errno(ETIMEDOUT, false), ErrorKind::Timeout);
  EXPECT_EQ(drivers::kind_of_errno(ENXIO, true), ErrorKind::Nack);
  EXPECT_EQ(drivers::kind_of_errno(EREMOTEIO, true), ErrorKind::Nack);
  EXPECT_EQ(drivers::kind_of_errno(ENXIO, false), ErrorKind::Absent);
  EXPECT_EQ(drivers::kind_of_errno(EBUSY, true), ErrorKind::Busy);
  EXPECT_EQ(drivers::kind_of_errno(EAGAIN, true), ErrorKind::Busy);
  EXPECT_EQ(drivers::error_kind_name(ErrorKind::Timeout), "timeout");
  EXPECT_EQ(drivers::error_kind_name(ErrorKind::Nack), "nack");
  for (ErrorKind k : {ErrorKind::Busy, ErrorKind::Timeout, ErrorKind::Nack}) EXPECT_TRUE(drivers::is_retryable(k));
  EXPECT_FALSE(drivers::is_retryable(ErrorKind::Absent));
}

// ---- xcvrctl: a directory is an error, not an abort ---------------------------------------

TEST(HostileXcvrctl, DirectoryOrFifoAsDumpExitsTwoWithTheReason) {
  TempDir d;
  const std::string fifo = d.fifo("dump.fifo");
  for (const std::string& path : {d.path.string(), fifo, std::string("/dev/zero")}) {
    for (const std::string& cmd : {"decode " + path, "show --file " + path, "verify --file " + path}) {
      const auto r = test::run_command(std::string(XCVRCTL_PATH) + " " + cmd + " 2>&1");
      EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
      EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << cmd << ": " << r.out;
    }
  }
}

}  // namespace
}  // namespace xcvr
