// Golden MAD and register bytes. Every vector below is written out by hand from the documented
// layouts (the source is named above each one) and compared byte for byte with the encoder;
// where rdma-core's libibmad can build the same MAD (mad_encode, loaded at run time), its bytes
// must agree too — an encoder we did not write.
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <infiniband/mad.h>

#include <numeric>

#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/registers.hpp"
#include "drivers/ib/smp_attributes.hpp"
#include "tests/support/ib/mad_encoders.hpp"
#include "tests/unit/ib_test_util.hpp"

namespace xcvr::ib {
namespace {

using test::hex;
using test::mad_with;
using test::same_bytes;

// MCIA with a distinct value in every field.
// Source: mstflint@b9d9e844 tools_layouts/cables_layouts.c reg_access_hca_mcia_ext_pack, adb2c
// offsets MSB-first within each dword (header comments give the same as PRM bits):
//   dword0: l (0,1)=bit31  pnv (2,1)=bit29  module (8,8)=23:16  slot_index (16,4)=15:12  status (24,8)=7:0
//   dword1: i2c_device_address (32,8)=31:24  page_number (40,8)=23:16  device_address (48,16)=15:0
//   dword2: passwd_length (67,1)=bit28  bg_mode (68,1)=bit27  bank_number (72,8)=23:16  size (80,16)=15:0
//   dword3: password (96,32); dword[i] at bit 128+32i; password_msb at bit 1152 (byte 144).
Mcia every_field_mcia() {
  Mcia m;
  m.lock = true;
  m.page_number_valid = true;
  m.module = 0x2A;
  m.slot_index = 0x5;
  m.status = 0x09;
  m.i2c_device_address = 0x51;
  m.page_number = 0x11;
  m.device_address = 0x0080;
  m.password_length = true;
  m.background_mode = true;
  m.bank_number = 0x03;
  m.size = 0x0030;
  m.password = 0xDEADBEEF;
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = static_cast<uint8_t>(i ^ 0x5A);
  m.password_msb = 0x01020304;
  return m;
}

std::vector<uint8_t> every_field_mcia_bytes() {
  std::vector<uint8_t> v = hex("A0 2A 50 09 | 51 11 00 80 | 18 03 00 30 | DE AD BE EF");
  for (int i = 0; i < 128; ++i) v.push_back(static_cast<uint8_t>(i ^ 0x5A));
  const auto tail = hex("01 02 03 04");
  v.insert(v.end(), tail.begin(), tail.end());
  return v;
}

TEST(IbMadGolden, McciaEveryFieldEncodes) {
  const auto bytes = encode_mcia(every_field_mcia());
  ASSERT_EQ(bytes.size(), 0x94u);  // REG_ACCESS_HCA_MCIA_EXT_SIZE, mlxsw MLXSW_REG_MCIA_LEN
  EXPECT_TRUE(same_bytes(bytes, every_field_mcia_bytes()));
}

TEST(IbMadGolden, McciaEveryFieldDecodes) {
  const auto m = decode_mcia(every_field_mcia_bytes());
  ASSERT_TRUE(m);
  const Mcia want = every_field_mcia();
  EXPECT_EQ(m->lock, want.lock);
  EXPECT_EQ(m->page_number_valid, want.page_number_valid);
  EXPECT_EQ(m->module, want.module);
  EXPECT_EQ(m->slot_index, want.slot_index);
  EXPECT_EQ(m->status, want.status);
  EXPECT_EQ(m->i2c_device_address, want.i2c_device_address);
  EXPECT_EQ(m->page_number, want.page_number);
  EXPECT_EQ(m->device_address, want.device_address);
  EXPECT_EQ(m->password_length, want.password_length);
  EXPECT_EQ(m->background_mode, want.background_mode);
  EXPECT_EQ(m->bank_number, want.bank_number);
  EXPECT_EQ(m->size, want.size);
  EXPECT_EQ(m->password, want.password);
  EXPECT_EQ(m->data, want.data);
  EXPECT_EQ(m->password_msb, want.password_msb);
  const auto bytes = every_field_mcia_bytes();
  EXPECT_FALSE(decode_mcia(std::span(bytes).first(147)));
}

// An MCIA query of module 7, page 11h bytes 128..201 (74 B), bank 0, at 0x50: the dynamic lane
// read of a CMIS module.
std::vector<uint8_t> mcia_lane_read_bytes() {
  return hex("00 07 00 00 | 50 11 00 80 | 00 00 00 4A");
}

TEST(IbMadGolden, McciaReadRequest) {
  const auto bytes = encode_mcia(mcia_read(7, 0x50, 0, 0x11, 128, 74));
  std::vector<uint8_t> want = mcia_lane_read_bytes();
  want.resize(0x94, 0);
  EXPECT_TRUE(same_bytes(bytes, want));
  // Lower memory: page and bank are sent as 0 whatever the request said.
  const auto lower = encode_mcia(mcia_read(7, 0x50, 1, 0x11, 0, 26));
  std::vector<uint8_t> want_lower = hex("00 07 00 00 | 50 00 00 00 | 00 00 00 1A");
  want_lower.resize(0x94, 0);
  EXPECT_TRUE(same_bytes(lower, want_lower));
}

// Class 0xA Access Register carrying that MCIA.
// Sources: MAD header IBA vol1 §13.4.3 (base version 1, class, class version 1, method, status,
// class-specific, TID, attribute id, reserved, attribute modifier); mstflint mtcr_ib_ofed.c
// cls_a_query_via: class 0x0A, method MACCESS_REG_METHOD_SET (2), attr IB_SMP_ATTR_REG_ACCESS
// 0xff52, attr_mod 0, VS key in the M_Key slot (byte 24), data at CLASS_VS_DATA_OFFSET 0x20;
// mtcr_ul_com.c mreg_send_raw + packets_layout.c OperationTlv_pack / reg_tlv_pack:
//   Op TLV  08 04 00 00 (Type 1 << 27 | len 4 << 16) | 90 14 01 01 (reg 0x9014, method 1 query,
//   class 1) | TID 0 (8 bytes);  Reg TLV 18 26 00 00 (Type 3 << 27 | (148 + 4) / 4 = 38 << 16).
TEST(IbMadGolden, ClassAAccessRegisterMcia) {
  const auto image = encode_mcia(mcia_read(7, 0x50, 0, 0x11, 128, 74));
  const auto mad = encode_access_register(
      {AccessMethod::ClassA, kRegMcia, kRegMethodQuery, image, 0x0000000100000042ULL, 0x1122334455667788ULL});
  ASSERT_TRUE(mad);
  const auto want = mad_with({
      {0, hex("01 0A 01 02 | 00 00 00 00 | 00 00 00 01 00 00 00 42 | FF 52 00 00 | 00 00 00 00")},
      {24, hex("11 22 33 44 55 66 77 88")},
      {32, hex("08 04 00 00 | 90 14 01 01 | 00 00 00 00 00 00 00 00")},
      {48, hex("18 26 00 00")},
      {52, mcia_lane_read_bytes()},
  });
  EXPECT_TRUE(same_bytes(*mad, want));
}

// The GMP form of the same query. Source: mstflint mtcr_ib_ofed.c mib_send_gmp_access_reg_mad:
// class 0x0A, method GET (1), attr IB_VS_ATTR_ACCESS_REGISTER_GMP 0x51, attr_mod = register
// id, vendor data at IB_VENDOR_RANGE1_DATA_OFFS 24: VS key (2 dwords), config dword
// block_num << 16 = 0, the register image (no TLVs) from byte 36.
TEST(IbMadGolden, GmpAccessRegisterMcia) {
  const auto image = encode_mcia(mcia_read(7, 0x50, 0, 0x11, 128, 74));
  const auto mad = encode_access_register(
      {AccessMethod::Gmp, kRegMcia, kRegMethodQuery, image, 0x0000000100000043ULL, 0x1122334455667788ULL});
  ASSERT_TRUE(mad);
  const auto want = mad_with({
      {0, hex("01 0A 01 01 | 00 00 00 00 | 00 00 00 01 00 00 00 43 | 00 51 00 00 | 00 00 90 14")},
      {24, hex("11 22 33 44 55 66 77 88")},
      {32, hex("00 00 00 00")},
      {36, mcia_lane_read_bytes()},
  });
  EXPECT_TRUE(same_bytes(*mad, want));
  // GMP is query-only.
  EXPECT_FALSE(encode_access_register({AccessMethod::Gmp, kRegMcia, kRegMethodWrite, image, 1, 0}));
}

// SMP Access Register for PMAOS (16 B fits INBAND_MAX_REG_SIZE 44). Sources: mstflint
// mib_acces_reg_mad (smp_set_via, attr 0xff52, attr_mod 0, LID-routed class 0x01), SMP data
// at IB_SMP_DATA_OFFS 64; PMAOS (reg_access_switch_pmaos_reg_ext_pack): module at
// offset 8 size 8 -> dword0 bits 23:16.  Reg TLV len (16 + 4) / 4 = 5.
TEST(IbMadGolden, SmpAccessRegisterPmaos) {
  Pmaos q;
  q.module = 5;
  const auto image = encode_pmaos(q);
  const auto mad =
      encode_access_register({AccessMethod::Smp, kRegPmaos, kRegMethodQuery, image, 0x77, 0x0102030405060708ULL});
  ASSERT_TRUE(mad);
  const auto want = mad_with({
      {0, hex("01 01 01 02 | 00 00 00 00 | 00 00 00 00 00 00 00 77 | FF 52 00 00 | 00 00 00 00")},
      {24, hex("01 02 03 04 05 06 07 08")},
      {64, hex("08 04 00 00 | 50 12 01 01 | 00 00 00 00 00 00 00 00")},
      {80, hex("18 05 00 00")},
      {84, hex("00 05 00 00 | 00 00 00 00 | 00 00 00 00 | 00 00 00 00")},
  });
  EXPECT_TRUE(same_bytes(*mad, want));
  // MCIA (148 B) cannot ride an SMP (64-byte data area), nor Class 0xA beyond 204 bytes.
  const auto mcia = encode_mcia({});
  EXPECT_FALSE(encode_access_register({AccessMethod::Smp, kRegMcia, kRegMethodQuery, mcia, 1, 0}));
  std::vector<uint8_t> too_big(208, 0);
  EXPECT_FALSE(encode_access_register({AccessMethod::ClassA, 0x1234, kRegMethodQuery, too_big, 1, 0}));
}

// Directed-route SMP Get NodeInfo along ports 1 then 3. Sources: IBA §14.2.1.2 (DR SMP:
// D | status, hop pointer, hop count; DrSLID/DrDLID 0xFFFF permissive; initial path at 128,
// byte 0 unused), mad.h IB_ATTR_NODE_INFO 0x11.
TEST(IbMadGolden, DirectedRouteNodeInfo) {
  const uint8_t path[] = {1, 3};
  const auto mad = encode_dr_smp_get(kAttrNodeInfo, 0, 5, 0, path);
  ASSERT_TRUE(mad);
  const auto want = mad_with({
      {0, hex("01 81 01 01 | 00 00 00 02 | 00 00 00 00 00 00 00 05 | 00 11 00 00 | 00 00 00 00")},
      {32, hex("FF FF FF FF")},
      {128, hex("00 01 03")},
  });
  EXPECT_TRUE(same_bytes(*mad, want));
}

// GeneralInfo Get (mstflint mib_get_general_info_gmp: class 0x0A, GET, attr 0x17, mod 0).
TEST(IbMadGolden, GeneralInfoQuery) {
  const auto mad = encode_general_info_get(0x99, 0xAABBCCDDEEFF0011ULL);
  const auto want = mad_with({
      {0, hex("01 0A 01 01 | 00 00 00 00 | 00 00 00 00 00 00 00 99 | 00 17 00 00 | 00 00 00 00")},
      {24, hex("AA BB CC DD EE FF 00 11")},
  });
  EXPECT_TRUE(same_bytes(mad, want));
}

// PMAOS, MGPIR, MCAM, PMLP: every field distinct, from the layouts named in mad_layout.hpp.
TEST(IbMadGolden, PmaosEveryField) {
  // dword0 = rst 1<<31 | slot 3<<24 | module 0x35<<16 | admin 2<<8 | oper 3 = 0x83350203
  // dword1 = ase 1<<31 | ee 1<<30 | rev_incompatible 1<<28 | oper_notif 1<<16 | error 7<<8 | e 2
  const auto bytes = hex("83 35 02 03 | D0 01 07 02 | 00 00 00 00 | 00 00 00 00");
  Pmaos p;
  p.reset = true;
  p.slot_index = 3;
  p.module = 0x35;
  p.admin_status = 2;
  p.oper_status = 3;
  p.ase = p.ee = p.rev_incompatible = true;
  p.operational_notification = 1;
  p.error_type = 7;
  p.event = 2;
  EXPECT_TRUE(same_bytes(encode_pmaos(p), bytes));
  const auto d = decode_pmaos(bytes);
  ASSERT_TRUE(d);
  EXPECT_EQ(encode_pmaos(*d), encode_pmaos(p));
  EXPECT_EQ(pmaos_presence(*d), drivers::Presence::Present);  // plugged with error is still there
  EXPECT_EQ(describe_pmaos_error(d->error_type), "bad cable (module/cable is shorted)");
}

TEST(IbMadGolden, MgpirEveryField) {
  // hw_info dword0 = slot 2<<28 | device_type 1<<24 | per_flash 4<<16 | per_system 0x40<<8 | devices 1
  // dword1 = max_per_slot 0x20<<16 | slots 2<<8 | modules 0x40
  std::vector<uint8_t> bytes = hex("21 04 40 01 | 00 20 02 40");
  bytes.resize(0xA0, 0);
  Mgpir m{2, 1, 4, 0x40, 1, 0x20, 2, 0x40};
  EXPECT_TRUE(same_bytes(encode_mgpir(m), bytes));
  EXPECT_EQ(decode_mgpir(bytes)->num_of_modules, 0x40);
  EXPECT_EQ(decode_mgpir(bytes)->num_of_slots, 2);
}

TEST(IbMadGolden, McamBit34IsMcia128Bytes) {
  // mlx5_ifc.h mcam_enhanced_features_bits: reserved_at_0[0x5d] then mcia_32dwords — MSB-first
  // bit 93 of the 16-byte field at MCAM byte 0x28, i.e. byte 0x28 + 93/8 = 0x33, value 0x80 >> 5.
  std::vector<uint8_t> bytes(0x48, 0);
  bytes[0x33] = 0x04;
  Mcam m;
  m.set_feature(kMcamMcia128Bytes, true);
  EXPECT_TRUE(same_bytes(encode_mcam(m), bytes));
  EXPECT_TRUE(decode_mcam(bytes)->feature(34));
  EXPECT_FALSE(decode_mcam(bytes)->feature(33));
  bytes[0x33] = 0;
  EXPECT_FALSE(decode_mcam(bytes)->feature(34));
}

TEST(IbMadGolden, PmlpLaneMapping) {
  // dword0 = local_port 3<<16 | width 4; lane 0 = rx_lane 2<<24 | tx_lane 1<<16 | module 0x21
  std::vector<uint8_t> bytes = hex("00 03 00 04 | 02 01 00 21");
  bytes.resize(0x40, 0);
  Pmlp p;
  p.local_port = 3;
  p.width = 4;
  p.lanes[0] = {0x21, 0, 1, 2};
  EXPECT_TRUE(same_bytes(encode_pmlp(p), bytes));
  EXPECT_EQ(decode_pmlp(bytes)->lanes[0].module, 0x21);
}

// ---- libibmad (rdma-core) as an independent encoder ----

class LibIbmad {
 public:
  LibIbmad() {
    handle_ = dlopen("libibmad.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) return;
    encode_ = reinterpret_cast<EncodeFn>(dlsym(handle_, "mad_encode"));
    get_field_ = reinterpret_cast<GetFieldFn>(dlsym(handle_, "mad_get_field"));
    get_field64_ = reinterpret_cast<GetField64Fn>(dlsym(handle_, "mad_get_field64"));
  }
  ~LibIbmad() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  bool ok() const { return encode_ != nullptr && get_field_ != nullptr && get_field64_ != nullptr; }
  std::vector<uint8_t> encode(ib_rpc_t rpc, ib_dr_path_t* dr, std::span<uint8_t> data) const {
    std::vector<uint8_t> buf(IB_MAD_SIZE, 0);
    encode_(buf.data(), &rpc, dr, data.empty() ? nullptr : data.data());
    return buf;
  }
  uint32_t field(std::span<uint8_t> buf, MAD_FIELDS f) const { return get_field_(buf.data(), 0, f); }
  uint64_t field64(std::span<uint8_t> buf, MAD_FIELDS f) const { return get_field64_(buf.data(), 0, f); }

 private:
  using EncodeFn = void* (*)(void*, ib_rpc_t*, ib_dr_path_t*, void*);
  using GetFieldFn = uint32_t (*)(void*, int, MAD_FIELDS);
  using GetField64Fn = uint64_t (*)(void*, int, MAD_FIELDS);
  void* handle_ = nullptr;
  EncodeFn encode_ = nullptr;
  GetFieldFn get_field_ = nullptr;
  GetField64Fn get_field64_ = nullptr;
};

TEST(IbMadGolden, AgreesWithLibibmadEncoder) {
  static_assert(kMadSize == IB_MAD_SIZE && kOffSmpData == IB_SMP_DATA_OFFS && kSmpDataSize == IB_SMP_DATA_SIZE);
  static_assert(kOffVendorData == IB_VENDOR_RANGE1_DATA_OFFS && kQp1Qkey == IB_DEFAULT_QP1_QKEY);
  LibIbmad lib;
  if (!lib.ok()) GTEST_SKIP() << "libibmad.so.5 not installed (Debian libibmad5)";
  // Class 0xA Access Register: the TLVs and register are "data" to libibmad (mstflint passes
  // them the same way through mad_rpc with dataoffs 0x20, datasz 224).
  const auto image = encode_mcia(every_field_mcia());
  const auto ours = *encode_access_register(
      {AccessMethod::ClassA, kRegMcia, kRegMethodQuery, image, 0x0000000100000042ULL, 0x1122334455667788ULL});
  std::vector<uint8_t> data(ours.begin() + 0x20, ours.end());
  ib_rpc_t rpc{};
  rpc.mgtclass = kClassVendorA | IB_MAD_RPC_VERSION1;
  rpc.method = IB_MAD_METHOD_SET;
  rpc.attr.id = kAttrAccessRegister;
  rpc.dataoffs = 0x20;
  rpc.datasz = 224;
  rpc.mkey = 0x1122334455667788ULL;
  rpc.trid = 0x0000000100000042ULL;
  EXPECT_TRUE(same_bytes(ours, lib.encode(rpc, nullptr, data)));

  // GMP: vendor range 1, data from byte 24 (VS key, config, register).
  const auto gmp = *encode_access_register({AccessMethod::Gmp, kRegMcia, kRegMethodQuery, image, 0x55, 0x0102030405060708ULL});
  std::vector<uint8_t> vdata(gmp.begin() + IB_VENDOR_RANGE1_DATA_OFFS, gmp.end());
  ib_rpc_t g{};
  g.mgtclass = kClassVendorA | IB_MAD_RPC_VERSION1;
  g.method = IB_MAD_METHOD_GET;
  g.attr.id = kAttrAccessRegisterGmp;
  g.attr.mod = kRegMcia;
  g.dataoffs = IB_VENDOR_RANGE1_DATA_OFFS;
  g.datasz = IB_VENDOR_RANGE1_DATA_SIZE;
  g.trid = 0x55;
  EXPECT_TRUE(same_bytes(gmp, lib.encode(g, nullptr, vdata)));

  // Directed route: hop count, path, permissive DrSLID/DrDLID.
  const uint8_t path[] = {1, 3, 17};
  const auto dr = *encode_dr_smp_get(kAttrPortInfo, 9, 0x1234, 0x42, path);
  ib_dr_path_t p{};
  p.cnt = 3;
  p.p[1] = 1;
  p.p[2] = 3;
  p.p[3] = 17;
  ib_rpc_t d{};
  d.mgtclass = IB_SMI_DIRECT_CLASS;
  d.method = IB_MAD_METHOD_GET;
  d.attr.id = IB_ATTR_PORT_INFO;
  d.attr.mod = 9;
  d.mkey = 0x42;
  d.trid = 0x1234;
  EXPECT_TRUE(same_bytes(dr, lib.encode(d, &p, {})));

  // SMA attribute decoding agrees with libibmad's field table.
  NodeInfo ni;
  ni.node_type = kNodeTypeSwitch;
  ni.num_ports = 129;
  ni.node_guid = 0x0002C90300A1B2C3ULL;
  ni.port_guid = 0x0002C90300A1B2C4ULL;
  ni.device_id = 0xD2F2;
  ni.vendor_id = 0x02C9;
  auto ni_bytes = encode_node_info(ni);
  EXPECT_EQ(lib.field(ni_bytes, IB_NODE_TYPE_F), kNodeTypeSwitch);
  EXPECT_EQ(lib.field(ni_bytes, IB_NODE_NPORTS_F), 129u);
  EXPECT_EQ(lib.field64(ni_bytes, IB_NODE_GUID_F), ni.node_guid);
  EXPECT_EQ(lib.field64(ni_bytes, IB_NODE_PORT_GUID_F), ni.port_guid);
  EXPECT_EQ(lib.field(ni_bytes, IB_NODE_DEVID_F), 0xD2F2u);
  EXPECT_EQ(lib.field(ni_bytes, IB_NODE_VENDORID_F), 0x02C9u);
  PortInfo pi{0x1234, 0x0001, 7, kPortStateActive};
  auto pi_bytes = encode_port_info(pi);
  EXPECT_EQ(lib.field(pi_bytes, IB_PORT_LID_F), 0x1234u);
  EXPECT_EQ(lib.field(pi_bytes, IB_PORT_SMLID_F), 1u);
  EXPECT_EQ(lib.field(pi_bytes, IB_PORT_STATE_F), static_cast<uint32_t>(kPortStateActive));
  EXPECT_EQ(lib.field(pi_bytes, IB_PORT_LOCAL_PORT_F), 7u);
}

// PMA attributes (link health) agree with libibmad's field table: ClassPortInfo capability
// masks, PortCounters (narrow, saturating) and PortCountersExtended error counters, and a Get
// that libibmad's encoder builds the same.
TEST(IbMadGolden, PmaAgreesWithLibibmad) {
  static_assert(kOffPmaData == IB_PC_DATA_OFFS && kPmaDataSize == IB_PC_DATA_SZ);
  static_assert(kClassPerfMgt == IB_PERFORMANCE_CLASS && kAttrPortCounters == IB_GSI_PORT_COUNTERS &&
                kAttrPortCountersExt == IB_GSI_PORT_COUNTERS_EXT);
  LibIbmad lib;
  if (!lib.ok()) GTEST_SKIP() << "libibmad.so.5 not installed (Debian libibmad5)";
  auto cpi = encode_class_port_info({0x1300, 0x2});
  EXPECT_EQ(lib.field(cpi, IB_CPI_CAPMASK_F), 0x1300u);
  EXPECT_EQ(lib.field(cpi, IB_CPI_CAPMASK2_F), 0x2u);
  EXPECT_EQ(decode_class_port_info(cpi)->cap_mask2, 0x2u);

  PortErrorCounters c{0xFFFF, 0x12, 0x34, 0x5678, 0x9, 0x6};
  auto pc = encode_port_counters(c, 7);
  EXPECT_EQ(lib.field(pc, IB_PC_PORT_SELECT_F), 7u);
  EXPECT_EQ(lib.field(pc, IB_PC_ERR_SYM_F), 0xFFFFu);
  EXPECT_EQ(lib.field(pc, IB_PC_LINK_RECOVERS_F), 0x12u);
  EXPECT_EQ(lib.field(pc, IB_PC_LINK_DOWNED_F), 0x34u);
  EXPECT_EQ(lib.field(pc, IB_PC_ERR_RCV_F), 0x5678u);
  EXPECT_EQ(lib.field(pc, IB_PC_ERR_LOCALINTEG_F), 0x9u);
  EXPECT_EQ(lib.field(pc, IB_PC_ERR_EXCESS_OVR_F), 0x6u);
  const auto back = decode_port_counters(pc);
  EXPECT_EQ(back->rcv_errors, 0x5678u);
  EXPECT_EQ(back->local_link_integrity, 0x9u);

  PortErrorCounters w{0x1000000001ULL, 0x1000000002ULL, 0x1000000003ULL, 0x1000000004ULL, 0x1000000005ULL,
                      0x1000000006ULL};
  auto pe = encode_port_counters_ext(w, 3);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_ERR_SYM_F), w.symbol_errors);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_LINK_RECOVERS_F), w.link_error_recovery);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_LINK_DOWNED_F), w.link_downed);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_ERR_RCV_F), w.rcv_errors);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_ERR_LOCALINTEG_F), w.local_link_integrity);
  EXPECT_EQ(lib.field64(pe, IB_PC_EXT_ERR_EXCESS_OVR_F), w.excessive_buffer_overrun);

  ib_rpc_t rpc{};
  rpc.mgtclass = IB_PERFORMANCE_CLASS;
  rpc.method = IB_MAD_METHOD_GET;
  rpc.attr.id = IB_GSI_PORT_COUNTERS;
  rpc.timeout = 0;
  rpc.datasz = IB_PC_DATA_SZ;
  rpc.dataoffs = IB_PC_DATA_OFFS;
  rpc.trid = 0x77;
  std::vector<uint8_t> data(IB_PC_DATA_SZ, 0);
  data[kPcPortSelect] = 5;
  EXPECT_TRUE(same_bytes(encode_pma_get(kAttrPortCounters, 5, 0x77), lib.encode(rpc, nullptr, data)));
}

}  // namespace
}  // namespace xcvr::ib
