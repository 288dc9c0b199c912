// The VDM observable table's rules (cmis/vdm_types.hpp), checked at compile time: a row that
// breaks one fails the build.
#include "cmis/vdm_types.hpp"

#include "cmis/report.hpp"

#include <algorithm>
#include <initializer_list>

namespace xcvr::cmis {
namespace {

using codes::VdmEncoding;

// `s` is `parts` written one after another.
constexpr bool is_concatenation(std::string_view s, std::initializer_list<std::string_view> parts) {
  for (const std::string_view part : parts) {
    if (!s.starts_with(part)) return false;
    s.remove_prefix(part.size());
  }
  return s.empty();
}

constexpr bool snake_case(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// Types of a row: its entries before the first unused slot, at least one, none after it.
constexpr std::size_t type_count(const VdmQuantitySpec& q) {
  std::size_t n = 0;
  while (n < q.types.size() && q.types[n].id != 0) ++n;
  for (std::size_t i = n; i < q.types.size(); ++i) {
    if (q.types[i].id != 0) return 0;
  }
  return n;
}

// An exported row: metric "transceiver_[lane_]<key>_<unit>", thresholds
// "transceiver_<key>_threshold_<unit>", HELP given, a distinct qualifier per type under its label.
constexpr bool exported_row_valid(const VdmQuantitySpec& q) {
  const std::size_t n = type_count(q);
  if (q.statistic || !snake_case(q.key) || q.help.empty() || q.threshold_help.empty()) return false;
  if (!is_concatenation(q.metric, {"transceiver_", q.per_lane ? "lane_" : "", q.key, "_", q.unit})) return false;
  if (!is_concatenation(q.threshold_metric, {"transceiver_", q.key, "_threshold_", q.unit})) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (q.types[i].qualifier.empty() != q.qualifier_label.empty()) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (q.types[j].qualifier == q.types[i].qualifier) return false;
    }
  }
  return true;
}

constexpr bool vdm_table_valid() {
  std::array<int, 256> rows_of_type{};
  for (std::size_t r = 0; r < kVdmQuantities.size(); ++r) {
    const VdmQuantitySpec& q = kVdmQuantities[r];
    if (type_count(q) == 0 || !snake_case(q.unit)) return false;
    if (q.exported() != (r < kVdmExportedCount)) return false;  // exported rows first
    if (q.exported() ? !exported_row_valid(q) : !(q.key.empty() && q.threshold_metric.empty())) return false;
    for (std::size_t i = 0; i < type_count(q); ++i) {
      const VdmTypeRow& t = q.types[i];
      if (++rows_of_type[t.id] != 1 || !snake_case(t.name) || !(t.scale > 0)) return false;
      if ((t.encoding == VdmEncoding::S16Dbm) != (q.unit == "watts" && q.exported())) return false;
    }
  }
  for (const VdmQuantitySpec& a : kVdmQuantities) {  // type names are unique (they name flags)
    for (const VdmQuantitySpec& b : kVdmQuantities) {
      for (std::size_t i = 0; i < type_count(a); ++i) {
        for (std::size_t j = 0; j < type_count(b); ++j) {
          if (&a.types[i] != &b.types[j] && a.types[i].name == b.types[j].name) return false;
        }
      }
    }
  }
  return true;
}
static_assert(vdm_table_valid(), "cmis/vdm_types.hpp: a row breaks the table's rules (see vdm_table_valid)");

}  // namespace

// The decoder's view of a type (codes.hpp), from this table: defined here so codes/ does not
// include the table that includes it.
namespace codes {

std::optional<VdmTypeRef> vdm_type_ref(uint8_t type_id) {
  const VdmTypeSlot slot = kVdmTypeSlots[type_id];
  if (!slot.known) return std::nullopt;
  const VdmQuantitySpec& q = kVdmQuantities[slot.row];
  const VdmTypeRow& t = q.types[slot.entry];
  return VdmTypeRef{t.name, t.encoding, t.scale, q.unit, q.key, t.qualifier, q.statistic};
}

std::optional<VdmType> vdm_type(uint8_t type_id) {
  const auto t = vdm_type_ref(type_id);
  if (!t) return std::nullopt;
  return VdmType{std::string(t->name), t->encoding, t->scale, std::string(t->unit)};
}

}  // namespace codes

// An observable's text, read from the table by its type code (one load, as vdm_type_ref does);
// "" for a code the table does not know, which the decoder never keeps.
namespace {
const VdmTypeRow* type_row(uint8_t type_id) {
  const VdmTypeSlot slot = kVdmTypeSlots[type_id];
  return slot.known ? &kVdmQuantities[slot.row].types[slot.entry] : nullptr;
}
}  // namespace

std::string_view VdmObservable::name() const {
  const VdmTypeRow* t = type_row(type_id);
  return t != nullptr ? t->name : "";
}
std::string_view VdmObservable::qualifier() const {
  const VdmTypeRow* t = type_row(type_id);
  return t != nullptr ? t->qualifier : "";
}
std::string_view VdmObservable::quantity() const {
  const VdmQuantitySpec* q = vdm_quantity_of(type_id);
  return q != nullptr ? q->key : "";
}
std::string_view VdmObservable::unit() const {
  const VdmQuantitySpec* q = vdm_quantity_of(type_id);
  return q != nullptr ? q->unit : "";
}
bool VdmObservable::statistic() const {
  const VdmQuantitySpec* q = vdm_quantity_of(type_id);
  return q != nullptr && q->statistic;
}

}  // namespace xcvr::cmis
