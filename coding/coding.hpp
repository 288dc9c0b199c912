// Coding checks: is a pluggable module coded the way its part number promises?
//
// verify_module() runs every per-module check on one module's memory (ModuleImage) and its
// decode (ModuleReport); verify_fleet() runs the cross-port checks (the same serial in two
// cages, a serial that comes back with other vendor/part-number coding). Each check has a stable
// id (coding_checks(): the `check` label of transceiver_coding_check_failed) and every message
// names the bytes it read — computed from the cmis/ Field rows, never from offsets kept here.
//
// One defect, one finding: a check that depends on bytes another check already condemned stays
// quiet about them (a zero OUI is vendor_oui's finding, not catalog_vendor's; a swapped threshold
// pair is thresholds_ordered's, not thresholds_plausible's; a garbage identifier whose page-00h
// copy is sound is identifier's, and the other checks read the module as its copy says).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cmis/cmis_map.hpp"
#include "cmis/field.hpp"
#include "cmis/image.hpp"
#include "cmis/report.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "coding/catalog.hpp"
#include "coding/finding.hpp"

namespace xcvr::coding {

// What the fleet check serial_recoded asks of the state directory: the vendor and part number
// first recorded for this module's serial, when they differ from its coding now.
class IdentityHistory {
 public:
  virtual ~IdentityHistory() = default;
  virtual std::optional<std::string> recorded_identity_mismatch(const cmis::ModuleReport& report) const = 0;
};

// ---------------------------------------------------------------------------------------------
// IEEE OUI registry (Debian ieee-data: /usr/share/ieee-data/oui.csv, or oui.txt).

inline constexpr const char* kDefaultOuiRegistryDir = "/usr/share/ieee-data";

class OuiRegistry {
 public:
  // Loads `path`: a directory holding oui.csv (or oui.txt), or one such file. Never throws; a
  // missing or unreadable registry gives available() == false and error() saying why.
  static OuiRegistry load(const std::string& path = kDefaultOuiRegistryDir);
  // Parses registry text (CSV "Registry,Assignment,Organization Name,..." or the oui.txt
  // "XX-XX-XX   (hex)\t\tOrganization" layout). Returns entries added.
  std::size_t parse(std::string_view text);

  bool available() const { return !entries_.empty(); }
  const std::string& source() const { return source_; }
  const std::string& error() const { return error_; }
  std::size_t size() const { return entries_.size(); }

  // Organization registered for a 24-bit OUI ("00:02:c9"), nullopt when not listed.
  std::optional<std::string> organization(const std::string& oui) const;
  void add(const std::string& oui, std::string organization);  // tests, site additions

 private:
  // Compact on purpose: the daemon keeps all ~32k assignments for its lifetime, and a map of
  // strings costs ~10 MB of RSS where this costs ~1.5 MB.
  struct Entry {
    uint32_t oui;
    uint32_t offset;  // of the organization name in names_
    uint32_t length;
  };
  bool add_line(std::string_view line);  // one oui.csv or oui.txt line; false if not an entry
  void append(uint32_t oui, std::string_view organization);
  void finish();  // sort by OUI; a later entry for the same OUI wins

  std::vector<Entry> entries_;  // sorted by oui after finish()
  std::string names_;
  std::string source_;
  std::string error_;
};

// ---------------------------------------------------------------------------------------------
// Checks and verdicts.

// CheckStatus and check_status_name: coding/finding.hpp.

// Every check, in report order: its id string, severity and description are in its one row of
// coding.cpp's table (check_info); code names a check only by this enum.
enum class Check {
  Identifier,
  Checksum00h,
  Checksum01h,
  Checksum02h,
  ChecksumCcBase,
  ChecksumCcExt,
  ChecksumCcDmi,
  VendorAscii,
  DateCode,
  VendorOui,
  AppAdvertisement,
  MediaType,
  PowerClass,
  ThresholdsOrdered,
  ThresholdsPlausible,
  MonitorConsistency,
  CatalogIdentifier,
  CatalogMedia,
  CatalogApplications,
  CatalogPower,
  CatalogVendor,
  CatalogRule,
  ModuleStyle,
  SerialDuplicate,
  SerialRecoded,
};

struct CheckInfo {
  Check check;
  std::string_view id;           // stable: metric label value, JSON, docs
  std::string_view severity;     // what a problem found by it is: "fail", "warn" or "fail/warn"
  std::string_view scope;        // "module" or "fleet"
  std::string_view description;  // one line
};
// Every check, in report order.
std::span<const CheckInfo> coding_checks();
const CheckInfo* find_check(std::string_view id);
const CheckInfo& check_info(Check check);
std::string_view check_id(Check check);  // "checksum_00h"

struct CheckDetail {
  CheckStatus status = CheckStatus::Pass;
  std::string text;  // names the bytes: "page 00h byte 145-147 (vendor_oui) 00:00:00 ..."
};

struct CheckResult {
  std::string check;
  CheckStatus status = CheckStatus::Pass;  // worst of the details
  std::vector<CheckDetail> details;        // at least one
  std::string message() const;             // details joined with "; " (problems first)
};

struct ModuleVerdict {
  std::vector<CheckResult> results;  // one per module check, in coding_checks() order
  std::string catalog_key;           // entry used ("" none)
  bool catalog_generic = false;
  std::string catalog_location;      // file:line:col of the entry
  std::vector<std::string> notes;    // e.g. "decoded as SFF-8636 per the page 00h identifier copy"

  CheckStatus worst() const;
  // The warn/fail results as snapshot findings (what the daemon exports).
  std::vector<CodingFinding> findings() const;
  const CheckResult* find(std::string_view check) const;
};

struct VerifyContext {
  const Catalog* catalog = nullptr;            // nullptr: catalog checks skip
  std::optional<std::string> required_style;   // the cage needs "flat-top" or "finned-top"
  double now_unix = 0;                         // for the date-code check; 0: not checked
  const OuiRegistry* oui = nullptr;            // nullptr or empty: vendor_oui is "unverifiable"
};

// Every per-module check with its pass/warn/fail/skip status (the CLI report).
ModuleVerdict verify_module_detailed(const cmis::ModuleImage& image,
                                     const cmis::ModuleReport& report, const VerifyContext& ctx);
// The problems only: what PortSnapshot::coding holds.
std::vector<CodingFinding> verify_module(const cmis::ModuleImage& image,
                                         const cmis::ModuleReport& report,
                                         const VerifyContext& ctx);

// True when the image is module memory worth verifying: a lower page whose identifier (or its
// page 00h copy) names a module type we decode. Otherwise `why` says what the bytes are.
bool looks_like_module(const cmis::ModuleImage& image, std::string* why = nullptr);

// ---------------------------------------------------------------------------------------------
// Fleet (cross-port) checks: serial_duplicate and serial_recoded.

struct FleetPort {
  std::string port;
  std::shared_ptr<const cmis::ModuleReport> report;  // nullptr: empty cage / never read
};
struct FleetFinding {
  std::string port;
  CodingFinding finding;
};
// What makes two modules one serial_duplicate: vendor name (any case) and serial; "" for a
// blank serial, which identifies nothing.
std::string serial_key(const cmis::ModuleReport& report);
// The modules that share a serial_key, one group per key (two ports or more), in port order.
using SerialGroup = std::vector<const FleetPort*>;
std::vector<SerialGroup> duplicate_serials(std::span<const FleetPort> ports);
// One line for a group, however large: its serial, vendor and port count, three ports by name.
std::string describe_duplicate(const SerialGroup& group);
// `history` remembers each serial's first vendor/part number across runs (nullptr: skip that).
std::vector<FleetFinding> verify_fleet(std::span<const FleetPort> ports, const IdentityHistory* history);

// ---------------------------------------------------------------------------------------------
// Module style (flat-top/RHS for riding heat sinks, finned-top/IHS for air-cooled cages).

// "flat-top"/"finned-top" (also accepts "flat", "finned", "rhs", "ihs"); nullopt otherwise.
std::optional<std::string> parse_style(std::string_view text);

// ---------------------------------------------------------------------------------------------
// Implementation detail shared by coding/*.cpp (not an API).
namespace coding_internal {

// The module as the checks see it: the effective image and decode (patched when a garbage
// identifier byte has a sound page 00h copy), its spec and the rows of that spec's table.
struct Subject {
  const cmis::ModuleImage& image;
  const cmis::ModuleReport& report;
  cmis::Spec spec;
  std::span<const cmis::Field> table;
  const VerifyContext& ctx;
  uint32_t identifier = 0;  // effective identifier code
};

// "page 00h byte 145-147 (vendor_oui)", "lower page byte 0 (identifier)", "A2h byte 96-97
// (temperature)", "page 11h byte 186-187 (rx_power lane 1)" — from the row, never literals.
std::string where(const cmis::Field& field, cmis::Spec spec, int lane = 0);
// Row of `spec`'s table by name; nullptr when the spec has no such field.
const cmis::Field* field_named(cmis::Spec spec, std::string_view name);
std::span<const cmis::Field> table_of(cmis::Spec spec);
// True when codes:: names the code (not "reserved (0x..)", "custom (0x..)", ...).
bool code_known(const std::string& name);
std::string hex2(uint32_t v);  // "0x5a"
std::string fmt(double v, const char* spec = "%.3g");  // a number in a check's text, printf-style
// The names the checks use for the tables and their rows.
using cmis::CmisField;
using cmis::Field;
using cmis::Sff8472Field;
using cmis::Sff8636Field;
using cmis::Spec;
// The rows the content checks read, by short name.
inline const cmis::Field& cf(cmis::CmisField f) { return cmis::cmis_field(f); }
inline const cmis::Field& sf(cmis::Sff8636Field f) { return cmis::sff8636_field(f); }
inline const cmis::Field& pf(cmis::Sff8472Field f) { return cmis::sff8472_field(f); }

class Builder {
 public:
  explicit Builder(Check check) { r_.check = std::string(check_id(check)); }
  void pass(std::string text) { add(CheckStatus::Pass, std::move(text)); }
  void warn(std::string text) { add(CheckStatus::Warn, std::move(text)); }
  void fail(std::string text) { add(CheckStatus::Fail, std::move(text)); }
  void skip(std::string text) { add(CheckStatus::Skip, std::move(text)); }
  void add(CheckStatus status, std::string text);
  bool problems() const;
  CheckResult done();  // status = worst detail (skip only when every detail is a skip)

 private:
  CheckResult r_;
};

// Check groups (coding.cpp, coding_content.cpp, coding_catalog_checks.cpp). Each appends the
// results of the checks that apply to the subject's spec.
void integrity_checks(const Subject& s, std::vector<CheckResult>& out);
void value_checks(const Subject& s, std::vector<CheckResult>& out);  // thresholds, monitors (coding_values.cpp)
void content_checks(const Subject& s, std::vector<CheckResult>& out);
void catalog_checks(const Subject& s, ModuleVerdict& verdict);

}  // namespace coding_internal

}  // namespace xcvr::coding
