// Each port's worst lane of the quantities the shipped alerts judge per port (WorstOf): what the
// fleet profile keeps of the lanes, computed once here so that /metrics' roll-ups, and the rules
// that read them, mean the same lanes in both profiles.
#include <algorithm>
#include <cmath>

#include "cmis/flags.hpp"
#include "health/health_internal.hpp"

namespace xcvr::health::detail {
namespace {

// Worse: a higher BER; a lower eSNR; a drift ratio farther from 1 (either way: a laser that needs
// more bias, or one whose bias fell).
bool worse(WorstOf q, double candidate, double current) {
  switch (q) {
    case WorstOf::PreFecBer: return candidate > current;
    case WorstOf::Esnr: return candidate < current;
    case WorstOf::TxBiasDrift: return std::abs(candidate - 1) > std::abs(current - 1);
  }
  return false;
}

void offer(std::vector<WorstLane>& out, WorstOf q, std::string_view side, int lane, double value) {
  const auto it = std::find_if(out.begin(), out.end(), [&](const WorstLane& w) { return w.quantity == q && w.side == side; });
  if (it == out.end()) out.push_back({q, side, lane, value});
  else if (worse(q, value, it->value)) *it = {q, side, lane, value};
}

}  // namespace

std::vector<WorstLane> worst_lanes(const daemon::PortSnapshot& p, const std::vector<RaisedFlag>& flags) {
  std::vector<WorstLane> out;
  const cmis::ModuleReport& r = *p.report;
  // Not configured out of service: a module with 8 host lanes and 4 media lanes (FR4, DR4) reports
  // host-side VDM on lanes 5-8, which have no media lane report.
  const auto in_service = [&](int lane) { return lane > 0 && lane_in_service(p, lane); };
  // A lane that measures nothing (dark, its data path down) may be the worst of all: while one
  // does, its side's worst lane is unknown and not given. So a lane's LOS leaves a gap, as in the
  // lane's own series, and a regression after it is measured from when the light came back.
  std::vector<std::pair<WorstOf, std::string_view>> unknown;
  for (const cmis::VdmObservable& o : r.vdm) {
    const WorstOf q = o.quantity() == "pre_fec_ber" ? WorstOf::PreFecBer : WorstOf::Esnr;
    if ((o.quantity() != "pre_fec_ber" && o.quantity() != "esnr") || o.statistic() || !in_service(o.lane)) continue;
    if (!std::isfinite(o.value) || !vdm_measures(r, o.lane)) {
      unknown.emplace_back(q, o.qualifier());
      continue;
    }
    offer(out, q, o.qualifier(), o.lane, o.value);
  }
  std::erase_if(out, [&](const WorstLane& w) {
    return std::find(unknown.begin(), unknown.end(), std::pair{w.quantity, w.side}) != unknown.end();
  });
  const std::string_view tx_fault = cmis::flag_name(cmis::FlagId::TxFault);
  for (const daemon::LaneAging& a : p.aging) {
    if (!a.tx_bias_ratio || !std::isfinite(*a.tx_bias_ratio) || !in_service(a.lane)) continue;
    const auto lane = std::find_if(r.lanes.begin(), r.lanes.end(), [&](const cmis::LaneReport& l) { return l.lane == a.lane; });
    if (lane == r.lanes.end() || !lane->tx_bias_amperes || *lane->tx_bias_amperes <= 0) continue;  // dark laser
    if (std::any_of(flags.begin(), flags.end(), [&](const RaisedFlag& f) { return f.lane == a.lane && f.flag == tx_fault; })) continue;
    offer(out, WorstOf::TxBiasDrift, "", a.lane, *a.tx_bias_ratio);
  }
  std::sort(out.begin(), out.end(), [](const WorstLane& a, const WorstLane& b) {
    return a.quantity != b.quantity ? a.quantity < b.quantity : a.side < b.side;
  });
  return out;
}

}  // namespace xcvr::health::detail
