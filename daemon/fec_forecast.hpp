// How long until a link reaches its FEC's limit, at its trend: a least-squares line through
// log10 of the worst media lane's pre-FEC BER against time, each sample weighted by
// exp(-age / tau) so the line follows the last hours (tau = 6 h) and the state is five sums,
// not a history (O(1) memory per port). BER degrades roughly exponentially (a dirty connector
// settling, a laser ageing, a fibre bend creeping): linear in log10 BER. The estimate is the
// time for the line to reach log10 of the limit (2.4e-4 for RS(544,514)).
//
// Honest about when it cannot say (`why_not`): fewer than 30 samples, less than an hour seen,
// a BER that is not rising, or a line that explains less than a fifth of the scatter (a link
// that is noisy, not degrading). Never a number then.
#pragma once

#include <optional>
#include <string_view>

namespace xcvr::daemon {

struct FecForecast {
  std::optional<double> seconds_to_limit;
  double slope_decades_per_hour = 0;
  double margin_decades = 0;  // log10(limit) - the line's value now
  std::string_view why_not;   // empty when seconds_to_limit is set
};

class FecTrend {
 public:
  static constexpr double kTauSeconds = 6 * 3600.0;
  static constexpr int kMinSamples = 30;
  static constexpr double kMinSpanSeconds = 3600.0;
  static constexpr double kMinFit = 0.2;  // r^2

  void add(double now_s, double ber);  // a BER <= 0 (nothing measured) is skipped
  void reset() { *this = FecTrend{}; }
  bool has_samples() const { return samples_ > 0; }
  FecForecast estimate(double now_s, double limit_ber) const;

 private:
  void decay_to(double now_s);
  double origin_ = 0, last_ = 0, first_ = 0;
  bool started_ = false;
  int samples_ = 0;
  double w_ = 0, wt_ = 0, wy_ = 0, wtt_ = 0, wty_ = 0, wyy_ = 0;
};

}  // namespace xcvr::daemon
