// OptoeTransport against files laid out in a temp dir exactly as optoe (one-address, CMIS bank
// patch, two-address) and NVIDIA sx_core lay them out; ENXIO from a real open(2) of a socket.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "emulator/catalog.hpp"
#include "emulator/model.hpp"
#include "drivers/optoe/optoe_transport.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/static_read.hpp"

namespace xcvr::optoe {
namespace {

namespace fs = std::filesystem;
using drivers::ErrorKind;
using drivers::ReadRequest;

struct TempDir {
  TempDir() {
    path = fs::temp_directory_path() /
           ("xcvr-optoe-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

void write_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

void put(std::vector<uint8_t>& file, uint64_t at, const cmis::PageBytes& half) {
  std::copy(half.begin(), half.end(), file.begin() + static_cast<std::ptrdiff_t>(at));
}

// An optoe one-address eeprom file: (banks * 256 + 1) * 128 bytes, lower at 0, bank K page P at
// (K*256 + P)*128 + 128. `trim_unpaged` models optoe's 256-byte file for a flat module.
std::vector<uint8_t> optoe_one_address(const cmis::ModuleImage& image, int banks, bool trim_unpaged) {
  std::vector<uint8_t> file(trim_unpaged ? 256 : (static_cast<std::size_t>(banks) * 256 + 1) * 128, 0);
  for (const auto& e : image.entries()) {
    if (e.key.page == cmis::kLowerPage) {
      put(file, 0, e.bytes);
    } else if (static_cast<uint64_t>((e.key.bank * 256 + e.key.page) * 128 + 256) <= file.size()) {
      put(file, static_cast<uint64_t>(e.key.bank * 256 + e.key.page) * 128 + 128, e.bytes);
    }
  }
  return file;
}

cmis::ModuleImage read_static(drivers::Transport& t) { return test::read_static(t); }

// Every half-page the static read fetched is byte-identical to the one laid into the files.
void expect_same_pages(const cmis::ModuleImage& want, const cmis::ModuleImage& got) {
  EXPECT_GE(got.entries().size(), 2u);
  for (const auto& g : got.entries()) {
    const auto* w = want.find(g.key);
    ASSERT_NE(w, nullptr) << cmis::page_name(g.key);
    EXPECT_EQ(g.bytes, w->bytes) << cmis::page_name(g.key);
  }
}

emulator::ModuleModel sixteen_lanes() {
  emulator::ModuleModel m = *emulator::find_model("qsfpdd-400g-sr8");
  m.host_lanes = m.media_lanes = 16;
  for (auto& a : m.applications) a.host_lanes = a.media_lanes = 16;
  return m;
}

// ---------------------------------------------------------------------------------------------

TEST(TransportOptoe, OneAddressCmisLinearLayout) {
  TempDir dir;
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8"));
  const fs::path eeprom = dir.path / "i2c-7" / "7-0050" / "eeprom";
  write_file(eeprom, optoe_one_address(image, 1, false));
  write_text(eeprom.parent_path() / "dev_class", "3\n");
  write_text(eeprom.parent_path() / "max_bank_size", "0\n");
  EXPECT_EQ(fs::file_size(eeprom), 32896u);  // (1 + 256) * 128, as optoe sizes it

  OptoeTransport t({eeprom.string(), OptoeLayout::Auto, -1, "Ethernet8", ""});
  EXPECT_EQ(t.layout(), OptoeLayout::OneAddress);
  EXPECT_EQ(t.banks(), 1);
  EXPECT_EQ(t.domain(), "i2c-7");
  const auto span = std::get<FileSpan>(t.locate(ReadRequest{0x50, 0, 0x11, 130, 4}));
  EXPECT_EQ(span.offset, 0x11u * 128 + 130);

  const auto got = read_static(t);
  expect_same_pages(image, got);
  const auto report = cmis::decode(got);
  EXPECT_EQ(report.id.part_number, emulator::find_model("qsfpdd-400g-sr8")->part_number);
  EXPECT_EQ(report.lanes.size(), 8u);
  EXPECT_EQ(t.presence(), drivers::Presence::Present);

  // Bank 1 without the bank patch: unreachable, said so.
  std::vector<uint8_t> out(8);
  auto e = t.read(ReadRequest{0x50, 1, 0x11, 128, 8}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("max_bank_size"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("page 11h bank 1"), std::string::npos) << e->message;
}

TEST(TransportOptoe, CmisBankLayoutFromMaxBankSize) {
  TempDir dir;
  const auto image = emulator::encode_image(sixteen_lanes());
  ASSERT_TRUE(image.has({0x50, 1, 0x11}));
  const fs::path eeprom = dir.path / "21-0050" / "eeprom";
  write_file(eeprom, optoe_one_address(image, 2, false));
  write_text(eeprom.parent_path() / "dev_class", "3");
  write_text(eeprom.parent_path() / "max_bank_size", "2");
  EXPECT_EQ(fs::file_size(eeprom), (2u * 256 + 1) * 128);

  OptoeTransport t({eeprom.string(), OptoeLayout::Auto, -1, "", ""});
  EXPECT_EQ(t.banks(), 2);
  // Bank 1 page 11h byte 130 at (1*256 + 0x11)*128 + 130.
  EXPECT_EQ(std::get<FileSpan>(t.locate(ReadRequest{0x50, 1, 0x11, 130, 1})).offset,
            (256u + 0x11) * 128 + 130);
  // Pages below 10h are not banked: bank ignored.
  EXPECT_EQ(std::get<FileSpan>(t.locate(ReadRequest{0x50, 1, 0x01, 128, 1})).offset, 256u);
  const auto got = read_static(t);
  EXPECT_TRUE(got.has({0x50, 1, 0x11}));
  expect_same_pages(image, got);
  EXPECT_EQ(cmis::decode(got).lanes.size(), 16u);
  std::vector<uint8_t> out(4);
  auto e = t.read(ReadRequest{0x50, 2, 0x11, 128, 4}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
}

TEST(TransportOptoe, UnpagedModuleFileIsTrimmedAndUpperPagesAreUnsupported) {
  TempDir dir;
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-dac"));
  const fs::path eeprom = dir.path / "3-0050" / "eeprom";
  write_file(eeprom, optoe_one_address(image, 1, true));
  OptoeTransport t({eeprom.string(), OptoeLayout::OneAddress, 0, "", ""});
  const auto got = read_static(t);  // flat: lower + 00h only
  expect_same_pages(image, got);
  std::vector<uint8_t> out(16);
  auto e = t.read(ReadRequest{0x50, 0, 0x01, 128, 16}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("returned 0 of 16"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("page 01h"), std::string::npos) << e->message;
}

TEST(TransportOptoe, ShortReadInsideThePageIsUnsupported) {
  TempDir dir;
  const fs::path eeprom = dir.path / "3-0050" / "eeprom";
  write_file(eeprom, std::vector<uint8_t>(200, 0x11));
  OptoeTransport t({eeprom.string(), OptoeLayout::OneAddress, 0, "", ""});
  std::vector<uint8_t> out(128);
  auto e = t.read(ReadRequest{0x50, 0, 0, 128, 128}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("returned 72 of 128"), std::string::npos) << e->message;
}

TEST(TransportOptoe, TwoAddressSfpLayout) {
  TempDir dir;
  // optoe2: A0h 0-255, A2h lower 256-383, A2h page P at 384 + P*128.
  std::vector<uint8_t> file(384 + 2 * 128, 0);
  for (std::size_t i = 0; i < file.size(); ++i) file[i] = static_cast<uint8_t>(i * 7 + i / 128);
  const fs::path eeprom = dir.path / "9-0050" / "eeprom";
  write_file(eeprom, file);
  write_text(eeprom.parent_path() / "dev_class", "2");
  OptoeTransport t({eeprom.string(), OptoeLayout::Auto, -1, "", ""});
  EXPECT_EQ(t.layout(), OptoeLayout::TwoAddress);
  struct Case {
    ReadRequest r;
    std::size_t file_offset;
  };
  for (const Case c : {Case{{0x50, 0, 0, 20, 16}, 20}, Case{{0x50, 0, 0, 128, 128}, 128},
                       Case{{0x51, 0, 0, 96, 22}, 256 + 96}, Case{{0x51, 0, 0, 128, 8}, 384},
                       Case{{0x51, 0, 1, 130, 4}, 384 + 128 + 2}}) {
    std::vector<uint8_t> out(c.r.length);
    ASSERT_FALSE(t.read(c.r, out));
    EXPECT_EQ(out, std::vector<uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(c.file_offset),
                                        file.begin() + static_cast<std::ptrdiff_t>(c.file_offset + c.r.length)))
        << "device " << int(c.r.device) << " offset " << c.r.offset;
  }
  std::vector<uint8_t> out(4);
  auto e = t.read(ReadRequest{0x50, 0, 1, 128, 4}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);  // A0h has no pages
}

TEST(TransportOptoe, SxCorePerPageFiles) {
  TempDir dir;
  const auto image = emulator::encode_image(sixteen_lanes());
  const fs::path module = dir.path / "sx_core" / "asic0" / "module5";
  std::vector<uint8_t> page0(256, 0);
  for (const auto& e : image.entries()) {
    if (e.key.page == cmis::kLowerPage) {
      put(page0, 0, e.bytes);
    } else if (e.key.page == 0) {
      put(page0, 128, e.bytes);
    } else if (e.key.bank == 0) {
      write_file(module / "eeprom" / "pages" / std::to_string(e.key.page) / "data",
                 std::vector<uint8_t>(e.bytes.begin(), e.bytes.end()));
    } else {
      write_file(module / ("bank" + std::to_string(e.key.bank)) / "eeprom" / "pages" /
                     std::to_string(e.key.page) / "data",
                 std::vector<uint8_t>(e.bytes.begin(), e.bytes.end()));
    }
  }
  write_file(module / "eeprom" / "pages" / "0" / "i2c-0x50" / "data", page0);
  write_text(module / "present", "1\n");
  EXPECT_TRUE(fs::exists(module / "eeprom" / "pages" / "17" / "data"));  // page 11h, decimal

  OptoeTransport t({module.string(), OptoeLayout::Auto, -1, "sw1p5", ""});
  EXPECT_EQ(t.layout(), OptoeLayout::SxCore);
  EXPECT_EQ(t.banks(), 2);
  EXPECT_EQ(t.domain(), (dir.path / "sx_core" / "asic0").string());
  EXPECT_EQ(t.presence(), drivers::Presence::Present);
  const auto got = read_static(t);
  expect_same_pages(image, got);
  EXPECT_EQ(cmis::decode(got).lanes.size(), 16u);

  // A page the SDK does not expose.
  std::vector<uint8_t> out(8);
  auto e = t.read(ReadRequest{0x50, 0, 0x03, 128, 8}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("page 03h"), std::string::npos) << e->message;

  write_text(module / "present", "0\n");
  EXPECT_EQ(t.presence(), drivers::Presence::Absent);
}

TEST(TransportOptoe, SxCoreSfpDiagnosticsFile) {
  TempDir dir;
  const fs::path module = dir.path / "asic0" / "module1";
  std::vector<uint8_t> a0(256, 0x03), a2(256);
  for (std::size_t i = 0; i < a2.size(); ++i) a2[i] = static_cast<uint8_t>(i);
  write_file(module / "eeprom" / "pages" / "0" / "i2c-0x50" / "data", a0);
  write_file(module / "eeprom" / "pages" / "0" / "i2c-0x51" / "data", a2);
  OptoeTransport t({module.string(), OptoeLayout::SxCore, -1, "", ""});
  std::vector<uint8_t> out(22);
  ASSERT_FALSE(t.read(ReadRequest{0x51, 0, 0, 96, 22}, out));
  EXPECT_EQ(out[0], 96);
  EXPECT_EQ(out[21], 117);
}

TEST(TransportOptoe, EnxioFromTheKernelIsAbsentAndPresenceFollowsIt) {
  TempDir dir;
  const fs::path eeprom = dir.path / "4-0050" / "eeprom";
  fs::create_directories(eeprom.parent_path());
  // open(2) of a UNIX socket fails with ENXIO: the same errno optoe returns for an empty cage.
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(eeprom.string().size(), sizeof addr.sun_path);
  std::strncpy(addr.sun_path, eeprom.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);

  OptoeTransport t({eeprom.string(), OptoeLayout::OneAddress, 0, "", ""});
  EXPECT_EQ(t.presence(), drivers::Presence::Absent);
  std::vector<uint8_t> out(1);
  auto e = t.read(ReadRequest{0x50, 0, 0, 0, 1}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Absent);
  EXPECT_NE(e->message.find("ENXIO"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("lower page offset 0"), std::string::npos) << e->message;
  ::close(s);

  // A module arrives: the file becomes readable.
  fs::remove(eeprom);
  write_file(eeprom, std::vector<uint8_t>(32896, 0x18));
  EXPECT_EQ(t.presence(), drivers::Presence::Present);
  ASSERT_FALSE(t.read(ReadRequest{0x50, 0, 0, 0, 1}, out));
  EXPECT_EQ(out[0], 0x18);
}

TEST(TransportOptoe, MissingFileIsUnsupportedWithAHint) {
  OptoeTransport t({"/nonexistent/7-0050/eeprom", OptoeLayout::OneAddress, 0, "", ""});
  std::vector<uint8_t> out(1);
  auto e = t.read(ReadRequest{0x50, 0, 0, 0, 1}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("new_device"), std::string::npos) << e->message;
  EXPECT_EQ(t.presence(), drivers::Presence::Unknown);
}

TEST(TransportOptoe, EstimatedBusCountersPerDynamicPoll) {
  TempDir dir;
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8"));
  const fs::path eeprom = dir.path / "7-0050" / "eeprom";
  write_file(eeprom, optoe_one_address(image, 1, false));
  OptoeTransport t({eeprom.string(), OptoeLayout::OneAddress, 0, "", ""});
  const auto plan = cmis::dynamic_reads(image);
  for (const auto& r : plan) {
    std::vector<uint8_t> buf(r.length);
    ASSERT_FALSE(t.read({0x50, r.page.bank, static_cast<uint8_t>(r.page.page < 0 ? 0 : r.page.page),
                         r.offset, r.length},
                        buf));
  }
  // optoe's own I2C_RDWR traffic: lower 3 + 26; page 11h: select 3 + read 3 + 74 + restore 3.
  EXPECT_EQ(t.counters().bytes, 29u + 83u);
  EXPECT_EQ(t.counters().transactions, 4u);
}

TEST(TransportOptoe, NeverOpensForWriting) {
  TempDir dir;
  const fs::path eeprom = dir.path / "7-0050" / "eeprom";
  write_file(eeprom, std::vector<uint8_t>(32896, 0));
  fs::permissions(eeprom, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  OptoeTransport t({eeprom.string(), OptoeLayout::OneAddress, 0, "", ""});
  std::vector<uint8_t> out(128);
  EXPECT_FALSE(t.read(ReadRequest{0x50, 0, 0x03, 128, 128}, out));  // read-only file is enough
}

}  // namespace
}  // namespace xcvr::optoe

namespace xcvr::optoe {
namespace {

std::string run(const std::string& cmd, int& rc) {
  auto r = test::run_command(cmd);
  rc = r.code;
  return r.out;
}

TEST(TransportOptoe, XcvrctlShowReadsTheOptoeFileLive) {
  TempDir dir;
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8"));
  const fs::path eeprom = dir.path / "7-0050" / "eeprom";
  write_file(eeprom, optoe_one_address(image, 1, false));
  int rc = -1;
  const std::string out = run(std::string(XCVRCTL_PATH) + " show --optoe " + eeprom.string(), rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find(emulator::find_model("qsfpdd-400g-sr8")->part_number), std::string::npos) << out;
  EXPECT_NE(out.find("optoe " + eeprom.string()), std::string::npos) << out;
  const std::string json =
      run(std::string(XCVRCTL_PATH) + " show --json --optoe " + eeprom.string(), rc);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(json.front(), '{');
}

TEST(TransportOptoe, XcvrctlShowWithoutHardwareExits2) {
  int rc = -1;
  const std::string out =
      run(std::string(XCVRCTL_PATH) + " show --i2c /dev/i2c-xcvr-test-none 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("/dev/i2c-xcvr-test-none: No such file or directory — is i2c-dev loaded "
                     "(modprobe i2c-dev)?"),
            std::string::npos)
      << out;
  run(std::string(XCVRCTL_PATH) + " show --optoe /nonexistent/7-0050/eeprom 2>&1", rc);
  EXPECT_EQ(rc, 2);
  run(std::string(XCVRCTL_PATH) + " show 2>&1", rc);
  EXPECT_EQ(rc, 2);
}

}  // namespace
}  // namespace xcvr::optoe

namespace xcvr::optoe {
namespace {

// A recorded sysfs layout: two optoe clients, an at24 EEPROM (not a module), an adapter entry,
// and an sx_core tree with two modules on asic 0.
TEST(OptoeDiscovery, FindsOptoeClientsAndSxCoreModulesByName) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("xcvr-optoe-disc-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path devices = root / "bus-i2c-devices";
  auto client = [&](const char* entry, const char* driver_name) {
    fs::create_directories(devices / entry);
    std::ofstream(devices / entry / "name") << driver_name << "\n";
    std::ofstream(devices / entry / "eeprom") << std::string(256, '\0');
  };
  client("12-0050", "optoe3");
  client("11-0050", "optoe2");
  client("3-0050", "24c02");  // at24: a board EEPROM, not a pluggable module
  fs::create_directories(devices / "i2c-11");  // the adapter itself
  const fs::path sx = root / "sx_core";
  fs::create_directories(sx / "asic0" / "module10" / "eeprom");
  fs::create_directories(sx / "asic0" / "module2" / "eeprom");
  fs::create_directories(sx / "asic0" / "module_info");  // not a module directory
  const EepromDiscovery d = discover_optoe(devices.string(), sx.string());
  ASSERT_EQ(d.found.size(), 4u);
  EXPECT_EQ(d.found[0].name, "optoe-11");
  EXPECT_EQ(d.found[0].config.path, (devices / "11-0050" / "eeprom").string());
  EXPECT_EQ(d.found[0].config.layout, OptoeLayout::Auto) << "dev_class decides at first read";
  EXPECT_EQ(d.found[1].name, "optoe-12");
  EXPECT_EQ(d.found[2].name, "module2");
  EXPECT_EQ(d.found[2].config.layout, OptoeLayout::SxCore);
  EXPECT_EQ(d.found[3].name, "module10");
  EXPECT_EQ(d.looked_at, 3 + 2) << "three i2c clients, two sx_core modules";
  EXPECT_TRUE(discover_optoe((root / "none").string(), (root / "none").string()).found.empty());
  fs::remove_all(root);
}

// A platform that names its cages (optoe's port_name, written by SONiC platform init) and one
// that binds sff8436 / at24 to them (the source's `drivers`).
TEST(OptoeDiscovery, NamesByPortNameAndTakesTheDriversItIsGiven) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("xcvr-optoe-names-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path devices = root / "devices";
  auto client = [&](const char* entry, const char* driver_name, const char* port_name) {
    fs::create_directories(devices / entry);
    std::ofstream(devices / entry / "name") << driver_name << "\n";
    std::ofstream(devices / entry / "eeprom") << std::string(256, '\0');
    if (port_name != nullptr) std::ofstream(devices / entry / "port_name") << port_name << "\n";
  };
  client("20-0050", "optoe3", "Ethernet8");
  client("21-0050", "optoe3", "unitialized");  // optoe's default: not a name
  client("22-0050", "optoe1", "Ether net");     // blanks: not a name either
  client("5-0050", "sff8436", nullptr);
  client("6-0051", "24c02", nullptr);
  const fs::path none = root / "no-sx-core";
  const EepromDiscovery optoe = discover_optoe(devices.string(), none.string());
  ASSERT_EQ(optoe.found.size(), 3u);
  EXPECT_EQ(optoe.found[0].name, "Ethernet8");
  EXPECT_EQ(optoe.found[0].config.port, "Ethernet8");
  EXPECT_EQ(optoe.found[1].name, "optoe-21");
  EXPECT_EQ(optoe.found[2].name, "optoe-22");
  const EepromDiscovery legacy = discover_optoe(devices.string(), none.string(), {"sff8436", "24c02"});
  ASSERT_EQ(legacy.found.size(), 2u);
  EXPECT_EQ(legacy.found[0].name, "sff8436-5");
  EXPECT_EQ(legacy.found[0].config.path, (devices / "5-0050" / "eeprom").string());
  EXPECT_EQ(legacy.found[1].name, "24c02-6-51") << "off 0x50: the address is part of the name";
  EXPECT_EQ(legacy.looked_at, 5);
  fs::remove_all(root);
}

}  // namespace
}  // namespace xcvr::optoe
