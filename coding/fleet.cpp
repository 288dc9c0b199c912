// Cross-port coding checks: serial_duplicate (one exporter, two cages, one serial) and
// serial_recoded (the state directory remembers a serial with other vendor / part number).
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "coding/coding.hpp"

namespace xcvr::coding {
namespace {

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '?' || c == 0; });
}

// The ports of a duplicate group other than `self` (nullptr: all of them), the first kNamed by
// name and then a count: each port's message stays short however many modules share a serial
// (counterfeit batches do), so a fleet of them costs memory linear in its ports, not quadratic.
std::string other_ports(const SerialGroup& group, const FleetPort* self) {
  constexpr std::size_t kNamed = 3;
  const std::size_t others = group.size() - (self != nullptr ? 1 : 0);
  std::string out;
  std::size_t named = 0;
  for (const FleetPort* q : group) {
    if (q == self) continue;
    if (named == kNamed) {
      return out + " and " + std::to_string(others - kNamed) + " more (" + std::to_string(group.size()) +
             " ports in all)";
    }
    if (named++ != 0) out += ", ";
    out += q->port;
  }
  return out;
}

std::string identity(const cmis::ModuleReport& r) {
  return "serial \"" + r.id.serial + "\" of vendor \"" + r.id.vendor_name + "\" (serial_number, vendor_name)";
}

}  // namespace

std::string serial_key(const cmis::ModuleReport& r) {
  if (blank(r.id.serial)) return "";
  std::string vendor;
  for (char c : r.id.vendor_name) vendor += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return vendor + '\n' + r.id.serial;
}

std::vector<SerialGroup> duplicate_serials(std::span<const FleetPort> ports) {
  std::map<std::string, SerialGroup> by_serial;
  for (const FleetPort& p : ports) {
    if (!p.report || blank(p.report->id.serial)) continue;
    by_serial[serial_key(*p.report)].push_back(&p);
  }
  std::vector<SerialGroup> out;
  for (auto& [key, group] : by_serial) {
    if (group.size() > 1) out.push_back(std::move(group));
  }
  return out;
}

std::string describe_duplicate(const SerialGroup& group) {
  return identity(*group.front()->report) + " is in " + std::to_string(group.size()) +
         " ports: " + other_ports(group, nullptr);
}

std::vector<FleetFinding> verify_fleet(std::span<const FleetPort> ports, const IdentityHistory* aging) {
  std::vector<FleetFinding> out;
  for (const SerialGroup& group : duplicate_serials(ports)) {
    for (const FleetPort* p : group) {
      out.push_back({p->port, {std::string(check_id(Check::SerialDuplicate)), CheckStatus::Fail,
                               identity(*p->report) + " is also in " + other_ports(group, p) +
                                   ": a serial is unique per module, so one of them is a copy"}});
    }
  }
  if (aging != nullptr) {
    for (const FleetPort& p : ports) {
      if (!p.report || blank(p.report->id.serial)) continue;
      if (auto mismatch = aging->recorded_identity_mismatch(*p.report)) {
        out.push_back({p.port, {std::string(check_id(Check::SerialRecoded)), CheckStatus::Fail,
                                *mismatch + "; now " + p.report->id.vendor_name + " " + p.report->id.part_number +
                                    " (vendor_name, part_number): the module was re-coded or its serial is copied"}});
      }
    }
  }
  return out;
}

}  // namespace xcvr::coding
