// Content checks: application advertisement, media type, power class (thresholds and monitors
// are in coding_values.cpp).
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
#include "coding/coding.hpp"

namespace xcvr::coding::coding_internal {
namespace {


// ----- application advertisement (CMIS) -------------------------------------------------------

struct Descriptor {
  int index = 0;  // AppSel 1-15
  uint32_t host = 0, media = 0, host_lanes = 0, media_lanes = 0, assignment = 0;
  std::optional<uint32_t> media_assignment;
  const Field* host_row = nullptr;
  int row_lane = 0;  // descriptor number within its row group
};

CheckResult check_applications(const Subject& s) {
  Builder b(Check::AppAdvertisement);
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
    const std::string host_name(cmis::codes::host_interface(static_cast<uint8_t>(d.host)));
    const std::string media_name(cmis::codes::media_interface(static_cast<uint8_t>(media_type), static_cast<uint8_t>(d.media)));
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
      list.append(list.empty() ? "" : ", ").append(cmis::codes::host_interface(static_cast<uint8_t>(d.host))).append(" -> ")
        .append(cmis::codes::media_interface(static_cast<uint8_t>(media_type), static_cast<uint8_t>(d.media)));
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
  return hex2(t) + " (" + std::string(cmis::codes::media_interface_technology(static_cast<uint8_t>(t))) + ")";
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
  Builder b(Check::MediaType);
  const auto type = cmis::read_uint(s.image, cf(CmisField::MediaType));
  const auto tech = cmis::read_uint(s.image, cf(CmisField::MediaInterfaceTechnology));
  const auto connector = cmis::read_uint(s.image, cf(CmisField::Connector));
  if (!type) {
    b.skip("lower page not read");
    return b.done();
  }
  const std::string type_at = where(cf(CmisField::MediaType), Spec::Cmis);
  const std::string type_name(cmis::codes::media_type(static_cast<uint8_t>(*type)));
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
             std::string(cmis::codes::connector(static_cast<uint8_t>(*connector))) + ")");
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
  Builder b(Check::MediaType);
  const auto tech = cmis::read_uint(s.image, sf(Sff8636Field::TransmitterTechnology));
  const auto ext = cmis::read_uint(s.image, sf(Sff8636Field::ExtendedCompliance));
  if (!tech || !ext) {
    b.skip("page 00h not read");
    return b.done();
  }
  const std::string tech_at = where(sf(Sff8636Field::TransmitterTechnology), Spec::Sff8636);
  const std::string ext_at = where(sf(Sff8636Field::ExtendedCompliance), Spec::Sff8636);
  const Medium m = medium_of_compliance(*ext);
  const std::string ext_name = hex2(*ext) + " (" + std::string(cmis::codes::extended_compliance(static_cast<uint8_t>(*ext))) + ")";
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
  Builder b(Check::PowerClass);
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
  Builder b(Check::PowerClass);
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
  value_checks(s, out);
}

}  // namespace xcvr::coding::coding_internal
