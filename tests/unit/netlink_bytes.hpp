// Netlink messages built byte by byte for the ethtool parser and transport tests (a kernel
// reply as recv() returns it): attributes, messages, data replies, errors with extended ACK.
#pragma once

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "drivers/netlink/netlink_transport.hpp"

namespace xcvr::netlink::netlink_bytes {

using Bytes = std::vector<uint8_t>;

constexpr uint16_t kFamily = 0x1d;  // what the controller hands out for "ethtool" (any id works)

template <typename T>
void append(Bytes& b, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof v);
}
inline void pad4(Bytes& b) {
  while (b.size() % 4 != 0) b.push_back(0);
}

inline Bytes attr(uint16_t type, const Bytes& value) {
  Bytes b;
  append<uint16_t>(b, static_cast<uint16_t>(4 + value.size()));
  append<uint16_t>(b, type);
  b.insert(b.end(), value.begin(), value.end());
  pad4(b);
  return b;
}

inline Bytes nlmsg(uint16_t type, uint16_t flags, uint32_t seq, const Bytes& payload) {
  Bytes b;
  append<uint32_t>(b, static_cast<uint32_t>(16 + payload.size()));
  append<uint16_t>(b, type);
  append<uint16_t>(b, flags);
  append<uint32_t>(b, seq);
  append<uint32_t>(b, 0);  // portid
  b.insert(b.end(), payload.begin(), payload.end());
  pad4(b);
  return b;
}

inline Bytes data_reply(uint32_t seq, const Bytes& data) {
  Bytes payload{ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, ETHTOOL_GENL_VERSION, 0, 0};
  const Bytes header_nest = attr(ETHTOOL_A_HEADER_DEV_NAME, Bytes{'e', 't', 'h', '0', 0});
  const Bytes a1 = attr(NLA_F_NESTED | ETHTOOL_A_MODULE_EEPROM_HEADER, header_nest);
  const Bytes a2 = attr(ETHTOOL_A_MODULE_EEPROM_DATA, data);
  payload.insert(payload.end(), a1.begin(), a1.end());
  payload.insert(payload.end(), a2.begin(), a2.end());
  return nlmsg(kFamily, 0, seq, payload);
}

// NLMSG_ERROR: error, the echoed request (header only when capped), then the extack TLVs.
inline Bytes error_msg(uint32_t seq, int err, const std::string& extack = {}, bool capped = true,
                const Bytes& request = {}) {
  Bytes payload;
  append<int32_t>(payload, err);
  Bytes echoed = request.empty() ? nlmsg(kFamily, NLM_F_REQUEST | NLM_F_ACK, seq, Bytes(24, 0xAB))
                                 : request;
  if (capped) echoed.resize(16);
  payload.insert(payload.end(), echoed.begin(), echoed.end());
  uint16_t flags = capped ? NLM_F_CAPPED : 0;
  if (!extack.empty()) {
    flags |= NLM_F_ACK_TLVS;
    Bytes text(extack.begin(), extack.end());
    text.push_back(0);
    const Bytes a = attr(NLMSGERR_ATTR_MSG, text);
    const Bytes offs = attr(NLMSGERR_ATTR_OFFS, Bytes{28, 0, 0, 0});
    payload.insert(payload.end(), a.begin(), a.end());
    payload.insert(payload.end(), offs.begin(), offs.end());
  }
  return nlmsg(NLMSG_ERROR, flags, seq, payload);
}

inline Bytes ack(uint32_t seq) { return error_msg(seq, 0); }

inline Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The controller's answer to the family lookup, naming kFamily for "ethtool", and its ACK.
inline Bytes family_reply(uint32_t seq) {
  Bytes payload{CTRL_CMD_NEWFAMILY, 1, 0, 0};
  Bytes id;
  append<uint16_t>(id, kFamily);
  const Bytes a = attr(CTRL_ATTR_FAMILY_ID, id);
  payload.insert(payload.end(), a.begin(), a.end());
  Bytes out = nlmsg(GENL_ID_CTRL, 0, seq, payload);
  const Bytes done = error_msg(seq, 0);
  out.insert(out.end(), done.begin(), done.end());
  return out;
}

// A kernel a test plays: each request is answered at once by answer(type, seq, request) (the
// family lookup by family_reply), and recv() hands the answer back in one datagram.
struct PlayedKernel : NetlinkChannel {
  virtual Bytes answer(uint16_t type, uint32_t seq, std::span<const uint8_t> request) = 0;
  int send(std::span<const uint8_t> m) override {
    uint16_t type = 0;
    uint32_t seq = 0;
    std::memcpy(&type, m.data() + 4, 2);
    std::memcpy(&seq, m.data() + 8, 4);
    pending = type == GENL_ID_CTRL ? family_reply(seq) : answer(type, seq, m);
    return static_cast<int>(m.size());
  }
  int recv(std::span<uint8_t> buffer) override {
    if (pending.empty()) return -EAGAIN;
    std::copy(pending.begin(), pending.end(), buffer.begin());
    const int n = static_cast<int>(pending.size());
    pending.clear();
    return n;
  }
  Bytes pending;
};

}  // namespace xcvr::netlink::netlink_bytes
