// Catalog checks: does the module match what the catalog says its part number promises?
// And module_style: does the catalog's module style suit the cage?
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/sff8636_map.hpp"
#include "coding/coding.hpp"

namespace xcvr::coding::coding_internal {
namespace {

using cmis::Field;
using cmis::Spec;

std::string upper_trim(std::string_view s) {
  const auto b = s.find_first_not_of(' ');
  const auto e = s.find_last_not_of(' ');
  std::string out(b == std::string_view::npos ? std::string_view{} : s.substr(b, e - b + 1));
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool contains(const std::vector<uint32_t>& v, uint32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string code_list(const std::vector<uint32_t>& v, std::string_view (*namer)(uint8_t) = nullptr) {
  std::string out;
  for (uint32_t c : v) {
    if (!out.empty()) out += " or ";
    out += hex2(c);
    if (namer) out.append(" (").append(namer(static_cast<uint8_t>(c))).append(")");
  }
  return out;
}

std::string watts(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f W", w);
  return buf;
}

const Field* row(const Subject& s, std::string_view name) { return field_named(s.spec, name); }

std::string at(const Subject& s, std::string_view name) {
  const Field* f = row(s, name);
  return f ? where(*f, s.spec) : std::string(name);
}

// Compares a coded byte against the catalog's acceptable codes.
void expect_code(Builder& b, const Subject& s, const char* what, std::string_view field, const std::vector<uint32_t>& want,
                 std::string_view (*namer)(uint8_t)) {
  if (want.empty()) return;
  const Field* f = row(s, field);
  const auto got = f ? cmis::read_uint(s.image, *f) : std::nullopt;
  if (!got) {
    b.skip(std::string(what) + ": " + at(s, field) + " not read");
    return;
  }
  const std::string got_text = hex2(*got) + (namer ? " (" + std::string(namer(static_cast<uint8_t>(*got))) + ")" : "");
  if (contains(want, *got)) b.pass(std::string(what) + " " + got_text);
  else b.fail(at(s, field) + " is " + got_text + "; the catalog expects " + code_list(want, namer));
}

bool field_printable(const Subject& s, std::string_view name) {
  const Field* f = row(s, name);
  if (f == nullptr) return false;
  const auto bytes = cmis::read_bytes(s.image, *f);
  std::size_t end = bytes.size();
  while (end > 0 && (bytes[end - 1] == ' ' || bytes[end - 1] == 0)) --end;
  if (end == 0) return false;
  return std::all_of(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(end),
                     [](uint8_t c) { return c >= 0x20 && c <= 0x7E; });
}

std::optional<uint64_t> parse_number(std::string_view t) {
  if (t.empty()) return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  uint64_t v = 0;
  for (char c : t) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                                           : -1;
    if (d < 0) return std::nullopt;
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

void check_rule(Builder& b, const Subject& s, const CatalogRule& r) {
  const Field* f = row(s, r.field);
  const std::string why = r.why.empty() ? " (rule at " + r.location + ")" : " (" + r.why + ")";
  if (f == nullptr) {
    b.fail("the rule needs field " + r.field + ", which " + std::string(cmis::spec_name(s.spec)) + " modules do not have" + why);
    return;
  }
  const std::string where_text = where(*f, s.spec);
  std::string text;
  std::optional<uint64_t> number;
  bool blank = false;
  if (f->type == cmis::Type::Ascii) {
    const auto t = cmis::read_ascii(s.image, *f);
    if (!t) {
      b.skip(where_text + " not read");
      return;
    }
    text = upper_trim(*t);
    blank = text.empty();
  } else if (f->type == cmis::Type::Bytes) {
    const auto bytes = cmis::read_bytes(s.image, *f);
    if (bytes.empty()) {
      b.skip(where_text + " not read");
      return;
    }
    text = cmis::format_oui(bytes);
    blank = std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) { return c == 0; });
  } else {
    const auto v = cmis::read_uint(s.image, *f);
    if (!v) {
      b.skip(where_text + " not read");
      return;
    }
    number = *v;
    text = std::to_string(*v);
    blank = *v == 0;
  }
  if (r.nonblank && blank) {
    b.fail(where_text + " is blank" + why);
    return;
  }
  if (!r.one_of.empty()) {
    const bool ok = std::any_of(r.one_of.begin(), r.one_of.end(), [&](const std::string& want) {
      if (number) {
        const auto n = parse_number(want);
        return n && *n == *number;
      }
      if (f->type == cmis::Type::Bytes) {
        const auto oui = normalize_oui(want);
        return oui && *oui == text;
      }
      return upper_trim(want) == text;
    });
    if (!ok) {
      std::string list;
      for (const std::string& w : r.one_of) list += (list.empty() ? "\"" : ", \"") + w + "\"";
      b.fail(where_text + " is \"" + text + "\", not one of " + list + why);
      return;
    }
  }
  b.pass(where_text + " \"" + text + "\" satisfies the rule" + why);
}

}  // namespace

void catalog_checks(const Subject& s, ModuleVerdict& v) {
  static constexpr std::array kCatalogChecks = {Check::CatalogIdentifier, Check::CatalogMedia, Check::CatalogApplications,
                                                Check::CatalogPower,      Check::CatalogVendor, Check::CatalogRule,
                                                Check::ModuleStyle};
  const Catalog* catalog = s.ctx.catalog;
  const CatalogEntry* e = nullptr;
  std::string why_none;
  const std::string pn = s.report.id.part_number;
  if (catalog == nullptr) {
    why_none = "no catalog loaded";
  } else {
    e = catalog->find_part(pn);
    if (e == nullptr) {
      std::optional<uint32_t> app1;
      if (!s.report.applications.empty()) app1 = s.report.applications.front().media_interface.code;
      std::optional<uint32_t> ext;
      if (s.report.extended_compliance) ext = s.report.extended_compliance->code;
      e = catalog->find_generic(s.identifier, app1, ext);
    }
    if (e == nullptr) {
      why_none = "part number \"" + pn + "\" (" + at(s, "part_number") + ") is not in the catalog and no generic profile matches";
    }
  }
  if (e == nullptr) {
    for (const Check check : kCatalogChecks) {
      if (check == Check::ModuleStyle && s.ctx.required_style) {
        Builder b(check);
        b.skip("the cage needs " + *s.ctx.required_style + " but the module's style is unknown: " + why_none);
        v.results.push_back(b.done());
        continue;
      }
      Builder b(check);
      b.skip(why_none);
      v.results.push_back(b.done());
    }
    return;
  }
  v.catalog_key = e->key;
  v.catalog_generic = e->generic;
  v.catalog_location = e->location;
  const std::string entry_name = (e->generic ? "generic profile '" : "part '") + e->key + "' (" + e->location + ")";

  // Identifier / form factor.
  {
    Builder b(Check::CatalogIdentifier);
    if (e->identifier.empty()) {
      b.skip(entry_name + " sets no identifier");
    } else if (contains(e->identifier, s.identifier)) {
      b.pass(at(s, "identifier") + " " + hex2(s.identifier) + " (" + std::string(cmis::codes::identifier(static_cast<uint8_t>(s.identifier))) +
             ") as " + entry_name + " expects" + (e->form_factor.empty() ? "" : " (" + e->form_factor + ")"));
    } else {
      b.fail(at(s, "identifier") + " is " + hex2(s.identifier) + " (" + std::string(cmis::codes::identifier(static_cast<uint8_t>(s.identifier))) +
             "); " + entry_name + " is " + (e->form_factor.empty() ? "" : e->form_factor + ", ") +
             code_list(e->identifier, cmis::codes::identifier));
    }
    v.results.push_back(b.done());
  }

  // Media: type, connector, technology, compliance, wavelength.
  {
    Builder b(Check::CatalogMedia);
    if (s.spec == Spec::Cmis) expect_code(b, s, "media type", "media_type", e->media_type, cmis::codes::media_type);
    expect_code(b, s, "connector", "connector", e->connector, cmis::codes::connector);
    expect_code(b, s, "media interface technology",
                s.spec == Spec::Cmis ? "media_interface_technology" : "transmitter_technology",
                e->media_interface_technology, cmis::codes::media_interface_technology);
    if (s.spec != Spec::Cmis) {
      expect_code(b, s, "extended compliance", "extended_compliance", e->extended_compliance, cmis::codes::extended_compliance);
    }
    if (e->wavelength_nm) {
      const auto [lo, hi] = *e->wavelength_nm;
      const std::string wl_at = at(s, s.spec == Spec::Cmis ? "nominal_wavelength" : "wavelength");
      if (!s.report.wavelength_meters) {
        b.fail(wl_at + " gives no wavelength; the catalog expects " + std::to_string(static_cast<int>(lo)) + "-" +
               std::to_string(static_cast<int>(hi)) + " nm");
      } else {
        const double nm = *s.report.wavelength_meters * 1e9;
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.2f nm (catalog %.1f-%.1f nm)", nm, lo, hi);
        if (nm < lo - 1e-6 || nm > hi + 1e-6) b.fail(wl_at + " is " + buf);
        else b.pass("wavelength " + std::string(buf));
      }
    }
    const bool any = !e->media_type.empty() || !e->connector.empty() || !e->media_interface_technology.empty() ||
                     !e->extended_compliance.empty() || e->wavelength_nm;
    if (!any) b.skip(entry_name + " sets no media expectations");
    v.results.push_back(b.done());
  }

  // Applications.
  {
    Builder b(Check::CatalogApplications);
    if (e->applications.empty()) {
      b.skip(entry_name + " requires no particular application");
    } else if (s.spec != Spec::Cmis) {
      b.skip(std::string(cmis::spec_name(s.spec)) + " modules have no application descriptors");
    } else {
      for (const CatalogApplication& want : e->applications) {
        std::string desc;
        if (!want.host_interface.empty()) desc += "host " + code_list(want.host_interface, cmis::codes::host_interface);
        if (!want.media_interface.empty()) desc += (desc.empty() ? "" : ", ") + std::string("media ") + code_list(want.media_interface);
        if (want.host_lanes) desc += ", " + std::to_string(want.host_lanes) + " host lanes";
        if (want.media_lanes) desc += ", " + std::to_string(want.media_lanes) + " media lanes";
        const auto it = std::find_if(s.report.applications.begin(), s.report.applications.end(), [&](const cmis::Application& a) {
          return (want.host_interface.empty() || contains(want.host_interface, a.host_interface.code)) &&
                 (want.media_interface.empty() || contains(want.media_interface, a.media_interface.code)) &&
                 (want.host_lanes == 0 || want.host_lanes == a.host_lane_count) &&
                 (want.media_lanes == 0 || want.media_lanes == a.media_lane_count);
        });
        if (it == s.report.applications.end()) {
          b.fail("no application descriptor (" + at(s, "app_host_interface") + " ...) advertises " + desc + " as " + entry_name +
                 " requires");
        } else {
          b.pass("descriptor " + std::to_string(it->index) + " advertises " + std::string(it->host_interface.name) + " -> " +
                 std::string(it->media_interface.name));
        }
      }
    }
    v.results.push_back(b.done());
  }

  // Power.
  {
    Builder b(Check::CatalogPower);
    const std::string p_at = s.spec == Spec::Cmis ? at(s, "max_power") : s.spec == Spec::Sff8636 ? at(s, "power_class_1_4") + " / " + at(s, "max_power_class_8") : "";
    if (!e->max_power_watts) {
      b.skip(entry_name + " sets no maximum power range");
    } else if (!s.report.max_power_watts) {
      b.skip("maximum power not advertised or not read");
    } else {
      const auto [lo, hi] = *e->max_power_watts;
      const double w = *s.report.max_power_watts;
      if (w < lo - 1e-9 || w > hi + 1e-9) {
        b.fail(p_at + " advertises " + watts(w) + "; " + entry_name + " expects " + watts(lo) + " to " + watts(hi));
      } else {
        b.pass(p_at + " " + watts(w) + " within " + watts(lo) + " to " + watts(hi));
      }
    }
    v.results.push_back(b.done());
  }

  // Vendor name and OUI.
  {
    Builder b(Check::CatalogVendor);
    // Allowed OUIs: the entry's own, plus those of catalog vendors its vendor names belong to.
    std::vector<std::string> ouis = e->vendor_ouis;
    for (const std::string& n : e->vendor_names) {
      if (const CatalogVendor* cv = catalog->find_vendor(n)) ouis.insert(ouis.end(), cv->ouis.begin(), cv->ouis.end());
    }
    std::sort(ouis.begin(), ouis.end());
    ouis.erase(std::unique(ouis.begin(), ouis.end()), ouis.end());
    if (e->vendor_names.empty() && ouis.empty()) {
      b.skip(entry_name + " allows any vendor");
    } else {
      if (!e->vendor_names.empty()) {
        // A name vendor_ascii already condemned (blank, non-printable) is its finding, not ours.
        if (!field_printable(s, "vendor_name")) {
          b.skip(at(s, "vendor_name") + " is not readable text (see vendor_ascii)");
        } else {
          const std::string got = upper_trim(s.report.id.vendor_name);
          const bool ok = std::any_of(e->vendor_names.begin(), e->vendor_names.end(),
                                      [&](const std::string& n) { return upper_trim(n) == got; });
          std::string list;
          for (const std::string& n : e->vendor_names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
          if (ok) b.pass("vendor \"" + s.report.id.vendor_name + "\" allowed");
          else b.fail(at(s, "vendor_name") + " is \"" + s.report.id.vendor_name + "\"; " + entry_name + " allows " + list);
        }
      }
      if (!ouis.empty()) {
        const Field* f = row(s, "vendor_oui");
        const auto bytes = f ? cmis::read_bytes(s.image, *f) : std::span<const uint8_t>{};
        const bool zero = std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) { return c == 0; });
        const std::string oui = cmis::format_oui(bytes);
        if (bytes.empty()) {
          b.skip(at(s, "vendor_oui") + " not read");
        } else if (zero) {
          b.skip(at(s, "vendor_oui") + " is 00:00:00 (see vendor_oui)");
        } else if (std::binary_search(ouis.begin(), ouis.end(), oui)) {
          b.pass("OUI " + oui + " allowed");
        } else {
          std::string list;
          for (std::size_t i = 0; i < ouis.size() && i < 4; ++i) list += (list.empty() ? "" : ", ") + ouis[i];
          if (ouis.size() > 4) list += ", ... (" + std::to_string(ouis.size()) + " in all)";
          b.fail(at(s, "vendor_oui") + " is " + oui + "; " + entry_name + " allows " + list);
        }
      }
    }
    v.results.push_back(b.done());
  }

  // Platform coding rules.
  {
    Builder b(Check::CatalogRule);
    if (e->rules.empty()) b.skip(entry_name + " has no platform coding rules");
    for (const CatalogRule& r : e->rules) check_rule(b, s, r);
    v.results.push_back(b.done());
  }

  // Module style vs cage.
  {
    Builder b(Check::ModuleStyle);
    if (!s.ctx.required_style) {
      b.skip("the cage requires no particular module style" + (e->style ? " (module is " + *e->style + ")" : std::string()));
    } else if (!e->style) {
      b.skip("the cage needs " + *s.ctx.required_style + "; " + entry_name + " does not say which style it is");
    } else if (*e->style != *s.ctx.required_style) {
      b.fail(entry_name + " is a " + *e->style + " module (" + at(s, "part_number") + " \"" + pn + "\") but the cage needs " +
             *s.ctx.required_style + (*s.ctx.required_style == "finned-top"
                                          ? ": a flat-top module has no fins and overheats in an air-cooled switch cage"
                                          : ": a finned-top module does not fit a cage with a riding heat sink"));
    } else {
      b.pass(entry_name + " is " + *e->style + ", as the cage needs");
    }
    v.results.push_back(b.done());
  }
}

}  // namespace xcvr::coding::coding_internal
