// Reply decoding: every MAD status, register (Operation TLV) status, GMP status and MCIA status
// maps to its typed error; truncated, garbage and mismatched replies are errors, never crashes.
#include <gtest/gtest.h>

#include <random>

#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/registers.hpp"
#include "drivers/ib/smp_attributes.hpp"
#include "tests/support/ib/mad_encoders.hpp"
#include "tests/unit/ib_test_util.hpp"

namespace xcvr::ib {
namespace {

using drivers::ErrorKind;

constexpr uint64_t kTid = 0x0000000700000123ULL;

Mad request(AccessMethod m, uint16_t reg, std::span<const uint8_t> image) {
  return *encode_access_register({m, reg, kRegMethodQuery, image, kTid, 0});
}

// What firmware sends back: the request as a GetResp with `status`, the register filled in.
Mad reply_to(Mad mad, uint16_t status = 0) {
  mad[kOffMethod] = kMethodGetResponse;
  put_be16(mad, kOffStatus, status);
  return mad;
}

void set_reg_status(Mad& mad, std::size_t tlv_at, uint8_t status) {
  mad[tlv_at + 2] = static_cast<uint8_t>(status & 0x7F);
}

Mad mcia_reply(uint8_t mcia_status, std::size_t at = kOffClassAData + 20) {
  const auto image = encode_mcia(mcia_read(3, 0x50, 0, 0, 0, 26));
  Mad r = reply_to(request(AccessMethod::ClassA, kRegMcia, image));
  r[at + 3] = mcia_status;
  for (int i = 0; i < 26; ++i) r[at + 16 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(0x18 + i);
  return r;
}

TEST(IbMadReply, ClassASuccessYieldsTheRegister) {
  const Mad r = mcia_reply(kMciaOk);
  auto parsed = parse_access_register_reply(r, AccessMethod::ClassA, kRegMcia, kSizeMcia, kTid);
  ASSERT_TRUE(std::holds_alternative<RegisterReply>(parsed)) << std::get<ReplyError>(parsed).message;
  const auto m = decode_mcia(std::get<RegisterReply>(parsed).image);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->module, 3);
  EXPECT_EQ(m->data[0], 0x18);
  EXPECT_EQ(m->data[25], 0x18 + 25);
}

TEST(IbMadReply, EveryMadStatus) {
  struct Case {
    uint16_t status;
    ErrorKind kind;
    bool method_unsupported;
    const char* words;
  };
  const Case cases[] = {
      {0x0001, ErrorKind::Busy, false, "busy"},
      {0x0002, ErrorKind::Unsupported, false, "redirect"},
      {0x0004, ErrorKind::Unsupported, true, "version"},
      {0x0008, ErrorKind::Unsupported, true, "method not supported"},
      {0x000C, ErrorKind::Unsupported, true, "method/attribute"},
      {0x001C, ErrorKind::Unsupported, false, "invalid field"},
      {0x0100, ErrorKind::Corrupt, false, "class-specific"},
      {0x0010, ErrorKind::Corrupt, false, "invalid-field code 4"},
  };
  const auto image = encode_pmaos({});
  for (const Case& c : cases) {
    const Mad r = reply_to(request(AccessMethod::ClassA, kRegPmaos, image), c.status);
    auto parsed = parse_access_register_reply(r, AccessMethod::ClassA, kRegPmaos, kSizePmaos, kTid);
    ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed)) << c.status;
    const ReplyError& e = std::get<ReplyError>(parsed);
    EXPECT_EQ(e.kind, c.kind) << c.status << ": " << e.message;
    EXPECT_EQ(e.method_unsupported, c.method_unsupported) << c.status;
    EXPECT_EQ(e.mad_status, c.status);
    EXPECT_NE(e.message.find(c.words), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("PMAOS via class-a"), std::string::npos) << e.message;
  }
}

TEST(IbMadReply, EveryRegisterStatus) {
  struct Case {
    uint8_t status;
    ErrorKind kind;
    bool method_unsupported;
    const char* words;
  };
  const Case cases[] = {
      {1, ErrorKind::Busy, false, "device busy"},
      {2, ErrorKind::Unsupported, true, "version not supported"},
      {3, ErrorKind::Unsupported, false, "unknown TLV"},
      {4, ErrorKind::Unsupported, false, "register not supported"},
      {5, ErrorKind::Unsupported, true, "class not supported"},
      {6, ErrorKind::Unsupported, true, "method not supported"},
      {7, ErrorKind::Unsupported, false, "bad parameter"},
      {8, ErrorKind::Busy, false, "resource not available"},
      {9, ErrorKind::Busy, false, "receipt"},
      {0x70, ErrorKind::Busy, false, "internal error"},
      {0x22, ErrorKind::Corrupt, false, "0x22"},
  };
  for (AccessMethod m : {AccessMethod::ClassA, AccessMethod::Smp}) {
    const std::size_t tlv = m == AccessMethod::Smp ? kOffSmpData : kOffClassAData;
    for (const Case& c : cases) {
      Mad r = reply_to(request(m, kRegPmaos, encode_pmaos({})));
      set_reg_status(r, tlv, c.status);
      auto parsed = parse_access_register_reply(r, m, kRegPmaos, kSizePmaos, kTid);
      ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed));
      const ReplyError& e = std::get<ReplyError>(parsed);
      EXPECT_EQ(e.kind, c.kind) << int(c.status) << ": " << e.message;
      EXPECT_EQ(e.reg_status, c.status);
      EXPECT_EQ(e.method_unsupported, c.method_unsupported) << int(c.status);
      EXPECT_NE(e.message.find(c.words), std::string::npos) << e.message;
    }
  }
}

TEST(IbMadReply, EveryGmpStatus) {
  // translate_mad_status_to_reg_status_gmp: 1 busy, 4 class n/s, 12 method n/s, 20 register
  // n/s, 28 bad parameter.
  struct Case {
    uint16_t status;
    ErrorKind kind;
    bool method_unsupported;
  };
  const Case cases[] = {{1, ErrorKind::Busy, false},         {4, ErrorKind::Unsupported, true},
                        {12, ErrorKind::Unsupported, true},  {20, ErrorKind::Unsupported, false},
                        {28, ErrorKind::Unsupported, false}, {0x0300, ErrorKind::Corrupt, false}};
  const auto image = encode_mcia(mcia_read(1, 0x50, 0, 0, 0, 8));
  for (const Case& c : cases) {
    const Mad r = reply_to(request(AccessMethod::Gmp, kRegMcia, image), c.status);
    auto parsed = parse_access_register_reply(r, AccessMethod::Gmp, kRegMcia, kSizeMcia, kTid);
    ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed)) << c.status;
    EXPECT_EQ(std::get<ReplyError>(parsed).kind, c.kind) << c.status;
    EXPECT_EQ(std::get<ReplyError>(parsed).method_unsupported, c.method_unsupported) << c.status;
  }
  const Mad ok = reply_to(request(AccessMethod::Gmp, kRegMcia, image));
  auto parsed = parse_access_register_reply(ok, AccessMethod::Gmp, kRegMcia, kSizeMcia, kTid);
  ASSERT_TRUE(std::holds_alternative<RegisterReply>(parsed));
  EXPECT_EQ(std::get<RegisterReply>(parsed).image.size(), kSizeMcia);
}

TEST(IbMadReply, EveryMciaStatus) {
  struct Case {
    uint8_t status;
    ErrorKind kind;
    const char* words;
  };
  const Case cases[] = {{1, ErrorKind::Absent, "no EEPROM"},       {2, ErrorKind::Unsupported, "not supported"},
                        {3, ErrorKind::Absent, "not connected"},   {4, ErrorKind::Unsupported, "type invalid"},
                        {9, ErrorKind::Busy, "I2C error"},         {16, ErrorKind::Unsupported, "disabled"},
                        {0x55, ErrorKind::Corrupt, "status 85"}};
  for (const Case& c : cases) {
    EXPECT_EQ(mcia_status_kind(c.status), c.kind) << int(c.status);
    EXPECT_NE(describe_mcia_status(c.status).find(c.words), std::string::npos) << describe_mcia_status(c.status);
    // The status survives the trip through the reply parser into the register.
    auto parsed = parse_access_register_reply(mcia_reply(c.status), AccessMethod::ClassA, kRegMcia, kSizeMcia, kTid);
    ASSERT_TRUE(std::holds_alternative<RegisterReply>(parsed));
    EXPECT_EQ(decode_mcia(std::get<RegisterReply>(parsed).image)->status, c.status);
  }
}

TEST(IbMadReply, TruncatedRepliesAtEveryLength) {
  const Mad r = mcia_reply(kMciaOk);
  for (std::size_t n = 0; n < kMadSize; ++n) {
    for (AccessMethod m : {AccessMethod::ClassA, AccessMethod::Gmp, AccessMethod::Smp}) {
      auto parsed = parse_access_register_reply(std::span(r).first(n), m, kRegPmaos, kSizePmaos, kTid);
      ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed)) << n;
      EXPECT_EQ(std::get<ReplyError>(parsed).kind, ErrorKind::Corrupt);
      EXPECT_NE(std::get<ReplyError>(parsed).message.find("truncated"), std::string::npos);
    }
    EXPECT_TRUE(std::holds_alternative<ReplyError>(parse_smp_reply(std::span(r).first(n), kClassSmiLid, kAttrNodeInfo)));
    EXPECT_TRUE(std::holds_alternative<ReplyError>(parse_general_info_reply(std::span(r).first(n))));
  }
  EXPECT_FALSE(decode_pmaos(std::span(r).first(15)));
  EXPECT_FALSE(decode_mgpir(std::span(r).first(0x9F)));
  EXPECT_FALSE(decode_mcam(std::span(r).first(0x47)));
  EXPECT_FALSE(decode_pmlp(std::span(r).first(0x3F)));
  EXPECT_FALSE(decode_node_info(std::span(r).first(39)));
  EXPECT_FALSE(decode_port_info(std::span(r).first(32)));
}

TEST(IbMadReply, MismatchedRepliesAreCorrupt) {
  const Mad good = mcia_reply(kMciaOk);
  auto expect_corrupt = [](const Mad& m, const char* words) {
    auto parsed = parse_access_register_reply(m, AccessMethod::ClassA, kRegMcia, kSizeMcia, kTid);
    ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed)) << words;
    EXPECT_EQ(std::get<ReplyError>(parsed).kind, ErrorKind::Corrupt) << words;
    EXPECT_NE(std::get<ReplyError>(parsed).message.find(words), std::string::npos) << std::get<ReplyError>(parsed).message;
  };
  Mad m = good;
  m[kOffBaseVersion] = 2;
  expect_corrupt(m, "base version");
  m = good;
  m[kOffMgmtClass] = 0x09;
  expect_corrupt(m, "management class");
  m = good;
  m[kOffMethod] = kMethodSet;
  expect_corrupt(m, "not GetResp");
  m = good;
  put_be16(m, kOffAttrId, 0xFF53);
  expect_corrupt(m, "attribute");
  m = good;
  m[kOffTid + 7] ^= 1;
  expect_corrupt(m, "TID");
  m = good;
  m[kOffTid] ^= 0xFF;  // the kernel's half of the TID is not ours to check
  EXPECT_TRUE(std::holds_alternative<RegisterReply>(
      parse_access_register_reply(m, AccessMethod::ClassA, kRegMcia, kSizeMcia, kTid)));
  m = good;
  m[kOffClassAData] = 0x10;  // Operation TLV type 2
  expect_corrupt(m, "Operation TLV");
  m = good;
  put_be16(m, kOffClassAData + 4, kRegPmaos);
  expect_corrupt(m, "reply is for PMAOS");
  m = good;
  m[kOffClassAData + 16] = 0x08;  // Reg TLV type 1
  expect_corrupt(m, "Reg TLV");
  m = good;
  put_be16(m, kOffClassAData + 16, static_cast<uint16_t>(3 << 11 | 10));  // len 10 dwords < 38
  expect_corrupt(m, "Reg TLV");
  // GMP reply for another register.
  const auto image = encode_mcia({});
  Mad g = reply_to(request(AccessMethod::Gmp, kRegMcia, image));
  put_be32(g, kOffAttrMod, kRegPmaos);
  auto parsed = parse_access_register_reply(g, AccessMethod::Gmp, kRegMcia, kSizeMcia, kTid);
  ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed));
  EXPECT_NE(std::get<ReplyError>(parsed).message.find("PMAOS"), std::string::npos);
}

TEST(IbMadReply, GarbageNeverCrashesAndNeverYieldsWrongSizes) {
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<int> byte(0, 255);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> bytes(static_cast<std::size_t>(byte(rng)) + (i % 2 ? 200 : 0));
    for (auto& b : bytes) b = static_cast<uint8_t>(byte(rng));
    if (i % 3 == 0 && bytes.size() >= kMadHeaderSize) {  // plausible headers get further in
      bytes[0] = 1;
      bytes[1] = kClassVendorA;
      bytes[3] = kMethodGetResponse;
      bytes[4] = bytes[5] = 0;
      bytes[16] = 0xFF;
      bytes[17] = 0x52;
    }
    for (AccessMethod m : {AccessMethod::ClassA, AccessMethod::Gmp, AccessMethod::Smp}) {
      const std::size_t size = m == AccessMethod::Smp ? kSizePmaos : kSizeMcia;
      auto parsed = parse_access_register_reply(bytes, m, m == AccessMethod::Smp ? kRegPmaos : kRegMcia, size);
      if (auto* ok = std::get_if<RegisterReply>(&parsed)) {
        ++accepted;
        ASSERT_EQ(ok->image.size(), size);
      } else {
        ASSERT_FALSE(std::get<ReplyError>(parsed).message.empty());
      }
    }
    (void)parse_smp_reply(bytes, kClassSmiDirected, kAttrNodeInfo);
    (void)parse_general_info_reply(bytes);
    (void)decode_node_description(bytes);
  }
  EXPECT_LT(accepted, 20000);
}

TEST(IbMadReply, SmpRepliesAndAttributes) {
  const uint8_t path[] = {1};
  Mad dr = *encode_dr_smp_get(kAttrNodeInfo, 0, kTid, 0, path);
  dr[kOffMethod] = kMethodGetResponse;
  put_be16(dr, kOffStatus, kDrDirectionBit);  // D set on the way back; status 0
  NodeInfo ni;
  ni.node_type = kNodeTypeCa;
  ni.node_guid = 0x1122334455667788ULL;
  const auto data = encode_node_info(ni);
  std::copy(data.begin(), data.end(), dr.begin() + kOffSmpData);
  auto parsed = parse_smp_reply(dr, kClassSmiDirected, kAttrNodeInfo, kTid);
  ASSERT_TRUE((std::holds_alternative<std::array<uint8_t, kSmpDataSize>>(parsed)));
  EXPECT_EQ(decode_node_info(std::get<0>(parsed))->node_guid, ni.node_guid);
  put_be16(dr, kOffStatus, kDrDirectionBit | 0x000C);
  EXPECT_TRUE(std::holds_alternative<ReplyError>(parse_smp_reply(dr, kClassSmiDirected, kAttrNodeInfo, kTid)));

  std::vector<uint8_t> desc(64, 0);
  const std::string text = "spine-01 HCA-1\x01x  ";
  std::copy(text.begin(), text.end(), desc.begin());
  EXPECT_EQ(decode_node_description(desc), "spine-01 HCA-1?x");
  std::fill(desc.begin(), desc.end(), 'A');  // no NUL at all: stops at 64
  EXPECT_EQ(decode_node_description(desc).size(), 64u);
}

TEST(IbMadReply, GeneralInfoCapabilityBit) {
  Mad r = encode_general_info_get(kTid, 0);
  r[kOffMethod] = kMethodGetResponse;
  EXPECT_EQ(std::get<bool>(parse_general_info_reply(r, kTid)), false);
  put_be32(r, kOffGeneralInfoCapMask, 1u << 20);
  EXPECT_EQ(std::get<bool>(parse_general_info_reply(r, kTid)), true);
  put_be16(r, kOffStatus, 0x000C);
  EXPECT_TRUE(std::holds_alternative<ReplyError>(parse_general_info_reply(r, kTid)));
}

}  // namespace
}  // namespace xcvr::ib
