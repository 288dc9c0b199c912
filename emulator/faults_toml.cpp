// TOML fault timelines (toml++).
#include <cctype>
#include <climits>
#include <cmath>

#include "emulator/toml_support.hpp"
#include "base/toml_input.hpp"

namespace xcvr::emulator {
namespace {

// Seconds in ns, when that fits an int64 with room for a sum (at most 9e18; NaN does not).
std::optional<int64_t> seconds_to_ns(double seconds) {
  const double ns = seconds * 1e9;
  if (!(ns >= 0 && ns <= 9e18)) return std::nullopt;
  return static_cast<int64_t>(std::llround(ns));
}

}  // namespace

namespace toml_support {

namespace {

using base::toml_fail;

// Seconds, or a duration string, in ns: at most 9e18 (an int64; the sum of two is checked).
std::optional<int64_t> duration_ns(base::TomlTable& t, std::string_view key) {
  const auto s = t.duration(key);
  if (!s) return std::nullopt;
  const auto ns = seconds_to_ns(*s);
  if (!ns) t.fail(t.node(key), key, "expected a duration up to 9e9 s");
  return ns;
}

}  // namespace

// `value` feeds integer casts and time arithmetic in FaultInjector: keep it finite and in the
// range each kind means (a byte, ns per byte, dB, degC per second).
void check_value(FaultKind kind, double v, const toml::node& node) {
  auto in = [&](double lo, double hi, const char* what) {
    if (!(v >= lo && v <= hi)) toml_fail(node, std::string("'value' must be ") + what);
  };
  switch (kind) {
    case FaultKind::CorruptByte:
    case FaultKind::GarbageIdentifier:
    case FaultKind::ModuleFault:
      in(0, 255, "a byte 0-255");
      if (v != std::floor(v)) toml_fail(node, "'value' must be a whole byte 0-255");
      break;
    case FaultKind::SlowModule: in(0, 1e9, "0-1e9 ns of stretching per byte"); break;
    case FaultKind::LanePowerDrop:
    case FaultKind::DirtyFiber: in(0, 100, "0-100 dB"); break;
    case FaultKind::Overheat: in(-100, 100, "-100 to 100 degC per second"); break;
    case FaultKind::BerDegrade: in(0, 60, "0-60 decades per minute"); break;
    case FaultKind::BerShift: in(-12, 12, "-12 to 12 decades"); break;
    default: in(-1e12, 1e12, "a finite number"); break;
  }
}

ParsedFault parse_fault(const toml::table& table) {
  base::TomlTable t(table, "fault");
  t.allow({"at", "duration", "bus", "port", "cage", "kind", "lane", "value", "model", "page", "bank", "offset"});
  ParsedFault p;
  TimedFault& e = p.event;
  e.where = base::toml_location(table.source());
  const auto kind = t.str("kind");
  if (!kind) toml_fail(table, "fault needs a 'kind'");
  const auto parsed = parse_fault_kind(*kind);
  if (!parsed) {
    std::string names;
    for (FaultKind k : all_fault_kinds()) names += std::string(names.empty() ? "" : ", ") +
                                                   std::string(fault_kind_name(k));
    toml_fail(*t.node("kind"), "unknown fault kind '" + *kind + "' (one of: " + names + ")");
  }
  e.fault.kind = *parsed;
  e.at_ns = duration_ns(t, "at").value_or(0);
  p.duration_ns = duration_ns(t, "duration").value_or(0);
  // The end time must stay a representable int64 (run_due compares it with now).
  if (p.duration_ns > INT64_MAX - e.at_ns) toml_fail(*t.node("duration"), "'at' + 'duration' is too far in the future");
  e.bus = t.str("bus").value_or("");
  e.port = t.str("port").value_or("");
  e.cage = static_cast<int>(t.integer("cage", 0, 4096).value_or(0));
  e.fault.lane = static_cast<int>(t.integer("lane", 0, kMaxLanes).value_or(0));
  e.fault.value = t.number("value");
  if (e.fault.value) check_value(e.fault.kind, *e.fault.value, *t.node("value"));
  e.fault.model = t.str("model").value_or("");
  if (const auto page = t.integer("page", -1, 255)) e.fault.page = static_cast<int16_t>(*page);
  e.fault.bank = static_cast<uint8_t>(t.integer("bank", 0, 255).value_or(0));
  e.fault.offset = static_cast<uint16_t>(t.integer("offset", 0, 255).value_or(0));
  return p;
}

}  // namespace toml_support

std::optional<int64_t> parse_duration_ns(std::string_view text) {
  const auto seconds = base::parse_duration(text);
  return seconds ? seconds_to_ns(*seconds) : std::nullopt;
}

TimelineParse FaultTimeline::parse(std::string_view toml_text, std::string_view source_name) {
  TimelineParse result;
  try {
    const toml::table doc = base::parse_toml(toml_text, source_name);
    base::TomlTable root(doc, "timeline");
    root.allow({"fault"});
    const toml::array* list = root.tables("fault");
    if (list == nullptr) return result;
    for (const toml::node& item : *list) {
      toml_support::ParsedFault p = toml_support::parse_fault(*item.as_table());
      if (p.event.bus.empty() && p.event.port.empty()) {
        base::toml_fail(item, "fault needs a 'bus' (and 'cage') or a 'port'");
      }
      result.timeline.add(std::move(p.event), p.duration_ns);
    }
  } catch (...) {
    result.error = base::toml_error_text(source_name);  // rethrows what is not a TOML error
  }
  return result;
}

}  // namespace xcvr::emulator
