#include "emulator/bus.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace xcvr::emulator {
namespace {

constexpr uint64_t kStartClocks = 1, kStopClocks = 1, kRepeatedStartClocks = 1, kByteClocks = 9;
constexpr std::size_t kSmbusBlockMax = 32;

}  // namespace

std::string_view i2c_status_name(I2cStatus status) {
  switch (status) {
    case I2cStatus::Ok: return "ok";
    case I2cStatus::Nack: return "nack";
    case I2cStatus::Timeout: return "timeout";
    case I2cStatus::Invalid: return "invalid";
  }
  return "unknown";
}

EmulatedBus::EmulatedBus(BusConfig config, Clock& clock)
    : config_(std::move(config)), clock_(&clock) {
  cages_.resize(static_cast<std::size_t>(std::max(1, config_.cages)));
  if (config_.links) {
    const uint64_t bus_channel = std::hash<std::string>{}(config_.name);
    for (std::size_t i = 0; i < cages_.size(); ++i) {
      cages_[i].link = std::make_unique<EmulatedLink>(config_.link_seed, bus_channel * 1021 + i);
    }
  }
  if (cages_.size() == 1 && config_.mux_address) config_.mux_address.reset();  // nothing to mux
}

EmulatedBus::Cage& EmulatedBus::cage_at(int cage) {
  if (cage < 0 || cage >= cage_count()) throw std::out_of_range("emulated bus: no such cage");
  return cages_[static_cast<std::size_t>(cage)];
}

const EmulatedBus::Cage& EmulatedBus::cage_at(int cage) const {
  return const_cast<EmulatedBus*>(this)->cage_at(cage);
}

void EmulatedBus::insert(int cage, std::shared_ptr<EmulatedModule> module) {
  std::lock_guard lock(mutex_);
  Cage& c = cage_at(cage);
  std::erase_if(c.targets, [](const auto& t) { return t.first == kModuleAddress; });
  c.module = std::move(module);
  if (c.module) {
    c.module->power_on();
    c.targets.emplace_back(kModuleAddress, c.module);
    ++c.insertions;
  }
  observe_link_locked(cage);
}

std::shared_ptr<EmulatedModule> EmulatedBus::remove(int cage) {
  std::lock_guard lock(mutex_);
  Cage& c = cage_at(cage);
  c.targets.clear();
  auto module = std::exchange(c.module, nullptr);
  observe_link_locked(cage);
  return module;
}

namespace {

// The RS code and codeword rate of the link a module's first application runs: PAM4 (CMIS)
// lanes run RS(544,514), the 25G NRZ lanes of SFF-8636 modules RS(528,514); SFF-8472 ports
// have no RS FEC here.
std::optional<LinkCode> link_code_of(const ModuleModel& m) {
  if (m.spec == cmis::Spec::Sff8472) return std::nullopt;
  const bool pam4 = m.spec == cmis::Spec::Cmis;
  LinkCode c;
  c.code = pam4 ? cmis::kRs544 : cmis::kRs528;
  const double lane_gbps = m.host_lane_gbps > 0 ? m.host_lane_gbps : pam4 ? 53.125 : 25.78125;
  c.codewords_per_second = m.host_lanes * lane_gbps * 1e9 / (c.code.n * 10.0);
  return c;
}

}  // namespace

void EmulatedBus::observe_link(int cage) {
  std::lock_guard lock(mutex_);
  observe_link_locked(cage);
}

void EmulatedBus::observe_link_locked(int cage) {
  Cage& c = cage_at(cage);
  if (!c.link) return;
  if (c.module) {
    if (const auto code = link_code_of(c.module->model())) c.link_code = code;
  }
  if (!c.link_code) return;
  std::optional<LinkSide> side;
  if (c.module) side = c.module->link_side();
  c.link->advance(clock_->now_ns(), clock_->wall(), side, *c.link_code);
}

std::optional<drivers::LinkHealth> EmulatedBus::link_health(int cage, const std::string& link) {
  std::lock_guard lock(mutex_);
  observe_link_locked(cage);
  const Cage& c = cage_at(cage);
  if (!c.link || !c.link_code) return std::nullopt;
  return c.link->health(link, *c.link_code);
}

std::shared_ptr<EmulatedModule> EmulatedBus::module(int cage) const {
  std::lock_guard lock(mutex_);
  return cage_at(cage).module;
}

void EmulatedBus::attach(int cage, uint8_t address, std::shared_ptr<I2cTarget> target) {
  std::lock_guard lock(mutex_);
  Cage& c = cage_at(cage);
  std::erase_if(c.targets, [&](const auto& t) { return t.first == address; });
  if (target) c.targets.emplace_back(address, std::move(target));
}

bool EmulatedBus::present(int cage) const {
  std::lock_guard lock(mutex_);
  return !cage_at(cage).targets.empty();
}

uint64_t EmulatedBus::insertions(int cage) const {
  std::lock_guard lock(mutex_);
  return cage_at(cage).insertions;
}

I2cTarget* EmulatedBus::target(Cage& cage, uint8_t address) {
  for (auto& [addr, t] : cage.targets) {
    if (addr == address) return t.get();
  }
  return nullptr;
}

uint64_t EmulatedBus::transaction_clocks(std::span<const I2cMsg> msgs) {
  uint64_t clocks = kStartClocks + kStopClocks;
  for (const I2cMsg& m : msgs) clocks += kByteClocks * (1 + m.length());  // address + data
  if (!msgs.empty()) clocks += kRepeatedStartClocks * (msgs.size() - 1);
  return clocks;
}

int64_t EmulatedBus::clocks_to_ns(uint64_t clocks) const {
  return static_cast<int64_t>(clocks * 1'000'000'000ull / std::max<uint32_t>(1, config_.clock_hz));
}

void EmulatedBus::charge(uint64_t clocks, int64_t extra_ns) {
  const int64_t ns = clocks_to_ns(clocks) + extra_ns;
  stats_.clocks += clocks;
  stats_.wire_ns += ns;
  clock_->spend(ns);  // under the bus lock: cages behind this bus wait, as on a real mux tree
}

I2cStatus EmulatedBus::transfer(int cage, uint8_t address, std::span<I2cMsg> msgs) {
  std::lock_guard lock(mutex_);
  Cage& c = cage_at(cage);
  const int64_t now = clock_->now_ns();
  if (stuck_until_ns_ > now || c.faults.timeout_until_ns > now) {
    ++stats_.timeouts;
    charge(0, config_.timeout_ns);
    return I2cStatus::Timeout;
  }
  if (config_.mux_address && selected_channel_ != cage) {
    ++stats_.mux_selects;
    stats_.address_bytes += 1;
    stats_.bytes_written += 1;
    charge(kStartClocks + 2 * kByteClocks + kStopClocks, 0);
    selected_channel_ = cage;
  }
  ++stats_.transactions;
  ++stats_.address_bytes;
  I2cTarget* t = target(c, address);
  if (t == nullptr || c.faults.nack) {
    ++stats_.nacks;
    charge(kStartClocks + kByteClocks + kStopClocks, 0);
    return I2cStatus::Nack;
  }
  std::size_t data_bytes = 0;
  for (I2cMsg& m : msgs) {
    if (m.is_read) {
      t->i2c_read(m.read_buffer);
      stats_.bytes_read += m.read_buffer.size();
    } else {
      t->i2c_write(m.write_bytes);
      stats_.bytes_written += m.write_bytes.size();
    }
    data_bytes += m.length();
  }
  stats_.address_bytes += msgs.empty() ? 0 : msgs.size() - 1;
  charge(transaction_clocks(msgs),
         c.faults.stretch_ns_per_byte * static_cast<int64_t>(data_bytes));
  return I2cStatus::Ok;
}

I2cStatus EmulatedBus::read_byte_data(int cage, uint8_t address, uint8_t command,
                                      uint8_t& value) {
  return read_i2c_block_data(cage, address, command, std::span<uint8_t>(&value, 1));
}

I2cStatus EmulatedBus::read_i2c_block_data(int cage, uint8_t address, uint8_t command,
                                           std::span<uint8_t> out) {
  if (out.empty() || out.size() > kSmbusBlockMax) return I2cStatus::Invalid;
  const uint8_t cmd[1] = {command};
  I2cMsg msgs[2] = {I2cMsg::write(cmd), I2cMsg::read(out)};
  return transfer(cage, address, msgs);
}

I2cStatus EmulatedBus::write_byte_data(int cage, uint8_t address, uint8_t command,
                                       uint8_t value) {
  const uint8_t bytes[2] = {command, value};
  I2cMsg msg[1] = {I2cMsg::write(bytes)};
  return transfer(cage, address, msg);
}

void EmulatedBus::stick(int64_t until_ns) {
  std::lock_guard lock(mutex_);
  stuck_until_ns_ = until_ns;
}

void EmulatedBus::set_cage_faults(int cage, const CageFaults& faults) {
  std::lock_guard lock(mutex_);
  cage_at(cage).faults = faults;
}

CageFaults EmulatedBus::cage_faults(int cage) const {
  std::lock_guard lock(mutex_);
  return cage_at(cage).faults;
}

BusStats EmulatedBus::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void EmulatedBus::reset_stats() {
  std::lock_guard lock(mutex_);
  stats_ = {};
}

}  // namespace xcvr::emulator
