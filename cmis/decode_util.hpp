// Helpers shared by the table-driven decoders (CMIS, SFF-8636, SFF-8472). Everything here is
// generic over Field rows: callers pass rows from their own table, never byte offsets.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cmis/field.hpp"
#include "cmis/image.hpp"
#include "cmis/quantities.hpp"
#include "cmis/report.hpp"

namespace xcvr::cmis {

// One memory map's fields read by id: `Row` is the map's row lookup (cmis_field, sff8636_field,
// sff8472_field); `get` is the raw value, `is_set` a non-zero one.
template <typename Id, const Field& (*Row)(Id)>
struct MapFields {
  static const Field& f(Id id) { return Row(id); }
  static std::optional<uint32_t> get(const ModuleImage& image, Id id) { return read_uint(image, Row(id)); }
  static bool is_set(const ModuleImage& image, Id id) { return get(image, id).value_or(0) != 0; }
};

// SFF-8024 connector code of cable assemblies (DAC, AOC): "no separable connector".
inline constexpr uint32_t kConnectorNoSeparable = 0x23;


// A 4-level threshold group; rows are passed in table order (high alarm, low alarm, high
// warning, low warning). Each value is read_scaled() times `multiplier`; absent bytes stay absent.
Thresholds read_thresholds(const ModuleImage& image, const Field& ha, const Field& la,
                           const Field& hw, const Field& lw, double multiplier = 1);
// Same, with a caller-supplied reader of one field into the monitor's SI unit (nullopt when
// unavailable; e.g. SFF-8472 external calibration). A template: a decode reads many groups.
template <typename FieldReader>
Thresholds read_thresholds(const Field& ha, const Field& la, const Field& hw, const Field& lw,
                           const FieldReader& read) {
  Thresholds t;
  t.high_alarm = read(ha);
  t.low_alarm = read(la);
  t.high_warning = read(hw);
  t.low_warning = read(lw);
  return t;
}

// Records `t` as the thresholds of `q` (under its static key) when any level is present.
void set_thresholds(ModuleReport& report, Quantity q, const Thresholds& t);

// Appends the names of raised flags: every 1-bit Bits row of `role` in `table` that reads 1.
// Module-level rows go to report.module_flags; per-lane rows go to the flags of each lane
// already in report.lanes (matched by LaneReport::lane), so callers create lanes first. Rows
// whose bytes are not in the image raise nothing.
void collect_flags(const ModuleImage& image, std::span<const Field> table, ModuleReport& report,
                   Role role = Role::Flag);

// Names of the raised Role::Flag rows of `table`: module-level rows when lane == 0, else the
// per-lane rows for that lane (1-based).
std::vector<std::string> raised_flags(const ModuleImage& image, std::span<const Field> table,
                                      int lane);
// The same into `out`, reusing its strings' storage (the steady-state poll path allocates
// nothing when the set of raised flags is unchanged).
void raised_flags_into(const ModuleImage& image, std::span<const Field> table, int lane,
                       std::vector<std::string>& out);

// True when every character is printable ASCII (0x20-0x7E).
bool is_printable(std::string_view text);

// "00:02:c9": lowercase hex bytes joined by ':'; "" for no bytes.
std::string format_oui(std::span<const uint8_t> bytes);

// Text for reports: blanks trimmed at both ends, non-printable bytes replaced by '?' (and a
// problem noted in `problems` when given). nullopt when the bytes are not in the image.
std::optional<std::string> read_text(const ModuleImage& image, const Field& field,
                                     std::vector<std::string>* problems = nullptr);

// A code byte with its name from `namer` (one of the codes:: functions); nullopt when absent.
std::optional<Coded> read_coded(const ModuleImage& image, const Field& field,
                                std::string_view (*namer)(uint8_t));

// The half-page holding a field (lane 1's for per-lane fields).
PageKey page_of(const Field& field);

// True when `page` is in the image; otherwise records it in report.missing_pages (once).
bool require_page(const ModuleImage& image, const PageKey& page, ModuleReport& report);

// Appends a checksum entry named `name` over bytes first.offset .. stored.offset-1 of the
// half-page holding `stored`, compared to the stored byte. Nothing when that half is absent.
void add_checksum(const ModuleImage& image, ModuleReport& report, std::string name,
                  const Field& first, const Field& stored);

// Identity rows of one table; the decoder fills them from its own map.
struct IdentityFields {
  const Field& identifier;
  const Field& vendor_name;
  const Field& vendor_oui;
  const Field& part_number;
  const Field& revision;
  const Field& serial;
  const Field& date_code;
};
// Fills report.id (identifier Coded via codes::identifier, trimmed strings, OUI "00:02:c9").
// Fields whose bytes are absent are left empty.
void read_identity(const ModuleImage& image, const IdentityFields& fields, ModuleReport& report);

// Lanes 1..count with no values yet.
std::vector<LaneReport> make_lanes(int count);

// Records a length when the module gives one (0 means "not specified" and stays absent).
void add_length(ModuleReport& report, const std::string& medium, std::optional<double> meters);

// "0x0c": a code for messages.
std::string hex_code(uint32_t code);

// Appends `problem` unless it is already listed.
void add_problem(ModuleReport& report, std::string problem);

}  // namespace xcvr::cmis
