#include "drivers/ib/mad_codec.hpp"

#include <algorithm>
#include <cstdio>

namespace xcvr::ib {
namespace {

using drivers::ErrorKind;

std::string hex(uint32_t v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", width, v);
  return buf;
}

ReplyError error(ErrorKind kind, std::string message, uint16_t mad_status = 0, uint8_t reg_status = 0,
                 bool unsupported = false) {
  return ReplyError{kind, std::move(message), mad_status, reg_status, unsupported};
}

// Operation TLV dword 0 / Reg TLV header: Type[31:27], len[26:16].
uint32_t tlv_word(uint8_t type, uint16_t len_dwords) {
  return static_cast<uint32_t>(type & 0x1F) << 27 | static_cast<uint32_t>(len_dwords & 0x7FF) << 16;
}

std::size_t tlv_offset(AccessMethod m) {
  return m == AccessMethod::Smp ? kOffSmpData : kOffClassAData;
}

// The common checks of any reply: length, base version, class, GetResp, attribute, TID.
std::optional<ReplyError> check_envelope(std::span<const uint8_t> mad, uint8_t mgmt_class,
                                         uint16_t attr_id, std::optional<uint64_t> tid,
                                         MadHeader& h) {
  if (mad.size() < kMadSize) {
    return error(ErrorKind::Corrupt, "truncated MAD: " + std::to_string(mad.size()) + " of 256 bytes");
  }
  h = *parse_header(mad);
  if (h.base_version != kBaseVersion) {
    return error(ErrorKind::Corrupt, "MAD base version " + std::to_string(h.base_version) + ", expected 1");
  }
  if (h.mgmt_class != mgmt_class) {
    return error(ErrorKind::Corrupt, "reply of management class " + hex(h.mgmt_class, 2) + " to a class " +
                                         hex(mgmt_class, 2) + " request");
  }
  if (h.method != kMethodGetResponse) {
    return error(ErrorKind::Corrupt, "MAD method " + hex(h.method, 2) + " is not GetResp");
  }
  if (h.attr_id != attr_id) {
    return error(ErrorKind::Corrupt, "reply attribute " + hex(h.attr_id, 4) + ", asked " + hex(attr_id, 4));
  }
  // The kernel owns the TID's upper 32 bits (agent id, drivers/infiniband/core/user_mad.c):
  // only the lower half is ours to match.
  if (tid && static_cast<uint32_t>(h.tid) != static_cast<uint32_t>(*tid)) {
    return error(ErrorKind::Corrupt, "reply TID " + hex(static_cast<uint32_t>(h.tid), 8) + " does not match " +
                                         hex(static_cast<uint32_t>(*tid), 8));
  }
  return std::nullopt;
}

std::optional<ReplyError> check_mad_status(uint16_t status, const std::string& what) {
  if (status == 0) return std::nullopt;
  const uint16_t code = (status >> kStatusCodeShift) & kStatusCodeMask;
  const bool unsupported = code == kCodeBadVersion || code == kCodeMethodUnsupported ||
                           code == kCodeMethodAttrUnsupported;
  return error(mad_status_kind(status), what + ": MAD status " + hex(status, 4) + " (" + describe_mad_status(status) + ")",
               status, 0, unsupported);
}

// A Get request of `mgmt_class`: the header only (callers add keys and data).
MadHeader get_header(uint8_t mgmt_class, uint16_t attr_id, uint32_t attr_mod, uint64_t tid) {
  MadHeader h;
  h.mgmt_class = mgmt_class;
  h.method = kMethodGet;
  h.tid = tid;
  h.attr_id = attr_id;
  h.attr_mod = attr_mod;
  return h;
}

}  // namespace

void put_header(Mad& mad, const MadHeader& h) {
  mad[kOffBaseVersion] = h.base_version;
  mad[kOffMgmtClass] = h.mgmt_class;
  mad[kOffClassVersion] = h.class_version;
  mad[kOffMethod] = h.method;
  put_be16(mad, kOffStatus, h.status);
  put_be16(mad, kOffClassSpecific, h.class_specific);
  put_be64(mad, kOffTid, h.tid);
  put_be16(mad, kOffAttrId, h.attr_id);
  put_be16(mad, kOffAttrId + 2, 0);
  put_be32(mad, kOffAttrMod, h.attr_mod);
}

std::optional<MadHeader> parse_header(std::span<const uint8_t> mad) {
  if (mad.size() < kMadHeaderSize) return std::nullopt;
  MadHeader h;
  h.base_version = mad[kOffBaseVersion];
  h.mgmt_class = mad[kOffMgmtClass];
  h.class_version = mad[kOffClassVersion];
  h.method = mad[kOffMethod];
  h.status = be16(mad, kOffStatus);
  h.class_specific = be16(mad, kOffClassSpecific);
  h.tid = be64(mad, kOffTid);
  h.attr_id = be16(mad, kOffAttrId);
  h.attr_mod = be32(mad, kOffAttrMod);
  return h;
}

std::string describe_mad_status(uint16_t status) {
  if (status == 0) return "success";
  std::string out;
  auto add = [&out](std::string_view s) {
    if (!out.empty()) out += ", ";
    out += s;
  };
  if (status & kStatusBusy) add("busy");
  if (status & kStatusRedirect) add("redirect required");
  switch ((status >> kStatusCodeShift) & kStatusCodeMask) {
    case 0: break;
    case kCodeBadVersion: add("bad base/class version or class not supported"); break;
    case kCodeMethodUnsupported: add("method not supported"); break;
    case kCodeMethodAttrUnsupported: add("method/attribute combination not supported"); break;
    case kCodeInvalidField: add("invalid field value"); break;
    default: add("invalid-field code " + std::to_string((status >> kStatusCodeShift) & kStatusCodeMask)); break;
  }
  if (status >> 8) add("class-specific " + hex(status >> 8, 2));
  return out;
}

ErrorKind mad_status_kind(uint16_t status) {
  const uint16_t code = (status >> kStatusCodeShift) & kStatusCodeMask;
  if (code == kCodeBadVersion || code == kCodeMethodUnsupported || code == kCodeMethodAttrUnsupported ||
      code == kCodeInvalidField || (code == 0 && (status & kStatusRedirect))) {
    return ErrorKind::Unsupported;
  }
  if (code == 0 && (status & kStatusBusy)) return ErrorKind::Busy;
  if (code == 5) return ErrorKind::Unsupported;  // GMP: register not supported (status 20)
  return ErrorKind::Corrupt;
}

std::string describe_reg_status(uint8_t status) {
  switch (status) {
    case kRegStatusOk: return "ok";
    case kRegStatusBusy: return "device busy";
    case kRegStatusVersionUnsupported: return "version not supported";
    case kRegStatusUnknownTlv: return "unknown TLV";
    case kRegStatusRegisterUnsupported: return "register not supported";
    case kRegStatusClassUnsupported: return "class not supported";
    case kRegStatusMethodUnsupported: return "method not supported";
    case kRegStatusBadParameter: return "bad parameter";
    case kRegStatusResourceUnavailable: return "resource not available";
    case kRegStatusMessageAck: return "message receipt acknowledgement";
    case kRegStatusInternalError: return "internal error";
    default: return "register status " + hex(status, 2);
  }
}

ErrorKind reg_status_kind(uint8_t status) {
  switch (status) {
    case kRegStatusBusy:
    case kRegStatusResourceUnavailable:
    case kRegStatusMessageAck:
    case kRegStatusInternalError: return ErrorKind::Busy;
    case kRegStatusVersionUnsupported:
    case kRegStatusUnknownTlv:
    case kRegStatusRegisterUnsupported:
    case kRegStatusClassUnsupported:
    case kRegStatusMethodUnsupported:
    case kRegStatusBadParameter: return ErrorKind::Unsupported;
    default: return ErrorKind::Corrupt;
  }
}

std::string register_name(uint16_t id) {
  switch (id) {
    case kRegMcia: return "MCIA";
    case kRegPmaos: return "PMAOS";
    case kRegPmlp: return "PMLP";
    case kRegMcam: return "MCAM";
    case kRegMgpir: return "MGPIR";
    case kRegPpcnt: return "PPCNT";
    case kRegPphcr: return "PPHCR";
    default: return "register " + hex(id, 4);
  }
}

std::string_view access_method_name(AccessMethod m) {
  switch (m) {
    case AccessMethod::ClassA: return "class-a";
    case AccessMethod::Gmp: return "gmp";
    case AccessMethod::Smp: return "smp";
  }
  return "?";
}

std::size_t max_register_size(AccessMethod m) {
  switch (m) {
    case AccessMethod::ClassA: return kMaxRegClassA;
    case AccessMethod::Gmp: return kMaxRegGmpBlock;
    case AccessMethod::Smp: return kMaxRegSmp;
  }
  return 0;
}

std::optional<Mad> encode_access_register(const AccessRegisterRequest& r) {
  if (r.image.size() > max_register_size(r.method) || r.image.size() % 4 != 0) return std::nullopt;
  Mad mad{};
  MadHeader h;
  h.tid = r.tid;
  if (r.method == AccessMethod::Gmp) {
    if (r.reg_method != kRegMethodQuery) return std::nullopt;  // AccessRegisterGMP is GET-only
    h.mgmt_class = kClassVendorA;
    h.method = kMethodGet;
    h.attr_id = kAttrAccessRegisterGmp;
    h.attr_mod = r.register_id;
    put_header(mad, h);
    put_be64(mad, kOffVendorData, r.key);
    put_be32(mad, kOffGmpConfig, 0);  // block 0: every register here fits one block
    std::copy(r.image.begin(), r.image.end(), mad.begin() + kOffGmpRegister);
    return mad;
  }
  // Class 0xA and SMP: Set method carries both query and write; the TLV says which.
  h.mgmt_class = r.method == AccessMethod::Smp ? kClassSmiLid : kClassVendorA;
  h.method = kMethodSet;
  h.attr_id = kAttrAccessRegister;
  put_header(mad, h);
  put_be64(mad, kOffMkey, r.key);
  const std::size_t op = tlv_offset(r.method);
  put_be32(mad, op, tlv_word(kTlvOperation, kOpTlvLenDwords));
  put_be32(mad, op + 4, static_cast<uint32_t>(r.register_id) << 16 |
                            static_cast<uint32_t>(r.reg_method & 0x7F) << 8 | kOpTlvClass);
  const std::size_t reg = op + kOpTlvSize;
  put_be32(mad, reg, tlv_word(kTlvRegister, static_cast<uint16_t>((r.image.size() + kRegTlvHeaderSize) / 4)));
  std::copy(r.image.begin(), r.image.end(), mad.begin() + static_cast<std::ptrdiff_t>(reg + kRegTlvHeaderSize));
  return mad;
}

RegisterResult parse_access_register_reply(std::span<const uint8_t> mad, AccessMethod method,
                                           uint16_t register_id, std::size_t register_size,
                                           std::optional<uint64_t> tid) {
  const std::string what = register_name(register_id) + " via " + std::string(access_method_name(method));
  if (register_size > max_register_size(method)) {
    return error(ErrorKind::Unsupported, what + ": " + std::to_string(register_size) + "-byte register does not fit");
  }
  const uint8_t cls = method == AccessMethod::Smp ? kClassSmiLid : kClassVendorA;
  const uint16_t attr = method == AccessMethod::Gmp ? kAttrAccessRegisterGmp : kAttrAccessRegister;
  MadHeader h;
  if (auto e = check_envelope(mad, cls, attr, tid, h)) {
    e->message = what + ": " + e->message;
    return *e;
  }
  if (method == AccessMethod::Gmp) {
    if (h.status != 0) {
      // The GMP form reports the register status in the MAD status.
      auto e = check_mad_status(h.status, what);
      if (h.status == kGmpStatusBusy) e->kind = ErrorKind::Busy;
      e->method_unsupported = h.status == kGmpStatusClassUnsupported || h.status == kGmpStatusMethodUnsupported;
      return *e;
    }
    if (h.attr_mod != register_id) {
      return error(ErrorKind::Corrupt, what + ": reply is for " + register_name(static_cast<uint16_t>(h.attr_mod)));
    }
    const auto first = mad.begin() + kOffGmpRegister;
    return RegisterReply{std::vector<uint8_t>(first, first + static_cast<std::ptrdiff_t>(register_size))};
  }
  if (auto e = check_mad_status(h.status, what)) return *e;
  const std::size_t op = tlv_offset(method);
  const uint32_t op0 = be32(mad, op);
  const uint32_t op1 = be32(mad, op + 4);
  if ((op0 >> 27) != kTlvOperation || ((op0 >> 16) & 0x7FF) != kOpTlvLenDwords) {
    return error(ErrorKind::Corrupt, what + ": no Operation TLV in the reply (word " + hex(op0, 8) + ")");
  }
  if ((op1 >> 16) != register_id) {
    return error(ErrorKind::Corrupt, what + ": reply is for " + register_name(static_cast<uint16_t>(op1 >> 16)));
  }
  const auto reg_status = static_cast<uint8_t>((op0 >> 8) & 0x7F);
  if (reg_status != kRegStatusOk) {
    return error(reg_status_kind(reg_status), what + ": register status " + hex(reg_status, 2) + " (" +
                                                  describe_reg_status(reg_status) + ")",
                 0, reg_status,
                 reg_status == kRegStatusClassUnsupported || reg_status == kRegStatusMethodUnsupported ||
                     reg_status == kRegStatusVersionUnsupported);
  }
  const std::size_t reg = op + kOpTlvSize;
  const uint32_t reg0 = be32(mad, reg);
  const std::size_t reg_len = ((reg0 >> 16) & 0x7FF) * 4;
  if ((reg0 >> 27) != kTlvRegister || reg_len < register_size + kRegTlvHeaderSize) {
    return error(ErrorKind::Corrupt, what + ": Reg TLV " + hex(reg0, 8) + " does not hold " +
                                         std::to_string(register_size) + " bytes");
  }
  const auto first = mad.begin() + static_cast<std::ptrdiff_t>(reg + kRegTlvHeaderSize);
  return RegisterReply{std::vector<uint8_t>(first, first + static_cast<std::ptrdiff_t>(register_size))};
}

Mad encode_smp_get(uint16_t attr_id, uint32_t attr_mod, uint64_t tid, uint64_t m_key) {
  Mad mad{};
  put_header(mad, get_header(kClassSmiLid, attr_id, attr_mod, tid));
  put_be64(mad, kOffMkey, m_key);
  return mad;
}

std::optional<Mad> encode_dr_smp_get(uint16_t attr_id, uint32_t attr_mod, uint64_t tid, uint64_t m_key,
                                     std::span<const uint8_t> path) {
  if (path.size() > static_cast<std::size_t>(kDrMaxHops)) return std::nullopt;
  Mad mad{};
  MadHeader h = get_header(kClassSmiDirected, attr_id, attr_mod, tid);
  h.status = 0;  // D = 0 (outbound), status 0
  h.class_specific = static_cast<uint16_t>(path.size());  // hop pointer 0, hop count
  put_header(mad, h);
  put_be64(mad, kOffMkey, m_key);
  put_be16(mad, kOffDrSlid, kPermissiveLid);
  put_be16(mad, kOffDrDlid, kPermissiveLid);
  std::copy(path.begin(), path.end(), mad.begin() + kOffDrInitialPath + 1);  // byte 0 unused
  return mad;
}

Mad encode_general_info_get(uint64_t tid, uint64_t vs_key) {
  Mad mad{};
  put_header(mad, get_header(kClassVendorA, kAttrGeneralInfo, 0, tid));
  put_be64(mad, kOffVendorData, vs_key);
  return mad;
}

SmpResult parse_smp_reply(std::span<const uint8_t> mad, uint8_t mgmt_class, uint16_t attr_id,
                          std::optional<uint64_t> tid) {
  const std::string what = "SMP " + hex(attr_id, 4);
  MadHeader h;
  if (auto e = check_envelope(mad, mgmt_class, attr_id, tid, h)) {
    e->message = what + ": " + e->message;
    return *e;
  }
  // A directed-route reply carries D in bit 15 of its status word.
  const uint16_t status = mgmt_class == kClassSmiDirected ? h.status & static_cast<uint16_t>(~kDrDirectionBit) : h.status;
  if (auto e = check_mad_status(status, what)) return *e;
  std::array<uint8_t, kSmpDataSize> data{};
  std::copy(mad.begin() + kOffSmpData, mad.begin() + kOffSmpData + kSmpDataSize, data.begin());
  return data;
}

std::variant<bool, ReplyError> parse_general_info_reply(std::span<const uint8_t> mad, std::optional<uint64_t> tid) {
  MadHeader h;
  if (auto e = check_envelope(mad, kClassVendorA, kAttrGeneralInfo, tid, h)) {
    e->message = "GeneralInfo: " + e->message;
    return *e;
  }
  if (auto e = check_mad_status(h.status, "GeneralInfo")) return *e;
  return ((be32(mad, kOffGeneralInfoCapMask) >> kGeneralInfoCapAccessRegGmp) & 1) != 0;
}

Mad encode_pma_get(uint16_t attr_id, uint8_t port_select, uint64_t tid) {
  Mad mad{};
  put_header(mad, get_header(kClassPerfMgt, attr_id, 0, tid));
  if (attr_id != kAttrClassPortInfo) mad[kOffPmaData + kPcPortSelect] = port_select;
  return mad;
}

PmaResult parse_pma_reply(std::span<const uint8_t> mad, uint16_t attr_id, std::optional<uint64_t> tid) {
  const std::string what = "PMA " + hex(attr_id, 4);
  MadHeader h;
  if (auto e = check_envelope(mad, kClassPerfMgt, attr_id, tid, h)) {
    e->message = what + ": " + e->message;
    return *e;
  }
  if (auto e = check_mad_status(h.status, what)) return *e;
  std::array<uint8_t, kPmaDataSize> data{};
  std::copy(mad.begin() + kOffPmaData, mad.begin() + kOffPmaData + kPmaDataSize, data.begin());
  return data;
}

}  // namespace xcvr::ib
