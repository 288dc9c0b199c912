#include "drivers/netlink/carrier.hpp"

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "drivers/netlink/netlink_reply_internal.hpp"

namespace xcvr::netlink {
namespace {

using namespace detail;

constexpr std::size_t kIfInfo = sizeof(ifinfomsg);  // 16 bytes before the attributes

}  // namespace

std::variant<LinkMessages, Error> parse_link_messages(std::span<const uint8_t> bytes, std::optional<uint32_t> seq) {
  LinkMessages out;
  auto r = walk(bytes, seq, [&](const Header& h, std::span<const uint8_t> payload) -> std::optional<Error> {
    if (h.type != RTM_NEWLINK && h.type != RTM_DELLINK) return std::nullopt;
    if (payload.size() < kIfInfo) return corrupt("link message of " + std::to_string(payload.size()) + " bytes");
    LinkMessage m;
    m.ifindex = load<int32_t>(payload, 4);
    m.admin_up = (load<uint32_t>(payload, 8) & IFF_UP) != 0;
    std::optional<Error> bad;
    const bool ok = for_each_attr(payload.subspan(kIfInfo), [&](uint16_t type, std::span<const uint8_t> v) {
      if (type == IFLA_IFNAME) {
        std::size_t n = 0;
        while (n < v.size() && v[n] != 0) ++n;
        if (n == 0 || n >= IFNAMSIZ) {
          bad = corrupt("interface name of " + std::to_string(n) + " bytes");
          return false;
        }
        m.ifname.assign(reinterpret_cast<const char*>(v.data()), n);
      } else if (type == IFLA_CARRIER) {
        if (v.size() != 1) bad = corrupt("carrier of " + std::to_string(v.size()) + " bytes");
        else m.carrier = v[0] != 0;
      } else if (type == IFLA_CARRIER_DOWN_COUNT) {
        if (v.size() != 4) bad = corrupt("carrier down count of " + std::to_string(v.size()) + " bytes");
        else m.down_count = load<uint32_t>(v, 0);
      }
      return !bad;
    });
    if (bad) return bad;
    if (!ok) return corrupt("link attributes overrun the message");
    if (m.ifname.empty()) return corrupt("link message without an interface name");
    if (h.type == RTM_DELLINK) out.deleted.push_back(std::move(m.ifname));
    else out.links.push_back(std::move(m));
    return std::nullopt;
  });
  if (auto* e = std::get_if<Error>(&r)) return *e;
  out.done = std::get<bool>(r);
  return out;
}

std::vector<uint8_t> build_getlink_request(uint32_t seq, const std::string& netdev) {
  std::vector<uint8_t> buf(256);
  nlmsghdr* nlh = put_request(buf, RTM_GETLINK, seq);
  auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifi->ifi_family = AF_UNSPEC;
  mnl_attr_put_strz(nlh, IFLA_IFNAME, netdev.substr(0, IFNAMSIZ - 1).c_str());
  buf.resize(nlh->nlmsg_len);
  return buf;
}

}  // namespace xcvr::netlink
