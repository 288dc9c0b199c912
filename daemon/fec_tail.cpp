#include "daemon/fec_tail.hpp"

#include <algorithm>

namespace xcvr::daemon {
namespace {

bool same_bins(const drivers::LinkFecHistogram& a, const drivers::LinkFecHistogram& b) {
  return std::equal(a.bins.begin(), a.bins.end(), b.bins.begin(), b.bins.end(),
                    [](const auto& x, const auto& y) { return x.low == y.low && x.high == y.high; });
}

}  // namespace

void add_fec_tails(const drivers::LinkHealth* before, drivers::LinkHealth& now) {
  for (drivers::LinkFecHistogram& h : now.fec_histograms) {
    h.tail.reset();
    if (before == nullptr) continue;
    const auto old = std::find_if(before->fec_histograms.begin(), before->fec_histograms.end(),
                                  [&](const drivers::LinkFecHistogram& o) { return o.link == h.link; });
    if (old == before->fec_histograms.end() || !same_bins(*old, h)) continue;
    bool reset = false;
    for (std::size_t i = 0; i < h.bins.size(); ++i) reset = reset || h.bins[i].value < old->bins[i].value;
    int tail = 0;
    for (std::size_t i = 0; i < h.bins.size(); ++i) {
      const uint64_t since = reset ? 0 : old->bins[i].value;
      if (h.bins[i].value > since) tail = h.bins[i].high;
    }
    h.tail = tail;
  }
}

}  // namespace xcvr::daemon
