#include "emulator/faults.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <utility>

#include "emulator/catalog.hpp"

namespace xcvr::emulator {
namespace {

struct KindName {
  FaultKind kind;
  std::string_view name;
};
constexpr std::array kKindNames = {
    KindName{FaultKind::Unplug, "unplug"},
    KindName{FaultKind::Insert, "insert"},
    KindName{FaultKind::AddressNack, "address_nack"},
    KindName{FaultKind::Timeout, "timeout"},
    KindName{FaultKind::StuckBus, "stuck_bus"},
    KindName{FaultKind::SlowModule, "slow_module"},
    KindName{FaultKind::CorruptByte, "corrupt_byte"},
    KindName{FaultKind::BadChecksum, "bad_checksum"},
    KindName{FaultKind::PageSelectIgnored, "page_select_ignored"},
    KindName{FaultKind::StuckLowPower, "stuck_low_power"},
    KindName{FaultKind::ModuleFault, "module_fault"},
    KindName{FaultKind::RxLos, "rx_los"},
    KindName{FaultKind::TxFault, "tx_fault"},
    KindName{FaultKind::TxLos, "tx_los"},
    KindName{FaultKind::LanePowerDrop, "lane_power_drop"},
    KindName{FaultKind::DirtyFiber, "dirty_fiber"},
    KindName{FaultKind::Overheat, "overheat"},
    KindName{FaultKind::BerDegrade, "ber_degrade"},
    KindName{FaultKind::BerShift, "ber_shift"},
    KindName{FaultKind::MiscodedVendor, "miscoded_vendor"},
    KindName{FaultKind::ThresholdsOutOfOrder, "thresholds_out_of_order"},
    KindName{FaultKind::GarbageIdentifier, "garbage_identifier"},
    KindName{FaultKind::AllFF, "all_ff"},
    KindName{FaultKind::LinkDown, "link_down"},
};

bool is_memory_edit(FaultKind k) {
  return k == FaultKind::CorruptByte || k == FaultKind::BadChecksum ||
         k == FaultKind::MiscodedVendor || k == FaultKind::ThresholdsOutOfOrder ||
         k == FaultKind::GarbageIdentifier;
}

// Sets or clears a lane bit (lane 0 = all lanes).
void set_lanes(std::bitset<kMaxLanes>& bits, int lane, bool on) {
  if (lane <= 0) {
    on ? bits.set() : bits.reset();
  } else if (lane <= kMaxLanes) {
    bits.set(static_cast<std::size_t>(lane - 1), on);
  }
}

void set_lane_value(std::array<double, kMaxLanes>& values, int lane, double value) {
  if (lane <= 0) {
    values.fill(value);
  } else if (lane <= kMaxLanes) {
    values[static_cast<std::size_t>(lane - 1)] = value;
  }
}

void swap_levels(cmis::ModuleImage& img, const cmis::Field* a, const cmis::Field* b) {
  const auto va = cmis::read_uint(img, *a), vb = cmis::read_uint(img, *b);
  if (!va || !vb) return;
  cmis::write_uint(img, *a, *vb);
  cmis::write_uint(img, *b, *va);
}

}  // namespace

std::string_view fault_kind_name(FaultKind kind) {
  for (const KindName& k : kKindNames) {
    if (k.kind == kind) return k.name;
  }
  return "unknown";
}

std::optional<FaultKind> parse_fault_kind(std::string_view name) {
  for (const KindName& k : kKindNames) {
    if (k.name == name) return k.kind;
  }
  return std::nullopt;
}

std::vector<FaultKind> all_fault_kinds() {
  std::vector<FaultKind> v;
  for (const KindName& k : kKindNames) v.push_back(k.kind);
  return v;
}

FaultInjector::FaultInjector(EmulatedBus& bus, DynamicsConfig dynamics_for_inserted)
    : bus_(&bus), dynamics_(dynamics_for_inserted) {}

std::optional<std::string> FaultInjector::edit_memory(int cage, const Fault& f) {
  std::optional<std::string> error;
  const bool ok = bus_->with_module(cage, [&](EmulatedModule& m) {
    cmis::ModuleImage& img = m.memory();
    if (!pristine_.contains(cage)) pristine_[cage] = img;
    const SpecLayout& l = m.layout();
    switch (f.kind) {
      case FaultKind::CorruptByte: {
        const cmis::PageKey key = f.page ? cmis::PageKey{cmis::kDeviceA0, f.bank, *f.page}
                                         : page_key_of(*l.part_number);
        const uint16_t offset = f.page ? f.offset : offset_of(*l.part_number);
        const auto byte = img.byte(key.device, key.bank, key.page, offset);
        if (!byte) {
          error = "corrupt_byte: the module has no " + cmis::page_name(key) + " byte " +
                  std::to_string(offset);
          return;
        }
        const auto mask = static_cast<uint8_t>(static_cast<int>(f.value.value_or(1)) & 0xFF);
        const uint8_t v = static_cast<uint8_t>(*byte ^ mask);
        img.update(key, offset, std::span<const uint8_t>(&v, 1));
        break;
      }
      case FaultKind::BadChecksum: {
        const cmis::Field& sum = *l.checksums.front().field;
        cmis::write_uint(img, sum, (cmis::read_uint(img, sum).value_or(0) + 1) & 0xFF);
        break;
      }
      case FaultKind::MiscodedVendor: {
        const std::string name = "nvidia";  // lower case, NUL padded: a sloppy third-party coder
        cmis::write_bytes(img, *l.vendor_name,
                          std::span<const uint8_t>(
                              reinterpret_cast<const uint8_t*>(name.data()), name.size()));
        cmis::write_bytes(img, *l.vendor_oui, {});
        cmis::write_ascii(img, *l.serial_number, "SN\x07" "0001");
        cmis::write_ascii(img, *l.date_code, "2024-1-1");
        fix_checksums(img, l.spec);  // miscoded, not corrupted: the checksums agree
        break;
      }
      case FaultKind::ThresholdsOutOfOrder:
        swap_levels(img, l.temperature_thresholds.high_alarm, l.temperature_thresholds.low_alarm);
        swap_levels(img, l.rx_power_thresholds.high_warning, l.rx_power_thresholds.low_warning);
        fix_checksums(img, l.spec);
        break;
      case FaultKind::GarbageIdentifier:
        cmis::write_uint(img, *l.identifier,
                         static_cast<uint32_t>(f.value.value_or(0x5A)) & 0xFF);
        break;
      default: break;
    }
  });
  if (!ok) return "cage " + std::to_string(cage) + " is empty";
  return error;
}

std::optional<std::string> FaultInjector::apply(int cage, const Fault& f) { return change(cage, f, /*clear=*/false); }
std::optional<std::string> FaultInjector::clear(int cage, const Fault& f) { return change(cage, f, /*clear=*/true); }

std::optional<std::string> FaultInjector::change(int cage, const Fault& f, bool clear) {
  if (cage < 0 || cage >= bus_->cage_count()) {
    return "bus " + bus_->name() + " has no cage " + std::to_string(cage);
  }
  auto error = clear ? clear_now(cage, f) : apply_now(cage, f);
  bus_->observe_link(cage);
  return error;
}

std::optional<std::string> FaultInjector::apply_now(int cage, const Fault& f) {
  CageFaults wire = bus_->cage_faults(cage);
  switch (f.kind) {
    case FaultKind::Unplug:
      if (auto m = bus_->remove(cage)) parked_[cage] = std::move(m);
      pristine_.erase(cage);
      return std::nullopt;
    case FaultKind::Insert: {
      std::shared_ptr<EmulatedModule> m;
      if (!f.model.empty()) {
        const ModuleModel* model = find_model(f.model);
        if (model == nullptr) return "unknown module model '" + f.model + "'";
        m = std::make_shared<EmulatedModule>(*model, bus_->clock(), dynamics_);
      } else if (auto it = parked_.find(cage); it != parked_.end()) {
        m = std::move(it->second);
        parked_.erase(it);
      } else {
        return "insert: no model given and nothing was unplugged from cage " +
               std::to_string(cage);
      }
      pristine_.erase(cage);
      bus_->insert(cage, std::move(m));
      return std::nullopt;
    }
    case FaultKind::AddressNack: wire.nack = true; break;
    case FaultKind::Timeout: wire.timeout_until_ns = INT64_MAX; break;
    case FaultKind::StuckBus: bus_->stick(INT64_MAX); return std::nullopt;
    case FaultKind::SlowModule:
      wire.stretch_ns_per_byte = static_cast<int64_t>(f.value.value_or(50'000));
      break;
    default: break;
  }
  if (f.kind == FaultKind::AddressNack || f.kind == FaultKind::Timeout ||
      f.kind == FaultKind::SlowModule) {
    bus_->set_cage_faults(cage, wire);
    return std::nullopt;
  }
  if (is_memory_edit(f.kind)) return edit_memory(cage, f);
  const int64_t now = bus_->clock().now_ns();
  const bool ok = bus_->with_module(cage, [&](EmulatedModule& m) {
    ModuleFaults& mf = m.faults();
    switch (f.kind) {
      case FaultKind::PageSelectIgnored: mf.page_select_ignored = true; break;
      case FaultKind::StuckLowPower: mf.stuck_low_power = true; break;
      case FaultKind::ModuleFault:
        mf.module_fault_cause = static_cast<uint8_t>(f.value.value_or(1));
        break;
      case FaultKind::RxLos: set_lanes(mf.rx_los, f.lane, true); break;
      case FaultKind::TxFault: set_lanes(mf.tx_fault, f.lane, true); break;
      case FaultKind::TxLos: set_lanes(mf.tx_los, f.lane, true); break;
      case FaultKind::LanePowerDrop:
        set_lane_value(mf.tx_power_drop_db, f.lane, f.value.value_or(6.0));
        set_lane_value(mf.rx_power_drop_db, f.lane, f.value.value_or(6.0));
        break;
      case FaultKind::DirtyFiber: mf.rx_extra_loss_db = f.value.value_or(4.0); break;
      case FaultKind::Overheat:
        mf.overheat_c_per_s = f.value.value_or(0.05);
        mf.overheat_since_ns = now;
        break;
      case FaultKind::BerDegrade:
        set_lane_value(mf.ber_decades_per_minute, f.lane, f.value.value_or(0.5));
        for (int lane = 1; lane <= kMaxLanes; ++lane) {
          if (f.lane <= 0 || f.lane == lane) mf.ber_degrade_since_ns[static_cast<std::size_t>(lane - 1)] = now;
        }
        break;
      case FaultKind::BerShift: set_lane_value(mf.ber_shift_decades, f.lane, f.value.value_or(1.0)); break;
      case FaultKind::AllFF: mf.all_ff = true; break;
      case FaultKind::LinkDown: mf.link_down = true; break;
      default: break;
    }
    m.update();  // the module sees it now, so even a brief fault latches its flags
  });
  if (!ok) return "cage " + std::to_string(cage) + " of " + bus_->name() + " is empty";
  return std::nullopt;
}

std::optional<std::string> FaultInjector::clear_now(int cage, const Fault& f) {
  CageFaults wire = bus_->cage_faults(cage);
  switch (f.kind) {
    case FaultKind::Unplug: {  // clearing an unplug puts the module back
      Fault insert;
      insert.kind = FaultKind::Insert;
      return apply_now(cage, insert);
    }
    case FaultKind::Insert:
      if (auto m = bus_->remove(cage)) parked_[cage] = std::move(m);
      return std::nullopt;
    case FaultKind::AddressNack: wire.nack = false; break;
    case FaultKind::Timeout: wire.timeout_until_ns = 0; break;
    case FaultKind::StuckBus: bus_->stick(0); return std::nullopt;
    case FaultKind::SlowModule: wire.stretch_ns_per_byte = 0; break;
    default: break;
  }
  if (f.kind == FaultKind::AddressNack || f.kind == FaultKind::Timeout ||
      f.kind == FaultKind::SlowModule) {
    bus_->set_cage_faults(cage, wire);
    return std::nullopt;
  }
  if (is_memory_edit(f.kind)) {
    const auto it = pristine_.find(cage);
    if (it == pristine_.end()) return std::nullopt;
    bus_->with_module(cage, [&](EmulatedModule& m) { m.memory() = it->second; });
    pristine_.erase(it);
    return std::nullopt;
  }
  bus_->with_module(cage, [&](EmulatedModule& m) {
    ModuleFaults& mf = m.faults();
    switch (f.kind) {
      case FaultKind::PageSelectIgnored: mf.page_select_ignored = false; break;
      case FaultKind::StuckLowPower: mf.stuck_low_power = false; break;
      case FaultKind::ModuleFault: mf.module_fault_cause.reset(); break;
      case FaultKind::RxLos: set_lanes(mf.rx_los, f.lane, false); break;
      case FaultKind::TxFault: set_lanes(mf.tx_fault, f.lane, false); break;
      case FaultKind::TxLos: set_lanes(mf.tx_los, f.lane, false); break;
      case FaultKind::LanePowerDrop:
        set_lane_value(mf.tx_power_drop_db, f.lane, 0);
        set_lane_value(mf.rx_power_drop_db, f.lane, 0);
        break;
      case FaultKind::DirtyFiber: mf.rx_extra_loss_db = 0; break;
      case FaultKind::Overheat: mf.overheat_c_per_s = 0; break;
      case FaultKind::BerDegrade: set_lane_value(mf.ber_decades_per_minute, f.lane, 0); break;
      case FaultKind::BerShift: set_lane_value(mf.ber_shift_decades, f.lane, 0); break;
      case FaultKind::AllFF: mf.all_ff = false; break;
      case FaultKind::LinkDown: mf.link_down = false; break;
      default: break;
    }
    m.update();
  });
  return std::nullopt;
}

void FaultTimeline::add(TimedFault event, int64_t duration_ns) {
  if (duration_ns > 0) {
    TimedFault end = event;
    end.at_ns += duration_ns;
    end.clear = true;
    events_.push_back(std::move(end));
  }
  events_.push_back(std::move(event));
  // Stable: events at the same time keep the order they were given in.
  std::stable_sort(events_.begin() + static_cast<std::ptrdiff_t>(next_), events_.end(),
                   [](const TimedFault& a, const TimedFault& b) { return a.at_ns < b.at_ns; });
}

std::vector<std::string> FaultTimeline::run_due(int64_t now_ns, const Resolver& resolve) {
  std::vector<std::string> failures;
  while (next_ < events_.size() && events_[next_].at_ns <= now_ns) {
    const TimedFault& e = events_[next_++];
    const auto [injector, cage] = resolve(e);
    std::optional<std::string> err;
    if (injector == nullptr) {
      err = "no such target '" + (e.port.empty() ? e.bus : e.port) + "'";
    } else {
      err = e.clear ? injector->clear(cage, e.fault) : injector->apply(cage, e.fault);
    }
    if (err) failures.push_back((e.where.empty() ? "" : e.where + ": ") + *err);
  }
  return failures;
}

}  // namespace xcvr::emulator
