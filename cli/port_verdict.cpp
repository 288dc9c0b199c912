#include "cli/port_verdict.hpp"

#include <ctime>

#include "health/health.hpp"

namespace xcvr::cli {

health::PortView judge_read(const ModuleSource& source, std::shared_ptr<const cmis::ModuleReport> report,
                            std::vector<coding::CodingFinding> coding) {
  daemon::PortSnapshot p;
  p.port = source.config_port ? source.config_port->port : source.label;
  p.presence = report ? daemon::PortPresence::Present : daemon::PortPresence::Absent;
  p.state = report ? daemon::PortState::Ok : daemon::PortState::Empty;
  p.last_good_read_unix = report ? static_cast<double>(std::time(nullptr)) : 0;
  p.report = std::move(report);
  p.coding = std::move(coding);
  if (source.config_port) {
    p.in_service = source.config_port->service.in_service;
    p.unused_lanes = source.config_port->service.unused_lanes;
  }
  return health::assess(p);
}

std::string verdict_text(const health::PortView& view) {
  std::string out = "Health   : " + std::string(health::health_name(view.health)) + "\n";
  for (const health::Reason& r : view.reasons) out += "Reason   : " + r.text + "\n";
  return out;
}

}  // namespace xcvr::cli
