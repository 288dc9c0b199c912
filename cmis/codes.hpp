// SFF-8024 code tables and CMIS enumerations: code -> human name. Unknown or reserved codes
// give "reserved (0xNN)" / "vendor specific (0xNN)" / "custom (0xNN)" as the spec classes them —
// never an empty string and never a crash. Every name is a view of static text (no allocation,
// valid for the life of the program), so a report can hold it as a string_view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xcvr::cmis::codes {

std::string_view identifier(uint8_t code);                // SFF-8024 Table 4-1: 0x18 "QSFP-DD"
std::string_view connector(uint8_t code);                 // Table 4-3: 0x07 "LC"
std::string_view host_interface(uint8_t code);            // Table 4-5: 0x11 "400GAUI-8 C2M"
std::string_view media_type(uint8_t code);                // CMIS 00h:85: 0x01 "MMF"
// Media interface ID per media type (Tables 4-6 .. 4-10): (0x01, 0x10) "400GBASE-SR8".
std::string_view media_interface(uint8_t media_type, uint8_t code);
std::string_view media_interface_technology(uint8_t code);  // CMIS 00h:212 / SFF-8636 147[7:4]
std::string_view extended_compliance(uint8_t code);         // Table 4-4 (SFF-8636 192, SFF-8472 36)
// CMIS module state (00h:3 bits 3-1) and data path state (11h:128-131 nibbles) encodings.
enum class ModuleState : uint8_t { LowPwr = 1, PwrUp = 2, Ready = 3, PwrDn = 4, Fault = 5 };
enum class DataPathState : uint8_t {
  Deactivated = 1, Init = 2, Deinit = 3, Activated = 4, TxTurnOn = 5, TxTurnOff = 6, Initialized = 7
};
constexpr uint8_t code_of(ModuleState s) { return static_cast<uint8_t>(s); }
constexpr uint8_t code_of(DataPathState s) { return static_cast<uint8_t>(s); }
std::string_view module_state(uint8_t code);                // CMIS: 3 "ModuleReady"
std::string_view data_path_state(uint8_t code);             // CMIS: 4 "DPActivated"
std::string_view module_fault_cause(uint8_t code);          // CMIS 00h:41
std::string_view config_status(uint8_t code);               // CMIS 11h:202-205 nibbles
std::string_view sff8636_revision(uint8_t code);            // SFF-8636 byte 1: 0x07 "SFF-8636 rev 2.5-2.7"
std::string_view sff8472_compliance(uint8_t code);          // SFF-8472 A0h byte 94

// Lanes an interface uses, from the same SFF-8024 rows as its name (Table 4-5 host, 4-6/4-7
// media per media type); 0 where the spec does not fix a count.
int host_interface_lanes(uint8_t code);
int media_interface_lanes(uint8_t media_type, uint8_t code);

// Media interface technology classes (CMIS 00h:212, SFF-8636 147 bits 7-4;
// §9.7 of the reference digest): 0Ah-0Fh are copper cables (0Ah, 0Bh passive); everything else,
// the tunable lasers 10h/11h included, is a light source with a nominal wavelength.
bool technology_is_copper(uint32_t code);
bool technology_is_passive_copper(uint32_t code);

// True for host interface code 0xFF / 0x00 that ends or pads the application list.
bool is_application_terminator(uint8_t host_interface_code);

// VDM observable type (CMIS pages 20h-2Fh; the table: cmis/vdm_types.hpp): name, how the 16-bit
// value is encoded, and scale. S16Dbm: signed steps of `scale` dBm (C-CMIS optical powers),
// decoded to watts (SI units end to end; the S16 minimum, -327.68 dBm, is no light: 0 W).
enum class VdmEncoding : uint8_t { U16, S16, F16, S16Dbm };
struct VdmType {
  std::string name;   // snake_case, e.g. "esnr_media_input", "pre_fec_ber_current_media"
  VdmEncoding encoding;
  double scale;       // unit per LSB (for F16: 1, the F16 value itself)
  std::string unit;   // "ratio", "celsius", "decibels", "percent" -> use "ratio" for 0-1
};
std::optional<VdmType> vdm_type(uint8_t type_id);
// The same without copying the names (static storage), for the per-poll decode path.
struct VdmTypeRef {
  std::string_view name;
  VdmEncoding encoding;
  double scale;
  std::string_view unit;
  std::string_view quantity;   // what /metrics calls it ("pre_fec_ber", "esnr"); "" = JSON only
  std::string_view qualifier;  // side ("media"/"host") or supply rail ("2p6", ...); "" = none
  bool statistic = false;      // min/max/avg: held consistent only by a freeze, never written
};
std::optional<VdmTypeRef> vdm_type_ref(uint8_t type_id);
// F16: bits 15-11 exponent e, bits 10-0 mantissa m: m * 10^(e-24).
double vdm_f16(uint16_t raw);
// The F16 nearest to `value` (0 for value <= 0; the largest F16 above the range), the
// mantissa as large as it goes, so the most digits are kept.
uint16_t vdm_f16_raw(double value);

}  // namespace xcvr::cmis::codes
