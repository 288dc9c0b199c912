// Dump-file parser: every published dump in tests/data, round trips through every text form the
// tests can render, layouts of binary dumps, and a corpus of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cmis/decode.hpp"
#include "dumpfile/dump_parser.hpp"

namespace xcvr::dumpfile {
namespace {

using cmis::kDeviceA0;
using cmis::kDeviceA2;
using cmis::kLowerPage;
using cmis::ModuleImage;
using cmis::PageKey;
using Bytes = std::vector<uint8_t>;

constexpr PageKey kLower{kDeviceA0, 0, kLowerPage};
constexpr PageKey kA2Lower{kDeviceA2, 0, kLowerPage};
constexpr PageKey page(int p, int bank = 0) {
  return PageKey{kDeviceA0, static_cast<uint8_t>(bank), static_cast<int16_t>(p)};
}
constexpr PageKey a2_page(int p) { return PageKey{kDeviceA2, 0, static_cast<int16_t>(p)}; }

// ---- Helpers -------------------------------------------------------------------------------

std::filesystem::path data_dir() { return XCVR_TEST_DATA; }

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The dump, or an empty one after reporting the error as a test failure.
ParsedDump parsed(const ParseResult& result) {
  if (const auto* error = std::get_if<ParseError>(&result)) {
    ADD_FAILURE() << "parse failed: " << error->message;
    return {};
  }
  return std::get<ParsedDump>(result);
}

ParsedDump parse_text(std::string_view text, Format format = Format::Auto) {
  return parsed(parse(text, format));
}

ParsedDump parse_bytes(const Bytes& bytes, Format format = Format::Auto) {
  return parsed(parse(std::span<const uint8_t>(bytes), format));
}

std::vector<std::string> page_names(const ModuleImage& image) {
  std::vector<std::string> names;
  for (const auto& entry : image.entries()) names.push_back(cmis::page_name(entry.key));
  return names;
}

void expect_same_image(const ModuleImage& got, const ModuleImage& want) {
  ASSERT_EQ(page_names(got), page_names(want));
  for (const auto& entry : want.entries()) {
    const auto* other = got.find(entry.key);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(other->bytes, entry.bytes) << cmis::page_name(entry.key);
  }
}

std::string ascii_at(const ModuleImage& image, const PageKey& key, uint16_t offset,
                     std::size_t length) {
  std::string out;
  for (std::size_t i = 0; i < length; ++i) {
    const auto b = image.byte(key.device, key.bank, key.page, static_cast<uint16_t>(offset + i));
    out += b ? static_cast<char>(*b) : '?';
  }
  return out;
}

bool is_sfp(const ModuleImage& image) {
  return image.byte(kDeviceA0, 0, kLowerPage, 0) == uint8_t{0x03};
}

std::string format_to(const char* fmt, std::size_t value) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

std::string hex2(uint8_t b) { return format_to("%02x", b); }

std::string ascii_column(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '.';
  return out;
}

std::string joined(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += (out.empty() ? "" : " ") + hex2(b);
  return out;
}

// Window offset of byte 0 of a half.
std::size_t window_base(const PageKey& key) { return key.page == kLowerPage ? 0 : 128; }

// Calls row(window offset, 16 bytes) for the 8 rows of a half.
void for_each_row(const ModuleImage::Entry& entry,
                  const std::function<void(std::size_t, std::span<const uint8_t>)>& row) {
  for (std::size_t r = 0; r < 128; r += 16) {
    row(window_base(entry.key) + r, std::span<const uint8_t>(entry.bytes).subspan(r, 16));
  }
}

// ---- Renderers: the tests' own writers of each form ----------------------------------------

// Linear offset of a half under optoe's layouts; nullopt if it has none.
std::optional<std::size_t> linear_offset(const PageKey& key, bool sfp) {
  if (!sfp) {
    if (key.device != kDeviceA0) return std::nullopt;
    if (key.page == kLowerPage) return 0;
    return (static_cast<std::size_t>(key.bank) * 256 + static_cast<std::size_t>(key.page)) * 128 +
           128;
  }
  if (key.bank != 0) return std::nullopt;
  if (key.device == kDeviceA0) {
    if (key.page == kLowerPage) return 0;
    return key.page == 0 ? std::optional<std::size_t>(128) : std::nullopt;
  }
  return key.page == kLowerPage ? 256 : 384 + static_cast<std::size_t>(key.page) * 128;
}

// The image as one flat dump (binary, C array), when its halves are a gap-free linear prefix.
std::optional<Bytes> flat_bytes(const ModuleImage& image) {
  std::vector<std::pair<std::size_t, const ModuleImage::Entry*>> placed;
  for (const auto& entry : image.entries()) {
    const auto offset = linear_offset(entry.key, is_sfp(image));
    if (!offset) return std::nullopt;
    placed.emplace_back(*offset, &entry);
  }
  std::sort(placed.begin(), placed.end());
  Bytes out;
  for (const auto& [offset, entry] : placed) {
    if (offset != out.size()) return std::nullopt;
    out.insert(out.end(), entry->bytes.begin(), entry->bytes.end());
  }
  const std::set<std::size_t> known{128, 256, 512, 640};
  if (!known.count(out.size())) return std::nullopt;
  return out;
}

std::optional<std::string> render_ethtool_linear(const ModuleImage& image) {
  std::string out = "$ ethtool -m sfp1 hex on\nOffset\t\tValues\n------\t\t------\n";
  for (const auto& entry : image.entries()) {
    const auto offset = linear_offset(entry.key, is_sfp(image));
    if (!offset) return std::nullopt;
    for_each_row(entry, [&](std::size_t at, std::span<const uint8_t> bytes) {
      out += format_to("0x%04zx:\t\t", *offset + at - window_base(entry.key)) + joined(bytes) + "\n";
    });
  }
  return out;
}

std::optional<std::string> render_ethtool_pages(const ModuleImage& image) {
  std::string out;
  for (const auto& entry : image.entries()) {
    const PageKey& key = entry.key;
    out += "$ ethtool -m eth0";
    if (key.device == kDeviceA2) out += " i2c 0x51";
    out += key.page == kLowerPage ? " page 0" : format_to(" page 0x%02zx", static_cast<std::size_t>(key.page));
    if (key.bank != 0) out += " bank " + std::to_string(key.bank);
    out += " hex on\nOffset\t\tValues\n------\t\t------\n";
    for_each_row(entry, [&](std::size_t at, std::span<const uint8_t> bytes) {
      out += format_to("0x%04zx:\t\t", at) + joined(bytes) + "\n";
    });
  }
  return out;
}

std::string sfputil_header(const PageKey& key, bool sfp) {
  if (sfp) {
    if (key.device == kDeviceA0) return key.page == kLowerPage ? "A0h dump" : "";
    if (key.page == kLowerPage) return "A2h dump (lower 128 bytes)";
    return format_to("A2h dump (upper 128 bytes) page %zxh", static_cast<std::size_t>(key.page));
  }
  if (key.page == kLowerPage) return "Lower page 0h";
  std::string header = format_to("Upper page %zxh", static_cast<std::size_t>(key.page));
  if (key.bank != 0) header += " bank " + std::to_string(key.bank);
  return header;
}

std::optional<std::string> render_sfputil(const ModuleImage& image) {
  const std::string indent = "        ";
  std::string out = "EEPROM hexdump for port Ethernet0\n";
  for (const auto& entry : image.entries()) {
    const std::string header = sfputil_header(entry.key, is_sfp(image));
    if (!header.empty()) out += indent + header + "\n";
    for_each_row(entry, [&](std::size_t at, std::span<const uint8_t> bytes) {
      out += indent + format_to("%08zx ", at) + joined(bytes.first(8)) + "  " +
             joined(bytes.subspan(8)) + " |" + ascii_column(bytes) + "|\n";
    });
    out += "\n";
  }
  return out;
}

std::optional<std::string> render_junos(const ModuleImage& image) {
  std::string out = "root@qfx:pfe> show picd optics fpc_slot 0 pic_slot 0 port 0 cmd info\n"
                    "   EEPROM details for XCVR: xcvr-0/0/0\n";
  for (const auto& entry : image.entries()) {
    if (entry.key.device != kDeviceA0) return std::nullopt;
    if (entry.key.page == kLowerPage) {
      out += "   QSFP-DD Lower Page:\n";
    } else {
      out += format_to("   Upper Page %02zXh", static_cast<std::size_t>(entry.key.page));
      if (entry.key.bank != 0) out += " Bank " + std::to_string(entry.key.bank);
      out += ":\n";
    }
    out += "       0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n";
    for_each_row(entry, [&](std::size_t at, std::span<const uint8_t> bytes) {
      out += format_to("  0x%02zx:", at) + joined(bytes) + "\n";
    });
  }
  return out + "  Warning: Page 10h,11h maybe stale\n";
}

std::optional<std::string> render_i2cdump(const ModuleImage& image) {
  std::string out;
  for (uint8_t device : {kDeviceA0, kDeviceA2}) {
    std::vector<const ModuleImage::Entry*> halves;
    for (const auto& entry : image.entries()) {
      if (entry.key.device != device) continue;
      if (entry.key.bank != 0 || entry.key.page > 0) return std::nullopt;
      halves.push_back(&entry);
    }
    if (halves.empty()) continue;
    out += format_to("$ i2cdump -y 1 0x%02zx\n", device) +
           "No size specified (using byte-data access)\n"
           "     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f    0123456789abcdef\n";
    for (const auto* entry : halves) {
      for_each_row(*entry, [&](std::size_t at, std::span<const uint8_t> bytes) {
        out += format_to("%02zx: ", at);
        for (uint8_t b : bytes) out += hex2(b) + " ";
        out += "   " + ascii_column(bytes) + "\n";
      });
    }
  }
  return out;
}

std::optional<std::string> render_c_array(const ModuleImage& image) {
  const auto flat = flat_bytes(image);
  if (!flat) return std::nullopt;
  std::string out = "static const sff_db_entry_t entry = {\n    .eeprom = {\n";
  for (std::size_t i = 0; i < flat->size(); ++i) {
    out += (i % 16 == 0 ? "        " : " ") + format_to("0x%02zx,", (*flat)[i]);
    if (i % 16 == 15) out += "\n";
  }
  return out + "    },\n    .info = { \"VENDOR\", -1 },\n};\n";
}

std::string bytearray_name(const PageKey& key) {
  if (key.device == kDeviceA2) {
    return key.page == kLowerPage ? "a2h_lower_bytearray"
                                  : "a2h_upper_page" + std::to_string(key.page) + "_bytearray";
  }
  if (key.page == kLowerPage) return "lower_page_bytearray";
  std::string name = "upper_page" + std::to_string(key.page);
  if (key.bank != 0) name += "_bank" + std::to_string(key.bank);
  return name + "_bytearray";
}

std::optional<std::string> render_bytearrays(const ModuleImage& image) {
  std::string out = "    def test_dump(self):\n";
  for (const auto& entry : image.entries()) {
    out += "        " + bytearray_name(entry.key) + " = bytearray([";
    for (std::size_t i = 0; i < entry.bytes.size(); ++i) {
      out += (i ? ", " : "") + std::to_string(entry.bytes[i]);
    }
    out += "])\n";
  }
  return out;
}

struct Renderer {
  std::string_view name;
  Format format;
  std::function<std::optional<std::string>(const ModuleImage&)> render;
};

const std::vector<Renderer>& renderers() {
  static const std::vector<Renderer> all{
      {"ethtool linear", Format::EthtoolHex, render_ethtool_linear},
      {"ethtool pages", Format::EthtoolHex, render_ethtool_pages},
      {"sfputil", Format::SfputilHex, render_sfputil},
      {"junos", Format::Junos, render_junos},
      {"i2cdump", Format::I2cdump, render_i2cdump},
      {"c array", Format::CArray, render_c_array},
      {"bytearray", Format::PyBytearray, render_bytearrays},
  };
  return all;
}

// Renders `image` in every form that can hold it and checks each parses back identical.
// Returns the number of forms tried.
int expect_round_trips(const ModuleImage& image) {
  int tried = 0;
  for (const Renderer& renderer : renderers()) {
    const auto text = renderer.render(image);
    if (!text) continue;
    SCOPED_TRACE(std::string(renderer.name));
    const ParsedDump back = parse_text(*text);
    EXPECT_EQ(format_name(back.format), format_name(renderer.format));
    expect_same_image(back.image, image);
    ++tried;
  }
  if (const auto flat = flat_bytes(image)) {
    SCOPED_TRACE("binary");
    const ParsedDump back = parse_bytes(*flat);
    EXPECT_EQ(back.format, Format::Binary);
    expect_same_image(back.image, image);
    ++tried;
  }
  return tried;
}

// ---- Published dumps -----------------------------------------------------------------------

struct Checksum {
  PageKey page;
  uint16_t first, last, stored_at;
};

std::vector<Checksum> cmis_checksums(std::initializer_list<int> pages) {
  std::vector<Checksum> sums;
  for (int p : pages) {
    if (p == 0) sums.push_back({page(0), 128, 221, 222});
    if (p == 1) sums.push_back({page(1), 130, 254, 255});
    if (p == 2) sums.push_back({page(2), 128, 254, 255});
  }
  return sums;
}
const std::vector<Checksum> kSff8636Checksums{{page(0), 128, 190, 191}, {page(0), 192, 222, 223}};
const std::vector<Checksum> kSff8472A0Checksums{{kLower, 0, 62, 63}, {kLower, 64, 94, 95}};
const Checksum kSff8472DmiChecksum{kA2Lower, 0, 94, 95};

struct RealDump {
  std::string file;  // under tests/data
  Format format;
  std::vector<std::string> pages;  // cmis::page_name of every half, in image order
  uint8_t identifier;
  PageKey vendor_page;
  uint16_t vendor_offset;
  std::string vendor;
  std::vector<Checksum> checksums;
};

std::ostream& operator<<(std::ostream& os, const RealDump& dump) { return os << dump.file; }

const std::vector<std::string> kLowerAnd00{"lower", "00h"};
const std::vector<std::string> kSfpA0{"lower", "00h"};
const std::vector<std::string> kSfpA0A2{"lower", "00h", "A2h lower", "A2h 00h"};
const std::vector<std::string> kCmisJunos{"lower", "00h", "01h", "02h", "10h", "11h"};

std::vector<Checksum> with(std::vector<Checksum> sums, const Checksum& more) {
  sums.push_back(more);
  return sums;
}

const std::vector<RealDump>& real_dumps() {
  static const std::vector<RealDump> all{
      {"osfp800g-credo-aec-xai01-port0/raw.txt", Format::Junos, kCmisJunos, 0x19, page(0), 129,
       "Credo", cmis_checksums({0, 1, 2})},
      {"osfp800g-credo-aec-xai03-port21/raw.txt", Format::Junos, kCmisJunos, 0x19, page(0), 129,
       "Credo", cmis_checksums({0, 1, 2})},
      {"osfp800g-juniper-dr8-xai01-port40/raw.txt", Format::Junos,
       {"lower", "00h", "01h", "02h", "03h", "10h", "11h"}, 0x19, page(0), 129, "JUNIPER-1G1",
       cmis_checksums({0, 1, 2})},
      {"qsfp-dac-molex-1110401054/raw.txt", Format::SfputilHex, kLowerAnd00, 0x0d, page(0), 148,
       "Molex Inc.", kSff8636Checksums},
      {"qsfp-dac-molex-1110401054/raw_bytearray_from_test.txt", Format::PyBytearray, kLowerAnd00,
       0x0d, page(0), 148, "Molex Inc.", kSff8636Checksums},
      {"qsfp28-cwdm4-lumentum-lq210cr-caa1/raw.txt", Format::CArray, kLowerAnd00, 0x11, page(0),
       148, "LUMENTUM", kSff8636Checksums},
      {"qsfp28-lr4-dell-3mfxg/raw.txt", Format::CArray, kLowerAnd00, 0x11, page(0), 148, "DELL",
       kSff8636Checksums},
      {"qsfp28-psm4-innolight-tr-vc13t-n00/raw.txt", Format::CArray, kLowerAnd00, 0x11, page(0),
       148, "INNOLIGHT", kSff8636Checksums},
      {"qsfp28-sr4-finisar-ftlc9551repm/raw.txt", Format::CArray, kLowerAnd00, 0x11, page(0), 148,
       "FINISAR CORP", kSff8636Checksums},
      {"qsfp28-sr4-mellanox-mma1b00-mlxsw/raw.txt", Format::EthtoolHex,
       {"lower", "00h", "01h", "02h", "03h"}, 0x11, page(0), 148, "Mellanox", kSff8636Checksums},
      {"qsfp28-sr4-mellanox-mma1b00-mlxsw/raw_first_dump_256B_before_patch.txt",
       Format::EthtoolHex, kLowerAnd00, 0x11, page(0), 148, "Mellanox", kSff8636Checksums},
      {"qsfp56-dac-mellanox-mcp1650-v001e30/raw.txt", Format::SfputilHex, kLowerAnd00, 0x11,
       page(0), 148, "Mellanox", kSff8636Checksums},
      {"qsfpdd-cu-cisco-68-103205-02/raw.txt", Format::SfputilHex, kLowerAnd00, 0x18, page(0), 129,
       "CISCO", cmis_checksums({0})},
      {"qsfpdd-dac-mellanox-mcp1660-w00ae30/raw.txt", Format::SfputilHex, kLowerAnd00, 0x18,
       page(0), 129, "Mellanox", cmis_checksums({0})},
      {"sfp28-sr-finisar-ftlf8536p4bcl/raw.txt", Format::CArray, kSfpA0, 0x03, kLower, 20,
       "FINISAR CORP.", kSff8472A0Checksums},
      {"sfpplus-sr-finisar-ftlx8571d3bcl/raw.txt", Format::SfputilHex, kSfpA0A2, 0x03, kLower, 20,
       "FINISAR CORP.", with(kSff8472A0Checksums, kSff8472DmiChecksum)},
      {"sfpplus-sr-finisar-ftlx8571d3bcl/raw_bytearray_from_test.txt", Format::PyBytearray,
       kSfpA0A2, 0x03, kLower, 20, "FINISAR CORP.",
       with(kSff8472A0Checksums, kSff8472DmiChecksum)},
  };
  return all;
}

ParsedDump parse_data_file(const std::string& file) {
  return parse_text(read_text(data_dir() / file));
}

class DumpRealTest : public ::testing::TestWithParam<RealDump> {};

TEST_P(DumpRealTest, ParsesWithAutoDetection) {
  const RealDump& want = GetParam();
  const ParsedDump got = parse_data_file(want.file);
  EXPECT_EQ(format_name(got.format), format_name(want.format));
  EXPECT_EQ(page_names(got.image), want.pages);
  EXPECT_EQ(got.image.byte(kDeviceA0, 0, kLowerPage, 0), want.identifier);
  EXPECT_EQ(ascii_at(got.image, want.vendor_page, want.vendor_offset, want.vendor.size()),
            want.vendor);
}

TEST_P(DumpRealTest, ChecksumsVerify) {
  const RealDump& want = GetParam();
  const ParsedDump got = parse_data_file(want.file);
  for (const Checksum& sum : want.checksums) {
    SCOPED_TRACE(cmis::page_name(sum.page) + " byte " + std::to_string(sum.stored_at));
    const auto stored = got.image.byte(sum.page.device, sum.page.bank, sum.page.page, sum.stored_at);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(cmis::checksum(got.image, sum.page, sum.first, sum.last), stored);
  }
}

TEST_P(DumpRealTest, ForcedFormatGivesTheSameImage) {
  const RealDump& want = GetParam();
  const std::string text = read_text(data_dir() / want.file);
  expect_same_image(parse_text(text, want.format).image, parse_text(text).image);
}

TEST_P(DumpRealTest, RoundTripsThroughEveryRenderableForm) {
  const ParsedDump got = parse_data_file(GetParam().file);
  EXPECT_GE(expect_round_trips(got.image), 5);
}

std::string param_name(const ::testing::TestParamInfo<RealDump>& info) {
  std::string name = info.param.file.substr(0, info.param.file.find('/'));
  const std::string file = info.param.file.substr(info.param.file.find('/') + 1);
  if (file != "raw.txt") name += "_" + file.substr(0, file.find('.'));
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(DumpData, DumpRealTest, ::testing::ValuesIn(real_dumps()), param_name);

TEST(DumpData, EveryPublishedRawFileIsInTheTable) {
  std::set<std::string> listed;
  for (const RealDump& dump : real_dumps()) listed.insert(dump.file);
  std::set<std::string> present;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("raw", 0) == 0 && entry.path().extension() == ".txt") {
      present.insert(std::filesystem::relative(entry.path(), data_dir()).string());
    }
  }
  EXPECT_EQ(present, listed);
}

TEST(DumpData, MlxswDumpsDifferOnlyInTemperatureAndVccBytes) {
  const auto dir = std::string("qsfp28-sr4-mellanox-mma1b00-mlxsw/");
  const ParsedDump after = parse_data_file(dir + "raw.txt");
  const ParsedDump before = parse_data_file(dir + "raw_first_dump_256B_before_patch.txt");
  std::vector<int> differ;
  for (const auto& entry : before.image.entries()) {
    const auto* other = after.image.find(entry.key);
    ASSERT_NE(other, nullptr);
    for (std::size_t i = 0; i < entry.bytes.size(); ++i) {
      if (entry.bytes[i] != other->bytes[i]) {
        differ.push_back(static_cast<int>(window_base(entry.key) + i));
      }
    }
  }
  // Temperature (22-23) and Vcc (26-27) are the only live bytes that changed between the reads.
  const std::set<int> monitors{22, 23, 26, 27};
  EXPECT_FALSE(differ.empty());
  for (int offset : differ) EXPECT_TRUE(monitors.count(offset)) << "byte " << offset;
}

TEST(DumpData, BytearraysFromTheTestsMatchTheirHexdumps) {
  for (const std::string dir : {"qsfp-dac-molex-1110401054/", "sfpplus-sr-finisar-ftlx8571d3bcl/"}) {
    SCOPED_TRACE(dir);
    expect_same_image(parse_data_file(dir + "raw_bytearray_from_test.txt").image,
                      parse_data_file(dir + "raw.txt").image);
  }
}

TEST(DumpData, JunosSessionNotesTheLinesItIgnored) {
  const ParsedDump got = parse_data_file("osfp800g-juniper-dr8-xai01-port40/raw.txt");
  ASSERT_FALSE(got.notes.empty());
  EXPECT_NE(got.notes.back().find("neither rows nor page headers"), std::string::npos);
}

// ---- Synthetic images ----------------------------------------------------------------------

cmis::PageBytes pattern(uint32_t seed) {
  std::mt19937 rng(seed);
  cmis::PageBytes bytes{};
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

ModuleImage image_of(const std::vector<PageKey>& keys, uint8_t identifier) {
  ModuleImage image;
  uint32_t seed = 1;
  for (const PageKey& key : keys) {
    cmis::PageBytes bytes = pattern(seed++);
    if (key == kLower) bytes[0] = identifier;
    image.set_page(key, bytes);
  }
  return image;
}

TEST(DumpRoundTrip, BankedCmisPages) {
  const ModuleImage image = image_of(
      {kLower, page(0), page(1), page(2), page(0x10), page(0x11), page(0x10, 1), page(0x11, 1),
       page(0x11, 3)},
      0x18);
  EXPECT_EQ(expect_round_trips(image), 5);  // ethtool x2, sfputil, junos, bytearray
}

TEST(DumpRoundTrip, SffPagesWithoutUpperPage00) {
  const ModuleImage image = image_of({kLower, page(3)}, 0x11);
  EXPECT_EQ(expect_round_trips(image), 5);
}

TEST(DumpRoundTrip, SfpWithA2hPages) {
  const ModuleImage image = image_of({kLower, page(0), kA2Lower, a2_page(0), a2_page(1)}, 0x03);
  EXPECT_EQ(expect_round_trips(image), 6);  // ethtool x2, sfputil, C array, bytearray, binary
}

TEST(DumpRoundTrip, LowerPageOnly) {
  const ModuleImage image = image_of({kLower}, 0x18);
  EXPECT_EQ(expect_round_trips(image), 8);
}

// ---- Binary layouts ------------------------------------------------------------------------

Bytes flat(std::size_t size, uint8_t identifier, uint8_t fill = 0x5a) {
  Bytes bytes(size, fill);
  bytes[0] = identifier;
  bytes[1] = 0;  // not text
  return bytes;
}

struct BinaryLayout {
  std::size_t size;
  uint8_t identifier;
  std::vector<std::string> pages;
};

TEST(DumpBinary, LayoutsBySize) {
  const std::vector<BinaryLayout> layouts{
      {128, 0x18, {"lower"}},
      {256, 0x11, {"lower", "00h"}},
      {256, 0x03, {"lower", "00h"}},
      {512, 0x03, {"lower", "00h", "A2h lower", "A2h 00h"}},
      {512, 0x18, {"lower", "00h", "01h", "02h"}},
      {640, 0x11, {"lower", "00h", "01h", "02h", "03h"}},
  };
  for (const BinaryLayout& layout : layouts) {
    SCOPED_TRACE(std::to_string(layout.size) + " bytes, identifier " + hex2(layout.identifier));
    const ParsedDump got = parse_bytes(flat(layout.size, layout.identifier));
    EXPECT_EQ(got.format, Format::Binary);
    EXPECT_EQ(page_names(got.image), layout.pages);
  }
}

TEST(DumpBinary, LinearBytesLandOnTheirPages) {
  Bytes bytes = flat(640, 0x11);
  bytes[3 * 128 + 5] = 0x77;  // page 02h byte 133
  const ParsedDump got = parse_bytes(bytes);
  EXPECT_EQ(got.image.byte(kDeviceA0, 0, 2, 133), 0x77);
}

void put_page(Bytes& file, std::size_t chunk, const cmis::PageBytes& bytes) {
  std::copy(bytes.begin(), bytes.end(), file.begin() + static_cast<std::ptrdiff_t>(chunk * 128));
}

TEST(DumpBinary, WholeOptoeFileKeepsPagesWithContent) {
  Bytes file(32896, 0x00);
  put_page(file, 0, pattern(1));
  file[0] = 0x18;
  put_page(file, 1, pattern(2));        // page 00h
  put_page(file, 2, pattern(3));        // page 01h
  put_page(file, 3, pattern(4));        // page 02h
  std::fill_n(file.begin() + 4 * 128, 128, 0xFF);  // page 03h: blank
  put_page(file, 1 + 0x10, pattern(2));  // page 10h: a copy of page 00h
  put_page(file, 1 + 0x11, pattern(5));  // page 11h
  const ParsedDump got = parse_bytes(file);
  EXPECT_EQ(page_names(got.image), (std::vector<std::string>{"lower", "00h", "01h", "02h", "11h"}));
  ASSERT_FALSE(got.notes.empty());
  EXPECT_NE(got.notes.back().find("whole optoe file"), std::string::npos);
}

// An optoe file copied only as far as its last page (lower + 00h-11h) was refused as "not a
// known layout"; it is a prefix of the whole file and is read the same way.
TEST(DumpBinary, OptoeFileEndingAfterItsLastPage) {
  Bytes file(2432, 0x00);
  put_page(file, 0, pattern(1));
  file[0] = 0x18;
  put_page(file, 1, pattern(2));         // page 00h
  put_page(file, 2, pattern(3));         // page 01h
  std::fill_n(file.begin() + 3 * 128, 128, 0xFF);  // page 02h: blank
  put_page(file, 1 + 0x10, pattern(4));  // page 10h
  put_page(file, 1 + 0x11, pattern(5));  // page 11h, the last slot
  const ParsedDump got = parse_bytes(file);
  EXPECT_EQ(page_names(got.image), (std::vector<std::string>{"lower", "00h", "01h", "10h", "11h"}));
  ASSERT_FALSE(got.notes.empty());
  EXPECT_NE(got.notes.back().find("optoe linear file ending after 11h"), std::string::npos)
      << got.notes.back();
  EXPECT_EQ(got.image.byte(kDeviceA0, 0, 0x11, 128), pattern(5)[0]);
}

TEST(DumpBinary, WholeOptoeFileWithBanks) {
  Bytes file((2 * 256 + 1) * 128, 0x00);
  put_page(file, 0, pattern(1));
  file[0] = 0x19;
  put_page(file, 1, pattern(2));                 // page 00h
  put_page(file, 1 + 0x11, pattern(3));          // page 11h bank 0
  put_page(file, 1 + 256 + 0x11, pattern(4));    // page 11h bank 1
  put_page(file, 1 + 256 + 0x00, pattern(2));    // bank 1 page 00h: same as bank 0
  const ParsedDump got = parse_bytes(file);
  EXPECT_EQ(page_names(got.image),
            (std::vector<std::string>{"lower", "00h", "11h", "11h bank 1"}));
  EXPECT_EQ(got.image.find(page(0x11, 1))->bytes, pattern(4));
}

TEST(DumpBinary, WholeOptoeFileOfAnSfp) {
  Bytes file((3 + 256) * 128, 0x00);
  put_page(file, 0, pattern(1));
  file[0] = 0x03;
  put_page(file, 1, pattern(2));      // A0h upper
  put_page(file, 2, pattern(3));      // A2h lower
  put_page(file, 3 + 2, pattern(4));  // A2h page 02h
  const ParsedDump got = parse_bytes(file);
  EXPECT_EQ(page_names(got.image),
            (std::vector<std::string>{"lower", "00h", "A2h lower", "A2h 02h"}));
}

TEST(DumpBinary, AllZeroAndAllOnesDumpsOfKnownSizesParse) {
  for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xFF}}) {
    for (std::size_t size : {128u, 256u, 512u, 640u}) {
      SCOPED_TRACE(std::to_string(size) + " bytes of " + hex2(fill));
      EXPECT_EQ(parse_bytes(Bytes(size, fill)).image.entries().size(), size / 128);
    }
  }
}

// ---- Other accepted input ------------------------------------------------------------------

TEST(DumpText, HandWrittenI2cdumpOfBothAddresses) {
  std::string text = "$ i2cdump -y 3 0x50\n"
                     "     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f    0123456789abcdef\n";
  for (int r = 0; r < 16; ++r) {
    text += format_to("%02zx: ", static_cast<std::size_t>(r * 16));
    for (int b = 0; b < 16; ++b) text += (r == 0 && b == 0) ? "03 " : "20 ";
    text += "   " + std::string(16, ' ') + "\n";
  }
  text += "$ i2cdump -y 3 0x51\n";
  for (int r = 0; r < 8; ++r) {
    text += format_to("%02zx: ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab    ab\n",
                      static_cast<std::size_t>(r * 16));
  }
  const ParsedDump got = parse_text(text);
  EXPECT_EQ(got.format, Format::I2cdump);
  EXPECT_EQ(page_names(got.image), (std::vector<std::string>{"lower", "00h", "A2h lower"}));
  EXPECT_EQ(got.image.byte(kDeviceA2, 0, kLowerPage, 127), 0xab);
}

TEST(DumpText, EthtoolRowsMayStartOffBoundary) {
  std::string text = "$ ethtool -m eth0 hex on offset 8 length 120\n";
  std::string bytes8 = "00 00 00 00 00 00 00 00\n";
  text += "0x0000:\t\t11 00 00 00 00 00 00 00\n";
  for (std::size_t at = 8; at < 128; at += 16) {
    text += format_to("0x%04zx:\t\t", at) + (at + 16 <= 128 ? "00 00 00 00 00 00 00 00 " : "") + bytes8;
  }
  const ParsedDump got = parse_text(text);
  EXPECT_EQ(page_names(got.image), std::vector<std::string>{"lower"});
}

TEST(DumpText, SecondSfputilPortIsNotRead) {
  const std::string one = read_text(data_dir() / "qsfp56-dac-mellanox-mcp1650-v001e30/raw.txt");
  const std::string two = one + "EEPROM hexdump for port Ethernet4\n" +
                          one.substr(one.find("        Lower"));
  const ParsedDump got = parse_text(two);
  EXPECT_EQ(page_names(got.image), kLowerAnd00);
  EXPECT_NE(got.notes.front().find("starts another dump"), std::string::npos);
}

TEST(DumpText, CrlfLineEndingsAndByteOrderMark) {
  std::string text = read_text(data_dir() / "qsfpdd-cu-cisco-68-103205-02/raw.txt");
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_same_image(parse_text(crlf).image, parse_text(text).image);
}

TEST(DumpText, UnnamedBytearrayIsLaidOutBySize) {
  std::string text = "mock.read_eeprom.return_value = bytearray([17";
  for (int i = 1; i < 256; ++i) text += ", 0";
  text += "])\n";
  const ParsedDump got = parse_text(text);
  EXPECT_EQ(page_names(got.image), kLowerAnd00);
  EXPECT_EQ(got.image.byte(kDeviceA0, 0, kLowerPage, 0), 17);
}

TEST(DumpFormatNames, RoundTrip) {
  for (Format f : {Format::Auto, Format::Binary, Format::EthtoolHex, Format::SfputilHex,
                   Format::Junos, Format::I2cdump, Format::CArray, Format::PyBytearray}) {
    EXPECT_EQ(parse_format_name(format_name(f)), f) << format_name(f);
  }
  EXPECT_EQ(parse_format_name("SfPuTiL"), Format::SfputilHex);
  EXPECT_EQ(parse_format_name("hexdump"), std::nullopt);
}

TEST(DumpFile, ReadsAFileAndNamesItInErrors) {
  const auto path = data_dir() / "qsfpdd-cu-cisco-68-103205-02/raw.txt";
  EXPECT_EQ(page_names(parsed(parse_file(path.string())).image), kLowerAnd00);
  const auto missing = parse_file("/nonexistent/dump.bin");
  ASSERT_TRUE(std::holds_alternative<ParseError>(missing));
  EXPECT_NE(std::get<ParseError>(missing).message.find("/nonexistent/dump.bin: cannot open"),
            std::string::npos);
}

TEST(DumpFile, RefusesFilesOverTheLimit) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("dump_parser_test_big_" + std::to_string(::getpid()) + ".bin");
  {
    std::ofstream out(path, std::ios::binary);
    const std::string block(1 << 20, '\0');
    for (int i = 0; i < 5; ++i) out << block;
  }
  const auto result = parse_file(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(std::holds_alternative<ParseError>(result));
  EXPECT_NE(std::get<ParseError>(result).message.find("4 MiB"), std::string::npos);
}

// ---- Bad input -----------------------------------------------------------------------------

struct BadInput {
  std::string name;
  std::string input;
  Format format;
  std::string message;  // a part of the error message
  int line = 0;
  int column = 0;
};

std::ostream& operator<<(std::ostream& os, const BadInput& bad) { return os << bad.name; }

std::string ethtool_rows(std::size_t from, std::size_t to, const std::string& byte = "00") {
  std::string out;
  for (std::size_t at = from; at < to; at += 16) {
    out += format_to("0x%04zx:\t\t", at);
    for (int i = 0; i < 16; ++i) out += (i ? " " : "") + byte;
    out += "\n";
  }
  return out;
}

std::string sixteen(const std::string& byte = "00") {
  std::string out;
  for (int i = 0; i < 16; ++i) out += (i ? " " : "") + byte;
  return out;
}

std::string bytearray_of(const std::string& name, std::size_t n, const std::string& last = "0") {
  std::string out = name + " = bytearray([";
  for (std::size_t i = 0; i + 1 < n; ++i) out += "0, ";
  return out + last + "])\n";
}

std::string c_array_of(std::size_t n, const std::string& last = "0x00") {
  std::string out = "{\n";
  for (std::size_t i = 0; i + 1 < n; ++i) out += "0x00,";
  return out + last + "}\n";
}

std::vector<BadInput> bad_inputs() {
  return {
      {"empty", "", Format::Auto, "empty input"},
      {"one_binary_byte", "\x11", Format::Auto, "binary dump of 1 byte: not a known layout"},
      {"one_text_byte", "0", Format::Auto, "no module memory rows found in 1 line"},
      {"junk_text", "hello world\nthis is not a dump\n", Format::Auto,
       "no module memory rows found in 2 lines"},
      {"bad_hex_byte", "0x0000:  11 zz 00\n", Format::Auto, "expected a hex byte, got 'zz'", 1,
       13},
      {"truncated_linear_page", ethtool_rows(0, 128) + "0x0080:\t\t11 22 33\n", Format::Auto,
       "page 00h is incomplete: 3 of 128 bytes (first missing: 0x83)", 9},
      {"truncated_sfputil_row",
       "Lower page 0h\n00000000 " + sixteen() + " |................|\n00000010 00 00 |..|\n",
       Format::Auto, "lower page is incomplete: 18 of 128 bytes", 2},
      {"seventeen_bytes", "0x0000: " + sixteen() + " 00\n", Format::Auto,
       "row has more than 16 bytes", 1, 57},
      {"unaligned_sfputil_offset", "00000008 " + sixteen() + " |................|\n",
       Format::Auto, "offset 0x08 is not a multiple of 16", 1, 1},
      {"conflicting_duplicate", ethtool_rows(0, 16, "11") + ethtool_rows(0, 16, "22"),
       Format::Auto, "byte at linear offset 0x00 is 0x22 here but 0x11 on line 1", 2, 10},
      {"bytearray_value_over_255", bytearray_of("lower_page_bytearray", 128, "256"), Format::Auto,
       "value 256 is larger than a byte (0-255)", 1, 416},
      {"bytearray_negative", bytearray_of("lower_page_bytearray", 128, "-1"), Format::Auto,
       "expected a byte value, got '-'", 1},
      {"bytearray_not_closed", "lower_page_bytearray = bytearray([1, 2, 3", Format::Auto,
       "bytearray list is not closed", 1, 24},
      {"bytearray_wrong_size", bytearray_of("lower_page_bytearray", 100), Format::Auto,
       "has 100 values; a lower page takes 128", 1},
      {"bytearrays_without_page_names",
       bytearray_of("first", 128) + bytearray_of("second", 128), Format::Auto,
       "bytearray 'first' does not say which page it holds", 1},
      {"i2cdump_unreadable", "00: 03 00 XX 00 00 00 00 00 00 00 00 00 00 00 00 00    ...\n",
       Format::Auto, "byte 0x02 could not be read (i2cdump printed XX)", 1, 11},
      {"upper_header_lower_offsets", "  Upper Page 01h:\n  0x00:" + sixteen() + "\n",
       Format::Auto, "offset 0x00 is in the lower half, but line 1 names page 01h", 2, 3},
      {"lower_header_upper_offsets", "Lower page 0h\n00000080 " + sixteen() + " |x|\n",
       Format::Auto, "offset 0x80 is in the upper half, but line 1 names a lower page", 2},
      {"offset_outside_window", "$ ethtool -m eth0 page 3 hex on\n0x0100:\t" + sixteen() + "\n",
       Format::Auto, "offset 0x100 is outside the 256-byte window", 2, 1},
      {"row_across_halves", "$ ethtool -m eth0 page 3 hex on\n0x0078:\t" + sixteen() + "\n",
       Format::Auto, "runs past the end of its half page", 2},
      {"linear_offset_too_large", "0xffffff00:\t" + sixteen() + "\n", Format::Auto,
       "is past the largest linear layout", 1},
      {"page_out_of_range", "Upper page 1ffh\n00000080 " + sixteen() + " |x|\n", Format::Auto,
       "page 1ffh is out of range (0-255)", 1, 12},
      {"bank_out_of_range", "$ ethtool -m eth0 page 0x11 bank 9 hex on\n", Format::EthtoolHex,
       "bank 9 is out of range (0-7)", 1, 34},
      {"c_array_value_over_255", c_array_of(128, "0x100"), Format::Auto,
       "value 0x100 is larger than a byte", 2},
      {"c_array_bad_literal", c_array_of(128, "0x1g"), Format::CArray,
       "expected a byte value, got '0x1g'", 2},
      {"two_c_arrays", c_array_of(128) + c_array_of(128), Format::Auto,
       "a second byte array starts here (the first starts on line 2)", 4, 1},
      {"c_array_of_unknown_size", c_array_of(100), Format::Auto,
       "C array of 100 bytes: not a known layout", 0},
      {"forced_i2cdump_on_sfputil", "00000000 " + sixteen() + " |x|\n", Format::I2cdump,
       "no i2cdump rows"},
      {"forced_bytearray_on_ethtool", ethtool_rows(0, 128), Format::PyBytearray,
       "no bytearray([...]) lists found"},
      {"forced_c_array_on_junos", "  0x00:" + sixteen() + "\n", Format::CArray,
       "no C array of bytes found"},
      {"forced_binary_on_text", "0x0000:\t" + sixteen() + "\n", Format::Binary,
       "binary dump of 56 bytes: not a known layout"},
      {"utf16_text", std::string("\xFF\xFE" "0\0x\0" "0\0:\0", 10), Format::Auto,
       "input is UTF-16 text; convert it to UTF-8"},
      {"over_the_size_limit", std::string(5u << 20, '\0'), Format::Auto,
       "input of 5242880 bytes exceeds the 4 MiB limit"},
  };
}

class DumpBadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(DumpBadInputTest, GivesAClearError) {
  const BadInput& bad = GetParam();
  const ParseResult result = parse(bad.input, bad.format);
  ASSERT_TRUE(std::holds_alternative<ParseError>(result)) << "parsed without error";
  const ParseError& error = std::get<ParseError>(result);
  EXPECT_NE(error.message.find(bad.message), std::string::npos) << error.message;
  if (bad.line > 0) {
    EXPECT_EQ(error.line, bad.line) << error.message;
    EXPECT_EQ(error.message.rfind("line " + std::to_string(bad.line), 0), 0u) << error.message;
  }
  if (bad.column > 0) {
    EXPECT_EQ(error.column, bad.column) << error.message;
  }
}

INSTANTIATE_TEST_SUITE_P(DumpBad, DumpBadInputTest, ::testing::ValuesIn(bad_inputs()),
                         [](const ::testing::TestParamInfo<BadInput>& param_info) {
                           return param_info.param.name;
                         });

TEST(DumpBad, BinariesOfOddSizesNameTheirSize) {
  for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xFF}}) {
    for (std::size_t size : {2u, 3u, 127u, 129u, 255u, 257u, 300u, 511u, 639u, 641u, 32895u}) {
      const Bytes bytes(size, fill);
      const ParseResult result = parse(std::span<const uint8_t>(bytes));
      ASSERT_TRUE(std::holds_alternative<ParseError>(result)) << size;
      EXPECT_EQ(std::get<ParseError>(result).message.rfind(
                    "binary dump of " + std::to_string(size) + " bytes: not a known layout", 0),
                0u)
          << std::get<ParseError>(result).message;
    }
  }
}

// Random bytes and random text made of dump-like pieces: any result, never a crash.
TEST(DumpBad, RandomInputNeverCrashes) {
  std::mt19937 rng(20251130);
  const std::vector<std::string> pieces{"0x",  "00", "ff", " ",  ":",  "\n", "|",  "page ", "0h",
                                        "1",   ",",  "[",  "]",  "{",  "}",  "XX", "bytearray([",
                                        "0x0080:", "00000080 ", "80: ", "Upper page ", "bank ", "a2h "};
  const std::vector<Format> formats{Format::Auto,   Format::Binary,  Format::EthtoolHex,
                                    Format::SfputilHex, Format::Junos, Format::I2cdump,
                                    Format::CArray, Format::PyBytearray};
  for (int round = 0; round < 300; ++round) {
    std::string input;
    const std::size_t length = rng() % 2048;
    if (round % 2 == 0) {
      for (std::size_t i = 0; i < length; ++i) input += static_cast<char>(rng());
    } else {
      while (input.size() < length) input += pieces[rng() % pieces.size()];
    }
    for (Format format : formats) {
      const ParseResult result = parse(input, format);
      if (const auto* error = std::get_if<ParseError>(&result)) {
        EXPECT_FALSE(error->message.empty());
      } else {
        EXPECT_FALSE(std::get<ParsedDump>(result).image.empty());
      }
    }
  }
}

}  // namespace
}  // namespace xcvr::dumpfile
