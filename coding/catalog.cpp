#include "coding/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "base/safe_file.hpp"
#include "base/toml_input.hpp"

#include "cmis/cmis_map.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::coding {
namespace {

constexpr base::InputKind kCatalogInput{"catalog", std::size_t{1} << 20};

namespace fs = std::filesystem;


using Invalid = base::TomlInvalid;
using Table = base::TomlTable;

std::string location_of(const toml::source_region& r, const std::string& origin) {
  return base::toml_location(r, origin);
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

bool field_name_known(std::string_view name) {
  auto in = [&](std::span<const cmis::Field> table) {
    return std::any_of(table.begin(), table.end(), [&](const cmis::Field& f) { return f.name == name; });
  };
  return in(cmis::cmis_fields()) || in(cmis::sff8636_fields()) || in(cmis::sff8472_fields());
}

// A code byte or an array of them (0-255).
std::vector<uint32_t> codes(Table& t, std::string_view key) {
  std::vector<uint32_t> out;
  const toml::node* n = t.node(key);
  if (n == nullptr) return out;
  auto one = [&](const toml::node& e) {
    const auto v = e.value<int64_t>();
    if (!e.is_integer() || !v || *v < 0 || *v > 255) t.fail(&e, key, "expected a code 0-255 (e.g. 0x19) or an array of codes");
    out.push_back(static_cast<uint32_t>(*v));
  };
  if (const toml::array* a = n->as_array()) {
    if (a->empty()) t.fail(n, key, "empty array");
    for (const toml::node& e : *a) one(e);
  } else {
    one(*n);
  }
  return out;
}

std::vector<const toml::table*> array_of_tables(Table& t, std::string_view key) {
  std::vector<const toml::table*> out;
  if (const toml::array* a = t.tables(key)) {
    for (const toml::node& e : *a) out.push_back(e.as_table());
  }
  return out;
}

int lane_count(Table& t, std::string_view key) {
  const toml::node* n = t.node(key);
  if (n == nullptr) return 0;
  const auto v = n->value<int64_t>();
  if (!v || *v < 1 || *v > 16) t.fail(n, key, "expected a lane count 1-16");
  return static_cast<int>(*v);
}

std::vector<std::string> ouis(Table& t, std::string_view key) {
  std::vector<std::string> out;
  for (const std::string& s : t.strings(key)) {
    const auto oui = normalize_oui(s);
    if (!oui) throw Invalid{t.where(), t.name() + "." + std::string(key) + ": '" + s + "' is not an OUI like \"00:02:c9\""};
    out.push_back(*oui);
  }
  return out;
}

CatalogEntry parse_entry(const toml::table& t, const std::string& key, bool generic,
                         const std::string& origin) {
  const std::string name = (generic ? "generic." : "part.") + key;
  Table tb(t, name);
  tb.allow({"description", "source", "form_factor", "identifier", "style", "media_type", "connector",
            "media_interface_technology", "extended_compliance", "wavelength_nm", "max_power_watts",
            "application", "vendor_names", "vendor_ouis", "rule", "match", "also"});
  CatalogEntry e;
  e.key = key;
  e.generic = generic;
  e.location = location_of(t.source(), origin);
  e.description = tb.str("description").value_or("");
  e.source = tb.str("source").value_or("");
  e.form_factor = tb.str("form_factor").value_or("");
  e.identifier = codes(tb, "identifier");
  if (auto style = tb.str("style")) {
    if (*style != "flat-top" && *style != "finned-top") {
      throw Invalid{t.get("style")->source(), name + ".style: expected \"flat-top\" or \"finned-top\""};
    }
    e.style = *style;
  }
  e.media_type = codes(tb, "media_type");
  e.connector = codes(tb, "connector");
  e.media_interface_technology = codes(tb, "media_interface_technology");
  e.extended_compliance = codes(tb, "extended_compliance");
  e.wavelength_nm = tb.range("wavelength_nm", 600, 1700);
  e.max_power_watts = tb.range("max_power_watts", 0, 64);
  for (const toml::table* a : array_of_tables(tb, "application")) {
    Table at(*a, name + ".application");
    at.allow({"host_interface", "media_interface", "host_lanes", "media_lanes"});
    CatalogApplication app;
    app.host_interface = codes(at, "host_interface");
    app.media_interface = codes(at, "media_interface");
    app.host_lanes = lane_count(at, "host_lanes");
    app.media_lanes = lane_count(at, "media_lanes");
    e.applications.push_back(std::move(app));
  }
  e.vendor_names = tb.strings("vendor_names");
  e.vendor_ouis = ouis(tb, "vendor_ouis");
  e.also = tb.strings("also");
  if (generic && !e.also.empty()) throw Invalid{t.get("also")->source(), name + ".also: only parts have other part numbers"};
  for (const toml::table* r : array_of_tables(tb, "rule")) {
    Table rt(*r, name + ".rule");
    rt.allow({"field", "one_of", "nonblank", "why"});
    CatalogRule rule;
    rule.location = location_of(r->source(), origin);
    const auto field = rt.str("field");
    if (!field) throw Invalid{r->source(), name + ".rule: 'field' is required"};
    if (!field_name_known(*field)) {
      throw Invalid{r->get("field")->source(), name + ".rule.field: no memory-map field is named '" + *field + "'"};
    }
    rule.field = *field;
    rule.one_of = rt.strings("one_of");
    rule.nonblank = rt.boolean("nonblank").value_or(false);
    rule.why = rt.str("why").value_or("");
    if (rule.one_of.empty() && !rule.nonblank) {
      throw Invalid{r->source(), name + ".rule: give one_of = [...] or nonblank = true"};
    }
    e.rules.push_back(std::move(rule));
  }
  const toml::table* match = tb.subtable("match");
  if (generic) {
    if (match == nullptr) throw Invalid{t.source(), name + ": a generic profile needs a [match] table"};
    Table mt(*match, name + ".match");
    mt.allow({"identifier", "media_interface", "extended_compliance"});
    e.match_identifier = codes(mt, "identifier");
    e.match_media_interface = codes(mt, "media_interface");
    e.match_extended_compliance = codes(mt, "extended_compliance");
    if (e.match_identifier.empty() ||
        (e.match_media_interface.empty() && e.match_extended_compliance.empty())) {
      throw Invalid{match->source(), name + ".match: needs identifier and media_interface or extended_compliance"};
    }
  } else if (match != nullptr) {
    throw Invalid{match->source(), name + ".match: only generic profiles have a match table"};
  }
  return e;
}

CatalogVendor parse_vendor(const toml::table& t, const std::string& key, const std::string& origin) {
  Table tb(t, "vendor." + key);
  tb.allow({"names", "registrants", "ouis", "rebrander", "source"});
  CatalogVendor v;
  v.key = key;
  v.location = location_of(t.source(), origin);
  v.names = tb.strings("names");
  v.registrants = tb.strings("registrants");
  v.ouis = ouis(tb, "ouis");
  v.rebrander = tb.boolean("rebrander").value_or(false);
  v.source = tb.str("source").value_or("");
  if (v.names.empty()) throw Invalid{t.source(), "vendor." + key + ": 'names' is required"};
  return v;
}

void parse_root(Catalog& catalog, const toml::table& root, const std::string& origin) {
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (k != "part" && k != "generic" && k != "vendor") {
      throw Invalid{key.source(), "unknown table '" + k + "' (expected part, generic or vendor)"};
    }
    if (!node.is_table()) throw Invalid{node.source(), k + ": expected tables such as [" + k + ".\"NAME\"]"};
    for (const auto& [name, entry] : *node.as_table()) {
      const std::string n = trim(name.str());
      if (n.empty()) throw Invalid{name.source(), k + ": empty name"};
      if (!entry.is_table()) throw Invalid{entry.source(), k + "." + n + ": expected a table"};
      if (k == "vendor") {
        catalog.put(parse_vendor(*entry.as_table(), n, origin));
      } else {
        CatalogEntry e = parse_entry(*entry.as_table(), n, k == "generic", origin);
        for (const std::string& other : e.also) {  // the other lengths of one cable: the same entry by their own key
          CatalogEntry copy = e;
          copy.key = trim(other);
          catalog.put(std::move(copy));
        }
        catalog.put(std::move(e));
      }
    }
  }
}

std::vector<std::string> expand(const std::string& path, std::optional<CatalogError>& error) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::vector<std::string> files;
    for (const auto& de : fs::directory_iterator(path, ec)) {
      if (de.path().extension() == ".toml" && de.is_regular_file(ec)) files.push_back(de.path().string());
    }
    if (ec) error = CatalogError{path, 0, 0, "cannot list directory: " + ec.message()};
    std::sort(files.begin(), files.end());
    return files;
  }
  if (!fs::exists(path, ec)) {
    error = CatalogError{path, 0, 0, "no such file or directory"};
    return {};
  }
  return {path};
}

}  // namespace

void Catalog::put(CatalogEntry entry) {
  auto& map = entry.generic ? generics_ : parts_;
  map.insert_or_assign(entry.key, std::move(entry));
}

void Catalog::put(CatalogVendor vendor) { vendors_.insert_or_assign(vendor.key, std::move(vendor)); }

const CatalogEntry* Catalog::find_part(const std::string& part_number) const {
  const auto it = parts_.find(trim(part_number));
  return it == parts_.end() ? nullptr : &it->second;
}

const CatalogEntry* Catalog::find_generic(uint32_t identifier, std::optional<uint32_t> app1_media,
                                          std::optional<uint32_t> ext) const {
  auto has = [](const std::vector<uint32_t>& v, uint32_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (const auto& [key, e] : generics_) {
    if (!has(e.match_identifier, identifier)) continue;
    const bool by_media = app1_media && has(e.match_media_interface, *app1_media);
    const bool by_ext = ext && has(e.match_extended_compliance, *ext);
    if (by_media || by_ext) return &e;
  }
  return nullptr;
}

const CatalogVendor* Catalog::find_vendor(const std::string& vendor_name) const {
  return coding::find_vendor(this, vendor_name);
}

const CatalogVendor* find_vendor(const Catalog* catalog, const std::string& vendor_name) {
  const std::string want = upper(trim(vendor_name));
  if (want.empty()) return nullptr;
  const auto named = [&](const CatalogVendor& v) {
    return std::any_of(v.names.begin(), v.names.end(), [&](const std::string& n) { return upper(trim(n)) == want; });
  };
  if (catalog != nullptr) {
    for (const auto& [key, v] : catalog->vendors()) {
      if (named(v)) return &v;
    }
  }
  for (const CatalogVendor& v : builtin_vendors()) {
    if (catalog != nullptr && catalog->vendors().count(v.key) != 0) continue;  // the site redefined it
    if (named(v)) return &v;
  }
  return nullptr;
}

std::optional<CatalogError> parse_catalog_into(Catalog& catalog, std::string_view text,
                                               const std::string& origin) {
  // Parse into a copy: a bad file leaves the catalog as it was.
  Catalog work = catalog;
  try {
    const toml::table root = base::parse_toml(text, origin);
    parse_root(work, root, origin);
  } catch (...) {
    return base::toml_error(origin);
  }
  work.add_file(origin);
  catalog = std::move(work);
  return std::nullopt;
}

CatalogResult load_catalog(const std::vector<std::string>& paths) {
  Catalog catalog;
  for (const std::string& p : paths) {
    std::optional<CatalogError> error;
    const std::vector<std::string> files = expand(p, error);
    if (error) return *error;
    for (const std::string& f : files) {
      std::string why;
      const auto text = base::read_regular_file(f, kCatalogInput, why);
      if (!text) return CatalogError{f, 0, 0, why.substr(std::min(why.size(), f.size() + 2))};
      if (auto err = parse_catalog_into(catalog, *text, f)) return *err;
    }
  }
  return catalog;
}

std::string default_catalog_dir(const std::string& executable_dir) {
  std::error_code ec;
  if (fs::is_directory(kInstalledCatalogDir, ec)) return kInstalledCatalogDir;
  if (executable_dir.empty()) return {};
  // A build tree: walk up to the source tree (the directory holding CMakeLists.txt and
  // config/catalog). Build directories sit at most a few levels below it.
  fs::path dir = fs::path(executable_dir);
  for (int up = 0; up < 4 && !dir.empty(); ++up) {
    const fs::path candidate = dir / "config" / "catalog";
    if (fs::is_directory(candidate, ec) && fs::exists(dir / "CMakeLists.txt", ec)) {
      return candidate.string();
    }
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return {};
}

std::optional<std::string> normalize_oui(std::string_view text) {
  std::string hex;
  for (char c : text) {
    if (c == ':' || c == '-' || c == ' ') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (hex.size() != 6) return std::nullopt;
  return hex.substr(0, 2) + ":" + hex.substr(2, 2) + ":" + hex.substr(4, 2);
}

}  // namespace xcvr::coding
