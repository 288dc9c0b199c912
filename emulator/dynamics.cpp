#include "emulator/dynamics.hpp"

#include <cmath>

namespace xcvr::emulator {
namespace {

// SplitMix64 finaliser: a good 64-bit mix for counter-based noise.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

double deterministic_noise(uint64_t seed, uint64_t channel, int64_t bucket) {
  const uint64_t h = mix(mix(seed ^ mix(channel)) ^ static_cast<uint64_t>(bucket));
  return static_cast<double>(h >> 11) / static_cast<double>(1ull << 52) - 1.0;
}

double ThermalLag::step(double target_c, double tau_s, int64_t now_ns) {
  const double dt = static_cast<double>(now_ns - last_ns_) * 1e-9;
  if (dt > 0) {
    celsius_ += (target_c - celsius_) * (tau_s > 0 ? 1.0 - std::exp(-dt / tau_s) : 1.0);
    last_ns_ = now_ns;
  }
  return celsius_;
}

double db_to_ratio(double db) { return std::pow(10.0, db / 10.0); }

}  // namespace xcvr::emulator
