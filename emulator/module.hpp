// EmulatedModule: one pluggable module at the I2C register level.
//
// Memory semantics (what a host sees at address 0x50):
// - A 256-byte window: bytes 0-127 lower memory, 128-255 the selected upper page (and bank).
// - Sequential access wraps inside its half, as real module EEPROMs do: after byte 127 comes 0,
//   after 255 comes 128. One transaction never crosses 127 -> 128, so a page change can never
//   happen "under" a read.
// - Byte 127 = page select. CMIS: byte 126 = bank select, which takes effect only when page
//   select is next written (a 2-byte write at 126 does both at once, per CMIS 5.x). Byte 126
//   reads back the bank in effect.
// - Selecting a page (or bank) the module does not have makes page select read back 0 and the
//   window show page 00h, as CMIS 5.3 8.2.15 asks. Flat-memory modules ignore paging entirely.
// - Latched flags (every Role::Flag byte of the spec's table: CMIS lower 8-11 and page 11h
//   134-152, SFF-8636 lower 3-14) are clear-on-read: a read returns the latched value and clears
//   it; a condition still present latches again at the next update.
// - Only the table's Role::Control bytes are writable (they take effect); all other writes are
//   ignored. Every write is recorded; any write that is not byte 127 alone or 126-127 together
//   is an invariant-1 violation (violations()).
// - Live values (monitors, flags, CMIS module and data-path states, SFF-8636 Data_Not_Ready)
//   are recomputed from the clock at each access (see module_live.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cmis/image.hpp"
#include "cmis/vdm.hpp"
#include "base/clock.hpp"
#include "emulator/dynamics.hpp"
#include "emulator/link.hpp"
#include "emulator/i2c_target.hpp"
#include "emulator/model.hpp"
#include "emulator/spec_layout.hpp"

namespace xcvr::emulator {

// The emulator's time is base::Clock (base/clock.hpp), shared with the MAD channel.
using base::Clock;
using base::kMicrosecond;
using base::kMillisecond;
using base::kSecond;
using base::SteadyClock;
using base::VirtualClock;

inline constexpr int kMaxLanes = 32;

// Faults that live inside the module (bus-level faults live in EmulatedBus).
struct ModuleFaults {
  bool stuck_low_power = false;                // CMIS: never leaves ModuleLowPwr
  std::optional<uint8_t> module_fault_cause;   // CMIS: ModuleFault with this cause code
  bool page_select_ignored = false;            // writes to page/bank select have no effect
  bool all_ff = false;                         // every byte reads 0xFF (dead EEPROM)
  std::bitset<kMaxLanes> rx_los, tx_fault, tx_los;  // bit i = lane i+1
  std::array<double, kMaxLanes> tx_power_drop_db{};
  std::array<double, kMaxLanes> rx_power_drop_db{};
  double rx_extra_loss_db = 0;       // dirty fiber/connector: all lanes
  double overheat_c_per_s = 0;       // temperature ramp on top of the thermal model
  int64_t overheat_since_ns = 0;
  // VDM: pre-FEC BER of a lane shifted by whole decades (a worse link after a flap or reseat),
  // and rising at a rate (decades per minute) since a time (a degrading link).
  std::array<double, kMaxLanes> ber_shift_decades{};
  std::array<double, kMaxLanes> ber_decades_per_minute{};
  std::array<int64_t, kMaxLanes> ber_degrade_since_ns{};
  bool link_down = false;  // the host's link drops with no optical cause (a host-side flap)
};

// One write, its first bytes kept inline: the log allocates nothing once made, so a benchmark's
// emulated fleet does not grow while it runs (its heap is measured before, and subtracted).
struct WriteRecord {
  static constexpr std::size_t kBytesKept = 6;  // a host writes 1 (page) or 2 (bank, page)
  int64_t at_ns = 0;
  uint8_t page = 0;  // page and bank selected when the write arrived
  uint8_t bank = 0;
  uint8_t offset = 0;
  bool violation = false;
  uint16_t length = 0;  // bytes written; the first kBytesKept of them are kept
  std::array<uint8_t, kBytesKept> kept{};
  std::span<const uint8_t> bytes() const { return {kept.data(), std::min<std::size_t>(length, kBytesKept)}; }
};

class EmulatedModule final : public I2cTarget {
 public:
  EmulatedModule(ModuleModel model, const Clock& clock, DynamicsConfig dynamics = {});
  // A module that replays a memory image (a parsed dump): identity and static pages as given;
  // temperature, Vcc and lane monitors stay live (noise around the dumped values) and flags
  // follow the dumped thresholds where those pages are present. States are replayed, not run.
  static std::unique_ptr<EmulatedModule> from_image(const cmis::ModuleImage& image,
                                                    const Clock& clock,
                                                    DynamicsConfig dynamics = {});

  // --- I2C register interface ---
  void read(uint8_t offset, std::span<uint8_t> out);  // sets the pointer, then reads
  void read_current(std::span<uint8_t> out);          // continues at the pointer
  void write(uint8_t offset, std::span<const uint8_t> data);
  void set_pointer(uint8_t offset);
  void i2c_write(std::span<const uint8_t> offset_then_data) override;
  void i2c_read(std::span<uint8_t> out) override;

  // --- Lifecycle, environment, faults ---
  void power_on();  // insertion into a powered cage: starts the state machine at clock.now
  void set_environment(const Environment& env);
  void update();  // recomputes live state now (after a fault change, so transients latch)
  ModuleFaults& faults();                // mutable access forces a refresh at the next access
  cmis::ModuleImage& memory();           // static contents, for memory-editing faults
  DynamicsConfig& dynamics();

  // --- The link it carries, as the host's port sees it (emulator/link.hpp) ---
  LinkSide link_side();  // now: refreshes first

  // --- Invariant 1 ---
  // The most recent writes (at least kWriteLogKeep of them; older ones are dropped so a
  // long-running emulated fleet does not grow without bound). violations() counts them all.
  static constexpr std::size_t kWriteLogKeep = 64;
  const std::vector<WriteRecord>& writes() const { return writes_; }
  std::size_t violations() const { return violations_; }

  // --- Read-only introspection (tests, fleet listing; not a way to read memory) ---
  const ModuleModel& model() const { return model_; }
  const SpecLayout& layout() const { return *layout_; }
  uint8_t selected_page() const { return page_; }
  uint8_t selected_bank() const { return bank_; }
  int64_t powered_on_at_ns() const { return power_on_ns_; }

 private:
  struct LatchedByte {  // one clear-on-read byte
    cmis::PageKey key;
    uint16_t offset;
    uint8_t condition = 0;  // bits whose condition is present right now
  };
  // Per half-page: index into latched_ for each of its 128 bytes, -1 if not clear-on-read.
  struct LatchMap {
    cmis::PageKey key;
    std::array<int16_t, cmis::kPageSize> index;
  };
  struct ReplayTag {};
  EmulatedModule(ReplayTag, ModuleModel model, cmis::ModuleImage memory, const Clock& clock,
                 DynamicsConfig dynamics);

  void build_register_maps();
  cmis::PageKey upper_key() const;
  bool page_supported(uint8_t bank, uint8_t page) const;
  void select(uint8_t bank, uint8_t page);
  uint8_t read_byte(uint8_t offset);
  void write_byte(uint8_t offset, uint8_t value);
  void init_nominal_from_model();
  void init_nominal_from_memory();
  const LatchMap* latch_map(const cmis::PageKey& key) const;
  LatchedByte* latched_at(const cmis::PageKey& key, uint16_t offset);
  bool is_writable(const cmis::PageKey& key, uint16_t offset) const;
  uint8_t* byte_ptr(const cmis::PageKey& key, uint16_t offset);

  // module_live.cpp
  void refresh();
  void run_state_machine(int64_t now);
  void update_monitors_and_flags(int64_t now);
  bool lane_active(int lane) const;
  void latch(Condition c, int lane);            // an event: sets the latched bit only
  void raise_condition(Condition c, int lane);  // a level: latched now and re-latched after reads
  void raise_at(const cmis::Location& loc);     // the same, for a flag bit found by location
  void update_vdm(int64_t now, double case_celsius, int64_t bucket);
  double ber_decades(int64_t now, int lane) const;  // pre-FEC BER over nominal, in decades
  double lane_ber(int64_t now, int lane) const;     // the lane's pre-FEC BER, before noise
  bool module_powered() const;

  ModuleModel model_;
  const SpecLayout* layout_;
  const Clock* clock_;
  DynamicsConfig dynamics_;
  Environment environment_;
  ModuleFaults faults_;
  cmis::ModuleImage memory_;

  // Register state
  uint8_t page_ = 0, bank_ = 0, pending_bank_ = 0, pointer_ = 0;
  int banks_supported_ = 1;
  bool flat_ = false;
  std::vector<LatchedByte> latched_;
  std::vector<LatchMap> latch_maps_;
  std::array<const cmis::Field*, static_cast<std::size_t>(Condition::Count)> flag_field_{};
  std::vector<cmis::VdmInstance> vdm_instances_;  // as the module's own descriptors say
  bool replay_only_ = false;  // a spec we do not animate (SFF-8472): bytes as given, no live
  std::vector<std::pair<cmis::PageKey, uint16_t>> writable_;
  std::vector<WriteRecord> writes_;
  std::size_t violations_ = 0;

  // Live state
  bool animate_states_ = true;   // false for replayed dumps
  std::optional<double> fixed_temperature_c_;
  std::vector<LaneOptics> nominal_;  // per media lane
  int64_t power_on_ns_ = 0;
  int64_t low_power_exit_ns_ = 0;
  bool held_low_ = false;        // CMIS: something holds the module out of power-up
  bool data_not_ready_ = true;   // SFF-8636
  bool sff_low_power_ = false;   // SFF-8636 host-forced low power (93 override + set)
  int module_state_ = 1;
  std::array<uint8_t, kMaxLanes> dp_state_{};
  int64_t last_refresh_ns_ = -1;
  bool dirty_ = true;
  ThermalLag thermal_;
};

}  // namespace xcvr::emulator
