// SFF-8636 (QSFP/QSFP+/QSFP28) decoder: lower page, upper page 00h, page 03h thresholds.
// Every byte position comes from the rows in sff8636_map.cpp.
#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/quantities.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::cmis {
namespace {

using F = Sff8636Field;

using Fields = MapFields<F, sff8636_field>;
constexpr auto f = &Fields::f;
constexpr auto get = &Fields::get;
constexpr auto is_set = &Fields::is_set;

// What kind of module the bytes describe; decides which fields and monitors apply.
struct Kind {
  std::optional<uint32_t> technology;  // transmitter technology, nullopt without page 00h

  bool copper() const { return technology && codes::technology_is_copper(*technology); }
  bool passive_copper() const { return technology && codes::technology_is_passive_copper(*technology); }
};

// SFF-8636 Rev 2.10a: identifier lower 0 and its copy 00h:128, revision compliance lower 1; vendor
// name 00h:148-163, OUI 165-167, part number 168-183, revision 184-185, serial 196-211, date 212-219.
void decode_identity(const ModuleImage& image, ModuleReport& r) {
  read_identity(image,
                {f(F::Identifier), f(F::VendorName), f(F::VendorOui), f(F::PartNumber),
                 f(F::VendorRevision), f(F::SerialNumber), f(F::DateCode)},
                r);
  const auto id = get(image, F::Identifier);
  const auto copy = get(image, F::IdentifierCopy);
  if (!id && copy) r.id.identifier = Coded{*copy, codes::identifier(static_cast<uint8_t>(*copy))};
  if (id && copy && *id != *copy) {
    add_problem(r, "identifier " + hex_code(*id) + " differs from its page 00h copy " +
                       hex_code(*copy));
  }
  if (const auto rev = get(image, F::RevisionCompliance)) {
    r.spec_revision = codes::sff8636_revision(static_cast<uint8_t>(*rev));
  }
}

// SFF-8636 00h:142-146: lengths (SMF km, OM3, OM2, OM1, copper or OM4).
void decode_lengths(const ModuleImage& image, const Kind& kind, ModuleReport& r) {
  add_length(r, "smf", read_scaled(image, f(F::LengthSmf)));
  add_length(r, "om3", read_scaled(image, f(F::LengthOm3)));
  add_length(r, "om2", read_scaled(image, f(F::LengthOm2)));
  add_length(r, "om1", read_scaled(image, f(F::LengthOm1)));
  // The shared byte is the assembly length for cables (copper, or optics with no separable
  // connector, i.e. AOC) and the OM4 reach for modules with a fiber connector.
  const bool assembly =
      kind.copper() || (r.connector && r.connector->code == kConnectorNoSeparable);
  if (!assembly) {
    add_length(r, "om4", read_scaled(image, f(F::LengthOm4)));
    return;
  }
  const auto cable = read_scaled(image, f(F::LengthCopper));
  if (!cable || *cable <= 0) return;
  r.cable_length_meters = cable;
  if (kind.copper()) r.lengths_meters["copper"] = *cable;
}

// SFF-8636 00h:130 connector, 131-138 compliance, 147 transmitter technology, 186-187 wavelength,
// 192 extended compliance (SFF-8024 Table 4-4).
void decode_media(const ModuleImage& image, const Kind& kind, ModuleReport& r) {
  r.connector = read_coded(image, f(F::Connector), codes::connector);
  if (kind.technology) {
    r.media_interface_technology =
        Coded{*kind.technology, codes::media_interface_technology(static_cast<uint8_t>(*kind.technology))};
  }
  // Code 0 is "unspecified": absent rather than a named nothing.
  if (const auto ext = get(image, F::ExtendedCompliance); ext && *ext != 0) {
    r.extended_compliance = Coded{*ext, codes::extended_compliance(static_cast<uint8_t>(*ext))};
  }
  // Copper cables keep attenuation in the wavelength bytes.
  if (kind.technology && !kind.copper()) {
    const auto wavelength = read_scaled(image, f(F::Wavelength));
    if (wavelength && *wavelength > 0) r.wavelength_meters = wavelength;
  }
  decode_lengths(image, kind, r);
}

// SFF-8636 00h:129 power class (bits 7-6 classes 1-4, bits 1-0 classes 5-7, bit 5 class 8) and
// lower 107 (class 8 maximum power).
void decode_power_class(const ModuleImage& image, ModuleReport& r) {
  const auto low = get(image, F::PowerClassLow);
  const auto high = get(image, F::PowerClassHigh);
  const auto class8 = get(image, F::PowerClass8Implemented);
  if (!low || !high || !class8) return;
  if (*class8 != 0) {
    r.power_class = 8;
    const auto watts = read_scaled(image, f(F::MaxPowerClass8));
    if (watts && *watts > 0) {
      r.max_power_watts = watts;
    } else if (watts) {
      add_problem(r, "power class 8 advertised but its maximum power is 0");
    }
    return;
  }
  // Classes 5-7 (bits 1-0) take precedence over the legacy classes 1-4 (bits 7-6).
  const uint32_t index = *high != 0 ? 3 + *high : *low;  // both fields are 2 bits: index <= 6
  r.power_class = static_cast<int>(index + 1);
  r.max_power_watts = kSff8636PowerClassWatts[index];
}

// Which monitors apply. SFF-8636 advertises temperature, Vcc (00h:220 bits 5-4) and Tx power
// (bit 2); Rx power and bias have no advertisement bit.
// SFF-8636 00h:220 diagnostic monitoring type (temperature and Vcc bits 5-4 from revision 2.8 on,
// rx power type bit 3, tx power bit 2).
Implemented implemented_monitors(const ModuleImage& image, const Kind& kind) {
  const auto rev = get(image, F::RevisionCompliance);
  const bool old_revision = rev && *rev < kSff8636RevisionWithMonitorBits;
  // Modules before rev 2.8 may leave the bits clear although the values are valid, and without
  // page 00h the bits are unknown: then a non-zero value counts as implemented. Passive copper
  // has no monitors, whatever its bytes say.
  auto advertised = [&](F bit, F value) {
    const auto flag = get(image, bit);
    if (flag.value_or(0) != 0) return true;
    if ((flag && !old_revision) || kind.passive_copper()) return false;
    return get(image, value).value_or(0) != 0;
  };
  Implemented m;
  m.temperature = advertised(F::TempMonitorImplemented, F::Temperature);
  m.supply_voltage = advertised(F::VccMonitorImplemented, F::SupplyVoltage);
  // Every optical module reports Rx power and bias; copper cables (transmitter technology
  // 0x0A and up) have no optics. Unknown technology (no page 00h) counts as optical.
  m.rx_power = m.tx_bias = !kind.copper();
  // Tx power is optional, and meaningless without a laser.
  m.tx_power = !kind.copper() && is_set(image, F::TxPowerMonitorImplemented);
  return m;
}

// SFF-8636 lower 22-23 temperature, 26-27 Vcc, 34-41 rx power, 42-49 tx bias, 50-57 tx power.
void decode_monitors(const ModuleImage& image, const Kind& kind, ModuleReport& r) {
  const Implemented m = implemented_monitors(image, kind);
  r.implemented = m;
  if (m.temperature) r.temperature_celsius = read_scaled(image, f(F::Temperature));
  if (m.supply_voltage) r.supply_voltage_volts = read_scaled(image, f(F::SupplyVoltage));
  if (m.rx_power) {
    if (const auto average = get(image, F::RxPowerIsAverage)) {
      r.rx_power_type = *average != 0 ? "average" : "oma";
    }
  }
  r.lanes = make_lanes(kSff8636Lanes);
  for (LaneReport& lane : r.lanes) {
    if (m.rx_power) lane.rx_power_watts = read_scaled(image, f(F::RxPower), lane.lane);
    if (m.tx_power) lane.tx_power_watts = read_scaled(image, f(F::TxPower), lane.lane);
    if (m.tx_bias) lane.tx_bias_amperes = read_scaled(image, f(F::TxBias), lane.lane);
  }
}

void add_thresholds(const ModuleImage& image, ModuleReport& r, Quantity q, bool implemented,
                    F ha, F la, F hw, F lw) {
  if (!implemented) return;
  const Thresholds t = read_thresholds(image, f(ha), f(la), f(hw), f(lw));
  set_thresholds(r, q, t);
}

// SFF-8636 page 03h: 128-135 temperature, 144-151 Vcc, 176-199 rx power, tx bias, tx power thresholds.
void decode_thresholds(const ModuleImage& image, ModuleReport& r) {
  const Implemented& m = r.implemented;
  add_thresholds(image, r, Quantity::Temperature, m.temperature, F::TempHighAlarm,
                 F::TempLowAlarm, F::TempHighWarning, F::TempLowWarning);
  add_thresholds(image, r, Quantity::SupplyVoltage, m.supply_voltage, F::VccHighAlarm,
                 F::VccLowAlarm, F::VccHighWarning, F::VccLowWarning);
  add_thresholds(image, r, Quantity::RxPower, m.rx_power, F::RxPowerHighAlarm, F::RxPowerLowAlarm,
                 F::RxPowerHighWarning, F::RxPowerLowWarning);
  add_thresholds(image, r, Quantity::TxPower, m.tx_power, F::TxPowerHighAlarm, F::TxPowerLowAlarm,
                 F::TxPowerHighWarning, F::TxPowerLowWarning);
  add_thresholds(image, r, Quantity::TxBias, m.tx_bias, F::TxBiasHighAlarm, F::TxBiasLowAlarm,
                 F::TxBiasHighWarning, F::TxBiasLowWarning);
}

// Page 03h exists only on paged modules; a flat module's "page 03h" is not to be trusted.
void decode_page03(const ModuleImage& image, ModuleReport& r) {
  const auto flat = get(image, F::FlatMemory);
  const PageKey page03 = page_of(f(F::TempHighAlarm));
  if (!flat) return;  // no lower page: paging unknown
  if (*flat != 0) {
    if (image.has(page03)) add_problem(r, "page 03h read from a flat-memory module; ignored");
    return;
  }
  if (require_page(image, page03, r)) decode_thresholds(image, r);
}

}  // namespace

ModuleReport decode_sff8636(const ModuleImage& image) {
  ModuleReport r;
  r.spec = Spec::Sff8636;
  const bool lower = require_page(image, page_of(f(F::Identifier)), r);
  const bool upper = require_page(image, page_of(f(F::IdentifierCopy)), r);
  if (!lower && !upper) {
    add_problem(r, "neither the lower page nor page 00h was read: nothing to decode");
  }

  decode_identity(image, r);
  r.flat_memory = is_set(image, F::FlatMemory);
  const Kind kind{get(image, F::TransmitterTechnology)};
  decode_media(image, kind, r);
  decode_power_class(image, r);
  decode_monitors(image, kind, r);

  // Low power is known only while the host overrides the LPMode pin (93 bit 0); then bit 1 says.
  if (read_uint(image, sff8636_field(Sff8636Field::PowerOverride)).value_or(0) != 0) {
    r.low_power = read_uint(image, sff8636_field(Sff8636Field::PowerSet)).value_or(0) != 0;
  }
  collect_flags(image, sff8636_fields(), r);                // latched flags
  collect_flags(image, sff8636_fields(), r, Role::Status);  // data_not_ready
  decode_page03(image, r);

  add_checksum(image, r, "CC_BASE", f(F::IdentifierCopy), f(F::ChecksumBase));
  add_checksum(image, r, "CC_EXT", f(F::ExtendedCompliance), f(F::ChecksumExt));
  return r;
}

}  // namespace xcvr::cmis
