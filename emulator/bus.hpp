// EmulatedBus: one I2C bus (an adapter, or a mux tree under one adapter) with cages behind it.
//
// Wire time. Every transaction is charged the SCL clocks it occupies on the wire:
//   START                          1 clock
//   each byte (address or data)    9 clocks (8 data bits + ACK/NACK)
//   repeated START between msgs    1 clock
//   STOP                           1 clock
// so a transfer of k messages carrying n_1..n_k data bytes costs
//   clocks = 1 + sum_i (9 + 9 * n_i) + (k - 1) + 1
// e.g. a 1-byte page-select write {127, page} = 1 + 9 + 18 + 1 = 29 clocks, and an offset write
// + 74-byte read = 1 + (9 + 9) + 1 + (9 + 666) + 1 = 696 clocks; at 400 kHz (2.5 us per clock)
// the pair costs 725 clocks = 1812.5 us. A NACKed address costs START + address + STOP =
// 11 clocks; a timed-out transaction costs the adapter timeout. With a mux, changing cage first
// costs a 1-byte channel-select write to the mux (START + address + byte + STOP = 20 clocks).
// Clock stretching by a slow module adds its stretch time per data byte.
//
// Time is spent on the Clock: a virtual clock advances, a steady clock sleeps. One mutex per bus
// serializes cages behind it (as a parent-locked PCA954x mux tree does), including the sleep.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.hpp"
#include "emulator/i2c_target.hpp"
#include "emulator/module.hpp"

namespace xcvr::emulator {

inline constexpr uint32_t kStandardModeHz = 100'000;
inline constexpr uint32_t kFastModeHz = 400'000;
inline constexpr uint32_t kFastModePlusHz = 1'000'000;
inline constexpr uint8_t kModuleAddress = 0x50;     // CMIS / SFF-8636 / SFF-8472 A0h
inline constexpr uint8_t kDiagnosticsAddress = 0x51;  // SFF-8472 A2h (SFP)

enum class I2cStatus : uint8_t {
  Ok,
  Nack,     // nobody acknowledged the address (empty cage, or a module refusing)
  Timeout,  // the adapter gave up (stuck bus, hung module)
  Invalid,  // the request itself was malformed (e.g. SMBus block > 32)
};
std::string_view i2c_status_name(I2cStatus status);

// One I2C message, as in Linux's struct i2c_msg: a write of bytes, or a read into a buffer.
struct I2cMsg {
  bool is_read = false;
  std::span<const uint8_t> write_bytes;
  std::span<uint8_t> read_buffer;
  static I2cMsg write(std::span<const uint8_t> bytes) { return {false, bytes, {}}; }
  static I2cMsg read(std::span<uint8_t> buffer) { return {true, {}, buffer}; }
  std::size_t length() const { return is_read ? read_buffer.size() : write_bytes.size(); }
};

struct BusConfig {
  std::string name = "i2c-0";  // the serialization domain
  uint32_t clock_hz = kFastModeHz;
  int cages = 1;
  std::optional<uint8_t> mux_address = 0x70;  // PCA954x; nullopt: cages wired directly
  int64_t timeout_ns = 25 * kMillisecond;     // cost of a timed-out transaction
  bool links = false;      // each cage carries a link its host reads (emulator/link.hpp)
  uint64_t link_seed = 1;  // the links' FEC statistics are deterministic under it
};

struct BusStats {
  uint64_t transactions = 0;  // transfers addressed to cages (mux selects not included)
  uint64_t mux_selects = 0;
  uint64_t nacks = 0;
  uint64_t timeouts = 0;
  uint64_t address_bytes = 0;
  uint64_t bytes_written = 0;  // data bytes, offsets included
  uint64_t bytes_read = 0;
  uint64_t clocks = 0;
  int64_t wire_ns = 0;  // everything charged to the clock, timeouts and stretching included
};

// Per-cage faults on the wire (module-internal faults live in ModuleFaults).
struct CageFaults {
  bool nack = false;                  // the module NACKs its address
  int64_t timeout_until_ns = 0;       // transactions time out until then (INT64_MAX: forever)
  int64_t stretch_ns_per_byte = 0;    // slow module: clock stretching per data byte
};

class EmulatedBus {
 public:
  EmulatedBus(BusConfig config, Clock& clock);

  const std::string& name() const { return config_.name; }
  uint32_t clock_hz() const { return config_.clock_hz; }
  int cage_count() const { return static_cast<int>(cages_.size()); }
  Clock& clock() const { return *clock_; }

  // --- Cages ---
  // Inserts (powering it on) a module at 0x50; a module already there is removed first.
  void insert(int cage, std::shared_ptr<EmulatedModule> module);
  std::shared_ptr<EmulatedModule> remove(int cage);  // returns what was there
  std::shared_ptr<EmulatedModule> module(int cage) const;
  void attach(int cage, uint8_t address, std::shared_ptr<I2cTarget> target);  // e.g. SFP 0x51
  bool present(int cage) const;            // the cage's presence pin (ModPrsL)
  uint64_t insertions(int cage) const;     // bumps on every insert (hot-swap detection)

  // --- I2C message level: what the real i2c driver's I2C_RDWR seam can be backed by ---
  I2cStatus transfer(int cage, uint8_t address, std::span<I2cMsg> msgs);
  // SMBus-style helpers (each one transfer).
  I2cStatus read_byte_data(int cage, uint8_t address, uint8_t command, uint8_t& value);
  I2cStatus read_i2c_block_data(int cage, uint8_t address, uint8_t command,
                                std::span<uint8_t> out);  // out.size() <= 32
  I2cStatus write_byte_data(int cage, uint8_t address, uint8_t command, uint8_t value);

  // --- The links the cages carry (BusConfig::links) ---
  // The module's state now reaches the cage's link: a carrier change is an edge at this time.
  // Called on every fault, insertion and removal, and before every link read.
  void observe_link(int cage);
  // The link's counters now; nullopt without links or before any module was in the cage.
  std::optional<drivers::LinkHealth> link_health(int cage, const std::string& link);

  // --- Wire faults ---
  void stick(int64_t until_ns);  // every transaction times out until then
  void set_cage_faults(int cage, const CageFaults& faults);
  CageFaults cage_faults(int cage) const;

  // Runs fn(EmulatedModule&) under the bus lock (faults, tests); false if the cage is empty.
  template <typename Fn>
  bool with_module(int cage, Fn&& fn) {
    std::lock_guard lock(mutex_);
    const auto& m = cages_.at(static_cast<std::size_t>(cage)).module;
    if (!m) return false;
    fn(*m);
    return true;
  }

  // --- Accounting ---
  BusStats stats() const;
  void reset_stats();
  static uint64_t transaction_clocks(std::span<const I2cMsg> msgs);
  int64_t clocks_to_ns(uint64_t clocks) const;

 private:
  struct Cage {
    std::shared_ptr<EmulatedModule> module;
    std::vector<std::pair<uint8_t, std::shared_ptr<I2cTarget>>> targets;
    uint64_t insertions = 0;
    CageFaults faults;
    std::unique_ptr<EmulatedLink> link;  // BusConfig::links only
    std::optional<LinkCode> link_code;   // of the module last seen in the cage
  };
  void observe_link_locked(int cage);
  Cage& cage_at(int cage);
  const Cage& cage_at(int cage) const;
  I2cTarget* target(Cage& cage, uint8_t address);
  void charge(uint64_t clocks, int64_t extra_ns);  // caller holds the lock

  BusConfig config_;
  Clock* clock_;
  mutable std::mutex mutex_;
  std::vector<Cage> cages_;
  int selected_channel_ = -1;
  int64_t stuck_until_ns_ = 0;
  BusStats stats_;
};

}  // namespace xcvr::emulator
