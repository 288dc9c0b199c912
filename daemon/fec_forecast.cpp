#include "daemon/fec_forecast.hpp"

#include <cmath>

namespace xcvr::daemon {

void FecTrend::decay_to(double now_s) {
  if (now_s <= last_) return;
  const double k = std::exp(-(now_s - last_) / kTauSeconds);
  w_ *= k;
  wt_ *= k;
  wy_ *= k;
  wtt_ *= k;
  wty_ *= k;
  wyy_ *= k;
  last_ = now_s;
}

void FecTrend::add(double now_s, double ber) {
  if (!(ber > 0) || !std::isfinite(ber)) return;
  if (!started_) {
    started_ = true;
    origin_ = first_ = last_ = now_s;
  }
  decay_to(now_s);
  // Times count from an origin moved up now and then: with t near the samples' own spread, the
  // sums keep their digits over months of uptime.
  if (now_s - origin_ > 4 * kTauSeconds) {
    const double d = now_s - kTauSeconds - origin_;
    wtt_ += -2 * d * wt_ + d * d * w_;
    wty_ -= d * wy_;
    wt_ -= d * w_;
    origin_ += d;
  }
  const double t = now_s - origin_;
  const double y = std::log10(ber);
  ++samples_;
  w_ += 1;
  wt_ += t;
  wy_ += y;
  wtt_ += t * t;
  wty_ += t * y;
  wyy_ += y * y;
}

FecForecast FecTrend::estimate(double now_s, double limit_ber) const {
  FecForecast f;
  if (samples_ < kMinSamples) {
    f.why_not = "too few samples";
    return f;
  }
  if (last_ - first_ < kMinSpanSeconds) {
    f.why_not = "less than an hour of samples";
    return f;
  }
  const double var_t = w_ * wtt_ - wt_ * wt_;
  const double var_y = w_ * wyy_ - wy_ * wy_;
  if (var_t <= 0) {
    f.why_not = "no spread in time";
    return f;
  }
  const double cov = w_ * wty_ - wt_ * wy_;
  const double slope = cov / var_t;  // decades per second
  const double intercept = (wy_ - slope * wt_) / w_;
  const double now_y = intercept + slope * (now_s - origin_);
  f.slope_decades_per_hour = slope * 3600;
  f.margin_decades = std::log10(limit_ber) - now_y;
  const double r2 = var_y > 0 ? cov * cov / (var_t * var_y) : 1.0;
  if (slope <= 0) {
    f.why_not = "BER not rising";
  } else if (r2 < kMinFit) {
    f.why_not = "BER too noisy for a trend";
  } else {
    f.seconds_to_limit = std::max(0.0, f.margin_decades / slope);
  }
  return f;
}

}  // namespace xcvr::daemon
