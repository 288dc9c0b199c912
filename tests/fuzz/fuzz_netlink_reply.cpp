// libFuzzer target: the ethtool transport's netlink parsers over hostile kernel replies. The
// input is one recv() buffer; the first byte decides whether a sequence number is expected.
// Any crash, hang, out-of-bounds read or a data attribute longer than 128 bytes fails.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>

#include "drivers/ethtool/netlink_reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::optional<uint32_t> seq =
      (data[0] & 1) != 0 ? std::optional<uint32_t>(data[0] >> 1) : std::nullopt;
  const std::span<const uint8_t> bytes(data + 1, size - 1);

  const auto eeprom = xcvr::ethtool::parse_module_eeprom_reply(bytes, seq);
  if (const auto* r = std::get_if<xcvr::ethtool::ModuleEepromReply>(&eeprom)) {
    if (r->data.size() > 128) std::abort();
    if (!r->has_data && !r->data.empty()) std::abort();
  } else if (std::get<xcvr::drivers::Error>(eeprom).message.empty()) {
    std::abort();  // every error names what was wrong
  }
  (void)xcvr::ethtool::parse_family_reply(bytes, seq);
  (void)xcvr::ethtool::parse_module_eeprom_request(bytes);
  return 0;
}
