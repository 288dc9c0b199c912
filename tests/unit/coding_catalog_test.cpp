// The optic catalog (TOML loading, overrides, errors with file:line:col, lookups), the IEEE OUI
// registry parser, and the check registry against docs/coding-checks.md.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "coding/catalog.hpp"
#include "coding/coding.hpp"

namespace xcvr::coding {
namespace {

std::string source_dir() { return std::string(XCVR_TEST_DATA) + "/../.."; }

class TempDir {
 public:
  TempDir() : path_(std::filesystem::temp_directory_path() / ("coding_catalog_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

Catalog load_ok(const std::vector<std::string>& paths) {
  auto r = load_catalog(paths);
  if (auto* e = std::get_if<CatalogError>(&r)) {
    ADD_FAILURE() << e->to_string();
    return {};
  }
  return std::get<Catalog>(r);
}

CatalogError load_error(const std::string& text) {
  Catalog c;
  const auto err = parse_catalog_into(c, text, "site.toml");
  if (!err) {
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
  }
  EXPECT_TRUE(c.empty()) << "a bad file must leave the catalog untouched";
  return *err;
}

// NVIDIA's identity (Mellanox OUIs under the name NVIDIA) does not vanish with the catalog: no
// catalog, or a site catalog that replaces the shipped one, still finds it; a site
// [vendor.nvidia] replaces it by key.
TEST(CodingCatalog, BuiltInVendorsOutliveASiteCatalog) {
  const Catalog empty;
  for (const Catalog* c : {static_cast<const Catalog*>(nullptr), &empty}) {
    const CatalogVendor* v = find_vendor(c, " nvidia ");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->key, "nvidia");
    EXPECT_NE(std::find(v->ouis.begin(), v->ouis.end(), "00:02:c9"), v->ouis.end());
    EXPECT_FALSE(v->source.empty());
    EXPECT_EQ(find_vendor(c, "JDSU")->key, "lumentum");
  }
  TempDir dir;
  const Catalog other = load_ok({dir.write("site.toml", "[vendor.acme]\nnames = [\"ACME\"]\nsource = \"t\"\n")});
  EXPECT_EQ(other.find_vendor("NVIDIA")->key, "nvidia");
  EXPECT_EQ(other.find_vendor("Mellanox")->location, builtin_vendors().front().location);
  const Catalog redefined =
      load_ok({dir.write("nv.toml", "[vendor.nvidia]\nnames = [\"NVIDIA\"]\nouis = [\"00:11:22\"]\nsource = \"t\"\n")});
  EXPECT_EQ(redefined.find_vendor("NVIDIA")->ouis, std::vector<std::string>{"00:11:22"});
  EXPECT_EQ(redefined.find_vendor("Mellanox"), nullptr) << "the site's entry replaced the built-in one whole";
}

TEST(CodingCatalog, ShippedCatalogHasTheSeededParts) {
  const Catalog c = load_ok({source_dir() + "/config/catalog"});
  const CatalogEntry* ns400 = c.find_part("MMA4Z00-NS400");
  ASSERT_NE(ns400, nullptr);
  EXPECT_EQ(ns400->style, "flat-top");
  EXPECT_EQ(ns400->identifier, std::vector<uint32_t>{0x19});
  ASSERT_TRUE(ns400->max_power_watts);
  EXPECT_EQ(ns400->max_power_watts->second, 9.0);
  const CatalogEntry* ns = c.find_part("MMA4Z00-NS  ");  // trailing blanks of the PN field
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(ns->style, "finned-top");
  // One entry stands for every length of a cable, each found by its own part number.
  const CatalogEntry* dac = c.find_part("MCP7Y00-N02A");
  ASSERT_NE(dac, nullptr);
  EXPECT_EQ(dac->key, "MCP7Y00-N02A");
  EXPECT_EQ(dac->media_type, std::vector<uint32_t>{0x03});
  EXPECT_EQ(c.find_part("MCP7Y00-N001")->media_type, dac->media_type);
  EXPECT_EQ(c.find_part("MMS4X00-NM")->style, "finned-top");
  for (const char* g : {"qsfpdd-400g-sr8", "qsfpdd-400g-dr4", "qsfpdd-400g-fr4", "qsfpdd-400g-lr4",
                        "qsfp28-100g-sr4", "qsfp28-100g-lr4", "qsfp28-100g-cwdm4"}) {
    EXPECT_TRUE(c.generics().contains(g)) << g;
  }
  // Every entry cites where its facts come from.
  for (const auto& [k, e] : c.parts()) EXPECT_FALSE(e.source.empty()) << k;
  for (const auto& [k, e] : c.generics()) EXPECT_FALSE(e.source.empty()) << k;
  for (const auto& [k, v] : c.vendors()) EXPECT_FALSE(v.source.empty()) << k;
  EXPECT_NE(c.find_vendor("mellanox"), nullptr);
  EXPECT_TRUE(c.find_vendor("DELL")->rebrander);
  EXPECT_EQ(c.find_vendor("ACME"), nullptr);
}

TEST(CodingCatalog, GenericProfilesMatchByApplicationOrCompliance) {
  const Catalog c = load_ok({source_dir() + "/config/catalog"});
  EXPECT_EQ(c.find_generic(0x18, 0x10, std::nullopt)->key, "qsfpdd-400g-sr8");
  EXPECT_EQ(c.find_generic(0x18, 0x43, std::nullopt)->key, "qsfpdd-400g-lr4");
  EXPECT_EQ(c.find_generic(0x11, std::nullopt, 0x06)->key, "qsfp28-100g-cwdm4");
  EXPECT_EQ(c.find_generic(0x19, 0x10, std::nullopt), nullptr);  // an OSFP SR8 is no QSFP-DD
  EXPECT_EQ(c.find_generic(0x11, std::nullopt, 0x07), nullptr);   // PSM4: no profile
}

TEST(CodingCatalog, LaterFilesOverrideByPartNumber) {
  TempDir d;
  d.write("10-base.toml",
          "[part.\"ABC-1\"]\nsource = \"base\"\nidentifier = 0x18\nmax_power_watts = [1.0, 2.0]\n"
          "[part.\"ABC-2\"]\nsource = \"base\"\nidentifier = 0x18\n");
  d.write("20-site.toml", "[part.\"ABC-1\"]\nsource = \"site\"\nidentifier = [0x18, 0x1E]\n");
  d.write("README.md", "not a catalog");
  const Catalog c = load_ok({d.path()});
  ASSERT_EQ(c.files().size(), 2u);
  const CatalogEntry* e = c.find_part("ABC-1");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->source, "site");
  EXPECT_FALSE(e->max_power_watts);  // replaced whole, not merged
  EXPECT_NE(e->location.find("20-site.toml:1:1"), std::string::npos) << e->location;
  EXPECT_EQ(c.find_part("ABC-2")->source, "base");
  // Directories and files layer in the order given.
  const std::string extra = d.write("extra.toml.later", "[part.\"ABC-2\"]\nsource = \"later\"\n");
  EXPECT_EQ(load_ok({d.path(), extra}).find_part("ABC-2")->source, "later");
}

TEST(CodingCatalog, OtherPartNumbersAreForPartsOnly) {
  TempDir d;
  d.write("a.toml", "[part.\"ABC-1\"]\nsource = \"s\"\nalso = [\"ABC-2 \"]\nidentifier = 0x18\n");
  const Catalog c = load_ok({d.path()});
  ASSERT_NE(c.find_part("ABC-2"), nullptr);
  EXPECT_EQ(c.find_part("ABC-2")->identifier, std::vector<uint32_t>{0x18});
  const CatalogError e = load_error("[generic.g]\nsource = \"s\"\nalso = [\"X\"]\nmatch = { identifier = 0x18, media_interface = 0x10 }\n");
  EXPECT_NE(e.to_string().find("site.toml:3:8: generic.g.also: only parts have other part numbers"), std::string::npos)
      << e.to_string();
}

TEST(CodingCatalog, ErrorsNameFileLineAndColumn) {
  CatalogError e = load_error("[part.\"X\"]\nidentifier = 0x19\nstyle = \"round-top\"\n");
  EXPECT_EQ(e.file, "site.toml");
  EXPECT_EQ(e.line, 3);
  EXPECT_NE(e.message.find("flat-top"), std::string::npos) << e.message;
  EXPECT_EQ(e.to_string().rfind("site.toml:3:", 0), 0u) << e.to_string();

  e = load_error("[part.\"X\"]\nidentifer = 0x19\n");
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message.find("unknown key 'identifer'"), std::string::npos) << e.message;

  e = load_error("[part.\"X\"]\nidentifier = 0x19\nidentifier = 0x18\n");  // TOML: redefined key
  EXPECT_EQ(e.line, 3);

  e = load_error("[part.\"X\"]\nmax_power_watts = [9.0, 8.0]\n");
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message.find("min <= max"), std::string::npos) << e.message;

  e = load_error("[part.\"X\"]\nconnector = 300\n");
  EXPECT_EQ(e.line, 2);

  e = load_error("[part.\"X\"]\n[[part.\"X\".rule]]\nfield = \"vendor_nmae\"\none_of = [\"A\"]\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_NE(e.message.find("vendor_nmae"), std::string::npos);

  e = load_error("[generic.\"g\"]\nidentifier = 0x18\n");
  EXPECT_NE(e.message.find("match"), std::string::npos) << e.message;

  e = load_error("[vendor.acme]\nouis = [\"00:02\"]\nnames = [\"ACME\"]\n");
  EXPECT_NE(e.message.find("not an OUI"), std::string::npos) << e.message;

  e = load_error("[optics.\"X\"]\n");
  EXPECT_NE(e.message.find("unknown table 'optics'"), std::string::npos) << e.message;

  e = load_error("this is = = not toml\n");
  EXPECT_EQ(e.line, 1);

  // A missing path is an error too, not an empty catalog.
  auto r = load_catalog({"/nonexistent/catalog.d"});
  ASSERT_TRUE(std::holds_alternative<CatalogError>(r));
  EXPECT_NE(std::get<CatalogError>(r).to_string().find("/nonexistent/catalog.d"), std::string::npos);
}

TEST(CodingCatalog, DefaultDirectoryIsFoundFromABuildTree) {
  if (std::filesystem::exists(kInstalledCatalogDir)) GTEST_SKIP() << "installed catalog present";
  const std::string dir = default_catalog_dir(source_dir() + "/build-somewhere/bin");
  EXPECT_TRUE(std::filesystem::equivalent(dir, source_dir() + "/config/catalog")) << dir;
  EXPECT_EQ(default_catalog_dir("/"), "");
}

TEST(CodingCatalog, NormalizesOuis) {
  EXPECT_EQ(normalize_oui("00:02:C9"), "00:02:c9");
  EXPECT_EQ(normalize_oui("0002c9"), "00:02:c9");
  EXPECT_EQ(normalize_oui("00-02-C9"), "00:02:c9");
  EXPECT_EQ(normalize_oui("00:02"), std::nullopt);
  EXPECT_EQ(normalize_oui("zz:02:c9"), std::nullopt);
}

TEST(CodingOui, ParsesCsvAndTxtLayouts) {
  OuiRegistry r;
  EXPECT_EQ(r.parse("Registry,Assignment,Organization Name,Organization Address\n"
                    "MA-L,0002C9,\"Mellanox Technologies, Inc.\",\"350 Oakmead Parkway\"\n"
                    "MA-M,0002C91,Somebody,\n"
                    "MA-L,ACDE48,Private,\r\n"),
            2u);
  EXPECT_EQ(r.organization("00:02:c9"), "Mellanox Technologies, Inc.");
  EXPECT_EQ(r.organization("AC-DE-48"), "Private");
  EXPECT_EQ(r.organization("00:00:01"), std::nullopt);
  OuiRegistry t;
  EXPECT_EQ(t.parse("OUI/MA-L\t\t\tOrganization\n00-90-65   (hex)\t\tFINISAR CORPORATION\n"
                    "009065     (base 16)\t\tFINISAR CORPORATION\n"),
            1u);
  EXPECT_EQ(t.organization("009065"), "FINISAR CORPORATION");
}

TEST(CodingOui, MissingRegistryIsNotAnError) {
  const OuiRegistry r = OuiRegistry::load("/nonexistent/ieee-data");
  EXPECT_FALSE(r.available());
  EXPECT_NE(r.error().find("/nonexistent/ieee-data"), std::string::npos);
  EXPECT_NE(r.error().find("ieee-data"), std::string::npos);
  TempDir d;
  const OuiRegistry junk = OuiRegistry::load(d.write("oui.csv", "nothing useful\n"));
  EXPECT_FALSE(junk.available());
  EXPECT_NE(junk.error().find("no OUI assignments"), std::string::npos) << junk.error();
}

TEST(CodingOui, TestEntriesAgreeWithTheInstalledRegistry) {
  const OuiRegistry r = OuiRegistry::load();
  if (!r.available()) GTEST_SKIP() << r.error();
  EXPECT_GT(r.size(), 10000u);
  // What coding_real_dumps_test and coding_emulator_test assume the registry says.
  const std::map<std::string, std::string> used = {
      {"00:02:c9", "Mellanox Technologies, Inc."}, {"00:90:65", "FINISAR CORPORATION"},
      {"00:01:9c", "JDS Uniphase Inc."},          {"00:1f:22", "Source Photonics, Inc."},
      {"44:7c:7f", "Innolight Technology Corporation"}, {"00:09:3a", "Molex CMS"},
      {"00:06:f6", "Cisco Systems, Inc"},          {"20:1b:c9", "Juniper Networks"},
      {"ac:de:48", "Private"}};
  for (const auto& [oui, org] : used) EXPECT_EQ(r.organization(oui), org) << oui;
  EXPECT_EQ(r.organization("9a:ad:ca"), std::nullopt);  // Credo's CID-range value
  EXPECT_NE(r.source().find("oui"), std::string::npos);
}

TEST(CodingChecks, IdsAreUniqueAndDescribed) {
  std::set<std::string_view> ids;
  for (const CheckInfo& c : coding_checks()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_FALSE(c.description.empty()) << c.id;
    EXPECT_TRUE(c.severity == "fail" || c.severity == "warn" || c.severity == "fail/warn") << c.id;
    EXPECT_TRUE(c.scope == "module" || c.scope == "fleet") << c.id;
    // Prometheus label values: keep them snake_case.
    for (char ch : c.id) EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_') << c.id;
  }
  EXPECT_EQ(find_check("checksum_00h")->scope, "module");
  EXPECT_EQ(find_check("serial_duplicate")->scope, "fleet");
  EXPECT_EQ(find_check("no_such_check"), nullptr);
}

TEST(CodingChecks, DocsDescribeEveryCheck) {
  std::ifstream in(source_dir() + "/docs/coding-checks.md");
  ASSERT_TRUE(in) << "docs/coding-checks.md missing";
  std::stringstream text;
  text << in.rdbuf();
  for (const CheckInfo& c : coding_checks()) {
    EXPECT_NE(text.str().find("`" + std::string(c.id) + "`"), std::string::npos) << c.id << " not in docs/coding-checks.md";
  }
}

}  // namespace
}  // namespace xcvr::coding
