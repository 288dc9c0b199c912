#include "tests/support/ib/fabric_sweep.hpp"

#include <algorithm>
#include <functional>

namespace xcvr::ib {

std::vector<drivers::ReadRequest> cmis_dynamic_plan() {
  return {{0x50, 0, 0x00, 0, 26}, {0x50, 0, 0x11, 128, 74}};
}

SweepResult sweep(const std::vector<IbTransport*>& ports, const std::vector<drivers::ReadRequest>& plan,
                  DesClock& clock, int64_t latency_ns, double rate_per_second, double burst) {
  std::map<std::string, std::vector<IbTransport*>> by_lane;
  for (IbTransport* p : ports) by_lane[p->domain()].push_back(p);
  SweepResult r;
  r.lanes = by_lane.size();
  r.modules = ports.size();
  uint64_t before = 0;
  for (IbTransport* p : ports) before += p->counters().transactions;

  const int64_t start = clock.now_ns();
  std::vector<int64_t> finished(by_lane.size(), start);
  std::vector<uint64_t> errors(by_lane.size(), 0);
  std::vector<std::function<void()>> tasks;
  std::size_t i = 0;
  for (auto& [domain, lane_ports] : by_lane) {
    tasks.push_back([&, i, lp = &lane_ports] {
      std::vector<uint8_t> buf;
      for (IbTransport* p : *lp) {
        for (const drivers::ReadRequest& req : plan) {
          buf.assign(req.length, 0);
          if (p->read(req, buf)) ++errors[i];
        }
      }
      finished[i] = clock.now_ns();
    });
    ++i;
  }
  clock.run(std::move(tasks));

  uint64_t after = 0;
  for (IbTransport* p : ports) after += p->counters().transactions;
  r.mads = after - before;
  for (uint64_t e : errors) r.errors += e;
  r.seconds = static_cast<double>(*std::max_element(finished.begin(), finished.end()) - start) / 1e9;
  i = 0;
  for (auto& [domain, lane_ports] : by_lane) {
    r.lane_seconds[domain] = static_cast<double>(finished[i++] - start) / 1e9;
  }

  // Lower bound from the plan itself (not from what happened): MADs per module per plan.
  uint64_t mads_per_module = 0;
  for (IbTransport* p : ports) {
    uint64_t m = 0;
    for (const drivers::ReadRequest& req : plan) {
      const auto chunk = static_cast<uint64_t>(p->target().mcia_bytes());
      m += (req.length + chunk - 1) / chunk;
    }
    mads_per_module = std::max(mads_per_module, m);
  }
  std::size_t widest = 0;
  for (auto& [domain, lane_ports] : by_lane) widest = std::max(widest, lane_ports.size());
  const double lane_bound = static_cast<double>(widest * mads_per_module) * static_cast<double>(latency_ns) / 1e9;
  // The bucket starts full: `burst` MADs go at once, the rest at the rate; the last one
  // admitted still takes a latency to be answered.
  const double total = static_cast<double>(ports.size() * mads_per_module);
  const double rate_bound =
      rate_per_second > 0 ? std::max(0.0, total - burst) / rate_per_second + static_cast<double>(latency_ns) / 1e9 : 0.0;
  r.bound_seconds = std::max(lane_bound, rate_bound);
  return r;
}

}  // namespace xcvr::ib
