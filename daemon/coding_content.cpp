// Content checks: application advertisement, media type, power class, thresholds, monitors.
// Byte positions come from the cmis/ Field rows; the tables here hold only code semantics
// (lane counts of SFF-8024 interface IDs, power-class watt limits, physical ranges).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "daemon/coding.hpp"

namespace xcvr::daemon::coding_internal {
namespace {

using cmis::CmisField;
using cmis::Field;
using cmis::Sff8472Field;
using cmis::Sff8636Field;
using cmis::Spec;

const Field& cf(CmisField f) { return cmis::cmis_field(f); }
const Field& sf(Sff8636Field f) { return cmis::sff8636_field(f); }
const Field& pf(Sff8472Field f) { return cmis::sff8472_field(f); }

std::string fmt(double v, const char* spec = "%.3g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

// ----- application advertisement (CMIS) -------------------------------------------------------

struct Descriptor {
  int index = 0;  // AppSel 1-15
  uint32_t host = 0, media = 0, host_lanes = 0, media_lanes = 0, assignment = 0;
  std::optional<uint32_t> media_assignment;
  const Field* host_row = nullptr;
  int row_lane = 0;  // descriptor number within its row group
};

CheckResult check_applications(const Subject& s) {
  Builder b("app_advertisement");
  const cmis::ModuleImage& img = s.image;
  if (!cmis::read_uint(img, cf(CmisField::AppHostInterface), 1)) {
    b.skip("lower page not read");
    return b.done();
  }
  const bool page01 = !s.report.flat_memory && img.has({cmis::kDeviceA0, 0, cmis::kCmisPageAdvertising});
  const uint32_t media_type = cmis::read_uint(img, cf(CmisField::MediaType)).value_or(0);
  std::vector<Descriptor> defined;
  std::vector<int> empty_before;  // undefined (00h) descriptors seen before a defined one
  bool terminated = false;
  auto walk = [&](CmisField host, CmisField media, CmisField hl, CmisField ml, CmisField as, int first) {
    const int n = cf(host).lanes.count;
    for (int i = 1; i <= n && !terminated; ++i) {
      const auto h = cmis::read_uint(img, cf(host), i);
      if (!h) return;
      if (*h == 0xFF) {
        terminated = true;
        return;
      }
      if (*h == 0x00) {
        empty_before.push_back(first + i);
        continue;
      }
      Descriptor d;
      d.index = first + i;
      d.host = *h;
      d.media = cmis::read_uint(img, cf(media), i).value_or(0);
      d.host_lanes = cmis::read_uint(img, cf(hl), i).value_or(0);
      d.media_lanes = cmis::read_uint(img, cf(ml), i).value_or(0);
      d.assignment = cmis::read_uint(img, cf(as), i).value_or(0);
      if (page01) d.media_assignment = cmis::read_uint(img, cf(CmisField::MediaLaneAssignment), d.index);
      d.host_row = &cf(host);
      d.row_lane = i;
      if (!empty_before.empty()) {
        std::string list;
        for (int e : empty_before) list += (list.empty() ? "" : ", ") + std::to_string(e);
        b.fail("descriptor" + std::string(empty_before.size() > 1 ? "s " : " ") + list +
               " before descriptor " + std::to_string(d.index) + " have host interface 00h (undefined): "
               "the list must start at descriptor 1 and end with FFh (" + where(cf(host), Spec::Cmis, i) + ")");
        empty_before.clear();
      }
      defined.push_back(d);
    }
  };
  walk(CmisField::AppHostInterface, CmisField::AppMediaInterface, CmisField::AppHostLaneCount,
       CmisField::AppMediaLaneCount, CmisField::AppHostLaneAssignment, 0);
  if (!terminated && page01) {
    walk(CmisField::App2HostInterface, CmisField::App2MediaInterface, CmisField::App2HostLaneCount,
         CmisField::App2MediaLaneCount, CmisField::App2HostLaneAssignment, 8);
  }
  if (defined.empty()) {
    b.fail("no application advertised: " + where(cf(CmisField::AppHostInterface), Spec::Cmis, 1) +
           (terminated ? " ends the list at once" : " and the following descriptors are 00h"));
    return b.done();
  }
  // Lane capacity on the media side: 00h:210 bit i set = media lane i+1 not supported.
  const auto unsupported_media = cmis::read_uint(img, cf(CmisField::MediaLaneUnsupported));
  for (const Descriptor& d : defined) {
    const std::string at = "descriptor " + std::to_string(d.index) + " (" + where(*d.host_row, Spec::Cmis, d.row_lane) + ")";
    const std::string host_name = cmis::codes::host_interface(static_cast<uint8_t>(d.host));
    const std::string media_name = cmis::codes::media_interface(static_cast<uint8_t>(media_type), static_cast<uint8_t>(d.media));
    // Custom codes (SFF-8024 C0h-FEh) are the vendor's to define: only reserved ones are unknown.
    auto reserved = [](const std::string& name) { return !code_known(name) && name.rfind("custom", 0) != 0; };
    if (reserved(host_name)) b.warn(at + ": host interface " + hex2(d.host) + " is " + host_name);
    if (d.media == 0 || reserved(media_name)) {
      b.warn(at + ": media interface " + hex2(d.media) + " is " + (d.media == 0 ? "undefined" : media_name) +
             " for media type " + hex2(media_type));
    }
    if (d.host_lanes == 0) {
      b.fail(at + ": host lane count is 0");
    } else if (const int want = cmis::codes::host_interface_lanes(static_cast<uint8_t>(d.host)); want != 0 && static_cast<uint32_t>(want) != d.host_lanes) {
      b.fail(at + ": " + host_name + " uses " + std::to_string(want) + " host lanes but the descriptor says " +
             std::to_string(d.host_lanes));
    }
    if (d.media_lanes == 0) {
      b.fail(at + ": media lane count is 0");
    } else if (const int want = cmis::codes::media_interface_lanes(static_cast<uint8_t>(media_type), static_cast<uint8_t>(d.media)); want != 0 && static_cast<uint32_t>(want) != d.media_lanes) {
      b.fail(at + ": " + media_name + " uses " + std::to_string(want) + " media lanes but the descriptor says " +
             std::to_string(d.media_lanes));
    }
    if (d.assignment == 0) {
      b.fail(at + ": host lane assignment is 00h, so no host lane may start this application");
    } else if (d.host_lanes > 0) {
      for (uint32_t lane = 1; lane <= 8; ++lane) {
        if ((d.assignment >> (lane - 1) & 1) == 0) continue;
        if (lane + d.host_lanes - 1 > 8) {
          b.fail(at + ": host lane assignment " + hex2(d.assignment) + " lets it start on lane " + std::to_string(lane) +
                 " but " + std::to_string(d.host_lanes) + " lanes from there pass lane 8");
          break;
        }
      }
    }
    if (d.media_assignment && d.media_lanes > 0) {
      const std::string mat = where(cf(CmisField::MediaLaneAssignment), Spec::Cmis, d.index);
      if (*d.media_assignment == 0) {
        b.fail("descriptor " + std::to_string(d.index) + ": media lane assignment " + mat + " is 00h");
      }
      for (uint32_t lane = 1; lane <= 8; ++lane) {
        if ((*d.media_assignment >> (lane - 1) & 1) == 0) continue;
        const uint32_t last = lane + d.media_lanes - 1;
        bool off = last > 8;
        for (uint32_t l = lane; !off && l <= last && unsupported_media; ++l) off = (*unsupported_media >> (l - 1) & 1) != 0;
        if (off) {
          b.fail("descriptor " + std::to_string(d.index) + ": " + mat + " lets it start on media lane " +
                 std::to_string(lane) + " but lanes " + std::to_string(lane) + "-" + std::to_string(last) +
                 " are not all supported (" + where(cf(CmisField::MediaLaneUnsupported), Spec::Cmis) + ")");
          break;
        }
      }
    }
  }
  if (!b.problems()) {
    std::string list;
    for (const Descriptor& d : defined) {
      list += (list.empty() ? "" : ", ") + cmis::codes::host_interface(static_cast<uint8_t>(d.host)) + " -> " +
              cmis::codes::media_interface(static_cast<uint8_t>(media_type), static_cast<uint8_t>(d.media));
    }
    b.pass(std::to_string(defined.size()) + " application(s) well formed" + (terminated ? " and terminated: " : ": ") + list);
  }
  return b.done();
}

// ----- media type --------------------------------------------------------------------------------

using cmis::codes::technology_is_copper;
using cmis::codes::technology_is_passive_copper;
bool tech_fits_mmf(uint32_t t) { return t == 0x00 || t == 0x01 || t == 0x02 || t == 0x08; }
bool tech_fits_smf(uint32_t t) { return t != 0x00 && !technology_is_copper(t) && t <= 0x11; }

std::string tech_text(uint32_t t) {
  return hex2(t) + " (" + cmis::codes::media_interface_technology(static_cast<uint8_t>(t)) + ")";
}

void check_wavelength(Builder& b, const Field& row, Spec spec, std::optional<double> meters, bool mmf, bool smf) {
  if (!meters || *meters <= 0) return;
  const double nm = *meters * 1e9;
  const std::string at = where(row, spec);
  if (mmf && (nm < 800 || nm > 1000)) {
    b.fail(at + " says " + fmt(nm, "%.1f") + " nm, outside the 800-1000 nm of multimode optics");
  } else if (smf && (nm < 1260 || nm > 1625)) {
    b.fail(at + " says " + fmt(nm, "%.1f") + " nm, outside the 1260-1625 nm of single-mode optics");
  }
}

CheckResult check_media_cmis(const Subject& s) {
  Builder b("media_type");
  const auto type = cmis::read_uint(s.image, cf(CmisField::MediaType));
  const auto tech = cmis::read_uint(s.image, cf(CmisField::MediaInterfaceTechnology));
  const auto connector = cmis::read_uint(s.image, cf(CmisField::Connector));
  if (!type) {
    b.skip("lower page not read");
    return b.done();
  }
  const std::string type_at = where(cf(CmisField::MediaType), Spec::Cmis);
  const std::string type_name = cmis::codes::media_type(static_cast<uint8_t>(*type));
  if (*type == 0 || *type > 0x05) {
    if (*type >= 0x40 && *type <= 0x8F) {
      b.warn(type_at + " is " + hex2(*type) + " (custom): media interface IDs cannot be checked");
    } else {
      b.fail(type_at + " is " + hex2(*type) + " (" + type_name + "): application media IDs have no table to be read in");
    }
    return b.done();
  }
  if (!tech) {
    b.skip("page 00h not read");
    return b.done();
  }
  const std::string tech_at = where(cf(CmisField::MediaInterfaceTechnology), Spec::Cmis);
  const bool mmf = *type == 0x01, smf = *type == 0x02, passive = *type == 0x03, active = *type == 0x04;
  if ((mmf && !tech_fits_mmf(*tech)) || (smf && !tech_fits_smf(*tech)) ||
      (passive && !technology_is_passive_copper(*tech)) || (active && technology_is_passive_copper(*tech))) {
    b.fail(type_at + " " + type_name + " but " + tech_at + " is " + tech_text(*tech));
  }
  if (connector) {
    const std::string conn_at = where(cf(CmisField::Connector), Spec::Cmis);
    const bool optical_conn = (*connector >= 0x01 && *connector <= 0x0D) || (*connector >= 0x24 && *connector <= 0x28);
    if (passive && optical_conn) {
      b.fail(type_at + " passive copper but " + conn_at + " is an optical connector " + hex2(*connector) + " (" +
             cmis::codes::connector(static_cast<uint8_t>(*connector)) + ")");
    } else if (*connector == 0x00) {
      b.warn(conn_at + " is 00h (unknown or unspecified)");
    }
  }
  check_wavelength(b, cf(CmisField::NominalWavelength), Spec::Cmis, s.report.wavelength_meters, mmf, smf);
  if (!b.problems()) b.pass(type_at + " " + type_name + " agrees with " + tech_at + " " + tech_text(*tech));
  return b.done();
}

// SFF-8636 byte 192 codes by medium (SFF-8024 Table 4-4).
enum class Medium { Unknown, Mmf, Smf, Copper };
Medium medium_of_compliance(uint32_t code) {
  switch (code) {
    case 0x02: case 0x05: case 0x11: case 0x1F: case 0x20: case 0x21: case 0x41: return Medium::Mmf;
    case 0x03: case 0x04: case 0x06: case 0x07: case 0x10: case 0x12: case 0x17: case 0x1A: case 0x1B:
    case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: case 0x27: case 0x42: case 0x43: case 0x44:
    case 0x45: case 0x46: case 0x47: case 0x48: case 0x49: case 0x4B: return Medium::Smf;
    case 0x0B: case 0x0C: case 0x0D: case 0x40: return Medium::Copper;
    default: return Medium::Unknown;
  }
}

CheckResult check_media_sff8636(const Subject& s) {
  Builder b("media_type");
  const auto tech = cmis::read_uint(s.image, sf(Sff8636Field::TransmitterTechnology));
  const auto ext = cmis::read_uint(s.image, sf(Sff8636Field::ExtendedCompliance));
  if (!tech || !ext) {
    b.skip("page 00h not read");
    return b.done();
  }
  const std::string tech_at = where(sf(Sff8636Field::TransmitterTechnology), Spec::Sff8636);
  const std::string ext_at = where(sf(Sff8636Field::ExtendedCompliance), Spec::Sff8636);
  const Medium m = medium_of_compliance(*ext);
  const std::string ext_name = hex2(*ext) + " (" + cmis::codes::extended_compliance(static_cast<uint8_t>(*ext)) + ")";
  if ((m == Medium::Mmf && !tech_fits_mmf(*tech)) || (m == Medium::Smf && !tech_fits_smf(*tech)) ||
      (m == Medium::Copper && !technology_is_copper(*tech))) {
    b.fail(ext_at + " " + ext_name + " but " + tech_at + " is " + tech_text(*tech));
  }
  check_wavelength(b, sf(Sff8636Field::Wavelength), Spec::Sff8636, s.report.wavelength_meters, m == Medium::Mmf,
                   m == Medium::Smf);
  if (!b.problems()) {
    if (m == Medium::Unknown) b.pass(ext_at + " " + ext_name + " names no single medium; " + tech_at + " " + tech_text(*tech));
    else b.pass(ext_at + " " + ext_name + " agrees with " + tech_at + " " + tech_text(*tech));
  }
  return b.done();
}

// ----- power class -------------------------------------------------------------------------------

// QSFP-DD MSA hardware specification power classes (CMIS 00h:200 bits 7-5 + 1): maximum watts.
// Used for every CMIS module, OSFP included (its MSA reuses the CMIS field; class 8 is open-ended).
constexpr std::array<double, 8> kCmisClassWatts = {1.5, 3.5, 7.0, 8.0, 10.0, 12.0, 14.0, 1e9};

CheckResult check_power_cmis(const Subject& s) {
  Builder b("power_class");
  const auto cls = cmis::read_uint(s.image, cf(CmisField::PowerClass));
  const auto raw = cmis::read_uint(s.image, cf(CmisField::MaxPower));
  if (!cls || !raw) {
    b.skip("page 00h not read");
    return b.done();
  }
  const int klass = static_cast<int>(*cls) + 1;
  const double watts = *raw * cf(CmisField::MaxPower).scale;
  const std::string cls_at = where(cf(CmisField::PowerClass), Spec::Cmis);
  const std::string max_at = where(cf(CmisField::MaxPower), Spec::Cmis);
  const double limit = kCmisClassWatts[static_cast<std::size_t>(klass - 1)];
  const std::string limit_text = klass == 8 ? "> 14 W" : "<= " + fmt(limit) + " W";
  if (*raw == 0) {
    b.warn(max_at + " is 0 (maximum power not advertised); class " + std::to_string(klass) + " (" + limit_text + ")");
  } else if (watts > limit) {
    b.fail(max_at + " advertises " + fmt(watts) + " W but " + cls_at + " says class " + std::to_string(klass) + " (" +
           limit_text + ", QSFP-DD hardware spec): the host would budget too little");
  } else if (klass > 1 && watts <= kCmisClassWatts[static_cast<std::size_t>(klass - 2)]) {
    b.warn(cls_at + " class " + std::to_string(klass) + " (" + limit_text + ") is higher than " + max_at + " " +
           fmt(watts) + " W needs (class " + std::to_string(klass - 1) + ": <= " +
           fmt(kCmisClassWatts[static_cast<std::size_t>(klass - 2)]) + " W)");
  } else {
    b.pass(cls_at + " class " + std::to_string(klass) + " (" + limit_text + ") covers " + max_at + " " + fmt(watts) + " W");
  }
  return b.done();
}

CheckResult check_power_sff8636(const Subject& s) {
  Builder b("power_class");
  const auto c8 = cmis::read_uint(s.image, sf(Sff8636Field::PowerClass8Implemented));
  if (!c8) {
    b.skip("page 00h not read");
    return b.done();
  }
  const std::string c8_at = where(sf(Sff8636Field::PowerClass8Implemented), Spec::Sff8636);
  if (*c8 != 0) {
    const auto raw = cmis::read_uint(s.image, sf(Sff8636Field::MaxPowerClass8));
    const std::string max_at = where(sf(Sff8636Field::MaxPowerClass8), Spec::Sff8636);
    const double watts = raw.value_or(0) * sf(Sff8636Field::MaxPowerClass8).scale;
    const double class7 = cmis::kSff8636PowerClassWatts.back();
    if (!raw) b.skip(max_at + " not read");
    else if (*raw == 0) b.fail(c8_at + " says power class 8 but " + max_at + " is 0");
    else if (watts <= class7) b.warn(c8_at + " says power class 8 but " + max_at + " is " + fmt(watts) + " W, which class 1-7 (<= " + fmt(class7) + " W) covers");
    else b.pass(c8_at + " power class 8 with " + max_at + " " + fmt(watts) + " W");
    return b.done();
  }
  b.pass("power class " + std::to_string(s.report.power_class.value_or(0)) + " (" +
         where(sf(Sff8636Field::PowerClassLow), Spec::Sff8636) + ", " + where(sf(Sff8636Field::PowerClassHigh), Spec::Sff8636) +
         "): " + fmt(s.report.max_power_watts.value_or(0)) + " W");
  return b.done();
}

// ----- thresholds --------------------------------------------------------------------------------

struct Group {
  const char* key;    // ModuleReport::thresholds key
  const char* label;  // for messages
  const Field* first; // high alarm row (first of the four)
  const Field* last;  // low warning row (last of the four)
};

std::vector<Group> threshold_groups(Spec spec) {
  switch (spec) {
    case Spec::Cmis:
      return {{"temperature_celsius", "temperature", &cf(CmisField::TempHighAlarm), &cf(CmisField::TempLowWarning)},
              {"supply_voltage_volts", "supply voltage", &cf(CmisField::VccHighAlarm), &cf(CmisField::VccLowWarning)},
              {"tx_power_watts", "tx power", &cf(CmisField::TxPowerHighAlarm), &cf(CmisField::TxPowerLowWarning)},
              {"tx_bias_amperes", "tx bias", &cf(CmisField::TxBiasHighAlarm), &cf(CmisField::TxBiasLowWarning)},
              {"rx_power_watts", "rx power", &cf(CmisField::RxPowerHighAlarm), &cf(CmisField::RxPowerLowWarning)}};
    case Spec::Sff8636:
      return {{"temperature_celsius", "temperature", &sf(Sff8636Field::TempHighAlarm), &sf(Sff8636Field::TempLowWarning)},
              {"supply_voltage_volts", "supply voltage", &sf(Sff8636Field::VccHighAlarm), &sf(Sff8636Field::VccLowWarning)},
              {"rx_power_watts", "rx power", &sf(Sff8636Field::RxPowerHighAlarm), &sf(Sff8636Field::RxPowerLowWarning)},
              {"tx_bias_amperes", "tx bias", &sf(Sff8636Field::TxBiasHighAlarm), &sf(Sff8636Field::TxBiasLowWarning)},
              {"tx_power_watts", "tx power", &sf(Sff8636Field::TxPowerHighAlarm), &sf(Sff8636Field::TxPowerLowWarning)}};
    case Spec::Sff8472:
      return {{"temperature_celsius", "temperature", &pf(Sff8472Field::TempHighAlarm), &pf(Sff8472Field::TempLowWarning)},
              {"supply_voltage_volts", "supply voltage", &pf(Sff8472Field::VccHighAlarm), &pf(Sff8472Field::VccLowWarning)},
              {"tx_bias_amperes", "tx bias", &pf(Sff8472Field::TxBiasHighAlarm), &pf(Sff8472Field::TxBiasLowWarning)},
              {"tx_power_watts", "tx power", &pf(Sff8472Field::TxPowerHighAlarm), &pf(Sff8472Field::TxPowerLowWarning)},
              {"rx_power_watts", "rx power", &pf(Sff8472Field::RxPowerHighAlarm), &pf(Sff8472Field::RxPowerLowWarning)}};
  }
  return {};
}

std::string group_at(const Group& g, Spec spec) {
  const auto a = cmis::locate(*g.first);
  const auto z = cmis::locate(*g.last);
  if (!a || !z) return g.label;
  std::string page = where(*g.first, spec);
  page = page.substr(0, page.find(" byte "));
  return page + " bytes " + std::to_string(a->offset) + "-" + std::to_string(z->offset + g.last->size - 1) + " (" +
         g.label + " thresholds)";
}

std::string value_text(const std::string& key, double v) {
  if (key == "temperature_celsius") return fmt(v, "%.2f") + " C";
  if (key == "supply_voltage_volts") return fmt(v, "%.4f") + " V";
  if (key == "tx_bias_amperes") return fmt(v * 1e3, "%.3f") + " mA";
  return fmt(v * 1e3, "%.4f") + " mW";  // optical power
}

bool all_zero(const cmis::Thresholds& t) {
  return t.high_alarm.value_or(0) == 0 && t.high_warning.value_or(0) == 0 && t.low_warning.value_or(0) == 0 &&
         t.low_alarm.value_or(0) == 0;
}

bool complete(const cmis::Thresholds& t) { return t.high_alarm && t.high_warning && t.low_warning && t.low_alarm; }

// Groups whose levels are inverted (thresholds_ordered fails them; plausibility leaves them).
std::vector<std::string> inverted_groups(const Subject& s) {
  std::vector<std::string> out;
  for (const auto& [key, t] : s.report.thresholds) {
    if (!complete(t) || all_zero(t)) continue;
    if (*t.high_alarm < *t.high_warning || *t.high_warning < *t.low_warning || *t.low_warning < *t.low_alarm) {
      out.push_back(key);
    }
  }
  return out;
}

CheckResult check_thresholds_ordered(const Subject& s) {
  Builder b("thresholds_ordered");
  int checked = 0;
  for (const Group& g : threshold_groups(s.spec)) {
    const auto it = s.report.thresholds.find(g.key);
    if (it == s.report.thresholds.end() || !complete(it->second) || all_zero(it->second)) continue;
    const cmis::Thresholds& t = it->second;
    ++checked;
    const std::string at = group_at(g, s.spec);
    const std::array<std::pair<const char*, double>, 4> lv = {{{"high alarm", *t.high_alarm},
                                                                {"high warning", *t.high_warning},
                                                                {"low warning", *t.low_warning},
                                                                {"low alarm", *t.low_alarm}}};
    for (std::size_t i = 0; i + 1 < lv.size(); ++i) {
      const auto& [an, av] = lv[i];
      const auto& [bn, bv] = lv[i + 1];
      if (av < bv) {
        b.fail(at + ": " + an + " " + value_text(g.key, av) + " is below " + bn + " " + value_text(g.key, bv));
      } else if (av == bv) {
        b.warn(at + ": " + an + " equals " + bn + " (" + value_text(g.key, av) + "): no warning before the alarm");
      }
    }
  }
  if (checked == 0) b.skip("no threshold group read (page 02h/03h/A2h absent, or monitors not implemented)");
  else if (!b.problems()) b.pass(std::to_string(checked) + " threshold group(s) ordered high alarm > high warning > low warning > low alarm");
  return b.done();
}

struct Window {
  double high_min, high_max, low_min, low_max;  // allowed ranges for the high alarm and low alarm
};

std::optional<Window> window_for(const std::string& key) {
  // Physical ranges any module of its kind respects; outside them the alarms cannot fire usefully.
  if (key == "temperature_celsius") return Window{40, 130, -60, 25};
  if (key == "supply_voltage_volts") return Window{3.3, 4.0, 2.5, 3.3};
  if (key == "tx_bias_amperes") return Window{1e-4, 0.3, 0, 0.3};
  if (key == "tx_power_watts" || key == "rx_power_watts") return Window{1e-6, 0.02, 0, 0.02};  // up to +13 dBm
  return std::nullopt;
}

CheckResult check_thresholds_plausible(const Subject& s) {
  Builder b("thresholds_plausible");
  const auto inverted = inverted_groups(s);
  int checked = 0;
  for (const Group& g : threshold_groups(s.spec)) {
    const auto it = s.report.thresholds.find(g.key);
    if (it == s.report.thresholds.end() || !complete(it->second)) continue;
    if (std::find(inverted.begin(), inverted.end(), g.key) != inverted.end()) continue;
    ++checked;
    const cmis::Thresholds& t = it->second;
    const std::string at = group_at(g, s.spec);
    if (all_zero(t)) {
      b.warn(at + " are all zero: the module does not implement them, so no alarm or warning can rise");
      continue;
    }
    const auto w = window_for(g.key);
    if (!w) continue;
    if (!std::isfinite(*t.high_alarm) || *t.high_alarm < w->high_min || *t.high_alarm > w->high_max) {
      b.fail(at + ": high alarm " + value_text(g.key, *t.high_alarm) + " is outside " + value_text(g.key, w->high_min) +
             " .. " + value_text(g.key, w->high_max));
    }
    if (!std::isfinite(*t.low_alarm) || *t.low_alarm < w->low_min || *t.low_alarm > w->low_max) {
      b.fail(at + ": low alarm " + value_text(g.key, *t.low_alarm) + " is outside " + value_text(g.key, w->low_min) +
             " .. " + value_text(g.key, w->low_max));
    }
  }
  if (checked == 0) b.skip("no threshold group to judge");
  else if (!b.problems()) b.pass(std::to_string(checked) + " threshold group(s) within physical ranges");
  return b.done();
}

// ----- monitors ----------------------------------------------------------------------------------

constexpr uint32_t kDpActivated = 4;  // CMIS data path state DPActivated (§9.2)

void module_monitor(Builder& b, const Subject& s, const Field& adv, const Field& value, bool advertised_known,
                    bool fail_on_zero) {
  const auto a = cmis::read_uint(s.image, adv);
  const auto raw = cmis::read_uint(s.image, value);
  if (!a || !raw) return;
  const std::string adv_at = where(adv, s.spec), val_at = where(value, s.spec);
  if (*a != 0 && *raw == 0) {
    const std::string text = adv_at + " advertises the monitor but " + val_at + " reads exactly 0";
    fail_on_zero ? b.fail(text) : b.warn(text);
  } else if (*a == 0 && *raw != 0 && advertised_known) {
    b.warn(adv_at + " does not advertise the monitor but " + val_at + " reads raw " + std::to_string(*raw));
  }
}

struct LaneMonitor {
  const char* name;
  CmisField adv, value;
  bool tx;  // transmit side (needs Tx output enabled) or receive side (needs light)
};

void cmis_lane_monitors(Builder& b, const Subject& s) {
  const cmis::ModuleImage& img = s.image;
  if (!img.has({cmis::kDeviceA0, 0, cmis::kCmisPageAdvertising})) return;
  const int banks = cmis::cmis_bank_count(cmis::read_uint(img, cf(CmisField::BanksSupported)).value_or(0));
  const std::array<LaneMonitor, 3> monitors = {{{"rx power", CmisField::RxPowerMonitorSupported, CmisField::RxPower, false},
                                                {"tx power", CmisField::TxPowerMonitorSupported, CmisField::TxPower, true},
                                                {"tx bias", CmisField::TxBiasMonitorSupported, CmisField::TxBias, true}}};
  const auto unsupported = cmis::read_uint(img, cf(CmisField::MediaLaneUnsupported)).value_or(0);
  for (const LaneMonitor& m : monitors) {
    const bool advertised = cmis::read_uint(img, cf(m.adv)).value_or(0) != 0;
    int active = 0, zero = 0, excused = 0, nonzero = 0;
    int first_lane = 0;
    for (int bank = 0; bank < banks; ++bank) {
      if (!img.has({cmis::kDeviceA0, static_cast<uint8_t>(bank), cmis::kCmisPageLaneStatus})) continue;
      for (int i = 1; i <= cmis::kCmisLanesPerBank; ++i) {
        const int lane = bank * cmis::kCmisLanesPerBank + i;
        if (lane <= 8 && (unsupported >> (lane - 1) & 1) != 0) continue;
        const auto raw = cmis::read_uint(img, cf(m.value), lane);
        if (!raw) continue;
        if (first_lane == 0) first_lane = lane;
        if (*raw != 0) ++nonzero;
        if (cmis::read_uint(img, cf(CmisField::DataPathState), lane).value_or(0) != kDpActivated) continue;
        ++active;
        if (*raw != 0) continue;
        ++zero;
        // Zero is the right reading when the lane has no light (rx LOS) or its laser is off.
        const bool no_light = !m.tx && cmis::read_uint(img, cf(CmisField::FlagRxLos), lane).value_or(0) != 0;
        const bool tx_off = m.tx && (cmis::read_uint(img, cf(CmisField::TxOutputDisable), lane).value_or(0) != 0 ||
                                     cmis::read_uint(img, cf(CmisField::FlagTxFault), lane).value_or(0) != 0);
        if (no_light || tx_off) ++excused;
      }
    }
    if (first_lane == 0) continue;
    const std::string adv_at = where(cf(m.adv), Spec::Cmis);
    const std::string val_at = where(cf(m.value), Spec::Cmis, first_lane);
    if (advertised && active > 0 && zero == active && excused < active) {
      b.fail(adv_at + " advertises the " + m.name + " monitor but every DPActivated lane (" + std::to_string(active) +
             ") reads exactly 0 from " + val_at + " on, with no " + (m.tx ? "Tx disable or Tx fault" : "Rx LOS") +
             " to explain it");
    } else if (!advertised && nonzero > 0) {
      b.warn(adv_at + " does not advertise the " + m.name + " monitor but " + std::to_string(nonzero) + " lane(s) from " +
             val_at + " on read non-zero");
    }
  }
}

CheckResult check_monitors(const Subject& s) {
  Builder b("monitor_consistency");
  switch (s.spec) {
    case Spec::Cmis:
      if (s.report.flat_memory || !s.image.has({cmis::kDeviceA0, 0, cmis::kCmisPageAdvertising})) {
        b.skip("no page 01h advertisement (flat memory or not read)");
        return b.done();
      }
      module_monitor(b, s, cf(CmisField::TempMonitorSupported), cf(CmisField::Temperature), true, false);
      module_monitor(b, s, cf(CmisField::VccMonitorSupported), cf(CmisField::SupplyVoltage), true, true);
      cmis_lane_monitors(b, s);
      break;
    case Spec::Sff8636: {
      if (!s.image.has({cmis::kDeviceA0, 0, 0x00})) {
        b.skip("page 00h not read");
        return b.done();
      }
      // Revisions before 2.8 may leave the advertisement bits clear although values are valid.
      const bool bits_reliable = cmis::read_uint(s.image, sf(Sff8636Field::RevisionCompliance)).value_or(0) >=
                                 cmis::kSff8636RevisionWithMonitorBits;
      module_monitor(b, s, sf(Sff8636Field::TempMonitorImplemented), sf(Sff8636Field::Temperature), bits_reliable, false);
      module_monitor(b, s, sf(Sff8636Field::VccMonitorImplemented), sf(Sff8636Field::SupplyVoltage), bits_reliable, true);
      // Tx power: advertised, and lasers biased (tx bias non-zero, Tx not disabled), so the
      // transmitted power cannot be exactly zero.
      const bool adv = cmis::read_uint(s.image, sf(Sff8636Field::TxPowerMonitorImplemented)).value_or(0) != 0;
      int lit = 0, zero = 0, nonzero = 0;
      for (int lane = 1; lane <= cmis::kSff8636Lanes; ++lane) {
        const auto bias = cmis::read_uint(s.image, sf(Sff8636Field::TxBias), lane);
        const auto power = cmis::read_uint(s.image, sf(Sff8636Field::TxPower), lane);
        const bool disabled = cmis::read_uint(s.image, sf(Sff8636Field::TxDisable), lane).value_or(0) != 0;
        if (!bias || !power) continue;
        if (*power != 0) ++nonzero;
        if (*bias == 0 || disabled) continue;
        ++lit;
        if (*power == 0) ++zero;
      }
      const std::string adv_at = where(sf(Sff8636Field::TxPowerMonitorImplemented), Spec::Sff8636);
      const std::string val_at = where(sf(Sff8636Field::TxPower), Spec::Sff8636, 1);
      if (adv && lit > 0 && zero == lit) {
        b.fail(adv_at + " advertises the tx power monitor but every biased lane (" + std::to_string(lit) +
               ") reads exactly 0 from " + val_at + " on");
      } else if (!adv && nonzero > 0 && bits_reliable) {
        b.warn(adv_at + " does not advertise the tx power monitor but " + std::to_string(nonzero) + " lane(s) from " +
               val_at + " on read non-zero");
      }
      break;
    }
    case Spec::Sff8472: {
      const bool ddm = cmis::read_uint(s.image, pf(Sff8472Field::DdmImplemented)).value_or(0) != 0;
      const bool a2 = s.image.has({cmis::kDeviceA2, 0, cmis::kLowerPage});
      if (!a2) {
        b.skip(ddm ? "A2h diagnostics advertised but not read" : "no diagnostics (DDM not implemented)");
        return b.done();
      }
      const auto vcc = cmis::read_uint(s.image, pf(Sff8472Field::SupplyVoltage));
      const std::string adv_at = where(pf(Sff8472Field::DdmImplemented), Spec::Sff8472);
      if (ddm && vcc && *vcc == 0) {
        b.fail(adv_at + " advertises diagnostics but " + where(pf(Sff8472Field::SupplyVoltage), Spec::Sff8472) + " reads exactly 0");
      }
      break;
    }
  }
  if (!b.problems()) b.pass("advertised monitors read live values; unadvertised ones read zero");
  return b.done();
}

}  // namespace

void content_checks(const Subject& s, std::vector<CheckResult>& out) {
  if (s.spec == Spec::Cmis) {
    out.push_back(check_applications(s));
    out.push_back(check_media_cmis(s));
    out.push_back(check_power_cmis(s));
  } else if (s.spec == Spec::Sff8636) {
    out.push_back(check_media_sff8636(s));
    out.push_back(check_power_sff8636(s));
  }
  out.push_back(check_thresholds_ordered(s));
  out.push_back(check_thresholds_plausible(s));
  out.push_back(check_monitors(s));
}

}  // namespace xcvr::daemon::coding_internal
