#include "drivers/netlink/netlink_reply.hpp"

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>

#include <libmnl/libmnl.h>

#include "drivers/netlink/netlink_reply_internal.hpp"

namespace xcvr::netlink {

using namespace detail;
using drivers::Error;
using drivers::ErrorKind;

Error kernel_error(const KernelError& e) {
  static constexpr drivers::ErrnoHint kHints[] = {
      {EPERM, "ethtool MODULE_EEPROM_GET needs CAP_NET_ADMIN (run as root, or give the service "
              "AmbientCapabilities=CAP_NET_ADMIN)"},
      {EACCES, "ethtool MODULE_EEPROM_GET needs CAP_NET_ADMIN (run as root, or give the service "
               "AmbientCapabilities=CAP_NET_ADMIN)"},
      {EOPNOTSUPP, "the driver cannot read module memory this way"},
      {ENODEV, "no such netdev, or no module in its cage"},
  };
  // No presence line on this path: a NACK is an empty cage as far as the kernel can tell.
  drivers::ErrnoContext context;
  context.detail = e.extack;
  return drivers::errno_error(e.errno_value, "", kHints, context);
}

std::variant<ModuleEepromReply, Error> parse_module_eeprom_reply(std::span<const uint8_t> bytes,
                                                                 std::optional<uint32_t> seq) {
  return parse_genl_reply<ModuleEepromReply>(
      bytes, seq, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
      [](ModuleEepromReply& reply, uint16_t type, std::span<const uint8_t> value) -> std::optional<Error> {
        if (type != ETHTOOL_A_MODULE_EEPROM_DATA) return std::nullopt;
        if (value.size() > 128) {
          return corrupt(std::to_string(value.size()) + " data bytes (at most 128 can be asked)");
        }
        reply.has_data = true;
        reply.data.assign(value.begin(), value.end());
        return std::nullopt;
      });
}

std::variant<FamilyReply, Error> parse_family_reply(std::span<const uint8_t> bytes,
                                                    std::optional<uint32_t> seq) {
  FamilyReply reply;
  auto r = walk(bytes, seq, [&](const Header& h, std::span<const uint8_t> payload) -> std::optional<Error> {
    if (h.type != GENL_ID_CTRL) return corrupt("not a controller message");
    if (payload.size() < kGenlHdr) return corrupt("short generic-netlink header");
    const bool ok = for_each_attr(payload.subspan(kGenlHdr), [&](uint16_t type, auto value) {
      if (type == CTRL_ATTR_FAMILY_ID && value.size() >= 2) reply.family_id = load<uint16_t>(value, 0);
      return true;
    });
    if (!ok) return corrupt("attributes overrun the message");
    return std::nullopt;
  });
  if (auto* e = std::get_if<Error>(&r)) return *e;
  reply.done = std::get<bool>(r);
  return reply;
}

std::vector<uint8_t> build_module_eeprom_request(uint16_t family_id, uint32_t seq,
                                                 const EepromRequest& q) {
  std::vector<uint8_t> buf(MNL_SOCKET_BUFFER_SIZE < 8192 ? MNL_SOCKET_BUFFER_SIZE : 8192);
  nlmsghdr* nlh = put_ethtool_request(buf, family_id, seq, ETHTOOL_MSG_MODULE_EEPROM_GET,
                                      ETHTOOL_A_MODULE_EEPROM_HEADER, q.netdev);
  mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, q.offset);
  mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, q.length);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, q.page);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, q.bank);
  mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, q.i2c_address);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

std::vector<uint8_t> build_family_request(uint32_t seq, const std::string& family_name) {
  std::vector<uint8_t> buf(1024);
  nlmsghdr* nlh = put_genl_request(buf, GENL_ID_CTRL, seq, CTRL_CMD_GETFAMILY, 1);
  mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family_name.c_str());
  buf.resize(nlh->nlmsg_len);
  return buf;
}

std::optional<EepromRequest> parse_module_eeprom_request(std::span<const uint8_t> bytes) {
  if (bytes.size() < kNlHdr + kGenlHdr) return std::nullopt;
  const Header h = header_at(bytes, 0);
  if (h.len != bytes.size() || bytes[kNlHdr] != ETHTOOL_MSG_MODULE_EEPROM_GET) return std::nullopt;
  EepromRequest q;
  bool have_offset = false, have_length = false, have_page = false, have_addr = false;
  const bool ok = for_each_attr(bytes.subspan(kNlHdr + kGenlHdr), [&](uint16_t type, auto v) {
    switch (type) {
      case ETHTOOL_A_MODULE_EEPROM_HEADER:
        for_each_attr(v, [&](uint16_t t, auto s) {
          if (t == ETHTOOL_A_HEADER_DEV_NAME) {
            std::size_t n = 0;
            while (n < s.size() && s[n] != 0) ++n;
            q.netdev.assign(reinterpret_cast<const char*>(s.data()), n);
          }
          return true;
        });
        break;
      case ETHTOOL_A_MODULE_EEPROM_OFFSET:
        if (v.size() == 4) { q.offset = load<uint32_t>(v, 0); have_offset = true; }
        break;
      case ETHTOOL_A_MODULE_EEPROM_LENGTH:
        if (v.size() == 4) { q.length = load<uint32_t>(v, 0); have_length = true; }
        break;
      case ETHTOOL_A_MODULE_EEPROM_PAGE:
        if (!v.empty()) { q.page = v[0]; have_page = true; }
        break;
      case ETHTOOL_A_MODULE_EEPROM_BANK:
        if (!v.empty()) q.bank = v[0];
        break;
      case ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS:
        if (!v.empty()) { q.i2c_address = v[0]; have_addr = true; }
        break;
      default: break;
    }
    return true;
  });
  if (!ok || !have_offset || !have_length || !have_page || !have_addr) return std::nullopt;
  return q;
}

}  // namespace xcvr::netlink
