// I2cTarget: something that answers at one I2C address behind a cage (a module's 0x50, an SFP's
// 0x51). Messages arrive as the wire carries them: a write message is the register offset
// followed by data bytes (no data = just set the address pointer); a read message continues from
// the address pointer.
#pragma once

#include <cstdint>
#include <span>

namespace xcvr::emulator {

class I2cTarget {
 public:
  virtual ~I2cTarget() = default;
  virtual void i2c_write(std::span<const uint8_t> offset_then_data) = 0;
  virtual void i2c_read(std::span<uint8_t> out) = 0;
};

}  // namespace xcvr::emulator
