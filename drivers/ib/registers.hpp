// NVIDIA registers the IB transport uses, as big-endian images (layouts: mad_layout.hpp):
// MCIA (module EEPROM bytes), PMAOS (module presence and state), MGPIR (how many modules),
// MCAM (MCIA 128-byte capability), PMLP (local port -> module), PPCNT group 0x16 (the
// physical layer's BER, as mlxlink shows it), PPHCR and PPCNT group 0x23 (the RS-FEC codeword
// histogram: its bins, their counts). Encoders build query images;
// decoders take untrusted bytes and return nullopt when too short.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "cmis/fec.hpp"
#include "drivers/ib/mad_layout.hpp"
#include "drivers/link_health.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

// ---- MCIA ----
struct Mcia {
  bool lock = false;             // l
  bool page_number_valid = false;  // pnv
  uint8_t module = 0;
  uint8_t slot_index = 0;        // 4 bits
  uint8_t status = 0;
  uint8_t i2c_device_address = cmis::kDeviceA0;
  uint8_t page_number = 0;
  uint16_t device_address = 0;   // offset within the 256-byte window
  bool password_length = false;  // 0: 4-byte password, 1: 8-byte
  bool background_mode = false;
  uint8_t bank_number = 0;
  uint16_t size = 0;
  uint32_t password = 0;
  std::array<uint8_t, kMciaMaxData> data{};  // dword[0..31] in EEPROM byte order
  uint32_t password_msb = 0;
};
std::array<uint8_t, kSizeMcia> encode_mcia(const Mcia& m);
std::optional<Mcia> decode_mcia(std::span<const uint8_t> image);

// A read of `size` bytes of {device, bank, page} at window offset `offset` of `module`.
Mcia mcia_read(uint8_t module, uint8_t device, uint8_t bank, uint8_t page, uint16_t offset, uint16_t size);
// MCIA status: "no EEPROM (no response from the module)", ... and its transport error kind:
// 1 no EEPROM / 3 not connected -> Absent; 9 I2C error -> Busy; 2, 4 not supported/invalid type,
// 16 disabled -> Unsupported; others -> Corrupt.
std::string describe_mcia_status(uint8_t status);
drivers::ErrorKind mcia_status_kind(uint8_t status);

// ---- PMAOS ----
struct Pmaos {
  bool reset = false;
  uint8_t slot_index = 0;
  uint8_t module = 0;
  uint8_t admin_status = 0;
  uint8_t oper_status = 0;
  bool ase = false, ee = false, secondary = false, rev_incompatible = false;
  uint8_t operational_notification = 0;
  uint8_t error_type = 0;
  uint8_t event = 0;  // e
};
std::array<uint8_t, kSizePmaos> encode_pmaos(const Pmaos& p);
std::optional<Pmaos> decode_pmaos(std::span<const uint8_t> image);
std::string describe_pmaos_oper(uint8_t oper_status);  // "plugged_enabled", ...
std::string describe_pmaos_error(uint8_t error_type);  // "bus stuck", ...
drivers::Presence pmaos_presence(const Pmaos& p);      // 1, 3 present; 2, 4 absent; else unknown

// ---- MGPIR ----
struct Mgpir {
  uint8_t slot_index = 0, device_type = 0, devices_per_flash = 0;
  uint8_t num_of_modules_per_system = 0, num_of_devices = 0;
  uint8_t max_modules_per_slot = 0, num_of_slots = 0, num_of_modules = 0;
};
std::array<uint8_t, kSizeMgpir> encode_mgpir(const Mgpir& m);
std::optional<Mgpir> decode_mgpir(std::span<const uint8_t> image);

// ---- MCAM ----
struct Mcam {
  uint8_t access_reg_group = 0;
  uint8_t feature_group = 0;
  std::array<uint8_t, 16> access_reg_cap_mask{};  // as laid out (MSB-first)
  std::array<uint8_t, 16> feature_cap_mask{};
  bool feature(int bit) const;  // bit n from the LSB of the 128-bit field
  void set_feature(int bit, bool on);
};
std::array<uint8_t, kSizeMcam> encode_mcam(const Mcam& m);
std::optional<Mcam> decode_mcam(std::span<const uint8_t> image);

// ---- PMLP ----
struct LaneModuleMapping {
  uint8_t module = 0, slot_index = 0, tx_lane = 0, rx_lane = 0;
};
struct Pmlp {
  bool rxtx = false, m_lane_m = false;
  uint8_t local_port = 0, lp_msb = 0, plane_ind = 0, width = 0;
  std::array<LaneModuleMapping, 8> lanes{};
};
std::array<uint8_t, kSizePmlp> encode_pmlp(const Pmlp& p);
std::optional<Pmlp> decode_pmlp(std::span<const uint8_t> image);

// ---- PPCNT, Physical_Layer_Statistical_Counters (group 0x16) ----
struct BerFigure {
  uint8_t coef = 0;       // 4 bits
  uint8_t magnitude = 0;
  // coef * 10^-magnitude; nullopt when coef is 0: the device computed no figure (link down,
  // or a figure this device does not give). Firmware reports "no errors" as 15E-255, not 0.
  std::optional<double> value() const;
};
// What is read of the group: the device's two BER figures and the time they average over.
struct PhysLayerStats {
  uint64_t time_since_clear_ms = 0;
  BerFigure raw_ber;        // before FEC
  BerFigure effective_ber;  // after FEC
};
using RsHistogramCounts = std::array<uint64_t, kRsHistogramBins>;
struct Ppcnt {
  uint8_t local_port = 0;
  uint8_t lp_msb = 0;  // local port bits 9:8
  uint8_t pnat = 0;    // 0: local_port is a local port number
  uint8_t grp = kPpcntGroupPhysStats;
  // The counter set, as `grp` says: group 0x16's statistics or group 0x23's histogram counts.
  PhysLayerStats stats;
  RsHistogramCounts rs_histogram{};
};
// The query image: the register's first GMP block (kPpcntQuerySize bytes).
std::array<uint8_t, kPpcntQuerySize> encode_ppcnt(const Ppcnt& p);
// nullopt if too short for the group it names (group 0x23's counters, any other group 0x16's).
std::optional<Ppcnt> decode_ppcnt(std::span<const uint8_t> image);
// The statistics as link health of `link`: each BER figure the device computed.
void append_phys_layer(const PhysLayerStats& s, const std::string& link, drivers::LinkHealth& out);

// ---- PPHCR: the bins of the RS-FEC codeword histogram PPCNT group 0x23 counts ----
struct PphcrBin {
  uint8_t low = 0, high = 0;  // 6 bits each: symbols corrected, both inclusive
};
struct Pphcr {
  uint8_t active_hist_type = 0;  // 4 bits, kPphcrHist*
  uint8_t local_port = 0;
  uint8_t num_of_bins = 0;
  std::array<PphcrBin, kRsHistogramBins> bin_range{};
};
std::array<uint8_t, kSizePphcr> encode_pphcr(const Pphcr& p);
std::optional<Pphcr> decode_pphcr(std::span<const uint8_t> image);  // nullopt if short
// The RS code an active_hist_type names (cmis/fec.hpp); nullopt for 0 and for types not known here.
std::optional<cmis::RsFec> pphcr_code(uint8_t active_hist_type);
// A port's histogram as PPHCR configures it, to be filled with counts (fill_rs_histogram): the
// bins with zero counts and the code's correction limit, no link. nullopt when the port has no
// histogram (type 0 or unknown, or no bins). A string says why the reply is not one firmware
// sends: more than 16 bins, a bin whose low is above its high, bins out of order or
// overlapping. (A bound past the code's symbols per codeword cannot be sent: bounds are 6 bits.)
std::variant<std::optional<drivers::LinkFecHistogram>, std::string> pphcr_histogram(const Pphcr& p);
// Counts of group 0x23 into the bins: bin i counts hist[i].
void fill_rs_histogram(const RsHistogramCounts& counts, drivers::LinkFecHistogram& h);

}  // namespace xcvr::ib
