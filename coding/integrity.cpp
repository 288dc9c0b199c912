// Coding checks, integrity group: page checksums, vendor ASCII fields, date code and vendor
// OUI — what a module's own bytes must satisfy whatever it claims to be. The registry and the
// identifier check are in coding.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "coding/coding.hpp"

namespace xcvr::coding {

using cmis::Field;
using cmis::Spec;

namespace {

using namespace coding_internal;

// ----- checksums -----------------------------------------------------------------------------

struct ChecksumSpec {
  Check check;
  const char* report_name;  // ModuleReport::Checksum::page
  const char* row;          // the stored byte's Field row
};

void check_checksums(const Subject& s, std::vector<CheckResult>& out) {
  std::vector<ChecksumSpec> wanted;
  switch (s.spec) {
    case Spec::Cmis:
      wanted.push_back({Check::Checksum00h, "00h", "checksum_00h"});
      if (!s.report.flat_memory) {
        wanted.push_back({Check::Checksum01h, "01h", "checksum_01h"});
        wanted.push_back({Check::Checksum02h, "02h", "checksum_02h"});
      }
      break;
    case Spec::Sff8636:
      wanted = {{Check::ChecksumCcBase, "CC_BASE", "cc_base"}, {Check::ChecksumCcExt, "CC_EXT", "cc_ext"}};
      break;
    case Spec::Sff8472:
      wanted = {{Check::ChecksumCcBase, "CC_BASE", "cc_base"}, {Check::ChecksumCcExt, "CC_EXT", "cc_ext"},
                {Check::ChecksumCcDmi, "CC_DMI", "cc_dmi"}};
      break;
  }
  for (const ChecksumSpec& w : wanted) {
    Builder b(w.check);
    const Field* row = field_named(s.spec, w.row);
    const std::string at = row ? where(*row, s.spec) : w.report_name;
    const auto it = std::find_if(s.report.checksums.begin(), s.report.checksums.end(),
                                 [&](const cmis::Checksum& c) { return c.page == w.report_name; });
    if (it == s.report.checksums.end()) {
      if (s.spec == Spec::Sff8472 && w.check == Check::ChecksumCcDmi) {
        const Field* ddm = field_named(s.spec, "ddm_implemented");
        const bool has_ddm = ddm && cmis::read_uint(s.image, *ddm).value_or(0) != 0;
        if (!has_ddm) continue;  // no diagnostics: no CC_DMI to check
      }
      b.skip(at + ": page not read");
    } else if (it->ok()) {
      b.pass(at + " " + hex2(it->stored) + " = sum of bytes " + it->range);
    } else {
      b.fail(at + " holds " + hex2(it->stored) + " but bytes " + it->range + " sum to " +
             hex2(it->computed));
    }
    out.push_back(b.done());
  }
}

// ----- vendor ASCII fields -------------------------------------------------------------------

// Checks one space-padded ASCII field. `required`: must not be blank.
void ascii_field(Builder& b, const Subject& s, const char* row, bool required) {
  const Field* f = field_named(s.spec, row);
  if (f == nullptr) return;
  const auto bytes = cmis::read_bytes(s.image, *f);
  if (bytes.empty()) return;
  const std::string at = where(*f, s.spec);
  auto byte_at = [&](std::size_t i) {
    const auto loc = cmis::locate(*f);
    return "byte " + std::to_string((loc ? loc->offset : 0) + i);
  };
  const bool all_ff = std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) { return c == 0xFF; });
  if (all_ff) {
    b.fail(at + " is all 0xFF (never programmed)");
    return;
  }
  // The text runs to the last byte that is not padding (space or NUL).
  std::size_t end = bytes.size();
  while (end > 0 && (bytes[end - 1] == ' ' || bytes[end - 1] == 0)) --end;
  if (end == 0) {
    if (required) b.fail(at + " is blank");
    else if (std::any_of(bytes.begin(), bytes.end(), [](uint8_t c) { return c == 0; }) &&
             std::string_view(row) != "clei_code") {
      b.warn(at + " is blank and NUL-filled (should be spaces)");
    }
    return;
  }
  bool bad = false;
  for (std::size_t i = 0; i < end; ++i) {
    const uint8_t c = bytes[i];
    if (c < 0x20 || c > 0x7E) {
      b.fail(at + " " + byte_at(i) + " is " + hex2(c) + ": not printable ASCII");
      bad = true;
      break;
    }
  }
  if (bad) return;
  const bool nul_pad = std::any_of(bytes.begin() + static_cast<std::ptrdiff_t>(end), bytes.end(),
                                   [](uint8_t c) { return c == 0; });
  if (nul_pad) b.warn(at + " is NUL-padded from " + byte_at(end) + " (SFF-8024/CMIS pad with spaces)");
  if (bytes[0] == ' ') b.warn(at + " starts with a space (fields are left-aligned)");
}

CheckResult check_vendor_ascii(const Subject& s) {
  Builder b(Check::VendorAscii);
  ascii_field(b, s, "vendor_name", true);
  ascii_field(b, s, "part_number", true);
  ascii_field(b, s, "vendor_revision", false);
  ascii_field(b, s, "serial_number", true);
  ascii_field(b, s, "clei_code", false);
  if (!b.problems()) {
    const Field* name = field_named(s.spec, "vendor_name");
    if (name && cmis::read_bytes(s.image, *name).empty()) {
      b.skip(where(*name, s.spec) + ": page not read");
    } else {
      b.pass("vendor name, part number, revision and serial are printable and space-padded");
    }
  }
  return b.done();
}


// ----- date code -----------------------------------------------------------------------------

// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

unsigned days_in_month(int y, unsigned m) {
  static constexpr std::array<unsigned, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

CheckResult check_date_code(const Subject& s) {
  Builder b(Check::DateCode);
  const Field* f = field_named(s.spec, "date_code");
  const auto bytes = f ? cmis::read_bytes(s.image, *f) : std::span<const uint8_t>{};
  if (f == nullptr || bytes.size() < 6) {
    b.skip("date code not read");
    return b.done();
  }
  const std::string at = where(*f, s.spec);
  std::string shown;
  for (uint8_t c : bytes) shown += c >= 0x20 && c <= 0x7E ? static_cast<char>(c) : '?';
  const bool digits = std::all_of(bytes.begin(), bytes.begin() + 6,
                                  [](uint8_t c) { return c >= '0' && c <= '9'; });
  if (!digits) {
    b.fail(at + " is \"" + shown + "\": not YYMMDD followed by a lot code");
    return b.done();
  }
  auto num = [&](std::size_t i) { return static_cast<unsigned>((bytes[i] - '0') * 10 + (bytes[i + 1] - '0')); };
  const int year = 2000 + static_cast<int>(num(0));
  const unsigned month = num(2), day = num(4);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) {
    b.fail(at + " is \"" + shown + "\": " + std::to_string(year) + "-" + std::to_string(month) + "-" +
           std::to_string(day) + " is not a calendar date");
    return b.done();
  }
  char iso[48];
  std::snprintf(iso, sizeof iso, "%04d-%02u-%02u", year, month, day);
  if (s.ctx.now_unix > 0) {
    const int64_t made = days_from_civil(year, month, day);
    const auto today = static_cast<int64_t>(std::floor(s.ctx.now_unix / 86400.0));
    if (made > today + 1) {  // a day of slack for time zones
      b.fail(at + " says " + iso + ", which is in the future");
      return b.done();
    }
  }
  // Lot code: printable ASCII or spaces.
  for (std::size_t i = 6; i < bytes.size(); ++i) {
    const uint8_t c = bytes[i];
    if (c == 0) {
      b.warn(at + " lot code is NUL-padded (should be printable or spaces)");
      break;
    }
    if (c < 0x20 || c > 0x7E) {
      b.fail(at + " lot code byte is " + hex2(c) + ": not printable ASCII");
      break;
    }
  }
  if (!b.problems()) b.pass(at + " " + iso + (s.ctx.now_unix > 0 ? "" : " (not compared with today)"));
  else b.pass(at + " manufactured " + iso);
  return b.done();
}

// ----- OUI -----------------------------------------------------------------------------------

// Significant words of an organization or vendor name: upper case, punctuation split, legal
// suffixes dropped ("Finisar Corporation" and "FINISAR CORP." both give FINISAR).
std::vector<std::string> name_words(std::string_view name) {
  static const std::array<std::string_view, 18> kNoise = {
      "INC", "INCORPORATED", "CORP", "CORPORATION", "CO", "COMPANY", "LTD", "LIMITED", "LLC",
      "GMBH", "AG", "SA", "BV", "PLC", "THE", "TECHNOLOGIES", "TECHNOLOGY", "KK"};
  std::vector<std::string> words;
  std::string w;
  auto flush = [&] {
    if (!w.empty() && std::find(kNoise.begin(), kNoise.end(), w) == kNoise.end()) words.push_back(w);
    w.clear();
  };
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return words;
}

bool names_match(std::string_view a, std::string_view b) {
  const auto wa = name_words(a), wb = name_words(b);
  if (wa.empty() || wb.empty()) return false;
  return wa.front() == wb.front();
}

CheckResult check_vendor_oui(const Subject& s) {
  Builder b(Check::VendorOui);
  const Field* f = field_named(s.spec, "vendor_oui");
  const auto bytes = f ? cmis::read_bytes(s.image, *f) : std::span<const uint8_t>{};
  if (f == nullptr || bytes.size() != 3) {
    b.skip("vendor OUI not read");
    return b.done();
  }
  const std::string at = where(*f, s.spec);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x", bytes[0], bytes[1], bytes[2]);
  const std::string oui = buf;
  const std::string vendor = s.report.id.vendor_name;
  if (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0) {
    b.warn(at + " is 00:00:00 (unspecified): the OUI cannot confirm vendor \"" + vendor + "\"");
    return b.done();
  }
  const CatalogVendor* v = find_vendor(s.ctx.catalog, vendor);  // built-in vendors without a catalog too
  if (v && std::find(v->ouis.begin(), v->ouis.end(), oui) != v->ouis.end()) {
    b.pass(at + " " + oui + " is listed for vendor '" + v->key + "' (" + v->location + ")");
    return b.done();
  }
  const OuiRegistry* reg = s.ctx.oui;
  if (reg == nullptr || !reg->available()) {
    const std::string why = reg == nullptr || reg->error().empty() ? "no IEEE OUI registry loaded" : reg->error();
    b.warn(at + " " + oui + " unverifiable: " + why);
    return b.done();
  }
  const auto org = reg->organization(oui);
  if (!org) {
    if ((bytes[0] & 0x02) != 0) {
      b.warn(at + " " + oui + " unverifiable: not in the MA-L registry and its U/L bit is set, so it "
             "is an IEEE CID or a locally administered value (" + reg->source() + " has no CID list)");
    } else {
      b.fail(at + " " + oui + " is not registered in " + reg->source() + " (vendor name says \"" + vendor + "\")");
    }
    return b.done();
  }
  if (names_match(*org, "Private")) {
    b.warn(at + " " + oui + " unverifiable: registered as \"Private\" (registrant withheld)");
    return b.done();
  }
  if (names_match(*org, "IEEE Registration Authority")) {
    b.warn(at + " " + oui + " unverifiable: an IEEE MA-M/MA-S block, shared by many registrants");
    return b.done();
  }
  if (names_match(*org, vendor)) {
    b.pass(at + " " + oui + " is registered to \"" + *org + "\", matching vendor \"" + vendor + "\"");
    return b.done();
  }
  if (v != nullptr) {
    const bool alias = std::any_of(v->names.begin(), v->names.end(), [&](const std::string& n) { return names_match(*org, n); }) ||
                       std::any_of(v->registrants.begin(), v->registrants.end(), [&](const std::string& n) { return names_match(*org, n); });
    if (alias) {
      b.pass(at + " " + oui + " is registered to \"" + *org + "\", which vendor '" + v->key +
             "' includes (" + v->location + ")");
      return b.done();
    }
    if (v->rebrander) {
      b.pass(at + " " + oui + " is registered to \"" + *org + "\"; '" + v->key +
             "' is a rebrander whose optics carry their maker's OUI (" + v->location + ")");
      return b.done();
    }
  }
  b.fail(at + " " + oui + " is registered to \"" + *org + "\", not to \"" + vendor + "\"");
  return b.done();
}

}  // namespace

namespace coding_internal {

void integrity_checks(const Subject& s, std::vector<CheckResult>& out) {
  check_checksums(s, out);
  out.push_back(check_vendor_ascii(s));
  out.push_back(check_date_code(s));
  out.push_back(check_vendor_oui(s));
}

}  // namespace coding_internal

}  // namespace xcvr::coding
