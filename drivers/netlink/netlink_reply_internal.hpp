// Internal to drivers/netlink: walking netlink messages and attributes in untrusted bytes, for
// the pure reply parsers (netlink_reply.cpp, netlink_link.cpp) — every length is checked against
// the buffer; anything that does not add up is Corrupt — and the start of every ethtool request.
#pragma once

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <libmnl/libmnl.h>

#include "drivers/netlink/netlink_reply.hpp"

namespace xcvr::netlink::detail {

using drivers::Error;
using drivers::ErrorKind;

constexpr std::size_t kNlHdr = 16;   // struct nlmsghdr
constexpr std::size_t kGenlHdr = 4;  // struct genlmsghdr
constexpr std::size_t kAttrHdr = 4;  // struct nlattr
constexpr std::size_t align4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

// Host-endian loads from possibly unaligned bytes.
template <typename T>
T load(std::span<const uint8_t> b, std::size_t at) {
  T v{};
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

struct Header {
  uint32_t len;
  uint16_t type;
  uint16_t flags;
  uint32_t seq;
};

inline Header header_at(std::span<const uint8_t> b, std::size_t at) {
  return {load<uint32_t>(b, at), load<uint16_t>(b, at + 4), load<uint16_t>(b, at + 6),
          load<uint32_t>(b, at + 8)};
}

inline Error corrupt(const std::string& what) {
  return Error{ErrorKind::Corrupt, "malformed netlink reply: " + what};
}

// Walks the attributes in `b`; fn(type, payload) returns false to stop. False if malformed.
template <typename Fn>
bool for_each_attr(std::span<const uint8_t> b, Fn&& fn) {
  std::size_t at = 0;
  while (at + kAttrHdr <= b.size()) {
    const uint16_t len = load<uint16_t>(b, at);
    const uint16_t type = load<uint16_t>(b, at + 2) & NLA_TYPE_MASK;
    if (len < kAttrHdr || at + len > b.size()) return false;
    if (!fn(type, b.subspan(at + kAttrHdr, len - kAttrHdr))) return true;
    at += align4(len);
  }
  return at >= b.size() || b.size() - at < kAttrHdr;  // trailing padding only
}

// Walks the messages; on_msg(header, payload) returns an Error to stop with, or nullopt.
// Handles NLMSG_ERROR / NLMSG_DONE itself. Returns an Error, or whether the exchange ended.
template <typename OnMsg>
std::variant<bool, Error> walk(std::span<const uint8_t> bytes, std::optional<uint32_t> seq,
                               OnMsg&& on_msg) {
  std::size_t at = 0;
  bool done = false;
  if (bytes.size() < kNlHdr) return corrupt("only " + std::to_string(bytes.size()) + " bytes");
  while (at + kNlHdr <= bytes.size()) {
    const Header h = header_at(bytes, at);
    if (h.len < kNlHdr || h.len > bytes.size() - at) {
      return corrupt("message length " + std::to_string(h.len) + " at byte " +
                     std::to_string(at) + " exceeds the " + std::to_string(bytes.size()) +
                     "-byte buffer");
    }
    const auto payload = bytes.subspan(at + kNlHdr, h.len - kNlHdr);
    at += align4(h.len);
    if (seq && h.seq != *seq) continue;  // a stale reply to an earlier request
    if (h.type == NLMSG_NOOP) continue;
    if (h.type == NLMSG_DONE) {
      done = true;
      continue;
    }
    if (h.type == NLMSG_OVERRUN) return corrupt("NLMSG_OVERRUN");
    if (h.type == NLMSG_ERROR) {
      if (payload.size() < 4 + kNlHdr) return corrupt("short NLMSG_ERROR");
      const int32_t err = load<int32_t>(payload, 0);
      if (err == 0) {
        done = true;
        continue;
      }
      if (err > 0 || err < -4095) return corrupt("error code " + std::to_string(err));
      KernelError ke{-err, {}};
      if ((h.flags & NLM_F_ACK_TLVS) != 0) {
        // The TLVs follow the echoed request: its header only when capped, else all of it.
        const Header orig = header_at(payload, 4);
        const std::size_t echoed = (h.flags & NLM_F_CAPPED) != 0 ? kNlHdr : orig.len;
        const std::size_t tlv_at = align4(4 + echoed);
        if (echoed < kNlHdr || tlv_at > payload.size()) return corrupt("extack beyond the message");
        const bool ok = for_each_attr(payload.subspan(tlv_at), [&](uint16_t type, auto value) {
          if (type == NLMSGERR_ATTR_MSG) {
            std::size_t n = 0;
            while (n < value.size() && value[n] != 0) ++n;
            ke.extack.assign(reinterpret_cast<const char*>(value.data()), n);
          }
          return true;
        });
        if (!ok) return corrupt("extack attributes");
      }
      return kernel_error(ke);
    }
    if (h.type < NLMSG_MIN_TYPE) return corrupt("message type " + std::to_string(h.type));
    if (auto e = on_msg(h, payload)) return *e;
  }
  return done;
}


// The reply to a generic-netlink command: every message must be `cmd`; fn(type, value) sees its
// top-level attributes and returns an Error to stop with. `reply.done` is set when an ACK or
// NLMSG_DONE ended the exchange.
template <typename Reply, typename Fn>
std::variant<Reply, Error> parse_genl_reply(std::span<const uint8_t> bytes, std::optional<uint32_t> seq, uint8_t cmd,
                                            Fn&& fn) {
  Reply reply;
  auto r = walk(bytes, seq, [&](const Header&, std::span<const uint8_t> payload) -> std::optional<Error> {
    if (payload.size() < kGenlHdr) return corrupt("short generic-netlink header");
    if (payload[0] != cmd) return corrupt("reply command " + std::to_string(payload[0]));
    std::optional<Error> bad;
    const bool ok = for_each_attr(payload.subspan(kGenlHdr), [&](uint16_t type, std::span<const uint8_t> value) {
      bad = fn(reply, type, value);
      return !bad;
    });
    if (bad) return bad;
    if (!ok) return corrupt("attributes overrun the message");
    return std::nullopt;
  });
  if (auto* e = std::get_if<Error>(&r)) return *e;
  reply.done = std::get<bool>(r);
  return reply;
}

// Starts a request of message `type` in `buf` (large enough): the netlink header, request and
// ACK wanted. The family's own header and attributes follow.
inline nlmsghdr* put_request(std::vector<uint8_t>& buf, uint16_t type, uint32_t seq) {
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  nlh->nlmsg_seq = seq;
  return nlh;
}

// Starts a generic-netlink request of `cmd` to family `type` in `buf` (large enough): the
// netlink header (request, ACK wanted) and the generic-netlink header.
inline nlmsghdr* put_genl_request(std::vector<uint8_t>& buf, uint16_t type, uint32_t seq, uint8_t cmd,
                                  uint8_t version) {
  nlmsghdr* nlh = put_request(buf, type, seq);
  auto* genl = static_cast<genlmsghdr*>(mnl_nlmsg_put_extra_header(nlh, sizeof(genlmsghdr)));
  genl->cmd = cmd;
  genl->version = version;
  return nlh;
}

// Starts an ethtool request of `cmd` in `buf` (large enough): the netlink and generic-netlink
// headers (request, ACK wanted) and the request header nest `header_attr` naming the netdev,
// with ETHTOOL_FLAG_* `flags` when non-zero. The command's own attributes follow; the caller
// resizes `buf` to nlmsg_len when done.
inline nlmsghdr* put_ethtool_request(std::vector<uint8_t>& buf, uint16_t family_id, uint32_t seq, uint8_t cmd,
                                     uint16_t header_attr, const std::string& netdev, uint32_t flags = 0) {
  nlmsghdr* nlh = put_genl_request(buf, family_id, seq, cmd, ETHTOOL_GENL_VERSION);
  nlattr* nest = mnl_attr_nest_start(nlh, header_attr);
  mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, netdev.c_str());
  if (flags != 0) mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
  mnl_attr_nest_end(nlh, nest);
  return nlh;
}

}  // namespace xcvr::netlink::detail
