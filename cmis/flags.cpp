#include "cmis/flags.hpp"

#include <algorithm>
#include <cctype>

namespace xcvr::cmis {

std::string_view level_name(ThresholdLevel level) {
  switch (level) {
    case ThresholdLevel::HighAlarm: return "high_alarm";
    case ThresholdLevel::HighWarning: return "high_warning";
    case ThresholdLevel::LowAlarm: return "low_alarm";
    case ThresholdLevel::LowWarning: return "low_warning";
  }
  return "high_alarm";
}

const FlagRow* find_flag(std::string_view name) {
  constexpr std::string_view kVdmPrefix = "vdm_";
  const bool vdm = name.starts_with(kVdmPrefix);
  for (const FlagRow& row : kFlags) {
    if ((row.scope == FlagScope::VdmInstance) != vdm) continue;
    if (!vdm) {
      if (row.name == name) return &row;
      continue;
    }
    // "vdm_<type>_<level>": a type of at least one character, then "_" and the row's level.
    const std::size_t tail = row.name.size() + 1;
    if (name.size() > kVdmPrefix.size() + tail && name.ends_with(row.name) && name[name.size() - tail] == '_') {
      return &row;
    }
  }
  return nullptr;
}

// Every monitor the decoders give thresholds for has its four crossings in the table, so a
// value past a threshold is judged by a row's severity like the flag the module raises for it.
constexpr bool crossings_cover_thresholds() {
  for (const QuantitySpec& q : kQuantities) {
    for (auto level : {ThresholdLevel::HighAlarm, ThresholdLevel::HighWarning, ThresholdLevel::LowAlarm,
                       ThresholdLevel::LowWarning}) {
      // Rows compared, not threshold_flag()'s pointer: GCC's UBSan build does not take a
      // pointer into kFlags compared with nullptr as a constant expression.
      const auto is_row = [&](const FlagRow& row) { return row.monitor == q.id && row.level == level; };
      if (q.has_thresholds() && std::none_of(kFlags.begin(), kFlags.end(), is_row)) return false;
    }
  }
  return true;
}
static_assert(crossings_cover_thresholds(), "a monitor with thresholds needs its four rows in kFlags");

std::string cage_label(std::string_view name) {
  const FlagRow* row = find_flag(name);
  if (row != nullptr && !row->label.empty()) return std::string(row->label);
  if (row != nullptr && row->monitor && row->level) {
    return std::string(quantity(*row->monitor).cage_label) + (is_high(*row->level) ? " HI" : " LO");
  }
  std::string out;
  for (char c : name.substr(0, 7)) {
    out += c == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace xcvr::cmis
