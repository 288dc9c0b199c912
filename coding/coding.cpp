// Coding checks: the check registry, verdict plumbing and the identifier check. The integrity
// checks (checksums, vendor ASCII, date code, OUI) live in coding_integrity.cpp, content checks
// in coding_content.cpp and coding_values.cpp, catalog checks in coding_catalog_checks.cpp, the
// OUI registry in coding_oui.cpp and the fleet checks in coding_fleet.cpp.
#include "coding/coding.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::coding {

using cmis::Field;
using cmis::Spec;

namespace {

constexpr auto kChecks = std::to_array<CheckInfo>({
    {Check::Identifier, "identifier", "fail", "module",
     "Identifier byte is a known SFF-8024 module type and equals its page 00h copy"},
    {Check::Checksum00h, "checksum_00h", "fail", "module", "CMIS page 00h checksum (byte 222 over 128-221)"},
    {Check::Checksum01h, "checksum_01h", "fail", "module", "CMIS page 01h checksum (byte 255 over 130-254)"},
    {Check::Checksum02h, "checksum_02h", "fail", "module", "CMIS page 02h checksum (byte 255 over 128-254)"},
    {Check::ChecksumCcBase, "checksum_cc_base", "fail", "module", "SFF-8636 / SFF-8472 CC_BASE checksum"},
    {Check::ChecksumCcExt, "checksum_cc_ext", "fail", "module", "SFF-8636 / SFF-8472 CC_EXT checksum"},
    {Check::ChecksumCcDmi, "checksum_cc_dmi", "fail", "module", "SFF-8472 A2h CC_DMI checksum"},
    {Check::VendorAscii, "vendor_ascii", "fail/warn", "module",
     "Vendor name, part number, revision, serial (and CLEI) are printable ASCII, left-aligned, "
     "space-padded; name, part number and serial are not blank"},
    {Check::DateCode, "date_code", "fail/warn", "module",
     "Date code is YYMMDD (a real calendar date, not in the future) plus a printable lot code"},
    {Check::VendorOui, "vendor_oui", "fail/warn", "module",
     "Vendor OUI is registered (IEEE registry) to the vendor the name field claims, or to a "
     "vendor the catalog says belongs to it; unverifiable cases warn"},
    {Check::AppAdvertisement, "app_advertisement", "fail/warn", "module",
     "CMIS application descriptors: list starts at descriptor 1 and ends with FFh, known codes, "
     "lane counts match the interfaces, lane assignments fit the module"},
    {Check::MediaType, "media_type", "fail/warn", "module",
     "Media type (CMIS 00h:85) or compliance code agrees with the media interface technology, "
     "connector and wavelength"},
    {Check::PowerClass, "power_class", "fail/warn", "module",
     "Power class agrees with the advertised maximum power (CMIS: QSFP-DD hardware spec class "
     "limits; SFF-8636: class 8 needs its own maximum power)"},
    {Check::ThresholdsOrdered, "thresholds_ordered", "fail/warn", "module",
     "Every threshold group is ordered high alarm > high warning > low warning > low alarm"},
    {Check::ThresholdsPlausible, "thresholds_plausible", "fail/warn", "module",
     "Threshold levels are implemented (not all zero) and within physical ranges for the monitor"},
    {Check::MonitorConsistency, "monitor_consistency", "fail/warn", "module",
     "Advertised monitors read live values on active lanes; unadvertised monitors read zero"},
    {Check::CatalogIdentifier, "catalog_identifier", "fail", "module", "Identifier is one the catalog entry expects"},
    {Check::CatalogMedia, "catalog_media", "fail", "module",
     "Media type, connector, media interface technology, compliance code and wavelength match "
     "the catalog entry"},
    {Check::CatalogApplications, "catalog_applications", "fail", "module",
     "Every application the catalog entry requires is advertised with its lane counts"},
    {Check::CatalogPower, "catalog_power", "fail", "module", "Advertised maximum power is within the catalog range"},
    {Check::CatalogVendor, "catalog_vendor", "fail", "module", "Vendor name and OUI are ones the catalog entry allows"},
    {Check::CatalogRule, "catalog_rule", "fail", "module", "Platform coding rules of the catalog entry hold"},
    {Check::ModuleStyle, "module_style", "fail", "module",
     "The catalog's module style (flat-top / finned-top) suits what the cage requires"},
    {Check::SerialDuplicate, "serial_duplicate", "fail", "fleet", "The same vendor serial is in two cages of one exporter"},
    {Check::SerialRecoded, "serial_recoded", "fail", "fleet",
     "A serial came back with another vendor name or part number than first recorded"},
});

// The table is in enum order, one row per check, so a check's row is found by its value.
constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kChecks.size(); ++i) {
    if (static_cast<std::size_t>(kChecks[i].check) != i) return false;
  }
  return kChecks.size() == static_cast<std::size_t>(Check::SerialRecoded) + 1;
}
static_assert(in_enum_order(), "kChecks: one row per Check, in enum order");

int rank(CheckStatus s) {
  switch (s) {
    case CheckStatus::Skip: return 0;
    case CheckStatus::Pass: return 1;
    case CheckStatus::Warn: return 2;
    case CheckStatus::Fail: return 3;
  }
  return 0;
}

}  // namespace

std::string_view check_status_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::Pass: return "pass";
    case CheckStatus::Warn: return "warn";
    case CheckStatus::Fail: return "fail";
    case CheckStatus::Skip: return "skip";
  }
  return "?";
}

std::span<const CheckInfo> coding_checks() { return kChecks; }

const CheckInfo& check_info(Check check) { return kChecks[static_cast<std::size_t>(check)]; }

std::string_view check_id(Check check) { return check_info(check).id; }

const CheckInfo* find_check(std::string_view id) {
  for (const CheckInfo& c : kChecks) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

std::string CheckResult::message() const {
  std::string out;
  // Problems first, then the rest, each once.
  for (int pass = 0; pass < 2; ++pass) {
    for (const CheckDetail& d : details) {
      const bool problem = d.status == CheckStatus::Fail || d.status == CheckStatus::Warn;
      if ((pass == 0) != problem) continue;
      if (!out.empty()) out += "; ";
      out += d.text;
    }
  }
  return out;
}

CheckStatus ModuleVerdict::worst() const {
  CheckStatus w = CheckStatus::Pass;
  for (const CheckResult& r : results) {
    if (rank(r.status) > rank(w)) w = r.status;
  }
  return w;
}

std::vector<CodingFinding> ModuleVerdict::findings() const {
  std::vector<CodingFinding> out;
  for (const CheckResult& r : results) {
    if (r.status != CheckStatus::Fail && r.status != CheckStatus::Warn) continue;
    std::string msg;
    for (const CheckDetail& d : r.details) {
      if (d.status != CheckStatus::Fail && d.status != CheckStatus::Warn) continue;
      if (!msg.empty()) msg += "; ";
      msg += d.text;
    }
    out.push_back({r.check, r.status, msg});
  }
  return out;
}

const CheckResult* ModuleVerdict::find(std::string_view check) const {
  for (const CheckResult& r : results) {
    if (r.check == check) return &r;
  }
  return nullptr;
}

namespace coding_internal {

std::span<const Field> table_of(Spec spec) { return cmis::spec_fields(spec); }

const Field* field_named(Spec spec, std::string_view name) {
  for (const Field& f : table_of(spec)) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string where(const Field& field, Spec spec, int lane) {
  const auto loc = cmis::locate(field, lane > 0 ? lane : 1);
  if (!loc) return std::string(field.name);
  std::string page;
  if (spec == Spec::Sff8472) {
    page = loc->page.device == cmis::kDeviceA2 ? "A2h" : "A0h";
    if (loc->page.page != cmis::kLowerPage && loc->page.device == cmis::kDeviceA2) {
      page += " page " + cmis::page_name({cmis::kDeviceA0, loc->page.bank, loc->page.page});
    }
  } else {
    page = loc->page.page == cmis::kLowerPage ? "lower page" : "page " + cmis::page_name(loc->page);
  }
  std::string bytes = "byte " + std::to_string(loc->offset);
  if (field.type != cmis::Type::Bits && field.size > 1) {
    bytes += "-" + std::to_string(loc->offset + field.size - 1);
  } else if (field.type == cmis::Type::Bits && field.width < 8) {
    const int hi = loc->shift + field.width - 1;
    bytes += field.width == 1 ? " bit " + std::to_string(loc->shift)
                              : " bits " + std::to_string(hi) + "-" + std::to_string(loc->shift);
  }
  std::string name(field.name);
  if (lane > 0 && field.lanes.count != 0) name += " lane " + std::to_string(lane);
  return page + " " + bytes + " (" + name + ")";
}

bool code_known(const std::string& name) { return name.find("(0x") == std::string::npos; }

std::string fmt(double v, const char* spec) {
  char buf[48];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

std::string hex2(uint32_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", v & 0xFFu);
  return buf;
}

void Builder::add(CheckStatus status, std::string text) {
  r_.details.push_back({status, std::move(text)});
}

bool Builder::problems() const {
  return std::any_of(r_.details.begin(), r_.details.end(), [](const CheckDetail& d) {
    return d.status == CheckStatus::Fail || d.status == CheckStatus::Warn;
  });
}

CheckResult Builder::done() {
  if (r_.details.empty()) r_.details.push_back({CheckStatus::Pass, "ok"});
  CheckStatus worst = CheckStatus::Skip;
  for (const CheckDetail& d : r_.details) {
    if (rank(d.status) > rank(worst)) worst = d.status;
  }
  r_.status = worst;
  return std::move(r_);
}

}  // namespace coding_internal

namespace {

using namespace coding_internal;

// ----- identifier ----------------------------------------------------------------------------

struct IdentifierFacts {
  std::optional<uint32_t> byte0;
  std::optional<uint32_t> copy;  // page 00h copy (CMIS, SFF-8636)
  std::optional<Spec> spec0;
  std::optional<cmis::Identification> how;  // how the decoder reads the module
};

IdentifierFacts identifier_facts(const cmis::ModuleImage& image) {
  IdentifierFacts f;
  f.how = cmis::identify(image);
  if (!f.how) return f;
  f.byte0 = f.how->byte0;
  f.spec0 = cmis::spec_for_identifier(f.how->byte0);
  // The copy exists in CMIS and SFF-8636 (same place in both); SFF-8472 has none.
  if (f.spec0 != Spec::Sff8472) f.copy = cmis::read_uint(image, cmis::cmis_field(cmis::CmisField::IdentifierCopy));
  return f;
}

std::string id_text(uint32_t code) {
  return hex2(code) + " (" + std::string(cmis::codes::identifier(static_cast<uint8_t>(code))) + ")";
}

CheckResult check_identifier(const IdentifierFacts& f, Spec spec) {
  Builder b(Check::Identifier);
  const Field& id_row = *field_named(spec, "identifier");
  if (!f.byte0) {
    b.fail(where(id_row, spec) + " not read: no lower page");
    return b.done();
  }
  const std::string id_at = where(id_row, spec);
  if (!f.spec0) {
    b.fail(id_at + " is " + id_text(*f.byte0) + ": not a module type with a management interface we know");
  }
  if (spec == Spec::Sff8472) {
    if (f.spec0) b.pass(id_at + " is " + id_text(*f.byte0) + " (SFF-8472 has no identifier copy)");
    return b.done();
  }
  const Field* copy_row = field_named(spec, "identifier_copy");
  const std::string copy_at = copy_row ? where(*copy_row, spec) : "page 00h identifier copy";
  if (!f.copy) {
    if (f.spec0) b.pass(id_at + " is " + id_text(*f.byte0) + "; " + copy_at + " not read");
    return b.done();
  }
  if (*f.copy != *f.byte0) {
    b.fail(id_at + " is " + id_text(*f.byte0) + " but " + copy_at + " is " + id_text(*f.copy) +
           (f.how->from_copy ? "; the other checks read the module as the copy says" : ""));
  } else if (f.spec0) {
    b.pass(id_at + " " + id_text(*f.byte0) + " equals " + copy_at);
  }
  return b.done();
}

}  // namespace

bool looks_like_module(const cmis::ModuleImage& image, std::string* why) {
  const IdentifierFacts f = identifier_facts(image);
  auto say = [&](std::string text) {
    if (why) *why = std::move(text);
    return false;
  };
  if (!f.byte0) return say("no lower page (byte 0-127) in the input");
  if (!f.how->guessed) return true;
  const auto* lower = image.find({cmis::kDeviceA0, 0, cmis::kLowerPage});
  const bool all_ff = lower && std::all_of(lower->bytes.begin(), lower->bytes.end(), [](uint8_t c) { return c == 0xFF; });
  const bool all_zero = lower && std::all_of(lower->bytes.begin(), lower->bytes.end(), [](uint8_t c) { return c == 0; });
  if (all_ff) return say("lower page is all 0xFF: a blank or unreadable EEPROM, not module memory");
  if (all_zero) return say("lower page is all zero: not module memory");
  return say("identifier " + id_text(*f.byte0) +
             (f.copy ? " and its page 00h copy " + id_text(*f.copy) : std::string()) +
             " name no module type with a management interface: not module memory");
}

ModuleVerdict verify_module_detailed(const cmis::ModuleImage& image, const cmis::ModuleReport& report,
                                     const VerifyContext& ctx) {
  ModuleVerdict v;
  const IdentifierFacts f = identifier_facts(image);
  const cmis::ModuleImage* img = &image;
  const cmis::ModuleReport* rep = &report;
  Spec spec = report.spec;
  std::optional<cmis::ModuleImage> patched;
  std::optional<cmis::ModuleReport> redecoded;
  uint32_t identifier = f.byte0.value_or(0);
  if (f.how && f.how->from_copy) {
    // A garbage identifier byte with a sound copy: read the rest of the module as the copy says,
    // so that one bad byte is one finding.
    spec = f.how->spec;
    patched = image;
    cmis::write_uint(*patched, *field_named(spec, "identifier"), *f.copy);
    redecoded = cmis::decode(*patched);
    img = &*patched;
    rep = &*redecoded;
    identifier = *f.copy;
    v.notes.push_back("identifier byte unknown; decoded as " + std::string(cmis::spec_name(spec)) +
                      " per its page 00h copy " + id_text(*f.copy));
  }
  const Subject s{*img, *rep, spec, coding_internal::table_of(spec), ctx, identifier};
  v.results.push_back(check_identifier(f, spec));
  coding_internal::integrity_checks(s, v.results);
  coding_internal::content_checks(s, v.results);
  coding_internal::catalog_checks(s, v);
  return v;
}

std::vector<CodingFinding> verify_module(const cmis::ModuleImage& image, const cmis::ModuleReport& report,
                                         const VerifyContext& ctx) {
  return verify_module_detailed(image, report, ctx).findings();
}

std::optional<std::string> parse_style(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "flat-top" || t == "flat" || t == "flattop" || t == "rhs") return "flat-top";
  if (t == "finned-top" || t == "finned" || t == "finnedtop" || t == "ihs") return "finned-top";
  return std::nullopt;
}

}  // namespace xcvr::coding
