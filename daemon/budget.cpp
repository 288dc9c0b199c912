#include "daemon/budget.hpp"

namespace xcvr::daemon {

std::vector<BudgetSnapshot> compute_budgets(const std::vector<BudgetConfig>& groups,
                                            std::vector<PortSnapshot>& ports) {
  std::vector<BudgetSnapshot> out;
  for (const BudgetConfig& g : groups) {
    BudgetSnapshot b;
    b.group = g.group;
    b.budget_watts = g.total_watts;
    b.per_port_allowance_watts = g.per_port_watts;
    int empty = 0;
    for (PortSnapshot& p : ports) {
      if (!glob_match(g.ports, p.port)) continue;
      ++b.ports;
      p.groups.push_back(g.group);
      const bool present = p.presence == PortPresence::Present;
      if (!present) {
        ++empty;
        continue;
      }
      ++b.present;
      const double advertised = p.report && p.report->max_power_watts ? *p.report->max_power_watts : 0;
      b.allocated_watts += advertised;
      if (g.per_port_watts > 0 && advertised > g.per_port_watts) {
        p.over_power_allowance = true;
        b.over_allowance_ports.push_back(p.port);
      }
    }
    // What the switch would draw if every empty cage got a module at the allowance.
    b.projected_watts = b.allocated_watts + empty * g.per_port_watts;
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace xcvr::daemon
