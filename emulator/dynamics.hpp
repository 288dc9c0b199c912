// Dynamics: how a module's live values move with time. Deterministic under a seed: every value is
// a function of (seed, channel, time bucket) and the state at the previous update, never of a
// global random generator, so a virtual-clock test sees the same numbers on every run.
#pragma once

#include <cstdint>

namespace xcvr::emulator {

// Where the module sits: the air around the cage and how well it is cooled.
struct Environment {
  double ambient_c = 30.0;
  double airflow_factor = 1.0;  // multiplies the thermal resistance: 1 nominal, >1 poor airflow
};

struct DynamicsConfig {
  uint64_t seed = 1;
  double temperature_noise_c = 0.1;
  double voltage_noise_v = 0.002;
  double optical_noise_ratio = 0.01;  // relative noise on tx/rx power and bias
  double bias_drift_per_hour = 0.0;   // laser aging: bias rises by this fraction per hour
  int64_t noise_period_ns = 100'000'000;  // a monitor's value holds for this long
};

// Uniform in [-1, 1], fixed for (seed, channel, bucket).
double deterministic_noise(uint64_t seed, uint64_t channel, int64_t bucket);

// First-order thermal lag towards a target temperature, exact for a target that is constant
// between updates: T += (target - T) * (1 - exp(-dt / tau)).
class ThermalLag {
 public:
  void reset(double celsius, int64_t now_ns) {
    celsius_ = celsius;
    last_ns_ = now_ns;
  }
  double step(double target_c, double tau_s, int64_t now_ns);
  double celsius() const { return celsius_; }

 private:
  double celsius_ = 25.0;
  int64_t last_ns_ = 0;
};

// dB -> linear power ratio (negative dB attenuates).
double db_to_ratio(double db);

}  // namespace xcvr::emulator
