// Byte layouts of the InfiniBand MADs and NVIDIA registers the IB transport speaks. Every
// constant names its source; no other file of drivers/ib/ writes a MAD or register offset.
//
// Sources (see /work/shared/reference/access-paths.md §4-§5):
//   IBA    InfiniBand Architecture Spec vol. 1, §13.4 (MAD header), §14.2 (SMP, SMA attributes),
//          as encoded by rdma-core 44 libibmad (Debian libibmad-dev: mad.h IB_MAD_SIZE,
//          IB_SMP_DATA_OFFS, IB_VENDOR_RANGE1_DATA_OFFS, IB_DEFAULT_QP1_QKEY, IB_ATTR_*).
//   MTCR   Mellanox/mstflint@b9d9e844 mtcr_ul/mtcr_ib_ofed.c (IB_SMP_ATTR_REG_ACCESS 0xff52,
//          IB_VS_ATTR_ACCESS_REGISTER_GMP 0x51, IB_VS_ATTR_GENERAL_INFO 0x17,
//          CLASS_VS_DATA_OFFSET 0x20, CLASS_VS_SIZE_BYTES 224, mib_send_gmp_access_reg_mad,
//          mib_supports_reg_access_gmp, mib_status_translate, translate_mad_status_to_reg_status_gmp),
//          mtcr_ul/mtcr_ul_com.c (OP_TLV_SIZE 16, REG_TLV_HEADER_LEN 4, mreg_send_raw,
//          return_by_reg_status, maccess_reg_ul), mtcr_ul/packets_layout.{c,h}
//          (OperationTlv_pack, reg_tlv_pack, TLV_OPERATION 1, TLV_REG 3), include/mtcr_ul/
//          mtcr_com_defs.h (INBAND_MAX_REG_SIZE 44, INBAND_MAX_REG_SIZE_CLS_A 204,
//          INBAND_MAX_GMP_DWORDS_NUM 55, MACCESS_REG_METHOD_GET 1 / SET 2,
//          MAD_CLASS_1_REG_ACCESS 1).
//   LAYOUT mstflint@b9d9e844 tools_layouts/cables_layouts.{c,h} (reg_access_hca_mcia_ext, 0x94 B),
//          reg_access_switch_layouts.{c,h} (pmaos_reg_ext 0x10 B, mgpir_hw_info_ext, mgpir 0xa0 B),
//          reg_access_hca_layouts.{c,h} (mcam_reg_ext 0x48 B, pmlp_reg_ext 0x40 B,
//          lane_2_module_mapping_ext); reg_access/reg_ids.h (register ids);
//          tools_layouts/adb/prm/hca/ext/register_access_table.adb (PPCNT=0x5008, ppcnt_reg_ext
//          0x100 B, phys_layer_stat_cntrs_ext; adb bit offsets count from the dword's LSB).
//   LINUX  torvalds/linux include/linux/mlx5/mlx5_ifc.h mcam_enhanced_features_bits
//          (mcia_32dwords at bit 0x5d of a 128-bit MSB-first field = bit 34 from the LSB) and
//          drivers/net/ethernet/mellanox/mlxsw/reg.h (MLXSW_REG_MCAM_MCIA_128B = 34,
//          MLXSW_REG_MCIA_ID 0x9014, MLXSW_REG_MCIA_LEN 0x94).
//   HIST   torvalds/linux as of "net/mlx5: Add support for PPHCR and RS-FEC histogram group"
//          (Carolina Jubran, NVIDIA, netdev, Sept 2025): include/linux/mlx5/driver.h
//          (MLX5_REG_PPHCR = 0x503E), device.h (MLX5_RS_FEC_HISTOGRAM_GROUP = 0x23), mlx5_ifc.h
//          (pphcr_reg_bits, bin_range_layout_bits, rs_histogram_cntrs_bits); and
//          drivers/net/ethernet/mellanox/mlx5/core/en_stats.c as of "net/mlx5e: Report RS-FEC
//          histogram statistics via ethtool" (Vadim Fedorenko, Carolina Jubran, 2025):
//          MLX5E_HISTOGRAM_FEC_RS_544_514 = 1, _LLRS = 2, _RS_528_514 = 3; at most 16 bins.
// "Bit b of dword d" below means bit b (0 = LSB) of the big-endian 32-bit word at byte 4*d.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xcvr::ib {

// ---- MAD common header (IBA §13.4.3; libibmad IB_MAD_*_F) ----
inline constexpr std::size_t kMadSize = 256;         // mad.h IB_MAD_SIZE
inline constexpr std::size_t kOffBaseVersion = 0;
inline constexpr std::size_t kOffMgmtClass = 1;
inline constexpr std::size_t kOffClassVersion = 2;
inline constexpr std::size_t kOffMethod = 3;         // bit 7 = response (R), bits 6:0 method
inline constexpr std::size_t kOffStatus = 4;         // 16 bits
inline constexpr std::size_t kOffClassSpecific = 6;  // 16 bits (DR SMP: hop pointer, hop count)
inline constexpr std::size_t kOffTid = 8;            // 64 bits
inline constexpr std::size_t kOffAttrId = 16;        // 16 bits
inline constexpr std::size_t kOffAttrMod = 20;       // 32 bits
inline constexpr std::size_t kMadHeaderSize = 24;

inline constexpr uint8_t kBaseVersion = 1;
inline constexpr uint8_t kClassVersion = 1;
inline constexpr uint8_t kMethodGet = 0x01;          // mad.h IB_MAD_METHOD_GET
inline constexpr uint8_t kMethodSet = 0x02;          // mad.h IB_MAD_METHOD_SET
inline constexpr uint8_t kMethodGetResponse = 0x81;  // mad.h IB_MAD_METHOD_GET_RESPONSE
inline constexpr uint8_t kMethodResponseBit = 0x80;

// MAD status (IBA §13.4.7; MTCR mib_status_translate): bit 0 busy, bit 1 redirect required,
// bits 4:2 invalid-field code, bits 15:8 class specific.
inline constexpr uint16_t kStatusBusy = 0x0001;
inline constexpr uint16_t kStatusRedirect = 0x0002;
inline constexpr int kStatusCodeShift = 2;
inline constexpr uint16_t kStatusCodeMask = 0x7;
inline constexpr uint16_t kCodeBadVersion = 1;
inline constexpr uint16_t kCodeMethodUnsupported = 2;
inline constexpr uint16_t kCodeMethodAttrUnsupported = 3;
inline constexpr uint16_t kCodeInvalidField = 7;

// ---- Management classes and QPs ----
inline constexpr uint8_t kClassSmiLid = 0x01;       // mad.h IB_SMI_CLASS
inline constexpr uint8_t kClassSmiDirected = 0x81;  // mad.h IB_SMI_DIRECT_CLASS
inline constexpr uint8_t kClassVendorA = 0x0A;      // MTCR IB_VENDOR_SPECIFIC_CLASS_0xA (range 1)
inline constexpr uint32_t kQp1Qkey = 0x80010000;    // mad.h IB_DEFAULT_QP1_QKEY
inline constexpr uint16_t kPermissiveLid = 0xFFFF;  // IBA §14.2.2 (DR SMPs leave with DLID 0xFFFF)

// ---- SMP layout (IBA §14.2.1.1-2; mad.h IB_SMP_DATA_OFFS 64, IB_SMP_DATA_SIZE 64) ----
inline constexpr std::size_t kOffMkey = 24;          // 64-bit M_Key; Class A puts its VS key here
inline constexpr std::size_t kOffDrSlid = 32;        // DR SMP: 16 bits
inline constexpr std::size_t kOffDrDlid = 34;        // DR SMP: 16 bits
inline constexpr std::size_t kOffSmpData = 64;
inline constexpr std::size_t kSmpDataSize = 64;
inline constexpr std::size_t kOffDrInitialPath = 128;  // 64 bytes, byte i = port at hop i
inline constexpr std::size_t kOffDrReturnPath = 192;
inline constexpr int kDrMaxHops = 63;
inline constexpr uint16_t kDrDirectionBit = 0x8000;  // DR SMP status word bit 15 (D)

// SMA attributes (mad.h IB_ATTR_*)
inline constexpr uint16_t kAttrNodeDescription = 0x0010;
inline constexpr uint16_t kAttrNodeInfo = 0x0011;
inline constexpr uint16_t kAttrPortInfo = 0x0015;

// NodeInfo (IBA §14.2.5.3; libibmad IB_NODE_*_F): offsets within the 64-byte SMP data.
inline constexpr std::size_t kNiNodeType = 2;     // 1 CA, 2 switch, 3 router
inline constexpr std::size_t kNiNumPorts = 3;
inline constexpr std::size_t kNiSystemGuid = 4;
inline constexpr std::size_t kNiNodeGuid = 12;
inline constexpr std::size_t kNiPortGuid = 20;
inline constexpr std::size_t kNiDeviceId = 30;
inline constexpr std::size_t kNiLocalPort = 36;
inline constexpr std::size_t kNiVendorId = 37;    // 24 bits
inline constexpr std::size_t kNodeInfoSize = 40;
inline constexpr uint8_t kNodeTypeCa = 1;
inline constexpr uint8_t kNodeTypeSwitch = 2;
// PortInfo (IBA §14.2.5.6; libibmad IB_PORT_*_F)
inline constexpr std::size_t kPiLid = 16;          // 16 bits
inline constexpr std::size_t kPiSmLid = 18;
inline constexpr std::size_t kPiLocalPort = 28;
inline constexpr std::size_t kPiStateByte = 32;  // bits 3:0 PortState, 7:4 LinkSpeedSupported
inline constexpr uint8_t kPortStateActive = 4;       // 1 Down, 2 Init, 3 Armed, 4 Active
inline constexpr std::size_t kNodeDescriptionSize = 64;

// ---- Performance management (IBA §16.1; libibmad mad.h IB_PERFORMANCE_CLASS, IB_GSI_PORT_*,
// IB_PC_*_F / IB_PC_EXT_*_F / IB_CPI_*_F bit offsets in libibmad fields.c) ----
inline constexpr uint8_t kClassPerfMgt = 0x04;           // IB_PERFORMANCE_CLASS
inline constexpr uint16_t kAttrClassPortInfo = 0x0001;   // CLASS_PORT_INFO
inline constexpr uint16_t kAttrPortCounters = 0x0012;    // IB_GSI_PORT_COUNTERS
inline constexpr uint16_t kAttrPortCountersExt = 0x001D; // IB_GSI_PORT_COUNTERS_EXT
inline constexpr std::size_t kOffPmaData = 64;            // IB_PC_DATA_OFFS: 24-B header + 40 reserved
inline constexpr std::size_t kPmaDataSize = 192;          // IB_PC_DATA_SZ
// ClassPortInfo data: CapabilityMask 16 bits at 2; CapabilityMask2 27 bits at bit 32 (then
// RespTimeValue 5 bits).
inline constexpr std::size_t kCpiCapMask = 2;
inline constexpr std::size_t kCpiCapMask2 = 4;
inline constexpr int kCpiCapMask2Shift = 5;
// Capability bits (IBA §16.1.3.1 Table 248, as infiniband-diags perfquery.c tests them):
inline constexpr uint16_t kPmCapExtendedWidth = 1u << 9;        // IsExtendedWidthSupported
inline constexpr uint16_t kPmCapExtendedWidthNoIetf = 1u << 10; // IsExtendedWidthSupportedNoIETF
inline constexpr uint32_t kPmCap2AdditionalExtCounters = 1u << 1;  // IsAdditionalPortCountersExtendedSupported
// PortCounters data (IB_PC_*_F): PortSelect byte 1; the error counters, their widths saturate.
inline constexpr std::size_t kPcPortSelect = 1;
inline constexpr std::size_t kPcSymbolErrors = 4;          // 16 bits
inline constexpr std::size_t kPcLinkErrorRecovery = 6;     // 8 bits
inline constexpr std::size_t kPcLinkDowned = 7;            // 8 bits
inline constexpr std::size_t kPcRcvErrors = 8;             // 16 bits
inline constexpr std::size_t kPcIntegrityOverrun = 19;     // LocalLinkIntegrity 7:4, ExcessiveBufferOverrun 3:0
// PortCountersExtended data (IB_PC_EXT_*_F): 64-bit error counters, present when ClassPortInfo
// CapabilityMask2 says IsAdditionalPortCountersExtendedSupported.
inline constexpr std::size_t kPceSymbolErrors = 72;
inline constexpr std::size_t kPceLinkErrorRecovery = 80;
inline constexpr std::size_t kPceLinkDowned = 88;
inline constexpr std::size_t kPceRcvErrors = 96;
inline constexpr std::size_t kPceLocalLinkIntegrity = 144;
inline constexpr std::size_t kPceExcessiveBufferOverrun = 152;

// ---- NVIDIA Access Register (MTCR) ----
inline constexpr uint16_t kAttrAccessRegister = 0xFF52;     // SMP and Class 0xA (IB_SMP_ATTR_REG_ACCESS)
inline constexpr uint16_t kAttrAccessRegisterGmp = 0x0051;  // IB_VS_ATTR_ACCESS_REGISTER_GMP
inline constexpr uint16_t kAttrGeneralInfo = 0x0017;        // IB_VS_ATTR_GENERAL_INFO
inline constexpr uint8_t kRegMethodQuery = 1;               // MACCESS_REG_METHOD_GET
inline constexpr uint8_t kRegMethodWrite = 2;               // MACCESS_REG_METHOD_SET

// Operation TLV (16 B) + Reg TLV header (4 B) precede the register image (packets_layout.c):
//   dword 0: Type[31:27] = 1, len[26:16] = 4 (dwords), dr[15], status[14:8], reserved[7:0]
//   dword 1: register_id[31:16], r[15], method[14:8], class[7:0] = 1
//   dwords 2-3: TID (mstflint leaves 0)
//   Reg TLV: Type[31:27] = 3, len[26:16] = (register bytes + 4) / 4, reserved[15:0]
inline constexpr std::size_t kOpTlvSize = 16;
inline constexpr std::size_t kRegTlvHeaderSize = 4;
inline constexpr uint8_t kTlvOperation = 1;
inline constexpr uint8_t kTlvRegister = 3;
inline constexpr uint16_t kOpTlvLenDwords = 4;
inline constexpr uint8_t kOpTlvClass = 1;  // MAD_CLASS_1_REG_ACCESS, also on the Class 0xA path

// Where the TLVs start in each MAD form.
inline constexpr std::size_t kOffClassAData = 0x20;  // CLASS_VS_DATA_OFFSET: 24-B header + 8-B VS key
inline constexpr std::size_t kClassADataSize = 224;  // CLASS_VS_SIZE_BYTES
inline constexpr std::size_t kMaxRegClassA = 204;    // INBAND_MAX_REG_SIZE_CLS_A = 224 - 16 - 4
inline constexpr std::size_t kMaxRegSmp = 44;        // INBAND_MAX_REG_SIZE = 64 - 16 - 4
// GMP (mib_send_gmp_access_reg_mad): vendor data @24 = VS key (2 dwords), config dword
// (block_num << 16), 55 data dwords; attr_mod = register id; no TLVs; GET only.
inline constexpr std::size_t kOffVendorData = 24;    // IB_VENDOR_RANGE1_DATA_OFFS
inline constexpr std::size_t kOffGmpConfig = 32;
inline constexpr std::size_t kOffGmpRegister = 36;
inline constexpr std::size_t kMaxRegGmpBlock = 220;  // INBAND_MAX_GMP_DWORDS_NUM * 4
// GeneralInfo capability_mask: vendor data byte 0x8 + 0x80, bit 20 = AccessRegisterGMP.
inline constexpr std::size_t kOffGeneralInfoCapMask = kOffVendorData + 0x88;
inline constexpr int kGeneralInfoCapAccessRegGmp = 20;

// Register status in the Operation TLV (return_by_reg_status)
inline constexpr uint8_t kRegStatusOk = 0;
inline constexpr uint8_t kRegStatusBusy = 1;
inline constexpr uint8_t kRegStatusVersionUnsupported = 2;
inline constexpr uint8_t kRegStatusUnknownTlv = 3;
inline constexpr uint8_t kRegStatusRegisterUnsupported = 4;
inline constexpr uint8_t kRegStatusClassUnsupported = 5;
inline constexpr uint8_t kRegStatusMethodUnsupported = 6;
inline constexpr uint8_t kRegStatusBadParameter = 7;
inline constexpr uint8_t kRegStatusResourceUnavailable = 8;
inline constexpr uint8_t kRegStatusMessageAck = 9;
inline constexpr uint8_t kRegStatusInternalError = 0x70;
// The GMP form carries the register status in the MAD status (translate_mad_status_to_reg_status_gmp)
inline constexpr uint16_t kGmpStatusBusy = 1;
inline constexpr uint16_t kGmpStatusClassUnsupported = 4;
inline constexpr uint16_t kGmpStatusMethodUnsupported = 12;
inline constexpr uint16_t kGmpStatusRegisterUnsupported = 20;
inline constexpr uint16_t kGmpStatusBadParameter = 28;

// ---- Register ids and sizes (reg_ids.h, LAYOUT *_EXT_SIZE) ----
inline constexpr uint16_t kRegPmlp = 0x5002;
inline constexpr uint16_t kRegPmaos = 0x5012;
inline constexpr uint16_t kRegPpcnt = 0x5008;
inline constexpr uint16_t kRegMcia = 0x9014;
inline constexpr uint16_t kRegMcam = 0x907F;
inline constexpr uint16_t kRegMgpir = 0x9100;
inline constexpr uint16_t kRegPphcr = 0x503E;  // HIST MLX5_REG_PPHCR
inline constexpr std::size_t kSizePmlp = 0x40;
inline constexpr std::size_t kSizePmaos = 0x10;
inline constexpr std::size_t kSizeMcia = 0x94;
inline constexpr std::size_t kSizeMcam = 0x48;
inline constexpr std::size_t kSizeMgpir = 0xA0;
inline constexpr std::size_t kSizePpcnt = 0x100;

// MCIA (cables_layouts.h reg_access_hca_mcia_ext):
//   dword 0: l[31], pnv[29], module[23:16], slot_index[15:12], status[7:0]
//   dword 1: i2c_device_address[31:24], page_number[23:16], device_address[15:0]
//   dword 2: passwd_length[28], bg_mode[27], bank_number[23:16], size[15:0]
//   dword 3: password; bytes 16-143: dword[32] (EEPROM bytes in order); bytes 144-147 password_msb
inline constexpr std::size_t kMciaData = 16;
inline constexpr std::size_t kMciaPasswordMsb = 144;
inline constexpr std::size_t kMciaMaxData = 128;    // 32 dwords with MCAM bit 34
inline constexpr std::size_t kMciaLegacyData = 48;  // 12 dwords otherwise
// MCIA status codes
inline constexpr uint8_t kMciaOk = 0;
inline constexpr uint8_t kMciaNoEeprom = 1;
inline constexpr uint8_t kMciaModuleNotSupported = 2;
inline constexpr uint8_t kMciaNotConnected = 3;
inline constexpr uint8_t kMciaTypeInvalid = 4;
inline constexpr uint8_t kMciaI2cError = 9;
inline constexpr uint8_t kMciaModuleDisabled = 16;

// PMAOS (pmaos_reg_ext): dword 0: rst[31], slot_index[27:24], module[23:16], admin_status[11:8],
// oper_status[3:0]; dword 1: ase[31], ee[30], secondary[29], rev_incompatible[28],
// operational_notification[19:16], error_type[12:8], e[1:0].
inline constexpr uint8_t kPmaosInitializing = 0;
inline constexpr uint8_t kPmaosPluggedEnabled = 1;
inline constexpr uint8_t kPmaosUnplugged = 2;
inline constexpr uint8_t kPmaosPluggedWithError = 3;
inline constexpr uint8_t kPmaosDisabled = 4;  // SONiC SDK_STATUS_TO_SONIC_STATUS (digest §4.2)
inline constexpr uint8_t kPmaosUnknown = 5;

// MGPIR hw_info (mgpir_hw_info_ext): dword 0: slot_index[31:28], device_type[27:24],
// devices_per_flash[23:16], num_of_modules_per_system[15:8], num_of_devices[7:0];
// dword 1: max_modules_per_slot[23:16], num_of_slots[15:8], num_of_modules[7:0].

// MCAM (mcam_reg_ext): dword 0: feature_group[23:16], access_reg_group[7:0];
// mng_access_reg_cap_mask bytes 0x08-0x17, mng_feature_cap_mask bytes 0x28-0x37, each a
// 128-bit MSB-first bit field whose bit n is byte (base + 15 - n/8), bit n%8 (LINUX).
inline constexpr std::size_t kMcamFeatureMask = 0x28;
inline constexpr int kMcamMcia128Bytes = 34;

// PMLP (pmlp_reg_ext): dword 0: rxtx[31], m_lane_m[28], local_port[23:16], lp_msb[13:12],
// plane_ind[11:8], width[7:0]; dwords 1-8 lane_module_mapping: module[7:0], slot_index[11:8],
// tx_lane[19:16], rx_lane[27:24].

// PPCNT (ppcnt_reg_ext): dword 0: swid[31:24], local_port[23:16], pnat[15:14] (0 local port
// number, 1 IB port number), lp_msb[13:12], grp[5:0]; dword 1: clr[31] (never set here),
// prio_tc[4:0]; counter_set from byte 8. The register (256 B) is larger than a Class 0xA MAD
// carries (204 B); every field read here lies in the first AccessRegisterGMP block (220 B), so
// a query asks that block alone.
inline constexpr std::size_t kPpcntCounterSet = 8;
inline constexpr std::size_t kPpcntQuerySize = kMaxRegGmpBlock;
inline constexpr uint8_t kPpcntGroupPhysStats = 0x16;  // Physical_Layer_Statistical_Counters
// phys_layer_stat_cntrs_ext, offsets within counter_set: time since clear (64 bits, high
// dword first) and the BER figures, each coef[3:0] and magnitude[15:8] of a dword:
// BER = coef * 10^-magnitude.
inline constexpr std::size_t kPlsTimeSinceClear = 0x00;  // msec since the counters were cleared
inline constexpr std::size_t kPlsRawBer = 0x60;          // before FEC
inline constexpr std::size_t kPlsEffectiveBer = 0x64;    // after FEC
inline constexpr std::size_t kPlsEnd = 0x68;
static_assert(kPpcntCounterSet + kPlsEnd <= kPpcntQuerySize && kPpcntQuerySize < kSizePpcnt,
              "the PPCNT fields read lie in its first GMP block, which is less than the register");

// PPCNT group 0x23, RS-FEC histogram counters (HIST rs_histogram_cntrs): hist[16], each 64 bits
// (high dword first), from the start of counter_set; then 0x2c0 bits reserved. Counter i counts
// the codewords of PPHCR's bin i.
inline constexpr uint8_t kPpcntGroupRsHistogram = 0x23;  // MLX5_RS_FEC_HISTOGRAM_GROUP
inline constexpr std::size_t kRsHistogramBins = 16;      // hist[16]; the kernel uses at most 16 bins
inline constexpr std::size_t kRsHistEnd = 8 * kRsHistogramBins;
static_assert(kPpcntCounterSet + kRsHistEnd <= kPpcntQuerySize, "the histogram lies in PPCNT's first GMP block");

// PPHCR, Ports Phy Histogram Configuration Register (HIST pphcr_reg): the histogram's bins.
//   dword 0: active_hist_type[31:28], local_port[23:16]; dword 1: num_of_bins[23:16];
//   dwords 2-3 reserved; bin_range[16] from byte 16, one dword each: high_val[21:16], low_val[5:0]
//   (the symbols corrected in a codeword that bin counts, both inclusive).
inline constexpr std::size_t kPphcrBinRange = 16;
inline constexpr std::size_t kSizePphcr = kPphcrBinRange + 4 * kRsHistogramBins;  // 0x50
// active_hist_type (en_stats.c): the code the histogram is of; 0 (or any other): none.
inline constexpr uint8_t kPphcrHistRs544 = 1;  // RS-FEC (544,514)
inline constexpr uint8_t kPphcrHistLlrs = 2;   // LL-RS (272,257+1)
inline constexpr uint8_t kPphcrHistRs528 = 3;  // RS-FEC (528,514)

}  // namespace xcvr::ib
