#include "drivers/ib/registers.hpp"

#include <algorithm>
#include <cmath>

#include "drivers/ib/mad_codec.hpp"

namespace xcvr::ib {
namespace {

uint32_t bits(uint32_t value, int hi, int lo) {  // value's bits hi..lo, right-aligned
  return (value >> lo) & ((1u << (hi - lo + 1)) - 1);
}
uint32_t field(uint32_t v, int hi, int lo) { return (v & ((1u << (hi - lo + 1)) - 1)) << lo; }
uint32_t flag(bool b, int bit) { return b ? 1u << bit : 0u; }

}  // namespace

// ---- MCIA ----

std::array<uint8_t, kSizeMcia> encode_mcia(const Mcia& m) {
  std::array<uint8_t, kSizeMcia> out{};
  put_be32(out, 0, flag(m.lock, 31) | flag(m.page_number_valid, 29) | field(m.module, 23, 16) |
                       field(m.slot_index, 15, 12) | field(m.status, 7, 0));
  put_be32(out, 4, field(m.i2c_device_address, 31, 24) | field(m.page_number, 23, 16) |
                       field(m.device_address, 15, 0));
  put_be32(out, 8, flag(m.password_length, 28) | flag(m.background_mode, 27) | field(m.bank_number, 23, 16) |
                       field(m.size, 15, 0));
  put_be32(out, 12, m.password);
  std::copy(m.data.begin(), m.data.end(), out.begin() + kMciaData);
  put_be32(out, kMciaPasswordMsb, m.password_msb);
  return out;
}

std::optional<Mcia> decode_mcia(std::span<const uint8_t> image) {
  if (image.size() < kSizeMcia) return std::nullopt;
  Mcia m;
  const uint32_t d0 = be32(image, 0), d1 = be32(image, 4), d2 = be32(image, 8);
  m.lock = bits(d0, 31, 31) != 0;
  m.page_number_valid = bits(d0, 29, 29) != 0;
  m.module = static_cast<uint8_t>(bits(d0, 23, 16));
  m.slot_index = static_cast<uint8_t>(bits(d0, 15, 12));
  m.status = static_cast<uint8_t>(bits(d0, 7, 0));
  m.i2c_device_address = static_cast<uint8_t>(bits(d1, 31, 24));
  m.page_number = static_cast<uint8_t>(bits(d1, 23, 16));
  m.device_address = static_cast<uint16_t>(bits(d1, 15, 0));
  m.password_length = bits(d2, 28, 28) != 0;
  m.background_mode = bits(d2, 27, 27) != 0;
  m.bank_number = static_cast<uint8_t>(bits(d2, 23, 16));
  m.size = static_cast<uint16_t>(bits(d2, 15, 0));
  m.password = be32(image, 12);
  std::copy(image.begin() + kMciaData, image.begin() + kMciaData + kMciaMaxData, m.data.begin());
  m.password_msb = be32(image, kMciaPasswordMsb);
  return m;
}

Mcia mcia_read(uint8_t module, uint8_t device, uint8_t bank, uint8_t page, uint16_t offset, uint16_t size) {
  Mcia m;
  m.module = module;
  m.i2c_device_address = device;
  // Lower memory ignores page and bank; send zeros so the firmware never selects a page for it.
  m.page_number = offset < 128 ? 0 : page;
  m.bank_number = offset < 128 ? 0 : bank;
  m.device_address = offset;
  m.size = size;
  return m;
}

std::string describe_mcia_status(uint8_t status) {
  switch (status) {
    case kMciaOk: return "success";
    case kMciaNoEeprom: return "no EEPROM module (no response from the module's EEPROM)";
    case kMciaModuleNotSupported: return "module not supported by the device";
    case kMciaNotConnected: return "module not connected (no presence indication)";
    case kMciaTypeInvalid: return "module type invalid (not supported by INI)";
    case kMciaI2cError: return "I2C error while accessing the module's EEPROM";
    case kMciaModuleDisabled: return "module disabled";
    default: return "MCIA status " + std::to_string(status);
  }
}

drivers::ErrorKind mcia_status_kind(uint8_t status) {
  switch (status) {
    case kMciaNoEeprom:
    case kMciaNotConnected: return drivers::ErrorKind::Absent;
    case kMciaI2cError: return drivers::ErrorKind::Busy;
    case kMciaModuleNotSupported:
    case kMciaTypeInvalid:
    case kMciaModuleDisabled: return drivers::ErrorKind::Unsupported;
    default: return drivers::ErrorKind::Corrupt;
  }
}

// ---- PMAOS ----

std::array<uint8_t, kSizePmaos> encode_pmaos(const Pmaos& p) {
  std::array<uint8_t, kSizePmaos> out{};
  put_be32(out, 0, flag(p.reset, 31) | field(p.slot_index, 27, 24) | field(p.module, 23, 16) |
                       field(p.admin_status, 11, 8) | field(p.oper_status, 3, 0));
  put_be32(out, 4, flag(p.ase, 31) | flag(p.ee, 30) | flag(p.secondary, 29) | flag(p.rev_incompatible, 28) |
                       field(p.operational_notification, 19, 16) | field(p.error_type, 12, 8) |
                       field(p.event, 1, 0));
  return out;
}

std::optional<Pmaos> decode_pmaos(std::span<const uint8_t> image) {
  if (image.size() < kSizePmaos) return std::nullopt;
  const uint32_t d0 = be32(image, 0), d1 = be32(image, 4);
  Pmaos p;
  p.reset = bits(d0, 31, 31) != 0;
  p.slot_index = static_cast<uint8_t>(bits(d0, 27, 24));
  p.module = static_cast<uint8_t>(bits(d0, 23, 16));
  p.admin_status = static_cast<uint8_t>(bits(d0, 11, 8));
  p.oper_status = static_cast<uint8_t>(bits(d0, 3, 0));
  p.ase = bits(d1, 31, 31) != 0;
  p.ee = bits(d1, 30, 30) != 0;
  p.secondary = bits(d1, 29, 29) != 0;
  p.rev_incompatible = bits(d1, 28, 28) != 0;
  p.operational_notification = static_cast<uint8_t>(bits(d1, 19, 16));
  p.error_type = static_cast<uint8_t>(bits(d1, 12, 8));
  p.event = static_cast<uint8_t>(bits(d1, 1, 0));
  return p;
}

std::string describe_pmaos_oper(uint8_t s) {
  switch (s) {
    case kPmaosInitializing: return "initializing";
    case kPmaosPluggedEnabled: return "plugged_enabled";
    case kPmaosUnplugged: return "unplugged";
    case kPmaosPluggedWithError: return "plugged_with_error";
    case kPmaosDisabled: return "disabled";
    case kPmaosUnknown: return "unknown";
    default: return "oper_status " + std::to_string(s);
  }
}

std::string describe_pmaos_error(uint8_t e) {
  switch (e) {  // pmaos_reg_ext error_type
    case 0x0: return "power budget exceeded";
    case 0x1: return "long range for non-NVIDIA cable or module";
    case 0x2: return "bus stuck (I2C data or clock shorted)";
    case 0x3: return "bad or unsupported EEPROM";
    case 0x4: return "enforce part number list";
    case 0x5: return "unsupported cable";
    case 0x6: return "high temperature";
    case 0x7: return "bad cable (module/cable is shorted)";
    case 0x8: return "PMD type is not enabled";
    case 0xc: return "PCIe system power slot exceeded";
    case 0xf: return "boot error";
    case 0x10: return "recovery error";
    case 0x11: return "submodule failure";
    default: return "error_type " + std::to_string(e);
  }
}

drivers::Presence pmaos_presence(const Pmaos& p) {
  switch (p.oper_status) {
    case kPmaosPluggedEnabled:
    case kPmaosPluggedWithError:
    case kPmaosInitializing: return drivers::Presence::Present;
    case kPmaosUnplugged:
    case kPmaosDisabled: return drivers::Presence::Absent;
    default: return drivers::Presence::Unknown;
  }
}

// ---- MGPIR ----

std::array<uint8_t, kSizeMgpir> encode_mgpir(const Mgpir& m) {
  std::array<uint8_t, kSizeMgpir> out{};
  put_be32(out, 0, field(m.slot_index, 31, 28) | field(m.device_type, 27, 24) | field(m.devices_per_flash, 23, 16) |
                       field(m.num_of_modules_per_system, 15, 8) | field(m.num_of_devices, 7, 0));
  put_be32(out, 4, field(m.max_modules_per_slot, 23, 16) | field(m.num_of_slots, 15, 8) |
                       field(m.num_of_modules, 7, 0));
  return out;
}

std::optional<Mgpir> decode_mgpir(std::span<const uint8_t> image) {
  if (image.size() < kSizeMgpir) return std::nullopt;
  const uint32_t d0 = be32(image, 0), d1 = be32(image, 4);
  Mgpir m;
  m.slot_index = static_cast<uint8_t>(bits(d0, 31, 28));
  m.device_type = static_cast<uint8_t>(bits(d0, 27, 24));
  m.devices_per_flash = static_cast<uint8_t>(bits(d0, 23, 16));
  m.num_of_modules_per_system = static_cast<uint8_t>(bits(d0, 15, 8));
  m.num_of_devices = static_cast<uint8_t>(bits(d0, 7, 0));
  m.max_modules_per_slot = static_cast<uint8_t>(bits(d1, 23, 16));
  m.num_of_slots = static_cast<uint8_t>(bits(d1, 15, 8));
  m.num_of_modules = static_cast<uint8_t>(bits(d1, 7, 0));
  return m;
}

// ---- MCAM ----

bool Mcam::feature(int bit) const {
  if (bit < 0 || bit >= 128) return false;
  return (feature_cap_mask[static_cast<std::size_t>(15 - bit / 8)] >> (bit % 8) & 1) != 0;
}

void Mcam::set_feature(int bit, bool on) {
  if (bit < 0 || bit >= 128) return;
  uint8_t& b = feature_cap_mask[static_cast<std::size_t>(15 - bit / 8)];
  const auto mask = static_cast<uint8_t>(1u << (bit % 8));
  b = on ? static_cast<uint8_t>(b | mask) : static_cast<uint8_t>(b & ~mask);
}

std::array<uint8_t, kSizeMcam> encode_mcam(const Mcam& m) {
  std::array<uint8_t, kSizeMcam> out{};
  put_be32(out, 0, field(m.feature_group, 23, 16) | field(m.access_reg_group, 7, 0));
  std::copy(m.access_reg_cap_mask.begin(), m.access_reg_cap_mask.end(), out.begin() + 0x08);
  std::copy(m.feature_cap_mask.begin(), m.feature_cap_mask.end(), out.begin() + kMcamFeatureMask);
  return out;
}

std::optional<Mcam> decode_mcam(std::span<const uint8_t> image) {
  if (image.size() < kSizeMcam) return std::nullopt;
  Mcam m;
  const uint32_t d0 = be32(image, 0);
  m.feature_group = static_cast<uint8_t>(bits(d0, 23, 16));
  m.access_reg_group = static_cast<uint8_t>(bits(d0, 7, 0));
  std::copy(image.begin() + 0x08, image.begin() + 0x18, m.access_reg_cap_mask.begin());
  std::copy(image.begin() + kMcamFeatureMask, image.begin() + kMcamFeatureMask + 16, m.feature_cap_mask.begin());
  return m;
}

// ---- PMLP ----

std::array<uint8_t, kSizePmlp> encode_pmlp(const Pmlp& p) {
  std::array<uint8_t, kSizePmlp> out{};
  put_be32(out, 0, flag(p.rxtx, 31) | flag(p.m_lane_m, 28) | field(p.local_port, 23, 16) |
                       field(p.lp_msb, 13, 12) | field(p.plane_ind, 11, 8) | field(p.width, 7, 0));
  for (std::size_t i = 0; i < p.lanes.size(); ++i) {
    const LaneModuleMapping& l = p.lanes[i];
    put_be32(out, 4 + 4 * i, field(l.rx_lane, 27, 24) | field(l.tx_lane, 19, 16) | field(l.slot_index, 11, 8) |
                                 field(l.module, 7, 0));
  }
  return out;
}

std::optional<Pmlp> decode_pmlp(std::span<const uint8_t> image) {
  if (image.size() < kSizePmlp) return std::nullopt;
  Pmlp p;
  const uint32_t d0 = be32(image, 0);
  p.rxtx = bits(d0, 31, 31) != 0;
  p.m_lane_m = bits(d0, 28, 28) != 0;
  p.local_port = static_cast<uint8_t>(bits(d0, 23, 16));
  p.lp_msb = static_cast<uint8_t>(bits(d0, 13, 12));
  p.plane_ind = static_cast<uint8_t>(bits(d0, 11, 8));
  p.width = static_cast<uint8_t>(bits(d0, 7, 0));
  for (std::size_t i = 0; i < p.lanes.size(); ++i) {
    const uint32_t d = be32(image, 4 + 4 * i);
    p.lanes[i] = {static_cast<uint8_t>(bits(d, 7, 0)), static_cast<uint8_t>(bits(d, 11, 8)),
                  static_cast<uint8_t>(bits(d, 19, 16)), static_cast<uint8_t>(bits(d, 27, 24))};
  }
  return p;
}

// ---- PPCNT ----

std::optional<double> BerFigure::value() const {
  if (coef == 0) return std::nullopt;
  return coef * std::pow(10.0, -static_cast<double>(magnitude));
}

namespace {

constexpr std::size_t at(std::size_t counter_set_offset) { return kPpcntCounterSet + counter_set_offset; }

void put_ber(std::span<uint8_t> out, std::size_t offset, const BerFigure& b) {
  put_be32(out, at(offset), field(b.magnitude, 15, 8) | field(b.coef, 3, 0));
}
BerFigure get_ber(std::span<const uint8_t> in, std::size_t offset) {
  const uint32_t d = be32(in, at(offset));
  return {static_cast<uint8_t>(bits(d, 3, 0)), static_cast<uint8_t>(bits(d, 15, 8))};
}

}  // namespace

std::array<uint8_t, kPpcntQuerySize> encode_ppcnt(const Ppcnt& p) {
  std::array<uint8_t, kPpcntQuerySize> out{};
  put_be32(out, 0, field(p.local_port, 23, 16) | field(p.pnat, 15, 14) | field(p.lp_msb, 13, 12) |
                       field(p.grp, 5, 0));
  if (p.grp == kPpcntGroupRsHistogram) {
    for (std::size_t i = 0; i < kRsHistogramBins; ++i) put_be64(out, at(8 * i), p.rs_histogram[i]);
    return out;
  }
  const PhysLayerStats& s = p.stats;
  put_be64(out, at(kPlsTimeSinceClear), s.time_since_clear_ms);
  put_ber(out, kPlsRawBer, s.raw_ber);
  put_ber(out, kPlsEffectiveBer, s.effective_ber);
  return out;
}

std::optional<Ppcnt> decode_ppcnt(std::span<const uint8_t> image) {
  if (image.size() < at(0)) return std::nullopt;
  Ppcnt p;
  const uint32_t d0 = be32(image, 0);
  p.local_port = static_cast<uint8_t>(bits(d0, 23, 16));
  p.pnat = static_cast<uint8_t>(bits(d0, 15, 14));
  p.lp_msb = static_cast<uint8_t>(bits(d0, 13, 12));
  p.grp = static_cast<uint8_t>(bits(d0, 5, 0));
  if (p.grp == kPpcntGroupRsHistogram) {
    if (image.size() < at(kRsHistEnd)) return std::nullopt;
    for (std::size_t i = 0; i < kRsHistogramBins; ++i) p.rs_histogram[i] = be64(image, at(8 * i));
    return p;
  }
  if (image.size() < at(kPlsEnd)) return std::nullopt;
  PhysLayerStats& s = p.stats;
  s.time_since_clear_ms = be64(image, at(kPlsTimeSinceClear));
  s.raw_ber = get_ber(image, kPlsRawBer);
  s.effective_ber = get_ber(image, kPlsEffectiveBer);
  return p;
}

void append_phys_layer(const PhysLayerStats& s, const std::string& link, drivers::LinkHealth& out) {
  using drivers::LinkBerId;
  const double window_s = static_cast<double>(s.time_since_clear_ms) / 1000.0;
  for (const auto& [id, figure] : {std::pair{LinkBerId::Raw, s.raw_ber}, std::pair{LinkBerId::Effective, s.effective_ber}}) {
    if (const auto v = figure.value()) out.ber.push_back({id, link, *v, window_s});
  }
}

// ---- PPHCR ----

std::array<uint8_t, kSizePphcr> encode_pphcr(const Pphcr& p) {
  std::array<uint8_t, kSizePphcr> out{};
  put_be32(out, 0, field(p.active_hist_type, 31, 28) | field(p.local_port, 23, 16));
  put_be32(out, 4, field(p.num_of_bins, 23, 16));
  for (std::size_t i = 0; i < kRsHistogramBins; ++i) {
    put_be32(out, kPphcrBinRange + 4 * i, field(p.bin_range[i].high, 21, 16) | field(p.bin_range[i].low, 5, 0));
  }
  return out;
}

std::optional<Pphcr> decode_pphcr(std::span<const uint8_t> image) {
  if (image.size() < kSizePphcr) return std::nullopt;
  Pphcr p;
  const uint32_t d0 = be32(image, 0);
  p.active_hist_type = static_cast<uint8_t>(bits(d0, 31, 28));
  p.local_port = static_cast<uint8_t>(bits(d0, 23, 16));
  p.num_of_bins = static_cast<uint8_t>(bits(be32(image, 4), 23, 16));
  for (std::size_t i = 0; i < kRsHistogramBins; ++i) {
    const uint32_t d = be32(image, kPphcrBinRange + 4 * i);
    p.bin_range[i] = {static_cast<uint8_t>(bits(d, 5, 0)), static_cast<uint8_t>(bits(d, 21, 16))};
  }
  return p;
}

std::optional<cmis::RsFec> pphcr_code(uint8_t active_hist_type) {
  switch (active_hist_type) {
    case kPphcrHistRs544: return cmis::kRs544;
    case kPphcrHistLlrs: return cmis::kRs272;
    case kPphcrHistRs528: return cmis::kRs528;
    default: return std::nullopt;
  }
}

// A bound is 6 bits: none can pass the symbols of a codeword of a code a hist type names.
static_assert(0x3F < cmis::kRs272.n && 0x3F < cmis::kRs528.n && 0x3F < cmis::kRs544.n);

std::variant<std::optional<drivers::LinkFecHistogram>, std::string> pphcr_histogram(const Pphcr& p) {
  const auto code = pphcr_code(p.active_hist_type);
  if (!code || p.num_of_bins == 0) return std::nullopt;
  if (p.num_of_bins > kRsHistogramBins) {
    return "PPHCR has " + std::to_string(p.num_of_bins) + " bins, PPCNT counts " + std::to_string(kRsHistogramBins);
  }
  drivers::LinkFecHistogram h;
  h.correction_limit = code->t;
  for (std::size_t i = 0; i < p.num_of_bins; ++i) {
    const PphcrBin& b = p.bin_range[i];
    const std::string name = "PPHCR bin " + std::to_string(i) + " (" + std::to_string(b.low) + "-" +
                             std::to_string(b.high) + ")";
    if (b.low > b.high) return name + ": low above high";
    if (!h.bins.empty() && b.low <= h.bins.back().high) {
      return name + ": not above bin " + std::to_string(i - 1) + " (up to " + std::to_string(h.bins.back().high) + ")";
    }
    h.bins.push_back({b.low, b.high, 0});
  }
  return h;
}

void fill_rs_histogram(const RsHistogramCounts& counts, drivers::LinkFecHistogram& h) {
  for (std::size_t i = 0; i < h.bins.size() && i < counts.size(); ++i) h.bins[i].value = counts[i];
}

}  // namespace xcvr::ib
