// ModuleModel -> module memory, through the field tables only.
#include <algorithm>
#include <array>
#include <cmath>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8636_map.hpp"
#include "cmis/vdm.hpp"
#include "emulator/model.hpp"
#include "emulator/spec_layout.hpp"

namespace xcvr::emulator {
namespace {

using cmis::CmisField;
using cmis::Sff8636Field;

// Writes through one table; a field whose page the image lacks is skipped (flat memory).
template <typename Id, const cmis::Field& (*Lookup)(Id)>
struct Writer {
  cmis::ModuleImage& image;
  void u(Id id, uint32_t value, int lane = 1) { cmis::write_uint(image, Lookup(id), value, lane); }
  void s(Id id, double value, int lane = 1) { cmis::write_scaled(image, Lookup(id), value, lane); }
  void a(Id id, std::string_view text) { cmis::write_ascii(image, Lookup(id), text); }
  void b(Id id, std::span<const uint8_t> bytes) { cmis::write_bytes(image, Lookup(id), bytes); }
};
using CmisWriter = Writer<CmisField, cmis::cmis_field>;
using SffWriter = Writer<Sff8636Field, cmis::sff8636_field>;

void add_page(cmis::ModuleImage& image, int16_t page, uint8_t bank = 0) {
  const cmis::PageBytes zero{};
  image.set_page({cmis::kDeviceA0, bank, page}, zero);
}

uint32_t bias_multiplier_code(int multiplier) {
  return multiplier >= 4 ? 2u : multiplier >= 2 ? 1u : 0u;
}

// CMIS 00h:202: bits 7-6 multiplier (x0.1, x1, x10, x100), bits 5-0 base length in metres.
uint32_t cable_length_code(double meters) {
  static constexpr double kSteps[] = {0.1, 1, 10, 100};
  for (uint32_t m = 0; m < 4; ++m) {
    const double base = std::round(meters / kSteps[m]);
    if (base <= 63) return m << 6 | static_cast<uint32_t>(base);
  }
  return 0xFF;
}

void put_levels(cmis::ModuleImage& image, const ThresholdFields& f, const Levels& v,
                double divisor = 1) {
  cmis::write_scaled(image, *f.high_alarm, v.high_alarm / divisor);
  cmis::write_scaled(image, *f.low_alarm, v.low_alarm / divisor);
  cmis::write_scaled(image, *f.high_warning, v.high_warning / divisor);
  cmis::write_scaled(image, *f.low_warning, v.low_warning / divisor);
}

void put_thresholds(cmis::ModuleImage& image, const ModuleModel& m, const SpecLayout& l) {
  put_levels(image, l.temperature_thresholds, m.temperature_c);
  put_levels(image, l.supply_voltage_thresholds, m.supply_voltage_v_levels);
  put_levels(image, l.tx_power_thresholds, m.tx_power_w);
  put_levels(image, l.tx_bias_thresholds, m.tx_bias_a, std::max(1, m.tx_bias_multiplier));
  put_levels(image, l.rx_power_thresholds, m.rx_power_w);
}

int cmis_banks(const ModuleModel& m) {
  return std::clamp((m.host_lanes + cmis::kCmisLanesPerBank - 1) / cmis::kCmisLanesPerBank, 1, 4);
}

// Page 11h: the host lanes are cut into data paths of the first application (AppSel 1), as
// many as its lane count and host lane assignment allow, in each bank: a twin-port 2x400G
// module (4-lane application that may start on lanes 1 and 5) gets two data paths, DataPathID
// 0 and 4. Lanes left over stay unconfigured (AppSel 0). A model whose application does not
// fit its lanes gets one data path per bank over all of them.
void put_active_control_set(CmisWriter& w, const ModuleModel& m) {
  const Application* app = m.applications.empty() ? nullptr : &m.applications.front();
  constexpr int kBank = cmis::kCmisLanesPerBank;
  const int width = app != nullptr && app->host_lanes > 0 ? app->host_lanes : kBank;
  const uint32_t starts = app != nullptr ? app->host_lane_assignment : 0x01u;
  bool placed = false;
  const auto configure = [&](int lane, int first) {  // lane 1-based, first 0-based in the bank
    w.u(CmisField::ConfigStatus, 1, lane);  // ConfigSuccess
    w.u(CmisField::ActiveAppSel, 1, lane);
    w.u(CmisField::ActiveDataPathId, static_cast<uint32_t>(first), lane);
  };
  for (int base = 0; base < m.host_lanes; base += kBank) {
    for (int s = 0; s < kBank;) {
      if ((starts >> s & 1u) == 0 || s + width > kBank || base + s + width > m.host_lanes) {
        ++s;
        continue;
      }
      for (int k = 0; k < width; ++k) configure(base + s + k + 1, s);
      placed = true;
      s += width;
    }
  }
  for (int lane = 1; lane <= m.host_lanes; ++lane) {
    w.u(CmisField::DataPathState, 1, lane);  // DPDeactivated until the module is ready
    if (!placed) configure(lane, 0);
  }
}

// VDM (§8): per group, descriptors (20h+g), values (24h+g) and threshold sets (28h+g); the
// latched flags of every group on 2Ch; 2Fh says how many groups. Each observable of the model is
// described once per media lane and has one threshold set of its own within its group.
void put_vdm(cmis::ModuleImage& image, const ModuleModel& m) {
  const VdmModel& v = m.vdm;
  if (v.observables.empty() || m.flat_memory) return;
  int groups = 1;
  for (const VdmObservableModel& o : v.observables) groups = std::max(groups, std::clamp(o.group, 0, 3) + 1);
  const auto put = [&](CmisField row, int group, uint32_t value, int instance) {
    cmis::write_uint(image, cmis::vdm_field(row, group), value, instance);
  };
  add_page(image, cmis::kCmisPageVdmAdvertising);
  add_page(image, cmis::kCmisPageVdmFlags);
  for (int g = 0; g < groups; ++g) {
    for (CmisField row : {CmisField::VdmDescriptorType, CmisField::VdmValue, CmisField::VdmThresholdHighAlarm}) {
      add_page(image, cmis::locate(cmis::vdm_field(row, g), 1)->page.page);
    }
  }
  CmisWriter w{image};
  w.u(CmisField::VdmPagesSupported, 1);
  w.u(CmisField::VdmGroupsSupported, static_cast<uint32_t>(groups - 1));
  std::array<int, 4> next_instance{1, 1, 1, 1}, next_set{};
  for (const VdmObservableModel& o : v.observables) {
    const auto type = cmis::codes::vdm_type_ref(o.type_id);
    const int g = std::clamp(o.group, 0, 3);
    const int set = next_set[static_cast<std::size_t>(g)];
    if (!type || set >= cmis::kCmisVdmThresholdSets) continue;
    ++next_set[static_cast<std::size_t>(g)];
    const auto level = [&](CmisField row, double value) { put(row, g, cmis::vdm_raw(*type, value), set + 1); };
    level(CmisField::VdmThresholdHighAlarm, o.levels.high_alarm);
    level(CmisField::VdmThresholdLowAlarm, o.levels.low_alarm);
    level(CmisField::VdmThresholdHighWarning, o.levels.high_warning);
    level(CmisField::VdmThresholdLowWarning, o.levels.low_warning);
    for (int lane = 1; lane <= m.media_lanes; ++lane) {
      int& instance = next_instance[static_cast<std::size_t>(g)];
      if (instance > cmis::kCmisVdmInstancesPerPage) break;
      put(CmisField::VdmDescriptorType, g, o.type_id, instance);
      put(CmisField::VdmDescriptorLane, g, static_cast<uint32_t>(lane - 1), instance);
      put(CmisField::VdmDescriptorThresholdSet, g, static_cast<uint32_t>(set), instance);
      ++instance;
    }
  }
}

cmis::ModuleImage encode_cmis(const ModuleModel& m) {
  cmis::ModuleImage image;
  add_page(image, cmis::kLowerPage);
  add_page(image, 0x00);
  const int banks = cmis_banks(m);
  if (!m.flat_memory) {
    add_page(image, cmis::kCmisPageAdvertising);
    add_page(image, cmis::kCmisPageThresholds);
    for (int b = 0; b < banks; ++b) {
      add_page(image, cmis::kCmisPageLaneControl, static_cast<uint8_t>(b));
      add_page(image, cmis::kCmisPageLaneStatus, static_cast<uint8_t>(b));
    }
  }
  CmisWriter w{image};
  // Lower memory
  w.u(CmisField::Identifier, m.identifier);
  w.u(CmisField::Revision, m.revision);
  w.u(CmisField::FlatMemory, m.flat_memory ? 1 : 0);
  w.u(CmisField::MciMaxSpeed, m.mci_1mhz ? 1 : 0);
  w.u(CmisField::ModuleState, m.flat_memory ? 3 : 1);  // flat modules always read ModuleReady
  w.u(CmisField::InterruptDeasserted, 1);
  w.u(CmisField::FirmwareMajor, m.firmware_major);
  w.u(CmisField::FirmwareMinor, m.firmware_minor);
  w.u(CmisField::MediaType, m.media_type);
  const int apps = std::min<int>(static_cast<int>(m.applications.size()), 8);
  for (int i = 0; i < apps; ++i) {
    const Application& a = m.applications[i];
    w.u(CmisField::AppHostInterface, a.host_interface, i + 1);
    w.u(CmisField::AppMediaInterface, a.media_interface, i + 1);
    w.u(CmisField::AppHostLaneCount, a.host_lanes, i + 1);
    w.u(CmisField::AppMediaLaneCount, a.media_lanes, i + 1);
    w.u(CmisField::AppHostLaneAssignment, a.host_lane_assignment, i + 1);
    w.u(CmisField::MediaLaneAssignment, a.media_lane_assignment, i + 1);
  }
  if (apps < 8) w.u(CmisField::AppHostInterface, 0xFF, apps + 1);  // end of list
  // Page 00h
  w.u(CmisField::IdentifierCopy, m.identifier);
  w.a(CmisField::VendorName, m.vendor_name);
  w.b(CmisField::VendorOui, m.vendor_oui);
  w.a(CmisField::PartNumber, m.part_number);
  w.a(CmisField::VendorRevision, m.vendor_revision);
  w.a(CmisField::SerialNumber, m.serial_number);
  w.a(CmisField::DateCode, m.date_code);
  w.a(CmisField::CleiCode, "");
  w.u(CmisField::PowerClass, static_cast<uint32_t>(std::clamp(m.power_class, 1, 8) - 1));
  // MaxPower is "rounded up" to the next 0.25 W.
  w.s(CmisField::MaxPower, std::ceil(m.max_power_w / 0.25 - 1e-9) * 0.25);
  if (m.cable_length_m > 0) {
    const uint32_t code = cable_length_code(m.cable_length_m);
    w.u(CmisField::CableLengthMultiplier, code >> 6);
    w.u(CmisField::CableLengthBase, code & 0x3F);
  }
  w.u(CmisField::Connector, m.connector);
  w.u(CmisField::MediaLaneUnsupported, ~((1u << std::clamp(m.media_lanes, 0, 8)) - 1) & 0xFF);
  w.u(CmisField::MediaInterfaceTechnology, m.media_technology);
  // Page 01h
  w.u(CmisField::InactiveFirmwareMajor, m.firmware_major);
  w.u(CmisField::InactiveFirmwareMinor, m.firmware_minor);
  w.u(CmisField::HardwareMajor, m.hardware_major);
  w.u(CmisField::HardwareMinor, m.hardware_minor);
  if (m.length_smf_m > 0) {  // multiplier 00 = 0.1 km steps, 01 = 1 km steps
    const double km = m.length_smf_m / 1000;
    const bool coarse = km > 6.3;
    w.u(CmisField::LengthSmfMultiplier, coarse ? 1 : 0);
    w.u(CmisField::LengthSmfBase, static_cast<uint32_t>(std::round(coarse ? km : km * 10)));
  }
  w.s(CmisField::LengthOm3, m.length_om3_m);
  w.s(CmisField::LengthOm4, m.length_om4_m);
  w.s(CmisField::NominalWavelength, m.wavelength_m);
  w.s(CmisField::WavelengthTolerance, m.wavelength_tolerance_m);
  w.u(CmisField::BanksSupported, banks >= 4 ? 2 : banks - 1);
  w.u(CmisField::TempMonitorSupported, m.has_module_monitors ? 1 : 0);
  w.u(CmisField::VccMonitorSupported, m.has_module_monitors ? 1 : 0);
  w.u(CmisField::TxBiasMultiplier, bias_multiplier_code(m.tx_bias_multiplier));
  const uint32_t lane_mon = m.has_lane_monitors ? 1 : 0;
  w.u(CmisField::RxPowerMonitorSupported, lane_mon);
  w.u(CmisField::TxPowerMonitorSupported, lane_mon);
  w.u(CmisField::TxBiasMonitorSupported, lane_mon);
  w.u(CmisField::RxPowerMeasurementType, 1);  // average power
  w.u(CmisField::TxFlagsSupported, m.has_lane_monitors ? 0x07 : 0);  // fault, LOS, CDR LOL
  w.u(CmisField::RxFlagsSupported, m.has_lane_monitors ? 0x06 : 0);  // LOS, CDR LOL
  // Page 02h
  if (!m.flat_memory) put_thresholds(image, m, cmis_layout());
  if (!m.flat_memory) put_active_control_set(w, m);
  put_vdm(image, m);
  fix_checksums(image, cmis::Spec::Cmis);
  return image;
}

cmis::ModuleImage encode_sff8636(const ModuleModel& m) {
  cmis::ModuleImage image;
  add_page(image, cmis::kLowerPage);
  add_page(image, 0x00);
  if (!m.flat_memory) add_page(image, cmis::kSff8636PageThresholds);
  SffWriter w{image};
  w.u(Sff8636Field::Identifier, m.identifier);
  w.u(Sff8636Field::RevisionCompliance, m.revision);
  w.u(Sff8636Field::FlatMemory, m.flat_memory ? 1 : 0);
  w.u(Sff8636Field::DataNotReady, 1);  // until the module finishes initialising
  w.u(Sff8636Field::IdentifierCopy, m.identifier);
  const int cls = std::clamp(m.power_class, 1, 8);
  w.u(Sff8636Field::PowerClassLow, static_cast<uint32_t>(std::min(cls, 4) - 1));
  if (cls >= 5 && cls <= 7) w.u(Sff8636Field::PowerClassHigh, static_cast<uint32_t>(cls - 4));
  if (cls == 8) {
    w.u(Sff8636Field::PowerClass8Implemented, 1);
    w.s(Sff8636Field::MaxPowerClass8, m.max_power_w);
  }
  w.u(Sff8636Field::TxCdrPresent, m.has_lane_monitors ? 1 : 0);
  w.u(Sff8636Field::RxCdrPresent, m.has_lane_monitors ? 1 : 0);
  w.u(Sff8636Field::Connector, m.connector);
  w.u(Sff8636Field::EthernetCompliance,
      m.ethernet_compliance | (m.extended_compliance != 0 ? 0x80u : 0u));
  w.u(Sff8636Field::Encoding, m.encoding);
  // Byte 140 in 100 Mb/s; at 0xFF (rates above 25.4 Gb/s) the rate is in byte 222 (250 Mb/s).
  w.s(Sff8636Field::NominalBitRate, m.nominal_bit_rate_bps);
  if (cmis::read_uint(image, cmis::sff8636_field(Sff8636Field::NominalBitRate)) == 0xFFu) {
    w.s(Sff8636Field::NominalBitRateExtended, m.nominal_bit_rate_bps);
  }
  w.s(Sff8636Field::LengthSmf, m.length_smf_m);
  w.s(Sff8636Field::LengthOm3, m.length_om3_m);
  if (m.cable_length_m > 0) {
    w.s(Sff8636Field::LengthCopper, m.cable_length_m);
  } else {
    w.s(Sff8636Field::LengthOm4, m.length_om4_m);
  }
  w.u(Sff8636Field::TransmitterTechnology, m.media_technology);
  w.a(Sff8636Field::VendorName, m.vendor_name);
  w.b(Sff8636Field::VendorOui, m.vendor_oui);
  w.a(Sff8636Field::PartNumber, m.part_number);
  w.a(Sff8636Field::VendorRevision, m.vendor_revision);
  w.s(Sff8636Field::Wavelength, m.wavelength_m);
  w.s(Sff8636Field::WavelengthTolerance, m.wavelength_tolerance_m);
  w.u(Sff8636Field::MaxCaseTemperature, 70);
  w.u(Sff8636Field::ExtendedCompliance, m.extended_compliance);
  w.a(Sff8636Field::SerialNumber, m.serial_number);
  w.a(Sff8636Field::DateCode, m.date_code);
  w.u(Sff8636Field::TempMonitorImplemented, m.has_module_monitors ? 1 : 0);
  w.u(Sff8636Field::VccMonitorImplemented, m.has_module_monitors ? 1 : 0);
  w.u(Sff8636Field::RxPowerIsAverage, m.has_lane_monitors ? 1 : 0);
  w.u(Sff8636Field::TxPowerMonitorImplemented, m.has_lane_monitors ? 1 : 0);
  if (!m.flat_memory) put_thresholds(image, m, sff8636_layout());
  fix_checksums(image, cmis::Spec::Sff8636);
  return image;
}

}  // namespace

cmis::ModuleImage encode_image(const ModuleModel& model) {
  return model.spec == cmis::Spec::Sff8636 ? encode_sff8636(model) : encode_cmis(model);
}

void fix_checksums(cmis::ModuleImage& image, cmis::Spec spec) {
  for (const ChecksumRule& rule : layout_for(spec).checksums) {
    const cmis::PageKey key = page_key_of(*rule.field);
    const uint16_t at = offset_of(*rule.field);
    const auto sum = cmis::checksum(image, key, rule.first, static_cast<uint16_t>(at - 1));
    if (sum) cmis::write_uint(image, *rule.field, *sum);
  }
}

}  // namespace xcvr::emulator
