// Faults: what goes wrong with optics and buses, injectable from tests (FaultInjector) and as a
// TOML timeline (FaultTimeline). Errors reach the host only the way real ones do: through the
// bus (NACK, timeout, slow transfers) and the module's own bytes, so the transport turns them
// into typed drivers::Error and decoded values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/bus.hpp"

namespace xcvr::emulator {

enum class FaultKind : uint8_t {
  Unplug,                // hot-unplug: the cage empties (the module is kept for re-insertion)
  Insert,                // insert `model` (a catalog key), or the module last unplugged
  AddressNack,           // the module NACKs its address
  Timeout,               // transactions to this cage time out
  StuckBus,              // every transaction on the bus times out
  SlowModule,            // clock stretching: `value` ns per data byte
  CorruptByte,           // XOR a byte of memory with `value` (default 0x01), checksum left stale
  BadChecksum,           // the first page checksum (CMIS 00h / SFF-8636 CC_BASE) is off by one
  PageSelectIgnored,     // page/bank select writes have no effect
  StuckLowPower,         // CMIS: never leaves ModuleLowPwr
  ModuleFault,           // CMIS: ModuleFault, cause `value` (default 1, TEC runaway)
  RxLos,                 // loss of signal on `lane` (0 = all)
  TxFault,               // transmitter fault on `lane`
  TxLos,                 // host-side (electrical) loss of signal on `lane`
  LanePowerDrop,         // tx and rx power of `lane` fall by `value` dB (default 6)
  DirtyFiber,            // rx power of every lane falls by `value` dB (default 4)
  Overheat,              // temperature ramps up by `value` degC per second (default 0.05)
  BerDegrade,            // VDM pre-FEC BER of `lane` rises `value` decades a minute (default 0.5)
  BerShift,              // VDM pre-FEC BER of `lane` is `value` decades worse (default 1)
  MiscodedVendor,        // vendor name NUL-padded, OUI zero, serial non-printable, bad date code
  ThresholdsOutOfOrder,  // high/low alarm and warning levels swapped
  GarbageIdentifier,     // identifier byte set to `value` (default 0x5A, reserved)
  AllFF,                 // every byte reads 0xFF
  LinkDown,              // the host's link drops with no optical cause; with a duration, a flap
};
std::string_view fault_kind_name(FaultKind kind);  // "rx_los", "stuck_bus", ...
std::optional<FaultKind> parse_fault_kind(std::string_view name);
std::vector<FaultKind> all_fault_kinds();

struct Fault {
  FaultKind kind = FaultKind::RxLos;
  int lane = 0;                 // lane faults: 1-based lane, 0 = every lane
  std::optional<double> value;  // kind-specific, see FaultKind
  std::string model;            // Insert
  // CorruptByte location (default: first byte of the part number)
  std::optional<int16_t> page;  // kLowerPage (-1) or an upper page
  uint8_t bank = 0;
  uint16_t offset = 0;
};

// Applies and clears faults on the cages of one bus.
class FaultInjector {
 public:
  explicit FaultInjector(EmulatedBus& bus, DynamicsConfig dynamics_for_inserted = {});
  // Returns an error message when the fault cannot apply (empty cage, unknown model...).
  std::optional<std::string> apply(int cage, const Fault& fault);
  // Undoes the fault: memory edits are restored from the copy taken when first applied.
  // Both tell the cage's link (emulator/link.hpp) at once, so a flap shorter than any poll
  // still counts.
  std::optional<std::string> clear(int cage, const Fault& fault);
  EmulatedBus& bus() const { return *bus_; }

 private:
  std::optional<std::string> change(int cage, const Fault& fault, bool clear);
  std::optional<std::string> apply_now(int cage, const Fault& fault);
  std::optional<std::string> clear_now(int cage, const Fault& fault);
  std::optional<std::string> edit_memory(int cage, const Fault& fault);
  EmulatedBus* bus_;
  DynamicsConfig dynamics_;
  std::map<int, std::shared_ptr<EmulatedModule>> parked_;  // unplugged modules, by cage
  std::map<int, cmis::ModuleImage> pristine_;              // memory before the first edit
};

// A fault at a time, on a cage of a named bus (or a fleet port name, resolved by the fleet).
struct TimedFault {
  int64_t at_ns = 0;
  std::string bus;   // bus name; empty when `port` names the target
  std::string port;  // fleet port name
  int cage = 0;
  Fault fault;
  bool clear = false;    // this event clears `fault` (generated from `duration`)
  std::string where;     // "file:line:column" of the TOML table, for messages
};

struct TimelineParse;

// Events sorted by time; run_due() applies those whose time has come.
class FaultTimeline {
 public:
  void add(TimedFault event, int64_t duration_ns = 0);  // duration > 0 adds the clearing event
  // Parses every [[fault]] table of a TOML document:
  //   at = "30s"  duration = "10s"  bus = "spine-01/i2c-2"  cage = 3   (or port = "...")
  //   kind = "rx_los"  lane = 2  value = 3.0  model = "qsfp28-100g-sr4"
  //   page = 0x11  bank = 0  offset = 140                                 (corrupt_byte)
  // Times are numbers of seconds or strings with a unit: ns, us, ms, s, m, h.
  static TimelineParse parse(std::string_view toml_text, std::string_view source_name);

  using Resolver = std::function<std::pair<FaultInjector*, int>(const TimedFault&)>;
  // Applies due events; returns messages of events that failed (with their TOML position).
  std::vector<std::string> run_due(int64_t now_ns, const Resolver& resolve);
  const std::vector<TimedFault>& events() const { return events_; }
  std::size_t pending() const { return events_.size() - next_; }

 private:
  std::vector<TimedFault> events_;
  std::size_t next_ = 0;
};

struct TimelineParse {
  FaultTimeline timeline;
  std::optional<std::string> error;  // "file:line:column: message"
};

// "250ms" -> 250'000'000; nullopt for a malformed duration.
std::optional<int64_t> parse_duration_ns(std::string_view text);

}  // namespace xcvr::emulator
