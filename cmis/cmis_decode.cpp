// CMIS 4.0/5.x decoder: lower memory, pages 00h, 01h, 02h, 11h (banks 0-3) and VDM.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cmis/cmis_map.hpp"
#include "cmis/vdm.hpp"
#include "cmis/codes.hpp"
#include "cmis/decode.hpp"
#include "cmis/decode_util.hpp"
#include "cmis/quantities.hpp"

namespace xcvr::cmis {
namespace {

using F = CmisField;

class CmisDecoder {
 public:
  // Decodes into `report` in place (a fresh report for run(), the previous one for a refresh),
  // never moving it in and out: a ModuleReport is large.
  CmisDecoder(const ModuleImage& image, ModuleReport& report) : img_(image), r_(report) {}

  void run() {
    r_.spec = Spec::Cmis;
    r_.checksums.reserve(3);  // 00h, 01h, 02h
    if (!has_page(kLowerPage)) {
      r_.missing_pages.push_back(page_name({kDeviceA0, 0, kLowerPage}));
      r_.problems.push_back("lower memory not read");
      return;
    }
    decode_lower();
    if (has_page(0x00)) decode_page00();
    if (!r_.flat_memory) {
      if (has_page(kCmisPageAdvertising)) decode_page01();
      if (has_page(kCmisPageThresholds)) decode_thresholds();
    }
    decode_monitors();
    decode_lanes();
    decode_vdm();
    note_missing_pages();
  }

  // decode_dynamic(): the bytes a steady-state poll re-reads, decoded into a report of this
  // module whose static part is kept. False when the lower page no longer matches the report.
  bool refresh() {
    if (r_.spec != Spec::Cmis || !has_page(kLowerPage)) return false;
    const auto id = u(F::Identifier);
    const auto how = identify(img_);
    if (!id || !how || how->guessed || how->spec != Spec::Cmis || *id != r_.id.identifier.code ||
        bit(F::FlatMemory) != r_.flat_memory || revision() != r_.spec_revision) {
      return false;
    }
    advertised_ = !r_.flat_memory && has_page(kCmisPageAdvertising);  // as run() sets it
    decode_state();
    r_.temperature_celsius.reset();
    r_.supply_voltage_volts.reset();
    r_.laser_temperature_celsius.reset();
    r_.tec_current_ratio.reset();
    r_.supply_voltage2_volts.reset();
    decode_monitors();
    decode_lanes();
    decode_vdm(/*refresh=*/true);
    return true;
  }

 private:
  const Field& f(F id) const { return cmis_field(id); }
  std::optional<uint32_t> u(F id, int lane = 1) const { return read_uint(img_, f(id), lane); }
  bool bit(F id, int lane = 1) const { return u(id, lane).value_or(0) != 0; }
  bool has_page(int16_t page, uint8_t bank = 0) const { return img_.has({kDeviceA0, bank, page}); }

  // CMIS 5.2 lower page: 0 identifier, 1 revision, 2 memory model, 85 media type, 86-117 application
  // descriptors 1-8 (SFF-8024 Tables 4-5 to 4-10).
  void decode_lower() {
    const uint8_t id = static_cast<uint8_t>(*u(F::Identifier));
    r_.id.identifier = {id, codes::identifier(id)};
    r_.spec_revision = revision();
    r_.flat_memory = bit(F::FlatMemory);
    decode_state();
    const auto fw_major = u(F::FirmwareMajor), fw_minor = u(F::FirmwareMinor);
    if (fw_major && fw_minor && (*fw_major | *fw_minor) != 0) {
      r_.id.firmware = std::to_string(*fw_major) + "." + std::to_string(*fw_minor);
    }
    const uint8_t media = static_cast<uint8_t>(u(F::MediaType).value_or(0));
    r_.media_type = Coded{media, codes::media_type(media)};
    add_applications(F::AppHostInterface, F::AppMediaInterface, F::AppHostLaneCount,
                     F::AppMediaLaneCount, F::AppHostLaneAssignment, 0);
  }

  std::string revision() const {
    const uint32_t rev = u(F::Revision).value_or(0);
    return std::to_string(rev >> 4) + "." + std::to_string(rev & 0xF);
  }

  // Module state, fault cause and module-level flags (lower page: re-read every poll).
  // CMIS 5.2 lower page: 3 module state, 8-13 module flags, 41 fault cause.
  void decode_state() {
    const uint8_t state = static_cast<uint8_t>(u(F::ModuleState).value_or(0));
    if (!r_.module_state || r_.module_state->code != state) r_.module_state = Coded{state, codes::module_state(state)};
    r_.module_fault_cause.reset();
    r_.low_power = r_.flat_memory ? std::nullopt : std::optional<bool>(state == codes::code_of(codes::ModuleState::LowPwr));
    if (state == codes::code_of(codes::ModuleState::Fault)) {
      const uint8_t cause = static_cast<uint8_t>(u(F::ModuleFaultCause).value_or(0));
      r_.module_fault_cause = Coded{cause, codes::module_fault_cause(cause)};
    }
    raised_flags_into(img_, cmis_fields(), /*lane=*/0, r_.module_flags);
  }

  void add_applications(F host, F media, F host_lanes, F media_lanes, F assignment, int first) {
    if (apps_ended_) return;  // an 0xFF host ID in descriptors 1-8 also ends the list: skip 9-15
    const int count = f(host).lanes.count;
    const uint8_t media_type = static_cast<uint8_t>(r_.media_type ? r_.media_type->code : 0);
    r_.applications.reserve(r_.applications.size() + static_cast<std::size_t>(count));  // no regrowth
    const BankLanes hosts(img_, f(host)), medias(img_, f(media)), host_lane_counts(img_, f(host_lanes)),
        media_lane_counts(img_, f(media_lanes)), assignments(img_, f(assignment));
    for (int i = 1; i <= count; ++i) {
      const auto host_id = hosts.uint(i);
      if (host_id && *host_id == 0xFF) apps_ended_ = true;
      if (!host_id || *host_id == 0xFF) break;  // 0xFF ends the list
      if (*host_id == 0x00) continue;           // undefined descriptor: skip, keep looking
      Application& app = r_.applications.emplace_back();
      app.index = first + i;
      app.host_interface = {*host_id, codes::host_interface(static_cast<uint8_t>(*host_id))};
      const uint8_t media_id = static_cast<uint8_t>(medias.uint(i).value_or(0));
      app.media_interface = {media_id, codes::media_interface(media_type, media_id)};
      app.host_lane_count = static_cast<int>(host_lane_counts.uint(i).value_or(0));
      app.media_lane_count = static_cast<int>(media_lane_counts.uint(i).value_or(0));
      app.host_lane_assignment = static_cast<uint8_t>(assignments.uint(i).value_or(0));
    }
  }

  // CMIS 5.2 page 00h: 129-144 vendor name, 145-147 OUI, 148-163 part number, 164-165 revision,
  // 166-181 serial, 182-189 date, 200-201 power, 202-204 length and connector, 212 media technology.
  void decode_page00() {
    Identity& id = r_.id;
    read_identity(img_, {f(F::Identifier), f(F::VendorName), f(F::VendorOui), f(F::PartNumber),
                         f(F::VendorRevision), f(F::SerialNumber), f(F::DateCode)}, r_);
    if (auto clei = read_ascii(img_, f(F::CleiCode)); clei && is_printable(*clei) && !clei->empty()) {
      id.clei = clei;
    }
    r_.power_class = static_cast<int>(u(F::PowerClass).value_or(0)) + 1;
    r_.max_power_watts = read_scaled(img_, f(F::MaxPower));
    const uint32_t base = u(F::CableLengthBase).value_or(0);
    if (base != 0) {
      static constexpr double kMultiplier[] = {0.1, 1, 10, 100};
      r_.cable_length_meters = base * kMultiplier[u(F::CableLengthMultiplier).value_or(0) & 3];
    }
    const uint8_t connector = static_cast<uint8_t>(u(F::Connector).value_or(0));
    r_.connector = Coded{connector, codes::connector(connector)};
    const uint8_t tech = static_cast<uint8_t>(u(F::MediaInterfaceTechnology).value_or(0));
    r_.media_interface_technology = Coded{tech, codes::media_interface_technology(tech)};
    add_checksum(img_, r_, "00h", f(F::IdentifierCopy), f(F::Checksum00));
  }

  // CMIS 5.2 page 01h (advertising): 130-135 revisions, 138-139 wavelength, 155-160 implemented
  // controls and monitors, 176-190 media lane assignment, 223-250 application descriptors 9-15.
  void decode_page01() {
    const auto hw_major = u(F::HardwareMajor), hw_minor = u(F::HardwareMinor);
    if (hw_major && hw_minor) r_.id.hardware_revision = std::to_string(*hw_major) + "." + std::to_string(*hw_minor);
    const auto in_major = u(F::InactiveFirmwareMajor), in_minor = u(F::InactiveFirmwareMinor);
    if (in_major && in_minor && (*in_major | *in_minor) != 0) {
      r_.id.inactive_firmware = std::to_string(*in_major) + "." + std::to_string(*in_minor);
    }
    if (const uint32_t smf = u(F::LengthSmfBase).value_or(0); smf != 0) {
      static constexpr double kKilometers[] = {0.1, 1, 10, 0};
      r_.lengths_meters["smf"] = smf * kKilometers[u(F::LengthSmfMultiplier).value_or(0) & 3] * 1000;
    }
    const std::pair<const char*, F> fibers[] = {
        {"om5", F::LengthOm5}, {"om4", F::LengthOm4}, {"om3", F::LengthOm3}, {"om2", F::LengthOm2}};
    for (const auto& [name, field] : fibers) {
      if (auto len = read_scaled(img_, f(field)); len && *len > 0) r_.lengths_meters[name] = *len;
    }
    const bool copper = r_.media_interface_technology && codes::technology_is_copper(r_.media_interface_technology->code);
    if (auto wl = read_scaled(img_, f(F::NominalWavelength)); wl && *wl > 0 && !copper) {
      r_.wavelength_meters = wl;
    }
    Implemented& im = r_.implemented;
    im.temperature = bit(F::TempMonitorSupported);
    im.supply_voltage = bit(F::VccMonitorSupported);
    im.tx_bias = bit(F::TxBiasMonitorSupported);
    im.tx_power = bit(F::TxPowerMonitorSupported);
    im.rx_power = bit(F::RxPowerMonitorSupported);
    advertised_ = true;
    const uint32_t mult = u(F::TxBiasMultiplier).value_or(0);
    if (mult == 3) r_.problems.push_back("page 01h byte 160: reserved Tx bias multiplier code 3; using x1");
    r_.tx_bias_multiplier = mult == 3 ? 1 : 1 << mult;
    r_.rx_power_type = bit(F::RxPowerMeasurementType) ? "average" : "oma";
    add_applications(F::App2HostInterface, F::App2MediaInterface, F::App2HostLaneCount,
                     F::App2MediaLaneCount, F::App2HostLaneAssignment, 8);
    const BankLanes media_lanes(img_, f(F::MediaLaneAssignment));
    for (Application& app : r_.applications) {
      app.media_lane_assignment = static_cast<uint8_t>(media_lanes.uint(app.index).value_or(0));
    }
    add_checksum(img_, r_, "01h", f(F::HardwareMajor), f(F::Checksum01));
  }

  // CMIS 5.2 page 02h 128-199: module and lane thresholds.
  void decode_thresholds() {
    auto group = [&](Quantity q, F first, double multiplier = 1) {
      const auto i = static_cast<uint16_t>(first);
      Thresholds t = read_thresholds(img_, cmis_fields()[i], cmis_fields()[i + 1],
                                     cmis_fields()[i + 2], cmis_fields()[i + 3], multiplier);
      set_thresholds(r_, q, t);
    };
    const Implemented& im = r_.implemented;
    if (!advertised_ || im.temperature) group(Quantity::Temperature, F::TempHighAlarm);
    if (!advertised_ || im.supply_voltage) group(Quantity::SupplyVoltage, F::VccHighAlarm);
    if (!advertised_ || im.tx_power) group(Quantity::TxPower, F::TxPowerHighAlarm);
    if (!advertised_ || im.tx_bias) group(Quantity::TxBias, F::TxBiasHighAlarm, r_.tx_bias_multiplier.value_or(1));
    if (!advertised_ || im.rx_power) group(Quantity::RxPower, F::RxPowerHighAlarm);
    add_checksum(img_, r_, "02h", f(F::TempHighAlarm), f(F::Checksum02));
  }

  // Module monitors: trust the 01h advertisement when read; otherwise (flat memory, or 01h not
  // read) a zero reading is taken as "not implemented" rather than exported as 0 °C / 0 V.
  // CMIS 5.2 lower page 14-25: temperature, Vcc, aux 1-3 monitors (01h:159-160 advertise them).
  void decode_monitors() {
    const auto temp = read_scaled(img_, f(F::Temperature));
    const auto vcc = read_scaled(img_, f(F::SupplyVoltage));
    if (!advertised_) {
      r_.implemented.temperature = temp && *temp != 0;
      r_.implemented.supply_voltage = vcc && *vcc != 0;
    }
    if (r_.implemented.temperature) r_.temperature_celsius = temp;
    if (r_.implemented.supply_voltage) r_.supply_voltage_volts = vcc;
    if (!advertised_) return;
    const auto aux = [&](F value, F supported) -> std::optional<int32_t> {
      if (!bit(supported)) return std::nullopt;
      return read_int(img_, f(value));
    };
    if (auto a1 = aux(F::Aux1, F::Aux1MonitorSupported); a1 && bit(F::Aux1Observable)) {
      r_.tec_current_ratio = *a1 * kTecCurrentLsb;
    }
    if (auto a2 = aux(F::Aux2, F::Aux2MonitorSupported)) {
      if (bit(F::Aux2Observable)) r_.tec_current_ratio = *a2 * kTecCurrentLsb;
      else r_.laser_temperature_celsius = *a2 * kTemperatureLsb;
    }
    if (auto a3 = aux(F::Aux3, F::Aux3MonitorSupported)) {
      // Aux3 is a signed field but carries an unsigned voltage when it is Vcc2.
      if (bit(F::Aux3Observable)) r_.supply_voltage2_volts = static_cast<uint16_t>(*a3) * kVoltageLsb;
      else r_.laser_temperature_celsius = *a3 * kTemperatureLsb;
    }
  }

  int bank_count() const {
    if (!advertised_) return 1;
    return cmis_bank_count(u(F::BanksSupported).value_or(0));
  }

  // `unsupported`: MediaLaneUnsupported (01h:210), read once per decode.
  static bool media_lane_supported(int lane, uint32_t unsupported) {
    if (lane > kCmisLanesPerBank) return true;  // byte 210 only describes lanes 1-8
    return (unsupported >> (lane - 1) & 1) == 0;
  }

  // True when some byte holding a lane flag of this bank has a bit set. In steady state none has,
  // and the per-lane scan (one bit read per lane and flag row) is skipped: a zero byte means
  // every lane's bit in it is clear, so the result is the same.
  bool bank_has_lane_flags(int bank) const {
    // The bytes holding bank 0's lane flags, located once; another bank's are the same bytes of
    // its own upper pages.
    static const std::vector<Location> bytes = [] {
      std::vector<Location> out;
      for (const Field& row : cmis_fields()) {
        if (row.role != Role::Flag || row.type != Type::Bits || row.width != 1 || row.lanes.count == 0) continue;
        for (int lane = 1; lane <= std::min<int>(kCmisLanesPerBank, row.lanes.count); ++lane) {
          const auto loc = locate(row, lane);
          const bool seen = std::any_of(out.begin(), out.end(), [&](const Location& l) {
            return l.page == loc->page && l.offset == loc->offset;
          });
          if (!seen) out.push_back(*loc);
        }
      }
      return out;
    }();
    const ModuleImage::Entry* entry = nullptr;
    PageKey key{};
    for (Location loc : bytes) {
      if (loc.page.page != kLowerPage) loc.page.bank = static_cast<uint8_t>(bank);
      if (entry == nullptr || loc.page != key) {
        entry = img_.find(loc.page);
        key = loc.page;
      }
      const std::size_t base = loc.page.page == kLowerPage ? 0 : kPageSize;
      if (entry != nullptr && entry->bytes[loc.offset - base] != 0) return true;
    }
    return false;
  }

  // Which data path each lane of `bank` is in, from the Active Control Set (11h:206-213): a
  // data path is named by its first lane (DataPathID, 0-based in the bank) and the AppSel its
  // lanes share; AppSel 0 = the lane is in none. Ordinals count on across banks in lane order.
  // A lane whose DataPathID does not name an earlier-or-same lane of the same AppSel and
  // DataPathID (garbage, or a half-written configuration) gets none rather than a guess.
  using LanePaths = std::array<std::optional<int>, kCmisLanesPerBank>;
  void data_paths(int bank, int& ordinal, LanePaths& out) {
    std::array<uint32_t, kCmisLanesPerBank> app{}, id{};
    const BankLanes app_sels(img_, f(F::ActiveAppSel), bank), path_ids(img_, f(F::ActiveDataPathId), bank);
    for (int i = 0; i < kCmisLanesPerBank; ++i) {
      const int lane = bank * kCmisLanesPerBank + i + 1;
      out[i].reset();
      app[i] = app_sels.uint(lane).value_or(0);
      id[i] = path_ids.uint(lane).value_or(0);
      if (app[i] != 0 && !active_app_) active_app_ = static_cast<int>(app[i]);
      if (app[i] == 0 || static_cast<int>(id[i]) > i) continue;
      if (static_cast<int>(id[i]) == i) {
        out[i] = ++ordinal;
      } else if (app[id[i]] == app[i] && id[id[i]] == id[i]) {
        out[i] = out[id[i]];
      }
    }
  }

  // Fills r_.lanes in place: a refresh reuses the previous poll's lane objects and strings.
  // CMIS 5.2 pages 10h/11h per bank: 10h:130 tx disable; 11h:128-131 data path state, 134-153 lane
  // flags, 154-201 rx/tx power and bias, 202-205 config status, 206-213 active control set.
  void decode_lanes() {
    std::size_t n = 0;
    const int multiplier = r_.tx_bias_multiplier.value_or(1);
    const int banks = r_.flat_memory ? 0 : bank_count();
    int ordinal = 0;
    LanePaths paths{};
    active_app_.reset();
    r_.lanes.reserve(static_cast<std::size_t>(banks * kCmisLanesPerBank));  // no regrowth
    const uint32_t unsupported = u(F::MediaLaneUnsupported).value_or(0);
    for (int bank = 0; bank < banks; ++bank) {
      if (!has_page(kCmisPageLaneStatus, static_cast<uint8_t>(bank))) continue;
      const bool flags = bank_has_lane_flags(bank);
      data_paths(bank, ordinal, paths);
      const BankLanes dp_states(img_, f(F::DataPathState), bank), rx_powers(img_, f(F::RxPower), bank),
          tx_powers(img_, f(F::TxPower), bank), biases(img_, f(F::TxBias), bank);
      for (int i = 1; i <= kCmisLanesPerBank; ++i) {
        const int lane = bank * kCmisLanesPerBank + i;
        if (!media_lane_supported(lane, unsupported)) continue;
        if (n == r_.lanes.size()) r_.lanes.emplace_back();
        LaneReport& l = r_.lanes[n++];
        l.lane = lane;
        const uint8_t dp = static_cast<uint8_t>(dp_states.uint(lane).value_or(0));
        l.data_path_state = codes::data_path_state(dp);
        l.data_path = paths[static_cast<std::size_t>(i - 1)];
        const Implemented& im = r_.implemented;
        l.rx_power_watts.reset();
        l.tx_power_watts.reset();
        l.tx_bias_amperes.reset();
        if (!advertised_ || im.rx_power) l.rx_power_watts = rx_powers.scaled(lane);
        if (!advertised_ || im.tx_power) l.tx_power_watts = tx_powers.scaled(lane);
        if (!advertised_ || im.tx_bias) {
          if (auto bias = biases.scaled(lane)) l.tx_bias_amperes = *bias * multiplier;
        }
        if (flags) raised_flags_into(img_, cmis_fields(), lane, l.flags);
        else l.flags.clear();
      }
    }
    r_.lanes.resize(n);
    r_.active_application = active_app_;
  }

  // VDM values, thresholds and flags; a raised VDM flag is also a flag of its lane, so it joins
  // the flag accounting and the health model like any other (vdm_flag_name).
  // CMIS 5.2 pages 20h-2Fh (VDM): descriptors 20h-23h, values 24h-27h, thresholds 28h-2Bh, flags 2Ch,
  // advertising and freeze 2Fh.
  void decode_vdm(bool refresh = false) {
    if (!advertised_) r_.vdm.clear();
    else if (!refresh || !refresh_vdm(img_, r_.vdm)) decode_vdm_into(img_, r_.vdm);
    for (const VdmObservable& o : r_.vdm) {
      for (const std::string_view level : o.flags) {
        const auto lane = std::find_if(r_.lanes.begin(), r_.lanes.end(), [&](const LaneReport& l) { return l.lane == o.lane; });
        (lane != r_.lanes.end() ? lane->flags : r_.module_flags).push_back(vdm_flag_name(o.name(), level));
      }
    }
  }

  void note_missing_pages() {
    auto want = [&](int16_t page, uint8_t bank = 0) {
      if (!has_page(page, bank)) r_.missing_pages.push_back(page_name({kDeviceA0, bank, page}));
    };
    want(0x00);
    if (r_.flat_memory) return;
    want(kCmisPageAdvertising);
    want(kCmisPageThresholds);
    for (int bank = 0; bank < bank_count(); ++bank) want(kCmisPageLaneStatus, static_cast<uint8_t>(bank));
  }

  const ModuleImage& img_;
  ModuleReport& r_;
  bool advertised_ = false;  // page 01h was read: monitor advertisement is known
  bool apps_ended_ = false;
  std::optional<int> active_app_;  // AppSel of the first configured lane, as data_paths() sees it  // an application descriptor with host ID 0xFF was seen
};

}  // namespace

ModuleReport decode_cmis(const ModuleImage& image) {
  ModuleReport report;
  CmisDecoder(image, report).run();
  return report;
}

bool decode_dynamic(const ModuleImage& image, ModuleReport& report) {
  if (report.spec != Spec::Cmis) return false;  // SFF-8636/8472 polls decode in full
  return CmisDecoder(image, report).refresh();
}

}  // namespace xcvr::cmis
