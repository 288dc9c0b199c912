// Content checks on values: threshold groups (ordered, implemented, physically plausible) and
// monitors (advertised monitors read live values on active lanes, unadvertised ones read zero).
// Byte positions come from the cmis/ Field rows; the tables here hold only physical ranges.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "cmis/quantities.hpp"
#include "coding/coding.hpp"

namespace xcvr::coding::coding_internal {
namespace {

// ----- thresholds --------------------------------------------------------------------------------

struct Group {
  const cmis::QuantitySpec& q;
  const Field* first; // high alarm row (first of the four)
  const Field* last;  // low warning row (last of the four)
};

constexpr const cmis::QuantitySpec& T = cmis::quantity(cmis::Quantity::Temperature);
constexpr const cmis::QuantitySpec& V = cmis::quantity(cmis::Quantity::SupplyVoltage);
constexpr const cmis::QuantitySpec& Rx = cmis::quantity(cmis::Quantity::RxPower);
constexpr const cmis::QuantitySpec& Tx = cmis::quantity(cmis::Quantity::TxPower);
constexpr const cmis::QuantitySpec& B = cmis::quantity(cmis::Quantity::TxBias);

std::vector<Group> threshold_groups(Spec spec) {
  switch (spec) {
    case Spec::Cmis:
      return {{T, &cf(CmisField::TempHighAlarm), &cf(CmisField::TempLowWarning)},
              {V, &cf(CmisField::VccHighAlarm), &cf(CmisField::VccLowWarning)},
              {Tx, &cf(CmisField::TxPowerHighAlarm), &cf(CmisField::TxPowerLowWarning)},
              {B, &cf(CmisField::TxBiasHighAlarm), &cf(CmisField::TxBiasLowWarning)},
              {Rx, &cf(CmisField::RxPowerHighAlarm), &cf(CmisField::RxPowerLowWarning)}};
    case Spec::Sff8636:
      return {{T, &sf(Sff8636Field::TempHighAlarm), &sf(Sff8636Field::TempLowWarning)},
              {V, &sf(Sff8636Field::VccHighAlarm), &sf(Sff8636Field::VccLowWarning)},
              {Rx, &sf(Sff8636Field::RxPowerHighAlarm), &sf(Sff8636Field::RxPowerLowWarning)},
              {B, &sf(Sff8636Field::TxBiasHighAlarm), &sf(Sff8636Field::TxBiasLowWarning)},
              {Tx, &sf(Sff8636Field::TxPowerHighAlarm), &sf(Sff8636Field::TxPowerLowWarning)}};
    case Spec::Sff8472:
      return {{T, &pf(Sff8472Field::TempHighAlarm), &pf(Sff8472Field::TempLowWarning)},
              {V, &pf(Sff8472Field::VccHighAlarm), &pf(Sff8472Field::VccLowWarning)},
              {B, &pf(Sff8472Field::TxBiasHighAlarm), &pf(Sff8472Field::TxBiasLowWarning)},
              {Tx, &pf(Sff8472Field::TxPowerHighAlarm), &pf(Sff8472Field::TxPowerLowWarning)},
              {Rx, &pf(Sff8472Field::RxPowerHighAlarm), &pf(Sff8472Field::RxPowerLowWarning)}};
  }
  return {};
}

std::string group_at(const Group& g, Spec spec) {
  const auto a = cmis::locate(*g.first);
  const auto z = cmis::locate(*g.last);
  if (!a || !z) return std::string(g.q.label);
  std::string page = where(*g.first, spec);
  page = page.substr(0, page.find(" byte "));
  return page + " bytes " + std::to_string(a->offset) + "-" + std::to_string(z->offset + g.last->size - 1) + " (" +
         std::string(g.q.label) + " thresholds)";
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
      out.emplace_back(key);
    }
  }
  return out;
}

CheckResult check_thresholds_ordered(const Subject& s) {
  Builder b(Check::ThresholdsOrdered);
  int checked = 0;
  for (const Group& g : threshold_groups(s.spec)) {
    const auto it = s.report.thresholds.find(g.q.key);
    if (it == s.report.thresholds.end() || !complete(it->second) || all_zero(it->second)) continue;
    const cmis::Thresholds& t = it->second;
    ++checked;
    const std::string at = group_at(g, s.spec);
    const auto text = [&](double v) { return cmis::plain_text(g.q.unit, v); };
    const std::array<std::pair<const char*, double>, 4> lv = {{{"high alarm", *t.high_alarm},
                                                                {"high warning", *t.high_warning},
                                                                {"low warning", *t.low_warning},
                                                                {"low alarm", *t.low_alarm}}};
    for (std::size_t i = 0; i + 1 < lv.size(); ++i) {
      const auto& [an, av] = lv[i];
      const auto& [bn, bv] = lv[i + 1];
      if (av < bv) {
        b.fail(at + ": " + an + " " + text(av) + " is below " + bn + " " + text(bv));
      } else if (av == bv) {
        b.warn(at + ": " + an + " equals " + bn + " (" + text(av) + "): no warning before the alarm");
      }
    }
  }
  if (checked == 0) b.skip("no threshold group read (page 02h/03h/A2h absent, or monitors not implemented)");
  else if (!b.problems()) b.pass(std::to_string(checked) + " threshold group(s) ordered high alarm > high warning > low warning > low alarm");
  return b.done();
}

CheckResult check_thresholds_plausible(const Subject& s) {
  Builder b(Check::ThresholdsPlausible);
  const auto inverted = inverted_groups(s);
  int checked = 0;
  for (const Group& g : threshold_groups(s.spec)) {
    const auto it = s.report.thresholds.find(g.q.key);
    if (it == s.report.thresholds.end() || !complete(it->second)) continue;
    if (std::find(inverted.begin(), inverted.end(), g.q.key) != inverted.end()) continue;
    ++checked;
    const cmis::Thresholds& t = it->second;
    const std::string at = group_at(g, s.spec);
    if (all_zero(t)) {
      b.warn(at + " are all zero: the module does not implement them, so no alarm or warning can rise");
      continue;
    }
    const auto& w = g.q.plausible;
    if (!w) continue;
    const auto text = [&](double v) { return cmis::plain_text(g.q.unit, v); };
    if (!std::isfinite(*t.high_alarm) || *t.high_alarm < w->high_min || *t.high_alarm > w->high_max) {
      b.fail(at + ": high alarm " + text(*t.high_alarm) + " is outside " + text(w->high_min) + " .. " +
             text(w->high_max));
    }
    if (!std::isfinite(*t.low_alarm) || *t.low_alarm < w->low_min || *t.low_alarm > w->low_max) {
      b.fail(at + ": low alarm " + text(*t.low_alarm) + " is outside " + text(w->low_min) + " .. " + text(w->low_max));
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
  Builder b(Check::MonitorConsistency);
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

void value_checks(const Subject& s, std::vector<CheckResult>& out) {
  out.push_back(check_thresholds_ordered(s));
  out.push_back(check_thresholds_plausible(s));
  out.push_back(check_monitors(s));
}

}  // namespace xcvr::coding::coding_internal
