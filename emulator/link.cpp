#include "emulator/link.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "emulator/dynamics.hpp"

namespace xcvr::emulator {
namespace {

constexpr int kBitsPerSymbol = 10;
constexpr const char* kTimelineName = "link";  // the one link the timeline follows

double uniform01(uint64_t seed, uint64_t channel, uint64_t n) {
  return (deterministic_noise(seed, channel, static_cast<int64_t>(n)) + 1.0) / 2.0;
}

}  // namespace

std::vector<double> symbol_error_shares(const cmis::RsFec& code, double ber, int up_to) {
  const double p = 1.0 - std::pow(1.0 - std::clamp(ber, 0.0, 0.5), kBitsPerSymbol);
  std::vector<double> out(static_cast<std::size_t>(up_to) + 2, 0.0);
  if (p <= 0) {
    out[0] = 1.0;
    return out;
  }
  const double n = code.n;
  const auto pmf = [&](int k) {
    return std::exp(std::lgamma(n + 1) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1) + k * std::log(p) +
                    (n - k) * std::log1p(-p));
  };
  for (int k = 0; k <= up_to; ++k) out[static_cast<std::size_t>(k)] = pmf(k);
  // The share past up_to summed term by term: 1 - sum would lose it to rounding when tiny.
  double tail = 0;
  for (int k = up_to + 1; k <= code.n; ++k) {
    const double term = pmf(k);
    tail += term;
    if (term < tail * 1e-17) break;  // the terms only fall from here on a BER this far below 1/2
  }
  out.back() = tail;
  return out;
}

uint64_t EmulatedLink::draw(double expected) {
  if (expected <= 0) return 0;
  if (expected < 30) {  // Poisson by inversion
    const double u = uniform01(seed_, channel_, draws_++);
    double term = std::exp(-expected), sum = term;
    uint64_t k = 0;
    while (u > sum && k < 1000) {
      ++k;
      term *= expected / static_cast<double>(k);
      sum += term;
    }
    return k;
  }
  // Normal (Box-Muller): the Poisson's mean and variance.
  const double u1 = std::max(uniform01(seed_, channel_, draws_++), 1e-300);
  const double u2 = uniform01(seed_, channel_, draws_++);
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return static_cast<uint64_t>(std::max(0.0, std::round(expected + std::sqrt(expected) * z)));
}

void EmulatedLink::advance(int64_t now_ns, double now_unix, const std::optional<LinkSide>& side, const LinkCode& code) {
  const int t = code.code.t;
  if (bins_.size() != static_cast<std::size_t>(t) + 1) bins_.assign(static_cast<std::size_t>(t) + 1, 0);
  // Codewords of the interval that just ended, at the state it had.
  if (last_ns_ >= 0 && now_ns > last_ns_ && up() && !side_->lane_ber.empty()) {
    const double codewords = code.codewords_per_second * static_cast<double>(now_ns - last_ns_) * 1e-9;
    double ber = 0;
    for (double b : side_->lane_ber) ber += b;
    ber /= static_cast<double>(side_->lane_ber.size());  // a codeword's symbols come from every lane
    const std::vector<double> shares = symbol_error_shares(code.code, ber, t);
    for (int k = 0; k <= t; ++k) {
      const uint64_t n = draw(codewords * shares[static_cast<std::size_t>(k)]);
      bins_[static_cast<std::size_t>(k)] += n;
      if (k > 0) {
        corrected_ += n;
        corrected_bits_ += n * static_cast<uint64_t>(k);
      }
    }
    uncorrectable_ += draw(codewords * shares.back());
  }
  const bool now_up = side && side->carrier;
  if (last_ns_ >= 0 && up() && !now_up) ++down_count_;
  timeline_.on_state(kTimelineName, now_up, static_cast<uint32_t>(down_count_), static_cast<double>(now_ns) * 1e-9,
                     now_unix);
  side_ = side;
  last_ns_ = std::max(last_ns_, now_ns);
}

drivers::LinkHealth EmulatedLink::health(const std::string& link, const LinkCode& code) const {
  using drivers::LinkCounterId;
  drivers::LinkHealth h;
  h.counters = {{LinkCounterId::FecCorrectedBlocks, link, 0, corrected_, false},
                {LinkCounterId::FecUncorrectableBlocks, link, 0, uncorrectable_, false},
                {LinkCounterId::FecCorrectedBits, link, 0, corrected_bits_, false},
                {LinkCounterId::CarrierDown, link, 0, down_count_, false}};
  const auto times = timeline_.view(kTimelineName).value_or(drivers::CarrierTimeline::View{});
  h.carrier.push_back({link, up(), times.last_down_seconds, times.last_down_unix});
  drivers::LinkFecHistogram hist;
  hist.link = link;
  hist.correction_limit = code.code.t;
  for (std::size_t k = 0; k < bins_.size(); ++k) {
    hist.bins.push_back({static_cast<uint16_t>(k), static_cast<uint16_t>(k), bins_[k]});
  }
  h.fec_histograms.push_back(std::move(hist));
  h.transactions = 3;  // what the netlink path asks: FEC statistics, link modes, the carrier
  return h;
}

}  // namespace xcvr::emulator
