// EmulatorTransport: drivers::Transport for one cage of an EmulatedBus, reading the way the real
// i2c transport must: lower memory needs no paging; an upper page costs a page-select write only
// when the module's page/bank must change (select_page(), the one place that writes a module),
// followed by a read-back of page select; every read is one offset write + one read of at most
// 128 bytes that never crosses byte 128.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "emulator/bus.hpp"
#include "drivers/page_select.hpp"
#include "drivers/transport.hpp"

namespace xcvr::emulator {

class EmulatorTransport final : public drivers::Transport {
 public:
  EmulatorTransport(EmulatedBus& bus, int cage, std::string port = {});

  std::string domain() const override { return bus_->name(); }
  std::string describe() const override;
  drivers::Presence presence() override;
  std::optional<drivers::Error> read(const drivers::ReadRequest& request,
                                     std::span<uint8_t> out) override;

  // The cage's emulated link (a bus with links: FEC statistics with the codeword histogram, the
  // carrier), named by the port's last path component ("p3"); Unsupported otherwise.
  std::variant<drivers::LinkHealth, drivers::Error> read_link_health() override;

  EmulatedBus& bus() const { return *bus_; }
  int cage() const { return cage_; }
  uint64_t page_select_writes() const { return select_.writes(); }

 private:
  // The only function that writes to a module (through drivers::PageSelector, as i2c-dev does).
  std::optional<drivers::Error> select_page(uint8_t device, uint8_t bank, uint8_t page);
  std::optional<drivers::Error> read_at(uint8_t device, uint8_t offset, std::span<uint8_t> out,
                                        const char* what);
  drivers::Error error_for(I2cStatus status, const std::string& what) const;
  std::string where(uint8_t bank, uint8_t page, uint16_t offset) const;

  EmulatedBus* bus_;
  int cage_;
  std::string port_;
  drivers::PageSelector select_;  // what the module's page/bank select holds, if known
  uint64_t seen_insertions_ = 0;
};

}  // namespace xcvr::emulator
