#include "cmis/decode_util.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <utility>

#include "cmis/codes.hpp"
#include "cmis/decode.hpp"

namespace xcvr::cmis {
namespace {

// A row that names one flag bit of the given role (multi-bit status fields are not flags).
bool is_flag_row(const Field& f, Role role) {
  return f.role == role && f.type == Type::Bits && f.width == 1;
}

bool is_raised(const ModuleImage& image, const Field& f, int lane) {
  return read_uint(image, f, lane).value_or(0) != 0;
}

bool printable(char c) { return c >= 0x20 && c <= 0x7E; }

}  // namespace

Thresholds read_thresholds(const ModuleImage& image, const Field& ha, const Field& la,
                           const Field& hw, const Field& lw, double multiplier) {
  return read_thresholds(ha, la, hw, lw, [&](const Field& f) -> std::optional<double> {
    const auto v = read_scaled(image, f);
    if (!v) return std::nullopt;
    return *v * multiplier;
  });
}

void set_thresholds(ModuleReport& report, Quantity q, const Thresholds& t) {
  if (t.any()) report.thresholds.insert_or_assign(quantity(q).key, t);
}

std::vector<std::string> raised_flags(const ModuleImage& image, std::span<const Field> table,
                                      int lane) {
  std::vector<std::string> out;
  raised_flags_into(image, table, lane, out);
  return out;
}

namespace {

// The Role::Flag rows of one table, module-level and per-lane, found once per thread: the
// per-poll flag scan then visits only flag rows, not the whole table once per lane.
struct FlagRows {
  const Field* table = nullptr;
  std::vector<const Field*> lane_rows;
  std::vector<std::pair<Location, const Field*>> module_rows;  // one place each: located here, once
};

const FlagRows& flag_rows(std::span<const Field> table) {
  thread_local std::vector<FlagRows> cache;  // one entry per memory map (three)
  for (const FlagRows& r : cache) {
    if (r.table == table.data()) return r;
  }
  FlagRows& r = cache.emplace_back();
  r.table = table.data();
  for (const Field& f : table) {
    if (!is_flag_row(f, Role::Flag)) continue;
    if (f.lanes.count != 0) r.lane_rows.push_back(&f);
    else if (const auto loc = locate(f)) r.module_rows.emplace_back(*loc, &f);
  }
  return r;
}

}  // namespace

void raised_flags_into(const ModuleImage& image, std::span<const Field> table, int lane,
                       std::vector<std::string>& out) {
  const FlagRows& rows = flag_rows(table);
  std::size_t n = 0;
  // Flag rows of one lane sit in one or two half-pages: look each up once, not once per row.
  const ModuleImage::Entry* entry = nullptr;
  PageKey entry_key{};
  const auto visit = [&](const Location& loc, const Field& f) {
    if (entry == nullptr || loc.page != entry_key) {
      entry = image.find(loc.page);
      entry_key = loc.page;
    }
    if (entry == nullptr) return;
    const std::size_t base = loc.page.page == kLowerPage ? 0 : kPageSize;
    if (loc.offset < base || loc.offset >= base + kPageSize) return;
    if (((entry->bytes[loc.offset - base] >> loc.shift) & 1) == 0) return;  // width-1 rows
    if (n < out.size()) out[n].assign(f.name);
    else out.emplace_back(f.name);
    ++n;
  };
  if (lane == 0) {
    for (const auto& [loc, f] : rows.module_rows) visit(loc, *f);
  } else {
    for (const Field* f : rows.lane_rows) {
      if (const auto loc = locate(*f, lane)) visit(*loc, *f);
    }
  }
  out.resize(n);
}

void collect_flags(const ModuleImage& image, std::span<const Field> table, ModuleReport& report,
                   Role role) {
  for (const Field& f : table) {
    if (!is_flag_row(f, role)) continue;
    if (f.lanes.count == 0) {
      if (is_raised(image, f, 1)) report.module_flags.emplace_back(f.name);
      continue;
    }
    for (LaneReport& lane : report.lanes) {
      if (is_raised(image, f, lane.lane)) lane.flags.emplace_back(f.name);
    }
  }
}

std::string format_oui(std::span<const uint8_t> bytes) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i != 0) out += ':';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0x0F];
  }
  return out;
}

bool is_printable(std::string_view text) { return std::all_of(text.begin(), text.end(), printable); }

std::optional<std::string> read_text(const ModuleImage& image, const Field& field,
                                     std::vector<std::string>* problems) {
  auto view = read_ascii_view(image, field);
  if (!view) return std::nullopt;
  const auto first = view->find_first_not_of(" \0", 0, 2);
  view->remove_prefix(first == std::string_view::npos ? view->size() : first);
  std::optional<std::string> text(std::in_place, *view);
  if (!is_printable(*text)) {
    std::replace_if(text->begin(), text->end(), [](char c) { return !printable(c); }, '?');
    if (problems != nullptr) {
      problems->push_back(std::string(field.name) + " has non-printable bytes");
    }
  }
  return text;
}

std::optional<Coded> read_coded(const ModuleImage& image, const Field& field,
                                std::string_view (*namer)(uint8_t)) {
  const auto code = read_uint(image, field);
  if (!code) return std::nullopt;
  return Coded{*code, namer(static_cast<uint8_t>(*code))};
}

PageKey page_of(const Field& field) {
  const bool upper = field.offset >= kPageSize;
  return PageKey{field.device, 0, upper ? field.page : kLowerPage};
}

bool require_page(const ModuleImage& image, const PageKey& page, ModuleReport& report) {
  if (image.has(page)) return true;
  const std::string name = page_name(page);
  if (std::find(report.missing_pages.begin(), report.missing_pages.end(), name) ==
      report.missing_pages.end()) {
    report.missing_pages.push_back(name);
  }
  return false;
}

void add_checksum(const ModuleImage& image, ModuleReport& report, std::string name,
                  const Field& first, const Field& stored) {
  if (stored.offset <= first.offset) return;
  const uint16_t last = static_cast<uint16_t>(stored.offset - 1);
  const PageKey page = page_of(stored);
  const auto computed = checksum(image, page, first.offset, last);
  const auto value = read_uint(image, stored);
  if (!computed || !value) return;
  Checksum c;
  c.page = std::move(name);
  char range[16];
  char* end = std::to_chars(range, range + sizeof range, first.offset).ptr;
  *end++ = '-';
  end = std::to_chars(end, range + sizeof range, last).ptr;
  c.range.assign(range, end);
  c.stored = static_cast<uint8_t>(*value);
  c.computed = *computed;
  report.checksums.push_back(std::move(c));
}

void read_identity(const ModuleImage& image, const IdentityFields& fields, ModuleReport& report) {
  Identity& id = report.id;
  if (auto c = read_coded(image, fields.identifier, codes::identifier)) id.identifier = *c;
  auto text = [&](const Field& f) { return read_text(image, f, &report.problems).value_or(""); };
  id.vendor_name = text(fields.vendor_name);
  id.vendor_oui = format_oui(read_bytes(image, fields.vendor_oui));
  id.part_number = text(fields.part_number);
  id.revision = text(fields.revision);
  id.serial = text(fields.serial);
  id.date_code = text(fields.date_code);
}

std::vector<LaneReport> make_lanes(int count) {
  std::vector<LaneReport> lanes(static_cast<std::size_t>(std::max(count, 0)));
  for (std::size_t i = 0; i < lanes.size(); ++i) lanes[i].lane = static_cast<int>(i + 1);
  return lanes;
}

void add_length(ModuleReport& report, const std::string& medium, std::optional<double> meters) {
  if (meters && *meters > 0) report.lengths_meters[medium] = *meters;
}

std::string hex_code(uint32_t code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%02x", code);
  return buf;
}

void add_problem(ModuleReport& report, std::string problem) {
  if (std::find(report.problems.begin(), report.problems.end(), problem) == report.problems.end()) {
    report.problems.push_back(std::move(problem));
  }
}

}  // namespace xcvr::cmis
