// MAD encoding and reply parsing: the MAD header, NVIDIA Access Register in its three forms
// (Class 0xA with TLVs, GMP, SMP), SMP Get (LID-routed and directed-route) and the vendor
// GeneralInfo query. Pure functions over bytes; layouts and their sources live in mad_layout.hpp.
// Every parser takes untrusted bytes of any length and returns a typed error, never throws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "drivers/ib/mad_layout.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

using Mad = std::array<uint8_t, kMadSize>;

// ---- Big-endian access; callers check bounds (parsers do before calling) ----
inline uint16_t be16(std::span<const uint8_t> b, std::size_t at) {
  return static_cast<uint16_t>(b[at] << 8 | b[at + 1]);
}
inline uint32_t be32(std::span<const uint8_t> b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) << 24 | static_cast<uint32_t>(b[at + 1]) << 16 |
         static_cast<uint32_t>(b[at + 2]) << 8 | b[at + 3];
}
inline uint64_t be64(std::span<const uint8_t> b, std::size_t at) {
  return static_cast<uint64_t>(be32(b, at)) << 32 | be32(b, at + 4);
}
inline void put_be16(std::span<uint8_t> b, std::size_t at, uint16_t v) {
  b[at] = static_cast<uint8_t>(v >> 8);
  b[at + 1] = static_cast<uint8_t>(v);
}
inline void put_be32(std::span<uint8_t> b, std::size_t at, uint32_t v) {
  put_be16(b, at, static_cast<uint16_t>(v >> 16));
  put_be16(b, at + 2, static_cast<uint16_t>(v));
}
inline void put_be64(std::span<uint8_t> b, std::size_t at, uint64_t v) {
  put_be32(b, at, static_cast<uint32_t>(v >> 32));
  put_be32(b, at + 4, static_cast<uint32_t>(v));
}

struct MadHeader {
  uint8_t base_version = kBaseVersion;
  uint8_t mgmt_class = 0;
  uint8_t class_version = kClassVersion;
  uint8_t method = 0;  // including the response bit
  uint16_t status = 0;
  uint16_t class_specific = 0;
  uint64_t tid = 0;
  uint16_t attr_id = 0;
  uint32_t attr_mod = 0;
};
void put_header(Mad& mad, const MadHeader& h);
std::optional<MadHeader> parse_header(std::span<const uint8_t> mad);  // nullopt if < 24 bytes

// ---- Status words ----
// MAD status: "busy", "redirect required", "bad base/class version", ...; its transport error
// kind (busy -> Busy; unsupported method/attribute/version, redirect, invalid field ->
// Unsupported; anything else -> Corrupt).
std::string describe_mad_status(uint16_t status);
drivers::ErrorKind mad_status_kind(uint16_t status);
// Operation TLV register status (1 busy, 4 register not supported, 7 bad parameter, ...).
std::string describe_reg_status(uint8_t status);
drivers::ErrorKind reg_status_kind(uint8_t status);
std::string register_name(uint16_t register_id);  // "MCIA", or "register 0x1234"

// ---- Access Register ----
enum class AccessMethod { ClassA, Gmp, Smp };
std::string_view access_method_name(AccessMethod method);  // "class-a", "gmp", "smp"
std::size_t max_register_size(AccessMethod method);        // 204, 220, 44

struct AccessRegisterRequest {
  AccessMethod method = AccessMethod::ClassA;
  uint16_t register_id = 0;
  uint8_t reg_method = kRegMethodQuery;  // the register operation (query or write)
  std::span<const uint8_t> image;        // the register, big-endian as laid out
  uint64_t tid = 0;
  uint64_t key = 0;  // Class A and GMP: VS key; SMP: M_Key
};
// The MAD, or nullopt when the register does not fit the form or the form cannot carry the
// operation (GMP is query-only).
std::optional<Mad> encode_access_register(const AccessRegisterRequest& request);

// Why a reply cannot be used. `method_unsupported`: the target does not speak this form of
// Access Register (another form may work).
struct ReplyError {
  drivers::ErrorKind kind = drivers::ErrorKind::Corrupt;
  std::string message;
  uint16_t mad_status = 0;
  uint8_t reg_status = 0;
  bool method_unsupported = false;
};
struct RegisterReply {
  std::vector<uint8_t> image;  // exactly the register's size
};
using RegisterResult = std::variant<RegisterReply, ReplyError>;

// Checks the reply against what was asked (class, response method, attribute, TID when given,
// register id, TLV types and lengths) and maps MAD and register statuses to typed errors.
RegisterResult parse_access_register_reply(std::span<const uint8_t> mad, AccessMethod method,
                                           uint16_t register_id, std::size_t register_size,
                                           std::optional<uint64_t> tid = std::nullopt);

// ---- Plain Gets ----
// LID-routed SMP Get (NodeInfo, NodeDescription, PortInfo).
Mad encode_smp_get(uint16_t attr_id, uint32_t attr_mod, uint64_t tid, uint64_t m_key);
// Directed-route SMP Get along `path` (path[i] = output port at hop i+1; up to 63 hops), with
// permissive DrSLID/DrDLID.
std::optional<Mad> encode_dr_smp_get(uint16_t attr_id, uint32_t attr_mod, uint64_t tid,
                                     uint64_t m_key, std::span<const uint8_t> path);
// Vendor Class 0xA GeneralInfo Get (capability mask lives in the reply).
Mad encode_general_info_get(uint64_t tid, uint64_t vs_key);

// The 64-byte SMP data of a (DR or LID-routed) GetResp, or why not.
using SmpResult = std::variant<std::array<uint8_t, kSmpDataSize>, ReplyError>;
SmpResult parse_smp_reply(std::span<const uint8_t> mad, uint8_t mgmt_class, uint16_t attr_id,
                          std::optional<uint64_t> tid = std::nullopt);
// GeneralInfo reply: whether AccessRegisterGMP is supported.
std::variant<bool, ReplyError> parse_general_info_reply(std::span<const uint8_t> mad,
                                                        std::optional<uint64_t> tid = std::nullopt);

// ---- Performance management (PMA, class 0x04) ----
// PMA Get of `attr_id` (ClassPortInfo, PortCounters, PortCountersExtended) for `port_select`
// (PortSelect in the data; ClassPortInfo ignores it). Gets only: we never Set (a Set of
// PortCounters clears them).
Mad encode_pma_get(uint16_t attr_id, uint8_t port_select, uint64_t tid);
// The 192-byte PMA data of a GetResp, or why not.
using PmaResult = std::variant<std::array<uint8_t, kPmaDataSize>, ReplyError>;
PmaResult parse_pma_reply(std::span<const uint8_t> mad, uint16_t attr_id, std::optional<uint64_t> tid = std::nullopt);

}  // namespace xcvr::ib
