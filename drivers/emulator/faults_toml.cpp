// TOML fault timelines (toml++).
#include <cctype>
#include <climits>
#include <cmath>

#include "drivers/emulator/toml_support.hpp"
#include "drivers/toml_input.hpp"

namespace xcvr::emulator {
namespace toml_support {

std::string where(std::string_view source, const toml::node& node) {
  const toml::source_position p = node.source().begin;
  return std::string(source) + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

void fail(std::string_view source, const toml::node& node, const std::string& msg) {
  throw TomlError(where(source, node) + ": " + msg);
}

toml::table parse_document(std::string_view text, std::string_view source) {
  try {
    return drivers::parse_toml(text, source);
  } catch (const toml::parse_error& e) {
    const toml::source_position p = e.source().begin;
    throw TomlError(std::string(source) + ":" + std::to_string(p.line) + ":" +
                    std::to_string(p.column) + ": " + std::string(e.description()));
  }
}

void expect_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                 std::string_view source) {
  for (const auto& [key, node] : t) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key.str() == a;
    if (!known) fail(source, node, "unknown key '" + std::string(key.str()) + "'");
  }
}

std::optional<std::string> get_string(const toml::table& t, std::string_view key,
                                      std::string_view source) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_string()) fail(source, *n, "'" + std::string(key) + "' must be a string");
  return n->value<std::string>();
}

std::optional<int64_t> get_int(const toml::table& t, std::string_view key,
                               std::string_view source) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_integer()) fail(source, *n, "'" + std::string(key) + "' must be an integer");
  return n->value<int64_t>();
}

std::optional<double> get_number(const toml::table& t, std::string_view key,
                                 std::string_view source) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_number()) fail(source, *n, "'" + std::string(key) + "' must be a number");
  return n->value<double>();
}

std::optional<int64_t> get_duration_ns(const toml::table& t, std::string_view key,
                                       std::string_view source) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  std::optional<int64_t> ns;
  if (n->is_number()) {
    const double s = n->value<double>().value_or(-1);
    if (std::isfinite(s) && s >= 0 && s < 1e9) ns = static_cast<int64_t>(std::llround(s * 1e9));
  } else if (n->is_string()) {
    ns = parse_duration_ns(*n->value<std::string>());
  }
  if (!ns) {
    fail(source, *n, "'" + std::string(key) +
                         "' must be seconds or a duration like \"250ms\", \"30s\", \"2m\"");
  }
  return ns;
}

// `value` feeds integer casts and time arithmetic in FaultInjector: keep it finite and in the
// range each kind means (a byte, ns per byte, dB, degC per second).
void check_value(FaultKind kind, double v, std::string_view source, const toml::node& node) {
  auto in = [&](double lo, double hi, const char* what) {
    if (!(v >= lo && v <= hi)) fail(source, node, std::string("'value' must be ") + what);
  };
  switch (kind) {
    case FaultKind::CorruptByte:
    case FaultKind::GarbageIdentifier:
    case FaultKind::ModuleFault:
      in(0, 255, "a byte 0-255");
      if (v != std::floor(v)) fail(source, node, "'value' must be a whole byte 0-255");
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

ParsedFault parse_fault(const toml::table& t, std::string_view source) {
  expect_keys(t,
              {"at", "duration", "bus", "port", "cage", "kind", "lane", "value", "model", "page",
               "bank", "offset"},
              source);
  ParsedFault p;
  TimedFault& e = p.event;
  e.where = where(source, t);
  const auto kind = get_string(t, "kind", source);
  if (!kind) fail(source, t, "fault needs a 'kind'");
  const auto parsed = parse_fault_kind(*kind);
  if (!parsed) {
    std::string names;
    for (FaultKind k : all_fault_kinds()) names += std::string(names.empty() ? "" : ", ") +
                                                   std::string(fault_kind_name(k));
    fail(source, *t.get("kind"), "unknown fault kind '" + *kind + "' (one of: " + names + ")");
  }
  e.fault.kind = *parsed;
  e.at_ns = get_duration_ns(t, "at", source).value_or(0);
  p.duration_ns = get_duration_ns(t, "duration", source).value_or(0);
  // The end time must stay a representable int64 (run_due compares it with now).
  if (p.duration_ns > INT64_MAX - e.at_ns) fail(source, *t.get("duration"), "'at' + 'duration' is too far in the future");
  e.bus = get_string(t, "bus", source).value_or("");
  e.port = get_string(t, "port", source).value_or("");
  const int64_t cage = get_int(t, "cage", source).value_or(0);
  if (cage < 0 || cage > 4096) fail(source, *t.get("cage"), "cage out of range (0-4096)");
  e.cage = static_cast<int>(cage);
  const int64_t lane = get_int(t, "lane", source).value_or(0);
  if (lane < 0 || lane > kMaxLanes) fail(source, *t.get("lane"), "lane out of range");
  e.fault.lane = static_cast<int>(lane);
  e.fault.value = get_number(t, "value", source);
  if (e.fault.value) check_value(e.fault.kind, *e.fault.value, source, *t.get("value"));
  e.fault.model = get_string(t, "model", source).value_or("");
  if (const auto page = get_int(t, "page", source)) {
    if (*page < -1 || *page > 255) fail(source, *t.get("page"), "page must be -1 (lower) to 255");
    e.fault.page = static_cast<int16_t>(*page);
  }
  e.fault.bank = static_cast<uint8_t>(get_int(t, "bank", source).value_or(0) & 0xFF);
  e.fault.offset = static_cast<uint16_t>(get_int(t, "offset", source).value_or(0) & 0xFF);
  return p;
}

}  // namespace toml_support

std::optional<int64_t> parse_duration_ns(std::string_view text) {
  const auto seconds = drivers::parse_duration(text);
  if (!seconds) return std::nullopt;
  const double ns = *seconds * 1e9;
  if (!std::isfinite(ns) || ns > 9e18) return std::nullopt;
  return static_cast<int64_t>(std::llround(ns));
}

TimelineParse FaultTimeline::parse(std::string_view toml_text, std::string_view source_name) {
  TimelineParse result;
  try {
    const toml::table doc = toml_support::parse_document(toml_text, source_name);
    const toml::node* faults = doc.get("fault");
    if (faults == nullptr) return result;
    const toml::array* list = faults->as_array();
    if (list == nullptr) toml_support::fail(source_name, *faults, "'fault' must be [[fault]] tables");
    for (const toml::node& item : *list) {
      const toml::table* t = item.as_table();
      if (t == nullptr) toml_support::fail(source_name, item, "each [[fault]] must be a table");
      toml_support::ParsedFault p = toml_support::parse_fault(*t, source_name);
      if (p.event.bus.empty() && p.event.port.empty()) {
        toml_support::fail(source_name, *t, "fault needs a 'bus' (and 'cage') or a 'port'");
      }
      result.timeline.add(std::move(p.event), p.duration_ns);
    }
  } catch (const toml_support::TomlError& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace xcvr::emulator
