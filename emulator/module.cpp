// EmulatedModule: register-level memory semantics (paging, banks, clear-on-read, writes).
// Live values are in module_live.cpp.
#include "emulator/module.hpp"

#include <algorithm>
#include <utility>

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::emulator {
namespace {

constexpr cmis::PageKey kLowerKey{cmis::kDeviceA0, 0, cmis::kLowerPage};

uint8_t next_in_half(uint8_t offset) {  // sequential access wraps inside its half
  return static_cast<uint8_t>((offset & 0x80) | ((offset + 1) & 0x7F));
}

template <typename Fn>
void for_each_location(const cmis::Field& field, Fn&& fn) {
  const int lanes = std::max<int>(1, field.lanes.count);
  for (int lane = 1; lane <= lanes; ++lane) {
    if (const auto loc = cmis::locate(field, lane)) fn(*loc);
  }
}

}  // namespace

EmulatedModule::EmulatedModule(ModuleModel model, const Clock& clock, DynamicsConfig dynamics)
    : EmulatedModule(ReplayTag{}, model, encode_image(model), clock, dynamics) {
  animate_states_ = true;
  init_nominal_from_model();
  power_on();
}

EmulatedModule::EmulatedModule(ReplayTag, ModuleModel model, cmis::ModuleImage memory,
                               const Clock& clock, DynamicsConfig dynamics)
    : model_(std::move(model)),
      layout_(&layout_for(model_.spec)),
      clock_(&clock),
      dynamics_(dynamics),
      memory_(std::move(memory)) {
  writes_.reserve(2 * kWriteLogKeep);  // the log's whole size, now: it never grows past it
  build_register_maps();
}

std::unique_ptr<EmulatedModule> EmulatedModule::from_image(const cmis::ModuleImage& image,
                                                           const Clock& clock,
                                                           DynamicsConfig dynamics) {
  ModuleModel m;
  m.key = "dump";
  m.description = "replayed memory image";
  m.identifier = image.byte(cmis::kDeviceA0, 0, cmis::kLowerPage, 0).value_or(0);
  const auto spec = cmis::spec_for_identifier(m.identifier);
  m.spec = spec == cmis::Spec::Sff8636 ? cmis::Spec::Sff8636 : cmis::Spec::Cmis;
  const SpecLayout& layout = layout_for(m.spec);
  m.flat_memory = cmis::read_uint(image, *layout.flat_memory).value_or(0) == 1;
  if (m.spec == cmis::Spec::Cmis) {
    const auto host = cmis::read_uint(image, cmis::cmis_field(cmis::CmisField::AppHostLaneCount));
    const auto media =
        cmis::read_uint(image, cmis::cmis_field(cmis::CmisField::AppMediaLaneCount));
    m.host_lanes = host && *host > 0 ? static_cast<int>(*host) : cmis::kCmisLanesPerBank;
    m.media_lanes = media && *media > 0 ? static_cast<int>(*media) : m.host_lanes;
    m.part_number = cmis::read_ascii(image, cmis::cmis_field(cmis::CmisField::PartNumber))
                        .value_or("");
  } else {
    m.host_lanes = m.media_lanes = cmis::kSff8636Lanes;
    m.part_number = cmis::read_ascii(image, cmis::sff8636_field(cmis::Sff8636Field::PartNumber))
                        .value_or("");
  }
  std::unique_ptr<EmulatedModule> mod(
      new EmulatedModule(ReplayTag{}, std::move(m), image, clock, dynamics));
  mod->animate_states_ = false;
  mod->replay_only_ = !spec || *spec == cmis::Spec::Sff8472;
  mod->init_nominal_from_memory();
  mod->power_on();
  return mod;
}

void EmulatedModule::build_register_maps() {
  flat_ = cmis::read_uint(memory_, *layout_->flat_memory).value_or(0) == 1;
  banks_supported_ = 1;
  if (layout_->banks_supported != nullptr) {
    const uint32_t code = cmis::read_uint(memory_, *layout_->banks_supported).value_or(0);
    banks_supported_ = cmis::cmis_bank_count(code);
  }
  latched_.clear();
  latch_maps_.clear();
  writable_.clear();
  const auto clear_on_read = [&](const cmis::Field& f) {
    for_each_location(f, [&](const cmis::Location& loc) {
      if (!memory_.has(loc.page) || latched_at(loc.page, loc.offset) != nullptr) return;
      auto map = std::find_if(latch_maps_.begin(), latch_maps_.end(),
                              [&](const LatchMap& m) { return m.key == loc.page; });
      if (map == latch_maps_.end()) {
        latch_maps_.push_back(LatchMap{loc.page, {}});
        map = std::prev(latch_maps_.end());
        map->index.fill(-1);
      }
      map->index[loc.offset % cmis::kPageSize] = static_cast<int16_t>(latched_.size());
      latched_.push_back(LatchedByte{loc.page, loc.offset, 0});
    });
  };
  const bool cmis = layout_->spec == cmis::Spec::Cmis;
  vdm_instances_ = cmis && !flat_ ? cmis::vdm_instances(memory_) : std::vector<cmis::VdmInstance>{};
  const int vdm_groups = cmis && !flat_ ? cmis::vdm_group_count(memory_) : 0;
  for (const cmis::Field& f : layout_->table) {
    if (f.role == cmis::Role::Flag) {
      clear_on_read(f);
    } else if (f.role == cmis::Role::VdmFlag) {
      for (int g = 0; g < vdm_groups; ++g) clear_on_read(cmis::vdm_field(static_cast<cmis::CmisField>(f.id), g));
    } else if (f.role == cmis::Role::Control && &f != layout_->page_select &&
               &f != layout_->bank_select) {
      for_each_location(f, [&](const cmis::Location& loc) {
        if (memory_.has(loc.page) && !is_writable(loc.page, loc.offset)) {
          writable_.emplace_back(loc.page, loc.offset);
        }
      });
    }
  }
  flag_field_.fill(nullptr);
  for (const cmis::Field& f : layout_->table) {
    if (f.role == cmis::Role::Flag && f.flag) flag_field_[static_cast<std::size_t>(*f.flag)] = &f;
  }
}

void EmulatedModule::power_on() {
  const int64_t now = clock_->now_ns();
  power_on_ns_ = now;
  low_power_exit_ns_ = now + static_cast<int64_t>(model_.timings.low_power_s * 1e9);
  held_low_ = false;
  module_state_ = 1;
  dp_state_.fill(1);
  data_not_ready_ = true;
  page_ = bank_ = pending_bank_ = pointer_ = 0;
  if (!replay_only_) {
    cmis::write_uint(memory_, *layout_->page_select, 0);
    if (layout_->bank_select != nullptr) cmis::write_uint(memory_, *layout_->bank_select, 0);
  }
  thermal_.reset(fixed_temperature_c_.value_or(environment_.ambient_c), now);
  if (animate_states_) {
    for (LatchedByte& lb : latched_) {  // flags are volatile: a fresh power-on starts clear
      if (uint8_t* p = byte_ptr(lb.key, lb.offset)) *p = 0;
    }
    if (layout_->module_state != nullptr && !flat_) {
      cmis::write_uint(memory_, *layout_->module_state, 1);
      latch(Condition::ModuleStateChanged, 1);  // MgmtInit -> ModuleLowPwr
    }
    if (layout_->data_not_ready != nullptr) cmis::write_uint(memory_, *layout_->data_not_ready, 1);
  }
  dirty_ = true;
  last_refresh_ns_ = -1;
}

void EmulatedModule::set_environment(const Environment& env) {
  environment_ = env;
  dirty_ = true;
}

ModuleFaults& EmulatedModule::faults() {
  dirty_ = true;
  return faults_;
}

cmis::ModuleImage& EmulatedModule::memory() {
  dirty_ = true;
  return memory_;
}

DynamicsConfig& EmulatedModule::dynamics() {
  dirty_ = true;
  return dynamics_;
}

cmis::PageKey EmulatedModule::upper_key() const {
  if (flat_) return {cmis::kDeviceA0, 0, 0};
  const bool banked = page_ >= layout_->first_banked_page;
  return {cmis::kDeviceA0, banked ? bank_ : uint8_t{0}, page_};
}

bool EmulatedModule::page_supported(uint8_t bank, uint8_t page) const {
  const bool banked = page >= layout_->first_banked_page;
  if (banked && bank >= banks_supported_) return false;
  return memory_.has({cmis::kDeviceA0, banked ? bank : uint8_t{0}, page});
}

void EmulatedModule::select(uint8_t bank, uint8_t page) {
  if (flat_ || faults_.page_select_ignored) return;
  if (page_supported(bank, page)) {
    bank_ = bank;
    page_ = page;
  } else {  // CMIS 5.3 8.2.15: unsupported page -> page select reads 0, window shows page 00h
    bank_ = 0;
    page_ = 0;
  }
  pending_bank_ = bank_;
  cmis::write_uint(memory_, *layout_->page_select, page_);
  if (layout_->bank_select != nullptr) cmis::write_uint(memory_, *layout_->bank_select, bank_);
}

uint8_t* EmulatedModule::byte_ptr(const cmis::PageKey& key, uint16_t offset) {
  const auto* e = memory_.find(key);
  if (e == nullptr) return nullptr;
  // The image is ours and non-const; find() only has a const overload.
  auto* entry = const_cast<cmis::ModuleImage::Entry*>(e);
  return &entry->bytes[offset % cmis::kPageSize];
}

const EmulatedModule::LatchMap* EmulatedModule::latch_map(const cmis::PageKey& key) const {
  for (const LatchMap& m : latch_maps_) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

EmulatedModule::LatchedByte* EmulatedModule::latched_at(const cmis::PageKey& key,
                                                        uint16_t offset) {
  const LatchMap* m = latch_map(key);
  if (m == nullptr) return nullptr;
  const int16_t i = m->index[offset % cmis::kPageSize];
  return i < 0 ? nullptr : &latched_[static_cast<std::size_t>(i)];
}

bool EmulatedModule::is_writable(const cmis::PageKey& key, uint16_t offset) const {
  return std::find(writable_.begin(), writable_.end(), std::make_pair(key, offset)) !=
         writable_.end();
}

void EmulatedModule::set_pointer(uint8_t offset) { pointer_ = offset; }

void EmulatedModule::read(uint8_t offset, std::span<uint8_t> out) {
  set_pointer(offset);
  read_current(out);
}

void EmulatedModule::read_current(std::span<uint8_t> out) {
  refresh();
  const bool lower = pointer_ < cmis::kPageSize;
  const cmis::PageKey key = lower ? kLowerKey : upper_key();
  const auto* entry = memory_.find(key);
  uint8_t* bytes = entry ? const_cast<cmis::ModuleImage::Entry*>(entry)->bytes.data() : nullptr;
  const LatchMap* latches = replay_only_ ? nullptr : latch_map(key);
  for (uint8_t& out_byte : out) {
    const std::size_t i = pointer_ % cmis::kPageSize;
    uint8_t v = bytes != nullptr ? bytes[i] : 0;  // a half the image lacks reads as zeros
    if (latches != nullptr && latches->index[i] >= 0) {
      v |= latched_[static_cast<std::size_t>(latches->index[i])].condition;
      bytes[i] = 0;  // clear-on-read; a persisting condition re-latches at the next update
    }
    out_byte = faults_.all_ff ? 0xFF : v;
    pointer_ = next_in_half(pointer_);
  }
}

void EmulatedModule::write(uint8_t offset, std::span<const uint8_t> data) {
  if (data.empty()) {
    set_pointer(offset);
    return;
  }
  refresh();
  const uint16_t page_select = layout_->page_select->offset;
  const bool allowed = (offset == page_select && data.size() == 1) ||
                       (offset == page_select - 1 && data.size() == 2);
  if (writes_.size() >= 2 * kWriteLogKeep) {  // drop the older half: amortized O(1) per write
    writes_.erase(writes_.begin(), writes_.begin() + static_cast<std::ptrdiff_t>(kWriteLogKeep));
  }
  WriteRecord& w = writes_.emplace_back(WriteRecord{clock_->now_ns(), page_, bank_, offset, !allowed});
  w.length = static_cast<uint16_t>(std::min<std::size_t>(data.size(), UINT16_MAX));
  std::copy_n(data.begin(), std::min(data.size(), WriteRecord::kBytesKept), w.kept.begin());
  if (!allowed) ++violations_;
  pointer_ = offset;
  for (uint8_t v : data) {
    write_byte(pointer_, v);
    pointer_ = next_in_half(pointer_);
  }
}

void EmulatedModule::write_byte(uint8_t offset, uint8_t value) {
  if (replay_only_) return;
  if (offset == layout_->page_select->offset) {
    select(layout_->bank_select != nullptr ? pending_bank_ : uint8_t{0}, value);
    return;
  }
  if (layout_->bank_select != nullptr && offset == layout_->bank_select->offset) {
    pending_bank_ = value;  // CMIS 5.x: takes effect with the next page select write
    return;
  }
  const cmis::PageKey key = offset < cmis::kPageSize ? kLowerKey : upper_key();
  if (!is_writable(key, offset)) return;  // read-only byte: ignored
  if (uint8_t* p = byte_ptr(key, offset)) {
    *p = value;
    dirty_ = true;
  }
}

void EmulatedModule::i2c_write(std::span<const uint8_t> offset_then_data) {
  if (offset_then_data.empty()) return;
  write(offset_then_data[0], offset_then_data.subspan(1));
}

void EmulatedModule::i2c_read(std::span<uint8_t> out) { read_current(out); }

}  // namespace xcvr::emulator
