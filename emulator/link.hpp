// The host side of the link an emulated module carries: what a NIC or switch port would count
// of it — FEC statistics with the codeword histogram, and the carrier with its losses — driven
// by the module's own state. The symbol errors of each codeword follow the lanes' pre-FEC BER
// through the port's RS code: a symbol (10 bits) is wrong with probability
// p = 1 - (1 - BER)^10, a codeword of n symbols carries Binomial(n, p) of them, and a codeword
// with more than t is uncorrectable. Counts are drawn per interval from those expectations
// (Poisson, normal when large), deterministic under the fleet's seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cmis/fec.hpp"
#include "drivers/carrier_timeline.hpp"
#include "drivers/link_health.hpp"

namespace xcvr::emulator {

// What the module shows the link right now.
struct LinkSide {
  bool carrier = false;              // module ready, data paths up, light on every lane, no host fault
  std::vector<double> lane_ber;      // pre-FEC BER per lane (media side, as the host's FEC sees it)
};

struct LinkCode {
  cmis::RsFec code = cmis::kRs544;
  double codewords_per_second = 0;   // lanes x signalling rate / (n x 10 bits)
};

// The expected share of codewords with k = 0..up_to symbol errors, and (last) the share with
// more: Binomial(n, p) for a symbol error probability p from the bit error ratio.
std::vector<double> symbol_error_shares(const cmis::RsFec& code, double ber, int up_to);

class EmulatedLink {
 public:
  EmulatedLink(uint64_t seed, uint64_t channel) : seed_(seed), channel_(channel) {}

  // Time passes to `now_ns`; `side` is the module's state now (none: the cage is empty). A
  // carrier change is an edge at `now_ns`: call this whenever the module's state may change.
  void advance(int64_t now_ns, double now_unix, const std::optional<LinkSide>& side, const LinkCode& code);
  // The counters as a NIC reports them: totals (no lanes: an RS FEC's codewords span lanes).
  drivers::LinkHealth health(const std::string& link, const LinkCode& code) const;

  uint64_t uncorrectable() const { return uncorrectable_; }
  const std::vector<uint64_t>& bins() const { return bins_; }

 private:
  uint64_t draw(double expected);  // a count with that expectation, from the next noise values

  bool up() const { return side_ && side_->carrier; }

  uint64_t seed_, channel_;
  uint64_t draws_ = 0;
  int64_t last_ns_ = -1;
  std::optional<LinkSide> side_;  // the module's state since the last advance
  uint64_t down_count_ = 0;       // what a kernel's carrier_down_count would say
  // The times of the losses, kept as the netlink path keeps them from the kernel's notifications.
  drivers::CarrierTimeline timeline_;
  std::vector<uint64_t> bins_;  // 0..t
  uint64_t corrected_ = 0, uncorrectable_ = 0, corrected_bits_ = 0;
};

}  // namespace xcvr::emulator
