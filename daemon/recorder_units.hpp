// The units a flight-recorder sample keeps (daemon/flight_recorder.hpp), as counts per SI unit:
// the module memory's own (CMIS, SFF-8636, SFF-8472), so recording loses nothing that was read.
// One place for the sampler, the JSON form (daemon/recorder_file), the port page's plots and
// `xcvrctl events`.
#pragma once

#include <cstdint>
#include <optional>

namespace xcvr::daemon::recorder_units {

inline constexpr double kPerWatt = 1e7;    // optical power: 0.1 µW
inline constexpr double kPerAmpere = 5e5;  // laser bias: 2 µA
inline constexpr double kPerCelsius = 256;
inline constexpr double kPerVolt = 1e4;    // supply voltage: 100 µV
inline constexpr double kPerDecibel = 256;  // eSNR
inline constexpr uint16_t kNone = 0xFFFF;  // an unsigned field with no value (RecorderSample::kNoneU16)
inline constexpr uint16_t kMax = 0xFFFE;   // the largest value an unsigned field keeps

// The SI value of an unsigned field (a division, so 5000 units of 0.1 µW print as 0.0005); nothing
// for kNone.
inline std::optional<double> si(uint16_t raw, double per) {
  return raw == kNone ? std::nullopt : std::optional<double>(raw / per);
}
inline constexpr double max_si(double per) { return kMax / per; }

}  // namespace xcvr::daemon::recorder_units
