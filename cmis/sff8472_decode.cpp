// SFF-8472 (SFP/SFP+/SFP28) decoder: A0h serial ID and A2h diagnostics, internally or
// externally calibrated. Every byte position comes from the rows in sff8472_map.cpp.
#include <algorithm>
#include <bit>
#include <cmath>

#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/quantities.hpp"
#include "cmis/sff8472_map.hpp"

namespace xcvr::cmis {
namespace {

using F = Sff8472Field;

using Fields = MapFields<F, sff8472_field>;
constexpr auto f = &Fields::f;
constexpr auto get = &Fields::get;
constexpr auto is_set = &Fields::is_set;

// The five A2h quantities (cmis/quantities.hpp) each have their own external calibration constants.

struct Linear {
  F slope, offset;
};
Linear linear_constants(Quantity q) {
  switch (q) {
    case Quantity::Temperature: return {F::TempSlope, F::TempOffset};
    case Quantity::SupplyVoltage: return {F::VccSlope, F::VccOffset};
    case Quantity::TxBias: return {F::TxBiasSlope, F::TxBiasOffset};
    case Quantity::TxPower: break;
    case Quantity::RxPower: break;  // polynomial, see external_raw()
    case Quantity::LaserTemperature:
    case Quantity::TecCurrent:
    case Quantity::SupplyVoltage2: break;  // not SFF-8472 A2h quantities
  }
  return {F::TxPowerSlope, F::TxPowerOffset};
}

// Big-endian IEEE-754 single precision.
std::optional<double> read_float(const ModuleImage& image, const Field& field) {
  const auto bytes = read_bytes(image, field);
  if (bytes.size() != sizeof(float)) return std::nullopt;
  uint32_t bits = 0;
  for (uint8_t b : bytes) bits = bits << 8 | b;
  return static_cast<double>(std::bit_cast<float>(bits));
}

// Externally calibrated reading, still in the field's raw LSB units: slope * raw + offset, or
// for Rx power the polynomial Rx_PWR(4) r^4 + ... + Rx_PWR(0).
std::optional<double> external_raw(const ModuleImage& image, const Field& field, Quantity q) {
  const auto raw = read_int(image, field);
  if (!raw) return std::nullopt;
  if (q == Quantity::RxPower) {
    double sum = 0;
    double power = 1;  // raw^i
    for (F c : {F::RxPwr0, F::RxPwr1, F::RxPwr2, F::RxPwr3, F::RxPwr4}) {
      const auto k = read_float(image, f(c));
      if (!k) return std::nullopt;
      sum += *k * power;
      power *= *raw;
    }
    return sum;
  }
  const Linear l = linear_constants(q);
  const auto slope = read_scaled(image, f(l.slope));
  const auto offset = read_scaled(image, f(l.offset));
  if (!slope || !offset) return std::nullopt;
  return *slope * *raw + *offset;
}

// One monitor or threshold value in SI units, calibrated as the module says.
std::optional<double> diagnostic(const ModuleImage& image, const Field& field, Quantity q,
                                 bool external, ModuleReport& r) {
  if (!external) return read_scaled(image, field);
  auto value = external_raw(image, field, q);
  if (!value) return std::nullopt;
  const std::string name(quantity(q).stem);
  if (!std::isfinite(*value)) {
    add_problem(r, "external calibration of " + name + " gives a non-finite value");
    return std::nullopt;
  }
  // A calibrated result is a 16-bit quantity like the raw reading (powers and bias never
  // negative): keep it in that range rather than report an impossible value.
  const bool is_signed = field.type == Type::S16;
  const double lo = is_signed ? -32768.0 : 0.0;
  const double hi = is_signed ? 32767.0 : 65535.0;
  if (*value < lo || *value > hi) {
    add_problem(r, "external calibration of " + name + " is out of range; clamped");
    value = std::clamp(*value, lo, hi);
  }
  return scaled_value(*value, field.scale);
}

// True for externally calibrated modules. Both or neither bit set is an oddity; the module's
// own (internal) values are then the safer reading — unused constants are often zero.
// SFF-8472 Rev 12.4 A0h 92: diagnostic monitoring type (bit 5 internally, bit 4 externally calibrated).
bool uses_external_calibration(const ModuleImage& image, ModuleReport& r) {
  const bool internal = is_set(image, F::InternallyCalibrated);
  const bool external = is_set(image, F::ExternallyCalibrated);
  if (internal && external) {
    add_problem(r, "both internal and external calibration advertised; using internal");
    return false;
  }
  if (!internal && !external) {
    add_problem(r, "calibration type not advertised; assuming internal");
  }
  return external;
}

// SFF-8472 A0h 14-19: lengths (SMF km and 100 m, OM2, OM1, copper or OM4, OM3).
void decode_lengths(const ModuleImage& image, bool copper, ModuleReport& r) {
  // Two encodings of the single-mode reach: 100 m steps (up to 25.4 km) and km steps; the
  // larger one is the better-resolved answer that is not saturated.
  const double smf = std::max(read_scaled(image, f(F::LengthSmf)).value_or(0),
                              read_scaled(image, f(F::LengthSmfKm)).value_or(0));
  add_length(r, "smf", smf);
  add_length(r, "om1", read_scaled(image, f(F::LengthOm1)));
  add_length(r, "om2", read_scaled(image, f(F::LengthOm2)));
  add_length(r, "om3", read_scaled(image, f(F::LengthOm3)));
  // The shared byte is the assembly length for cables (copper, or optics with no separable
  // connector, i.e. AOC) and the OM4 reach for modules with a fiber connector.
  const bool assembly = copper || (r.connector && r.connector->code == kConnectorNoSeparable);
  if (!assembly) {
    add_length(r, "om4", read_scaled(image, f(F::LengthOm4)));
    return;
  }
  const auto cable = read_scaled(image, f(F::LengthCopper));
  if (!cable || *cable <= 0) return;
  r.cable_length_meters = cable;
  if (copper) r.lengths_meters["copper"] = *cable;
}

// SFF-8472 A0h 2 connector, 3-10 compliance, 36 extended compliance (SFF-8024 Table 4-4), 60-61 wavelength.
void decode_media(const ModuleImage& image, ModuleReport& r) {
  r.connector = read_coded(image, f(F::Connector), codes::connector);
  // Code 0 is "unspecified": absent rather than a named nothing.
  if (const auto ext = get(image, F::ExtendedCompliance); ext && *ext != 0) {
    r.extended_compliance = Coded{*ext, codes::extended_compliance(static_cast<uint8_t>(*ext))};
  }
  const bool copper =
      is_set(image, F::ActiveCopperCable) || is_set(image, F::PassiveCopperCable);
  // Copper cables keep compliance bits in the wavelength bytes.
  if (!copper) {
    const auto wavelength = read_scaled(image, f(F::Wavelength));
    if (wavelength && *wavelength > 0) r.wavelength_meters = wavelength;
  }
  decode_lengths(image, copper, r);
}

void add_thresholds(const ModuleImage& image, ModuleReport& r, bool external, Quantity q, F ha, F la, F hw,
                    F lw) {
  // Thresholds are stored like the readings, so external calibration applies to them too.
  const Thresholds t = read_thresholds(f(ha), f(la), f(hw), f(lw), [&](const Field& field) {
    return diagnostic(image, field, q, external, r);
  });
  set_thresholds(r, q, t);
}

// SFF-8472 A2h 0-39: alarm and warning thresholds (external calibration constants A2h 56-91).
void decode_thresholds(const ModuleImage& image, bool external, ModuleReport& r) {
  add_thresholds(image, r, external, Quantity::Temperature,
                 F::TempHighAlarm, F::TempLowAlarm, F::TempHighWarning, F::TempLowWarning);
  add_thresholds(image, r, external, Quantity::SupplyVoltage,
                 F::VccHighAlarm, F::VccLowAlarm, F::VccHighWarning, F::VccLowWarning);
  add_thresholds(image, r, external, Quantity::TxBias, F::TxBiasHighAlarm,
                 F::TxBiasLowAlarm, F::TxBiasHighWarning, F::TxBiasLowWarning);
  add_thresholds(image, r, external, Quantity::TxPower, F::TxPowerHighAlarm,
                 F::TxPowerLowAlarm, F::TxPowerHighWarning, F::TxPowerLowWarning);
  add_thresholds(image, r, external, Quantity::RxPower, F::RxPowerHighAlarm,
                 F::RxPowerLowAlarm, F::RxPowerHighWarning, F::RxPowerLowWarning);
}

// A2h: monitors, thresholds, status and flags. DDM implemented means all five monitors.
// SFF-8472 A2h 96-105 monitors, 110 status, 112-117 alarm and warning flags.
void decode_diagnostics(const ModuleImage& image, ModuleReport& r) {
  const bool external = uses_external_calibration(image, r);
  r.implemented = Implemented{true, true, true, true, true};
  r.rx_power_type = is_set(image, F::RxPowerIsAverage) ? "average" : "oma";
  auto read = [&](F id, Quantity q) { return diagnostic(image, f(id), q, external, r); };
  r.temperature_celsius = read(F::Temperature, Quantity::Temperature);
  r.supply_voltage_volts = read(F::SupplyVoltage, Quantity::SupplyVoltage);
  LaneReport& lane = r.lanes.front();
  lane.tx_bias_amperes = read(F::TxBias, Quantity::TxBias);
  lane.tx_power_watts = read(F::TxPower, Quantity::TxPower);
  lane.rx_power_watts = read(F::RxPower, Quantity::RxPower);
  decode_thresholds(image, external, r);

  collect_flags(image, sff8472_fields(), r, Role::Status);  // live Tx fault, LOS, not ready
  // Latched alarm/warning flags are optional (enhanced options); unimplemented bits are noise.
  if (is_set(image, F::AlarmWarningFlagsImplemented)) collect_flags(image, sff8472_fields(), r);
}

}  // namespace

ModuleReport decode_sff8472(const ModuleImage& image) {
  ModuleReport r;
  r.spec = Spec::Sff8472;
  r.lanes = make_lanes(kSff8472Lanes);
  if (!require_page(image, page_of(f(F::Identifier)), r)) {
    add_problem(r, "A0h lower page not read: nothing to decode");
    return r;
  }
  read_identity(image,
                {f(F::Identifier), f(F::VendorName), f(F::VendorOui), f(F::PartNumber),
                 f(F::VendorRevision), f(F::SerialNumber), f(F::DateCode)},
                r);
  if (const auto compliance = get(image, F::Compliance)) {
    r.spec_revision = codes::sff8472_compliance(static_cast<uint8_t>(*compliance));
  }
  decode_media(image, r);
  add_checksum(image, r, "CC_BASE", f(F::Identifier), f(F::ChecksumBase));
  add_checksum(image, r, "CC_EXT", f(F::Options), f(F::ChecksumExt));

  if (!is_set(image, F::DdmImplemented)) return r;
  if (!require_page(image, page_of(f(F::Temperature)), r)) {
    if (is_set(image, F::AddressChangeRequired)) {
      add_problem(r, "diagnostics need the A2h address-change sequence, and A2h was not read");
    }
    return r;
  }
  decode_diagnostics(image, r);
  add_checksum(image, r, "CC_DMI", f(F::TempHighAlarm), f(F::ChecksumDmi));
  return r;
}

}  // namespace xcvr::cmis
