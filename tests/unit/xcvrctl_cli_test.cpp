// xcvrctl as operators run it (the built binary, XCVRCTL_PATH): --help on every subcommand,
// exit codes 0/1/2, --json on every subcommand, `emulate` output that `decode` reads back, and
// a bash completion that offers every option --help lists.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "daemon/config.hpp"
#include "emulator/catalog.hpp"
#include "tests/support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kXcvrctl = XCVRCTL_PATH;
const fs::path kSourceDir = fs::path(XCVR_TEST_DATA) / ".." / "..";
const std::vector<std::string> kSubcommands = {"decode", "verify", "show", "emulate", "discover", "events"};

struct Result {
  std::string out;  // stdout (stderr too when asked)
  int rc = -1;
};

Result run(const std::string& args, bool with_stderr = false) {
  const auto r = xcvr::test::run_command(kXcvrctl + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
  return Result{r.out, r.code};
}

class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(fs::temp_directory_path() / ("xcvrctl-cli-" + std::to_string(::getpid()) + "-" + name)) {}
  ~TempFile() { fs::remove(path_); }
  const fs::path& path() const { return path_; }
  void write(const std::string& text) const { std::ofstream(path_) << text; }

 private:
  fs::path path_;
};

// The long options a --help text lists ("  --json  ..." or "  --format TEXT ...").
std::set<std::string> help_options(const std::string& help) {
  std::set<std::string> out;
  static const std::regex option(R"((^|[\s,])(--[a-z][a-z0-9-]*))");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), option); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[2]);
  }
  return out;
}

TEST(XcvrctlCli, HelpOnEverySubcommandExitsZero) {
  const Result top = run("--help");
  EXPECT_EQ(top.rc, 0);
  for (const std::string& sub : kSubcommands) {
    EXPECT_NE(top.out.find(sub), std::string::npos) << "top-level --help lacks " << sub;
    const Result r = run(sub + " --help");
    EXPECT_EQ(r.rc, 0) << sub;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << sub << " --help lacks --json:\n" << r.out;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
    EXPECT_EQ(run(sub + " -h").rc, 0) << sub;
  }
}

TEST(XcvrctlCli, UnusableArgumentsExitTwo) {
  EXPECT_EQ(run("").rc, 2);                      // a subcommand is required
  EXPECT_EQ(run("frobnicate").rc, 2);            // unknown subcommand
  EXPECT_EQ(run("decode --no-such-flag x").rc, 2);
  EXPECT_EQ(run("decode").rc, 2);                // FILE is required
  EXPECT_EQ(run("decode /nonexistent/dump.txt").rc, 2);
  EXPECT_EQ(run("decode --format nope /dev/null").rc, 2);
  EXPECT_EQ(run("show").rc, 2);                  // no source
  EXPECT_EQ(run("emulate").rc, 2);               // no model
  EXPECT_EQ(run("emulate no-such-model").rc, 2);
  EXPECT_EQ(run("emulate osfp-400g-sr4-flat --list").rc, 2);
  EXPECT_EQ(run("emulate osfp-400g-sr4-flat --seconds -1").rc, 2);
  EXPECT_EQ(run("emulate --port gpu-node-01/mlx5_0").rc, 2);  // --port needs --fleet
  const Result unknown = run("emulate no-such-model", true);
  EXPECT_NE(unknown.out.find("unknown model 'no-such-model'"), std::string::npos) << unknown.out;
  EXPECT_EQ(run("--version").rc, 0);
}

TEST(XcvrctlCli, EmulateListsTheCatalog) {
  const Result text = run("emulate --list");
  ASSERT_EQ(text.rc, 0);
  const Result json = run("emulate --list --json");
  ASSERT_EQ(json.rc, 0);
  const auto list = nlohmann::json::parse(json.out);
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), xcvr::emulator::catalog().size());
  for (const auto& m : xcvr::emulator::catalog()) {
    EXPECT_NE(text.out.find(m.key + "\t"), std::string::npos) << m.key;
    bool found = false;
    for (const auto& e : list) found = found || e.at("model") == m.key;
    EXPECT_TRUE(found) << m.key;
  }
}

// Every catalog model: the ethtool dump `emulate` prints decodes (decode, show --file) to the
// report `emulate --json` prints, and the module is clean.
TEST(XcvrctlCli, EmulateDumpDecodesBackToItsReport) {
  for (const auto& m : xcvr::emulator::catalog()) {
    SCOPED_TRACE(m.key);
    const Result dump = run("emulate " + m.key);
    ASSERT_EQ(dump.rc, 0) << dump.out;
    EXPECT_EQ(dump.out.rfind("$ ethtool -m " + m.key + " page 0 hex on\n", 0), 0u) << dump.out.substr(0, 200);
    const Result json = run("emulate --json " + m.key);
    ASSERT_EQ(json.rc, 0);
    const auto report = nlohmann::json::parse(json.out);
    EXPECT_NE(json.out.find(m.part_number), std::string::npos);

    TempFile file(m.key + ".txt");
    file.write(dump.out);
    const Result decoded = run("decode --json " + file.path().string());
    ASSERT_EQ(decoded.rc, 0) << decoded.out;
    EXPECT_EQ(nlohmann::json::parse(decoded.out), report);
    const Result shown = run("show --json --file " + file.path().string());
    ASSERT_EQ(shown.rc, 0) << shown.out;
    EXPECT_EQ(nlohmann::json::parse(shown.out), report);
    const Result human = run("decode " + file.path().string());
    EXPECT_EQ(human.rc, 0);
    EXPECT_NE(human.out.find("(ethtool)"), std::string::npos) << human.out.substr(0, 200);
  }
}

TEST(XcvrctlCli, EmulateReadsAFleetPortAndItsTime) {
  const std::string fleet = (kSourceDir / "config" / "demo.toml").string();
  const Result r = run("emulate --json --fleet " + fleet + " --port gpu-node-01/mlx5_0");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find(xcvr::emulator::find_model("osfp-400g-sr4-flat")->part_number), std::string::npos);
  EXPECT_EQ(run("emulate --fleet " + fleet + " --port gpu-node-01/no-such").rc, 2);
  EXPECT_EQ(run("emulate --fleet /nonexistent.toml --port a/b").rc, 2);
  // Time matters: a module read at insertion is still powering up, two seconds later it is not.
  const Result early = run("emulate --json --seconds 0 osfp-400g-sr4-flat");
  const Result later = run("emulate --json --seconds 2 osfp-400g-sr4-flat");
  ASSERT_FALSE(early.out.empty());
  EXPECT_NE(nlohmann::json::parse(early.out), nlohmann::json::parse(later.out));
}

TEST(XcvrctlCli, JsonOnEverySubcommand) {
  TempFile file("json.txt");
  file.write(run("emulate qsfpdd-400g-sr8").out);
  const std::string f = file.path().string();
  const std::vector<std::string> commands = {
      "decode --json " + f, "show --json --file " + f, "emulate --json qsfpdd-400g-sr8",
      "verify --json --now 2026-01-01 --file " + f, "emulate --list --json"};
  for (const std::string& args : commands) {
    const Result r = run(args);
    EXPECT_LE(r.rc, 1) << args;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << args << ":\n" << r.out;
  }
}

// completion/xcvrctl offers each option its subcommand's --help lists, and every subcommand.
TEST(XcvrctlCli, BashCompletionCoversEveryOption) {
  std::ifstream in(kSourceDir / "completion" / "xcvrctl");
  ASSERT_TRUE(in) << "completion/xcvrctl";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string completion = ss.str();
  for (const std::string& sub : kSubcommands) {
    EXPECT_NE(completion.find(sub), std::string::npos) << sub;
    // The subcommand's arm of `case $sub`: "        sub)" up to its own ";;" (12 spaces in).
    const std::size_t begin = completion.find("\n        " + sub + ")\n");
    ASSERT_NE(begin, std::string::npos) << "no case arm for " << sub;
    const std::size_t end = completion.find("\n            ;;\n", begin);
    ASSERT_NE(end, std::string::npos) << sub;
    // Offered: the words of its `compgen -W '...'` (or "...") lists, not the `case $prev`
    // patterns; $_xcvrctl_source_options is the source flags' list the file defines once.
    const std::string body = completion.substr(begin, end - begin);
    std::string words;
    for (std::size_t at = body.find("compgen -W "); at != std::string::npos; at = body.find("compgen -W ", at + 1)) {
      const char quote = body[at + 11];
      const std::size_t from = at + 12;
      words += " " + body.substr(from, body.find(quote, from) - from);
    }
    const std::string var = "$_xcvrctl_source_options";
    if (const std::size_t use = words.find(var); use != std::string::npos) {
      const std::size_t def = completion.find("\n_xcvrctl_source_options=\"");
      ASSERT_NE(def, std::string::npos) << "the source options' list";
      const std::size_t from = def + var.size() + 2;
      words.replace(use, var.size(), completion.substr(from, completion.find('"', from) - from));
    }
    const std::set<std::string> offered = help_options(words);
    for (const std::string& opt : help_options(run(sub + " --help").out)) {
      EXPECT_TRUE(offered.count(opt)) << "completion of xcvrctl " << sub << " lacks " << opt;
    }
  }
}

}  // namespace

namespace {

// `decode -` reads the dump from standard input; `verify FILE` takes the dump as `decode` does
// (both were refused); a directory is a clear error with exit 2, never an abort.
TEST(XcvrctlCli, StandardInputPositionalVerifyAndDirectories) {
  const std::string dump = (kSourceDir / "tests/data/qsfp28-lr4-dell-3mfxg/raw.txt").string();
  const Result from_file = run("decode --json " + dump);
  const Result from_stdin = run("decode --json - < " + dump);
  EXPECT_EQ(from_stdin.rc, from_file.rc);
  EXPECT_EQ(from_stdin.out, from_file.out);
  EXPECT_NE(from_stdin.out.find("3MFXG"), std::string::npos);
  const Result positional = run("verify --json " + dump);
  const Result flag = run("verify --json --file " + dump);
  EXPECT_EQ(positional.rc, flag.rc);
  EXPECT_EQ(positional.out, flag.out);
  EXPECT_NE(positional.out.find("\"checks\""), std::string::npos) << positional.out.substr(0, 200);
  for (const char* cmd : {"decode /tmp", "verify /tmp", "show --file /tmp"}) {
    const Result dir = run(cmd, true);
    EXPECT_EQ(dir.rc, 2) << cmd;
    EXPECT_NE(dir.out.find("not a regular file"), std::string::npos) << cmd << ": " << dir.out;
  }
  const Result empty = run("decode - < /dev/null", true);
  EXPECT_EQ(empty.rc, 2);
  EXPECT_NE(empty.out.find("standard input"), std::string::npos) << empty.out;
}

// discover: what the daemon's discovery finds, in a recorded sysfs layout (one optoe client, an
// at24 board EEPROM, one sx_core module, no netdev), and --emit-config as config the daemon
// accepts.
TEST(XcvrctlCli, DiscoverPrintsWhatDiscoveryFindsAndEmitsConfig) {
  const fs::path root = fs::temp_directory_path() / ("xcvrctl-discover-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "net");
  for (const auto& [entry, name] : {std::pair{"11-0050", "optoe3"}, std::pair{"3-0050", "24c02"}}) {
    fs::create_directories(root / "i2c" / entry);
    std::ofstream(root / "i2c" / entry / "name") << name << "\n";
    std::ofstream(root / "i2c" / entry / "eeprom") << "x";
  }
  fs::create_directories(root / "sx" / "asic0" / "module4");
  const std::string where = "--sysfs-net " + (root / "net").string() + " --i2c-devices " + (root / "i2c").string() +
                            " --sx-core " + (root / "sx").string();
  const Result text = run("discover " + where);
  EXPECT_EQ(text.rc, 0) << text.out;
  EXPECT_NE(text.out.find("optoe-11  " + (root / "i2c" / "11-0050" / "eeprom").string()), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("module4"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("3-0050"), std::string::npos) << "an at24 board EEPROM is not a module";
  EXPECT_NE(text.out.find("i2c: never probed"), std::string::npos);
  const Result j = run("discover --json " + where);
  ASSERT_EQ(j.rc, 0);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc.at("optoe").at("found").size(), 2u);
  EXPECT_TRUE(doc.at("netlink").at("found").empty());
  const Result cfg = run("discover --emit-config " + where);
  ASSERT_EQ(cfg.rc, 0);
  const auto parsed = xcvr::daemon::parse_config(cfg.out, "emitted.toml");
  ASSERT_TRUE(std::holds_alternative<xcvr::daemon::Config>(parsed))
      << std::get<xcvr::daemon::ConfigError>(parsed).to_string() << "\n" << cfg.out;
  const auto& sources = std::get<xcvr::daemon::Config>(parsed).sources;
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].type, "optoe");
  ASSERT_EQ(sources[0].ports.size(), 2u);
  EXPECT_FALSE(sources[0].settings->discovers()) << "explicit ports: discovery off";
  EXPECT_NE(cfg.out.find("name = \"optoe-11\""), std::string::npos) << cfg.out;
  fs::remove_all(root);
}

}  // namespace


// A part number with no catalog entry (and no generic profile) is judged by the standard checks
// alone, and verify says so rather than a bare PASS; --catalog replaces the daemon's list.
TEST(XcvrctlCli, VerifyWithoutACatalogEntrySaysStandardChecksOnly) {
  TempFile dump("no-entry.txt");
  dump.write(run("emulate osfp-400g-sr4-flat").out);
  TempFile catalog("no-entry-catalog.toml");
  catalog.write("[vendor.acme]\nnames = [\"ACME\"]\nsource = \"test\"\n");
  const std::string args = "verify --now 2026-01-01 --catalog " + catalog.path().string() + " --file " + dump.path().string();
  const Result text = run(args);
  EXPECT_NE(text.out.find("standard checks only"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Catalogs : " + catalog.path().string()), std::string::npos) << text.out;
  const Result json = run(args + " --json");
  ASSERT_TRUE(nlohmann::json::accept(json.out)) << json.out;
  EXPECT_TRUE(nlohmann::json::parse(json.out)["catalog"]["key"].is_null());
  // With the shipped catalog the same module has its part's entry.
  const Result shipped = run("verify --now 2026-01-01 --catalog " + (kSourceDir / "config" / "catalog").string() +
                             " --file " + dump.path().string());
  EXPECT_EQ(shipped.out.find("standard checks only"), std::string::npos) << shipped.out;
}

// --port on a config: an unknown name exits 2 and names the close matches.
TEST(XcvrctlCli, UnknownPortExits2WithCloseMatches) {
  TempFile config("ports.toml");
  config.write("[[source]]\ntype = \"emulator\"\nfleet = \"" + (kSourceDir / "config" / "demo.toml").string() +
               "\"\n");
  for (const char* command : {"show", "verify"}) {
    const Result r = run(std::string(command) + " --port swp20 --config " + config.path().string(), true);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("spine-01/swp20"), std::string::npos) << r.out;
  }
  EXPECT_EQ(run("verify --port spine-01/swp20 --file /dev/null").rc, 2) << "--port excludes the source flags";
}
