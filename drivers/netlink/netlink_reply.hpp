// Pure parsers of the kernel's generic-netlink replies used by NetlinkTransport — no
// socket, no libmnl, byte spans in, values out — so they can be fuzzed
// (tests/fuzz/fuzz_netlink_reply.cpp) and unit-tested on constructed buffers.
//
// A buffer is what one recv() on a NETLINK_GENERIC socket returned: one or more netlink
// messages. Replies to MODULE_EEPROM_GET (ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, attribute
// ETHTOOL_A_MODULE_EEPROM_DATA) and to CTRL_CMD_GETFAMILY (CTRL_ATTR_FAMILY_ID) arrive as one
// message; the ACK (NLMSG_ERROR with error 0) or the error (NLMSG_ERROR with -errno, and with
// NETLINK_EXT_ACK the text in NLMSGERR_ATTR_MSG) as another, usually in a separate recv().
// Every length is checked against the buffer; anything that does not add up is Corrupt.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/transport.hpp"

namespace xcvr::netlink {

struct ModuleEepromReply {
  bool has_data = false;
  std::vector<uint8_t> data;  // ETHTOOL_A_MODULE_EEPROM_DATA (may be shorter than asked)
  bool done = false;          // an ACK or NLMSG_DONE ended the exchange
};

struct FamilyReply {
  std::optional<uint16_t> family_id;  // CTRL_ATTR_FAMILY_ID
  bool done = false;
};

// A kernel error: errno and the extended-ACK message, if any.
struct KernelError {
  int errno_value = 0;  // positive
  std::string extack;   // NLMSGERR_ATTR_MSG
};

// Maps a kernel errno (with its extack text) to the transport's error kinds:
// EPERM/EACCES -> Permission (CAP_NET_ADMIN), EOPNOTSUPP -> Unsupported, ENODEV/ENXIO ->
// Absent, EIO/ETIMEDOUT/EAGAIN/EBUSY -> Busy, EINVAL/ERANGE -> Unsupported (a request the
// kernel's rules refuse), anything else -> Busy.
drivers::Error kernel_error(const KernelError& e);

// `expected_seq`: messages with another sequence number are skipped (stale replies).
std::variant<ModuleEepromReply, drivers::Error> parse_module_eeprom_reply(
    std::span<const uint8_t> nlmsg_bytes, std::optional<uint32_t> expected_seq = std::nullopt);
std::variant<FamilyReply, drivers::Error> parse_family_reply(
    std::span<const uint8_t> nlmsg_bytes, std::optional<uint32_t> expected_seq = std::nullopt);

// Builders of the requests (also used by tests to check the kernel's rules are followed).
struct EepromRequest {
  std::string netdev;
  uint32_t offset = 0;  // within the 256-byte window: 0-127 lower (page 0), 128-255 upper
  uint32_t length = 0;  // 1-128, never across byte 128
  uint8_t page = 0;
  uint8_t bank = 0;
  uint8_t i2c_address = cmis::kDeviceA0;
};
std::vector<uint8_t> build_module_eeprom_request(uint16_t family_id, uint32_t seq,
                                                 const EepromRequest& request);
std::vector<uint8_t> build_family_request(uint32_t seq, const std::string& family_name);
// Decodes a request built above (tests, fake kernels); nullopt if malformed.
std::optional<EepromRequest> parse_module_eeprom_request(std::span<const uint8_t> bytes);

}  // namespace xcvr::netlink
