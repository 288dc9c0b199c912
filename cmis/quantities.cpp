#include "cmis/quantities.hpp"

#include <cstdio>

namespace xcvr::cmis {

static_assert([] {
  for (std::size_t i = 0; i < kQuantities.size(); ++i) {
    const QuantitySpec& q = kQuantities[i];
    if (static_cast<std::size_t>(q.id) != i) return false;         // rows indexed by id
    if ((q.module_value == nullptr) == (q.lane_value == nullptr)) return false;  // one place
    if (!q.key.ends_with(q.unit) || !q.key.starts_with(q.stem)) return false;  // key = stem_unit
  }
  return true;
}());

const QuantitySpec* quantity_by_key(std::string_view key) {
  for (const QuantitySpec& q : kQuantities) {
    if (q.key == key) return &q;
  }
  return nullptr;
}

std::optional<double> value_of(const QuantitySpec& q, const ModuleReport& r, int lane) {
  if (!q.per_lane()) return r.*q.module_value;
  for (const LaneReport& l : r.lanes) {
    if (l.lane == lane) return l.*q.lane_value;
  }
  return std::nullopt;
}

std::optional<double> temperature_headroom(const ModuleReport& r) {
  const auto t = r.thresholds.find(quantity(Quantity::Temperature).key);
  if (!r.temperature_celsius || t == r.thresholds.end() || !t->second.high_warning) return std::nullopt;
  return *t->second.high_warning - *r.temperature_celsius;
}

std::string plain_text(std::string_view unit, double value) {
  char buf[64];
  if (unit == "celsius") std::snprintf(buf, sizeof buf, "%.2f C", value);
  else if (unit == "volts") std::snprintf(buf, sizeof buf, "%.4f V", value);
  else if (unit == "amperes") std::snprintf(buf, sizeof buf, "%.3f mA", value * 1e3);
  else if (unit == "watts") std::snprintf(buf, sizeof buf, "%.4f mW", value * 1e3);
  else std::snprintf(buf, sizeof buf, "%.4f", value);
  return buf;
}

}  // namespace xcvr::cmis
