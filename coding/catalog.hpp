// The optic catalog: what each part number promises (identifier, media, applications, power,
// vendor, module style), loaded from TOML files (config/catalog/*.toml, then site catalogs).
//
// A catalog is a list of files read in order; a directory stands for its *.toml files in name
// order. A later file's entry replaces an earlier entry with the same key (part number, generic
// profile name or vendor key) whole — that is how a site catalog overrides the shipped one.
// Errors name file:line:column and nothing is half-loaded.
//
// Three kinds of tables (see docs/coding-checks.md for every key):
//   [part."MMA4Z00-NS400"]        a part number (exact match on the trimmed vendor PN field)
//   [generic."qsfpdd-400g-sr8"]   a profile for modules whose PN is not listed, matched by
//                                 identifier and the media interface of application 1 (CMIS) or
//                                 the extended compliance code (SFF-8636)
//   [vendor.nvidia]               vendor-name spellings, IEEE registrant names and OUIs that
//                                 belong together (acquisitions), or a rebrander whose optics
//                                 carry their manufacturer's OUI
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "base/text_position.hpp"

namespace xcvr::coding {

// One application the part must advertise (CMIS). Empty lists / zero counts are "any".
struct CatalogApplication {
  std::vector<uint32_t> host_interface;   // acceptable SFF-8024 host interface IDs
  std::vector<uint32_t> media_interface;  // acceptable media interface IDs (table per media type)
  int host_lanes = 0;
  int media_lanes = 0;
};

// A platform coding rule: a named field of the module's memory map must hold a value.
struct CatalogRule {
  std::string field;                // Field row name, e.g. "vendor_name", "connector"
  std::vector<std::string> one_of;  // ASCII fields: trimmed text; numeric fields: decimal/0x hex
  bool nonblank = false;            // the field must not be blank/zero
  std::string why;                  // shown in the finding
  std::string location;             // file:line:col
};

struct CatalogEntry {
  std::string key;          // part number, or generic profile name
  bool generic = false;
  std::string description;
  std::string source;       // where the facts come from (datasheet, standard)
  std::string location;     // file:line:col of the table
  std::string form_factor;  // "OSFP", "QSFP-DD", "QSFP28" (for messages)
  std::vector<std::string> also;  // parts: other part numbers coded alike (a cable's lengths)

  // Generic profiles only: which modules they apply to.
  std::vector<uint32_t> match_identifier;
  std::vector<uint32_t> match_media_interface;      // CMIS application 1 media ID
  std::vector<uint32_t> match_extended_compliance;  // SFF-8636 byte 192

  // Expectations; empty / nullopt = not checked.
  std::vector<uint32_t> identifier;
  std::optional<std::string> style;  // "flat-top" or "finned-top"
  std::vector<uint32_t> media_type;  // CMIS 00h:85
  std::vector<uint32_t> connector;
  std::vector<uint32_t> media_interface_technology;
  std::vector<uint32_t> extended_compliance;  // SFF-8636 / SFF-8472
  std::optional<std::pair<double, double>> wavelength_nm;    // nominal wavelength range
  std::optional<std::pair<double, double>> max_power_watts;  // advertised max power range
  std::vector<CatalogApplication> applications;               // each must be advertised
  std::vector<std::string> vendor_names;  // allowed vendor name field values (case-insensitive)
  std::vector<std::string> vendor_ouis;   // allowed OUIs, "00:02:c9"
  std::vector<CatalogRule> rules;
};

struct CatalogVendor {
  std::string key;
  std::vector<std::string> names;        // vendor-name field spellings (case-insensitive)
  std::vector<std::string> registrants;  // IEEE organization names that are this vendor
  std::vector<std::string> ouis;         // "00:02:c9"
  bool rebrander = false;  // sells optics made by others, which carry the maker's OUI
  std::string source;
  std::string location;
};

// The built-in vendors, each with its sources (coding/vendor_identity.cpp holds the one table).
// Catalog::find_vendor() and find_vendor() look here after the catalog's [vendor.*] entries.
std::span<const CatalogVendor> builtin_vendors();

class Catalog {
 public:
  // Adds or replaces (same key) entries.
  void put(CatalogEntry entry);
  void put(CatalogVendor vendor);

  // The entry for a part number (exact, after trimming blanks), else the first generic profile
  // (in key order) that matches. nullptr when none applies.
  const CatalogEntry* find_part(const std::string& part_number) const;
  const CatalogEntry* find_generic(uint32_t identifier, std::optional<uint32_t> app1_media_interface,
                                   std::optional<uint32_t> extended_compliance) const;
  // The vendor whose names include `vendor_name` (case-insensitive), or nullptr: the catalog's
  // [vendor.*] entries first, then the built-in ones (coding/vendor_identity.cpp) whose key no
  // catalog entry redefines (a site entry replaces a built-in one by key).
  const CatalogVendor* find_vendor(const std::string& vendor_name) const;

  const std::map<std::string, CatalogEntry>& parts() const { return parts_; }
  const std::map<std::string, CatalogEntry>& generics() const { return generics_; }
  const std::map<std::string, CatalogVendor>& vendors() const { return vendors_; }
  const std::vector<std::string>& files() const { return files_; }
  void add_file(std::string path) { files_.push_back(std::move(path)); }
  bool empty() const { return parts_.empty() && generics_.empty() && vendors_.empty(); }

 private:
  std::map<std::string, CatalogEntry> parts_;
  std::map<std::string, CatalogEntry> generics_;
  std::map<std::string, CatalogVendor> vendors_;
  std::vector<std::string> files_;
};

using CatalogError = base::TextError;

using CatalogResult = std::variant<Catalog, CatalogError>;

// Parses one TOML document into `catalog` (entries override those already there).
std::optional<CatalogError> parse_catalog_into(Catalog& catalog, std::string_view text,
                                               const std::string& origin);
// Catalog::find_vendor() for a catalog that may be absent (nullptr: the built-in vendors only).
const CatalogVendor* find_vendor(const Catalog* catalog, const std::string& vendor_name);

// Loads files and directories (their *.toml in name order) in the order given.
CatalogResult load_catalog(const std::vector<std::string>& paths);

// The shipped catalog directory: /usr/share/transceiver-exporter/catalog when installed, else
// the source tree's config/catalog found by walking up from `executable_dir` (a build tree).
// Empty when neither exists.
std::string default_catalog_dir(const std::string& executable_dir);
inline constexpr const char* kInstalledCatalogDir = "/usr/share/transceiver-exporter/catalog";

// "00:02:c9" from "00:02:C9", "0002C9", "00-02-C9"; nullopt when not 3 hex bytes.
std::optional<std::string> normalize_oui(std::string_view text);

}  // namespace xcvr::coding
