#include "exporters/verdict_log.hpp"

#include <string_view>
#include <unordered_map>

#include <spdlog/spdlog.h>

namespace xcvr::exporters {

using health::Health;
using health::health_name;
using health::is_problem;

namespace {

// Before its first read a port's verdict is "stale", which it is not: these states wait.
bool has_verdict(const daemon::PortSnapshot& p) {
  return p.state != daemon::PortState::Unknown && p.state != daemon::PortState::Settling &&
         p.state != daemon::PortState::Reading;
}

}  // namespace

VerdictLog::VerdictLog(Sink sink) : sink_(std::move(sink)) {
  if (!sink_) sink_ = [](const std::string& line) { spdlog::info("{}", line); };
}

void VerdictLog::judge(const daemon::PortSnapshot& port, const health::PortView& v, Seen& seen) {
  if (!has_verdict(port)) return;
  if (seen.health == v.health || (!seen.health && !is_problem(v.health))) {
    seen.health = v.health;
    return;
  }
  // Only here, on a change, is a line built.
  std::string line = "port " + port.port + ": ";
  if (seen.health) line += std::string(health_name(*seen.health)) + " -> ";
  line += health_name(v.health);
  for (std::size_t i = 0; i < v.reasons.size(); ++i) line += (i == 0 ? " (" : "; ") + v.reasons[i].text;
  if (!v.reasons.empty()) line += ")";
  sink_(line);
  seen.health = v.health;
}

void VerdictLog::observe(const health::FleetView& views) {
  const daemon::Snapshot& s = views.snapshot();
  if (s.taken_unix == observed_taken_unix_) return;
  observed_taken_unix_ = s.taken_unix;
  // Ports keep their order from one snapshot to the next; a reload may change it.
  bool same_ports = seen_.size() == s.ports.size();
  for (std::size_t i = 0; same_ports && i < seen_.size(); ++i) same_ports = seen_[i].port == s.ports[i].port;
  if (!same_ports) {
    std::unordered_map<std::string_view, std::optional<Health>> before;
    for (const Seen& e : seen_) before.emplace(e.port, e.health);
    std::vector<Seen> next;
    next.reserve(s.ports.size());
    for (const daemon::PortSnapshot& p : s.ports) {
      const auto it = before.find(p.port);
      next.push_back({p.port, it == before.end() ? std::nullopt : it->second});
    }
    seen_ = std::move(next);
  }
  for (std::size_t i = 0; i < s.ports.size(); ++i) judge(s.ports[i], views.port(i), seen_[i]);
}

}  // namespace xcvr::exporters
