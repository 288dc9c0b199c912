// Power/thermal budget groups: a port selector, a per-cage allowance and a group total
// (e.g. 64 cages × 5 W = 320 W). Uses each module's advertised maximum power.
#pragma once

#include <vector>

#include "daemon/config.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::daemon {

// Computes every group and marks ports over their allowance (in place).
std::vector<BudgetSnapshot> compute_budgets(const std::vector<BudgetConfig>& groups,
                                            std::vector<PortSnapshot>& ports);

}  // namespace xcvr::daemon
