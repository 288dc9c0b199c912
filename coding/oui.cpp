// The IEEE MA-L (OUI) registry as Debian's ieee-data ships it.
//   oui.csv: Registry,Assignment,Organization Name,Organization Address  (RFC 4180 quoting)
//            MA-L,0002C9,"Mellanox Technologies, Inc.","350 Oakmead Parkway ..."
//   oui.txt: 00-02-C9   (hex)		Mellanox Technologies, Inc.
#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>

#include "coding/coding.hpp"
#include "base/safe_file.hpp"

namespace xcvr::coding {
namespace {

constexpr base::InputKind kRegistryInput{"OUI registry", std::size_t{64} << 20};
// Debian's download date beside the registry files (.lastupdate).
constexpr base::InputKind kStampInput{"date stamp", std::size_t{4} << 10};

std::optional<uint32_t> hex24(std::string_view text) {
  uint32_t v = 0;
  int digits = 0;
  for (char c : text) {
    if (c == '-' || c == ':') continue;
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : std::isxdigit(static_cast<unsigned char>(c))
                      ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                      : -1;
    if (d < 0 || ++digits > 6) return std::nullopt;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  if (digits != 6) return std::nullopt;
  return v;
}

// The next CSV field of `line` from `pos` (RFC 4180 quoting); moves `pos` past its comma.
std::string csv_field(std::string_view line, std::size_t& pos) {
  std::string out;
  if (pos < line.size() && line[pos] == '"') {
    ++pos;
    while (pos < line.size()) {
      const std::size_t q = line.find('"', pos);
      if (q == std::string_view::npos) {
        out.append(line.substr(pos));
        pos = line.size();
        break;
      }
      out.append(line.substr(pos, q - pos));
      pos = q + 1;
      if (pos < line.size() && line[pos] == '"') {  // "" is a quote
        out += '"';
        ++pos;
        continue;
      }
      break;
    }
    if (pos < line.size() && line[pos] == ',') ++pos;
    return out;
  }
  const std::size_t comma = line.find(',', pos);
  out.assign(line.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
  pos = comma == std::string_view::npos ? line.size() : comma + 1;
  return out;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

bool OuiRegistry::add_line(std::string_view line) {
  if (line.rfind("MA-L,", 0) == 0) {
    std::size_t at = 5;
    const std::string assignment = csv_field(line, at);
    const auto oui = hex24(assignment);
    if (!oui || at >= line.size()) return false;
    append(*oui, trim(csv_field(line, at)));
    return true;
  }
  // oui.txt: "00-02-C9   (hex)\t\tOrganization"
  const std::size_t hexpos = line.find("(hex)");
  if (hexpos == std::string_view::npos) return false;
  const auto oui = hex24(trim(line.substr(0, hexpos)));
  if (!oui) return false;
  append(*oui, trim(line.substr(hexpos + 5)));
  return true;
}

void OuiRegistry::append(uint32_t oui, std::string_view organization) {
  entries_.push_back({oui, static_cast<uint32_t>(names_.size()), static_cast<uint32_t>(organization.size())});
  names_.append(organization);
}

void OuiRegistry::finish() {
  // Stable: among equal OUIs the last one added stays last, and is the one kept.
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.oui < b.oui; });
  std::vector<Entry> unique;
  unique.reserve(entries_.size());
  for (const Entry& e : entries_) {
    if (!unique.empty() && unique.back().oui == e.oui) unique.back() = e;
    else unique.push_back(e);
  }
  entries_ = std::move(unique);
  entries_.shrink_to_fit();
  names_.shrink_to_fit();
}

std::size_t OuiRegistry::parse(std::string_view text) {
  std::size_t added = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (add_line(line)) ++added;
  }
  finish();
  return added;
}

OuiRegistry OuiRegistry::load(const std::string& path) {
  namespace fs = std::filesystem;
  OuiRegistry r;
  std::error_code ec;
  std::vector<std::string> candidates;
  if (fs::is_directory(path, ec)) {
    candidates = {path + "/oui.csv", path + "/oui.txt"};
  } else {
    candidates = {path};
  }
  for (const std::string& file : candidates) {
    if (!fs::exists(file, ec)) continue;  // a directory holds oui.csv, oui.txt or both
    // Line by line: the file (3 MB) is never held whole.
    std::size_t added = 0;
    std::string why;
    const bool read = base::read_regular_file_lines(
        file, kRegistryInput, [&](std::string_view line) { added += r.add_line(line) ? 1 : 0; },
        why);
    r.finish();
    if (!read) {
      r.error_ = why;
      continue;
    }
    if (added == 0) {
      r.error_ = file + ": no OUI assignments found";
      continue;
    }
    r.source_ = file;
    // Debian records the download date beside the files.
    const auto stamp = base::read_regular_file((fs::path(file).parent_path() / ".lastupdate").string(),
                                               kStampInput, why);
    std::string date = stamp ? trim(stamp->substr(0, stamp->find('\n'))) : "";
    if (!date.empty()) {
      // ieee-data writes seconds since the epoch; show the day.
      if (date.find_first_not_of("0123456789") == std::string::npos && date.size() < 12) {
        const std::time_t t = static_cast<std::time_t>(std::stoll(date));
        std::tm tm{};
        char day[16];
        if (gmtime_r(&t, &tm) != nullptr && std::strftime(day, sizeof day, "%Y-%m-%d", &tm) > 0) date = day;
      }
      r.source_ += " of " + date;
    }
    r.error_.clear();
    return r;
  }
  if (r.error_.empty()) {
    r.error_ = "no IEEE OUI registry at " + path + " (install Debian package ieee-data)";
  }
  return r;
}

std::optional<std::string> OuiRegistry::organization(const std::string& oui) const {
  const auto v = hex24(oui);
  if (!v) return std::nullopt;
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), *v,
                                   [](const Entry& e, uint32_t key) { return e.oui < key; });
  if (it == entries_.end() || it->oui != *v) return std::nullopt;
  return names_.substr(it->offset, it->length);
}

void OuiRegistry::add(const std::string& oui, std::string organization) {
  if (const auto v = hex24(oui)) {
    append(*v, organization);
    finish();
  }
  if (source_.empty()) source_ = "registry";
}

}  // namespace xcvr::coding
