// SFF-8024 code tables and CMIS enumerations. Facts from the project's reference digest
// (/work/shared/reference/cmis-sff-memory-maps.md §2, §8, §9, §11, §14). Each table is a sorted
// constexpr array of {code, name}; codes not in a table fall back to "<class> (0xNN)" where the
// class word ("reserved", "vendor specific", "custom") follows the spec's range for that table.
#include "cmis/codes.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <charconv>
#include <cstddef>
#include <span>
#include <string_view>


namespace xcvr::cmis::codes {
namespace {

struct Entry {
  uint8_t code;
  std::string_view name;
  uint8_t lanes = 0;  // interface tables: lanes the interface uses; 0 = not fixed by the spec
};

template <std::size_t N>
constexpr bool sorted_unique(const std::array<Entry, N>& table) {
  for (std::size_t i = 1; i < N; ++i) {
    if (table[i - 1].code >= table[i].code) return false;
  }
  return true;
}

const Entry* find_entry(std::span<const Entry> table, uint8_t code) {
  auto it = std::lower_bound(table.begin(), table.end(), code,
                             [](const Entry& e, uint8_t c) { return e.code < c; });
  return it == table.end() || it->code != code ? nullptr : &*it;
}

// "reserved (0x2a)" for every code of one class word, built at compile time: a name for an
// unlisted code has static storage like a listed one, so every name is a view of constant text
// and a decode allocates none.
class TaggedNames {
 public:
  consteval explicit TaggedNames(std::string_view word) : size_(word.size() + 7) {
    constexpr std::string_view digits = "0123456789abcdef";
    for (std::size_t code = 0; code < text_.size(); ++code) {
      std::array<char, kMaxSize>& t = text_[code];
      std::size_t i = 0;
      for (const char c : word) t[i++] = c;
      for (const char c : std::string_view(" (0x")) t[i++] = c;
      t[i++] = digits[code >> 4];
      t[i++] = digits[code & 0x0F];
      t[i++] = ')';
    }
  }
  constexpr std::string_view operator()(uint8_t code) const { return {text_[code].data(), size_}; }

 private:
  static constexpr std::size_t kMaxSize = 24;  // "vendor specific (0xNN)" is 22
  std::array<std::array<char, kMaxSize>, 256> text_{};
  std::size_t size_;
};

constexpr TaggedNames kReserved("reserved"), kVendorSpecific("vendor specific"), kCustom("custom"),
    kUnknown("unknown");

constexpr std::string_view reserved_or_vendor(uint8_t code) {
  return code >= 0x80 ? kVendorSpecific(code) : kReserved(code);
}
constexpr std::string_view reserved_or_custom_c0(uint8_t code) {
  return code >= 0xC0 && code <= 0xFE ? kCustom(code) : kReserved(code);
}
constexpr std::string_view reserved_only(uint8_t code) { return kReserved(code); }
constexpr std::string_view unknown(uint8_t code) { return kUnknown(code); }

using Classifier = std::string_view (*)(uint8_t);
using Names = std::array<std::string_view, 256>;

// Every code's name in one table, listed or not, indexed by code and built at compile time: a
// decode names a code for every application and lane, and this makes each one a single load.
template <std::size_t N>
consteval Names all_names(const std::array<Entry, N>& table, Classifier unlisted) {
  Names names{};
  for (std::size_t code = 0; code < names.size(); ++code) names[code] = unlisted(static_cast<uint8_t>(code));
  for (const Entry& e : table) names[e.code] = e.name;
  return names;
}

// ---- SFF-8024 Table 4-1: Identifier (§14.1) ------------------------------------------------
constexpr std::array kIdentifiers{
    Entry{0x00, "Unknown or unspecified"}, Entry{0x01, "GBIC"},
    Entry{0x02, "Module soldered to motherboard"}, Entry{0x03, "SFP/SFP+/SFP28"},
    Entry{0x04, "300 pin XBI"}, Entry{0x05, "XENPAK"}, Entry{0x06, "XFP"}, Entry{0x07, "XFF"},
    Entry{0x08, "XFP-E"}, Entry{0x09, "XPAK"}, Entry{0x0A, "X2"}, Entry{0x0B, "DWDM-SFP"},
    Entry{0x0C, "QSFP"}, Entry{0x0D, "QSFP+"}, Entry{0x0E, "CXP"}, Entry{0x0F, "HD4X"},
    Entry{0x10, "HD8X"}, Entry{0x11, "QSFP28"}, Entry{0x12, "CXP2"},
    Entry{0x13, "CDFP (Style 1/Style 2)"}, Entry{0x14, "HD4X fanout"}, Entry{0x15, "HD8X fanout"},
    Entry{0x16, "CDFP (Style 3)"}, Entry{0x17, "microQSFP"}, Entry{0x18, "QSFP-DD"},
    Entry{0x19, "OSFP"}, Entry{0x1A, "SFP-DD"}, Entry{0x1B, "DSFP"},
    Entry{0x1C, "MiniLink x4 / OcuLink"}, Entry{0x1D, "MiniLink x8"},
    Entry{0x1E, "QSFP+ or later with CMIS"}, Entry{0x1F, "SFP-DD with CMIS"},
    Entry{0x20, "SFP+ with CMIS"}, Entry{0x21, "OSFP-XD with CMIS"},
    Entry{0x22, "OIF-ELSFP with CMIS"}, Entry{0x23, "CDFP x4 PCIe with CMIS"},
    Entry{0x24, "CDFP x8 PCIe with CMIS"}, Entry{0x25, "CDFP x16 PCIe with CMIS"},
};

// ---- SFF-8024 Table 4-3: Connector type (§14.2) --------------------------------------------
constexpr std::array kConnectors{
    Entry{0x00, "Unknown or unspecified"}, Entry{0x01, "SC"},
    Entry{0x02, "Fibre Channel Style 1 copper"}, Entry{0x03, "Fibre Channel Style 2 copper"},
    Entry{0x04, "BNC/TNC"}, Entry{0x05, "Fibre Channel coax headers"}, Entry{0x06, "FiberJack"},
    Entry{0x07, "LC"}, Entry{0x08, "MT-RJ"}, Entry{0x09, "MU"}, Entry{0x0A, "SG"},
    Entry{0x0B, "Optical pigtail"}, Entry{0x0C, "MPO 1x12"}, Entry{0x0D, "MPO 2x16"},
    Entry{0x20, "HSSDC II"}, Entry{0x21, "Copper pigtail"}, Entry{0x22, "RJ45"},
    Entry{0x23, "No separable connector"}, Entry{0x24, "MXC 2x16"},
    Entry{0x25, "CS optical connector"}, Entry{0x26, "SN optical connector (Mini CS)"},
    Entry{0x27, "MPO 2x12"}, Entry{0x28, "MPO 1x16"},
};

// ---- SFF-8024 Table 4-4: Extended specification compliance (§14.3) -------------------------
constexpr std::array kExtendedCompliance{
    Entry{0x00, "Unspecified"}, Entry{0x01, "100G AOC or 25GAUI C2M AOC (BER 5e-5)"},
    Entry{0x02, "100GBASE-SR4 or 25GBASE-SR"}, Entry{0x03, "100GBASE-LR4 or 25GBASE-LR"},
    Entry{0x04, "100GBASE-ER4 or 25GBASE-ER"}, Entry{0x05, "100GBASE-SR10"},
    Entry{0x06, "100G CWDM4"}, Entry{0x07, "100G PSM4 Parallel SMF"},
    Entry{0x08, "100G ACC or 25GAUI C2M ACC (BER 5e-5)"}, Entry{0x09, "Obsolete"},
    Entry{0x0B, "100GBASE-CR4, 25GBASE-CR CA-L or 50GBASE-CR2 with RS FEC"},
    Entry{0x0C, "25GBASE-CR CA-S"}, Entry{0x0D, "25GBASE-CR CA-N"}, Entry{0x10, "40GBASE-ER4"},
    Entry{0x11, "4 x 10GBASE-SR"}, Entry{0x12, "40G PSM4 Parallel SMF"},
    Entry{0x13, "G959.1 profile P1I1-2D1"}, Entry{0x14, "G959.1 profile P1S1-2D2"},
    Entry{0x15, "G959.1 profile P1L1-2D2"}, Entry{0x16, "10GBASE-T with SFI electrical interface"},
    Entry{0x17, "100G CLR4"}, Entry{0x18, "100G AOC or 25GAUI C2M AOC (BER 1e-12)"},
    Entry{0x19, "100G ACC or 25GAUI C2M ACC (BER 1e-12)"}, Entry{0x1A, "100GE-DWDM2"},
    Entry{0x1B, "100G 1550 nm WDM (4 wavelengths)"}, Entry{0x1C, "10GBASE-T Short Reach"},
    Entry{0x1D, "5GBASE-T"}, Entry{0x1E, "2.5GBASE-T"}, Entry{0x1F, "40G SWDM4"},
    Entry{0x20, "100G SWDM4"}, Entry{0x21, "100G PAM4 BiDi"}, Entry{0x22, "4WDM-10 MSA"},
    Entry{0x23, "4WDM-20 MSA"}, Entry{0x24, "4WDM-40 MSA"}, Entry{0x25, "100GBASE-DR"},
    Entry{0x26, "100G-FR or 100GBASE-FR1"}, Entry{0x27, "100G-LR or 100GBASE-LR1"},
    Entry{0x30, "ACC with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M (BER 1e-6)"},
    Entry{0x31, "AOC with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M (BER 1e-6)"},
    Entry{0x32, "ACC with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M (BER 2.6e-4)"},
    Entry{0x33, "AOC with 50GAUI, 100GAUI-2 or 200GAUI-4 C2M (BER 2.6e-4)"},
    Entry{0x40, "50GBASE-CR, 100GBASE-CR2 or 200GBASE-CR4"},
    Entry{0x41, "50GBASE-SR, 100GBASE-SR2 or 200GBASE-SR4"},
    Entry{0x42, "50GBASE-FR or 200GBASE-DR4"}, Entry{0x43, "200GBASE-FR4"},
    Entry{0x44, "200G 1550 nm PSM4"}, Entry{0x45, "50GBASE-LR"}, Entry{0x46, "200GBASE-LR4"},
    Entry{0x47, "400GBASE-DR4"}, Entry{0x48, "400GBASE-FR4"}, Entry{0x49, "400GBASE-LR4-6"},
    Entry{0x4B, "400G-LR4-10"}, Entry{0x80, "64GFC"}, Entry{0x81, "128GFC"},
};

// ---- SFF-8024 Table 4-5: Host electrical interface IDs (§14.4) -----------------------------
constexpr std::array kHostInterfaces{
    Entry{0x00, "Undefined"}, Entry{0x01, "1000BASE-CX", 1}, Entry{0x02, "XAUI", 4},
    Entry{0x03, "XFI", 1}, Entry{0x04, "SFI", 1}, Entry{0x05, "25GAUI C2M", 1},
    Entry{0x06, "XLAUI C2M", 4}, Entry{0x07, "XLPPI", 4}, Entry{0x08, "LAUI-2 C2M", 2},
    Entry{0x09, "50GAUI-2 C2M", 2}, Entry{0x0A, "50GAUI-1 C2M", 1}, Entry{0x0B, "CAUI-4 C2M", 4},
    Entry{0x0C, "100GAUI-4 C2M", 4}, Entry{0x0D, "100GAUI-2 C2M", 2},
    Entry{0x0E, "200GAUI-8 C2M", 8}, Entry{0x0F, "200GAUI-4 C2M", 4}, Entry{0x10, "400GAUI-16 C2M"},
    Entry{0x11, "400GAUI-8 C2M", 8}, Entry{0x13, "10GBASE-CX4", 4},
    Entry{0x14, "25GBASE-CR CA-L", 1}, Entry{0x15, "25GBASE-CR CA-S", 1},
    Entry{0x16, "25GBASE-CR CA-N", 1}, Entry{0x17, "40GBASE-CR4", 4}, Entry{0x18, "50GBASE-CR", 1},
    Entry{0x19, "100GBASE-CR10"}, Entry{0x1A, "100GBASE-CR4", 4}, Entry{0x1B, "100GBASE-CR2", 2},
    Entry{0x1C, "200GBASE-CR4", 4}, Entry{0x1D, "400G CR8", 8}, Entry{0x25, "8GFC"},
    Entry{0x26, "10GFC"}, Entry{0x27, "16GFC"}, Entry{0x28, "32GFC"}, Entry{0x29, "64GFC"},
    Entry{0x2A, "128GFC (FC-PI-6P)"}, Entry{0x2B, "256GFC (FC-PI-7P)"}, Entry{0x2C, "IB SDR"},
    Entry{0x2D, "IB DDR"}, Entry{0x2E, "IB QDR"}, Entry{0x2F, "IB FDR"}, Entry{0x30, "IB EDR"},
    Entry{0x31, "IB HDR"}, Entry{0x32, "IB NDR"}, Entry{0x41, "CAUI-4 C2M without FEC", 4},
    Entry{0x42, "CAUI-4 C2M with RS(528,514) FEC", 4},
    Entry{0x43, "50GBASE-CR2 with RS(528,514) FEC", 2},
    Entry{0x44, "50GBASE-CR2 with Firecode FEC", 2}, Entry{0x45, "50GBASE-CR2 with no FEC", 2},
    Entry{0x46, "100GBASE-CR1", 1}, Entry{0x47, "200GBASE-CR2", 2}, Entry{0x48, "400GBASE-CR4", 4},
    Entry{0x49, "800G-ETC-CR8", 8}, Entry{0x4A, "128GFC (FC-PI-8)"},
    Entry{0x4B, "100GAUI-1-S C2M", 1}, Entry{0x4C, "100GAUI-1-L C2M", 1},
    Entry{0x4D, "200GAUI-2-S C2M", 2}, Entry{0x4E, "200GAUI-2-L C2M", 2},
    Entry{0x4F, "400GAUI-4-S C2M", 4}, Entry{0x50, "400GAUI-4-L C2M", 4},
    Entry{0x51, "800G S C2M", 8}, Entry{0x52, "800G L C2M", 8}, Entry{0x57, "800GBASE-CR4"},
    Entry{0x58, "1.6TBASE-CR8"}, Entry{0x80, "200GAUI-1"}, Entry{0x81, "400GAUI-2"},
    Entry{0x82, "800GAUI-4"}, Entry{0x83, "1.6TAUI-8"}, Entry{0x90, "EEI-100G-RTLR-1-S"},
    Entry{0x91, "EEI-100G-RTLR-1-L"}, Entry{0x92, "EEI-200G-RTLR-2-S"},
    Entry{0x93, "EEI-200G-RTLR-2-L"}, Entry{0x94, "EEI-400G-RTLR-4-S"},
    Entry{0x95, "EEI-400G-RTLR-4-L"}, Entry{0x96, "EEI-800G-RTLR-8-S"},
    Entry{0x97, "EEI-800G-RTLR-8-L"}, Entry{0xA0, "IB XDR"}, Entry{0xFF, "Unused/end of list"},
};

// ---- SFF-8024 Table 4-6: MMF media interface IDs, MediaType 01h (§14.5) --------------------
constexpr std::array kMmfMedia{
    Entry{0x00, "Undefined"}, Entry{0x01, "10GBASE-SW", 1}, Entry{0x02, "10GBASE-SR", 1},
    Entry{0x03, "25GBASE-SR", 1}, Entry{0x04, "40GBASE-SR4", 4}, Entry{0x05, "40GE SWDM4"},
    Entry{0x06, "40GE BiDi"}, Entry{0x07, "50GBASE-SR", 1}, Entry{0x08, "100GBASE-SR10", 10},
    Entry{0x09, "100GBASE-SR4", 4}, Entry{0x0A, "100GE SWDM4"}, Entry{0x0B, "100GE BiDi"},
    Entry{0x0C, "100GBASE-SR2", 2}, Entry{0x0D, "100GBASE-SR1", 1}, Entry{0x0E, "200GBASE-SR4", 4},
    Entry{0x0F, "400GBASE-SR16"}, Entry{0x10, "400GBASE-SR8", 8}, Entry{0x11, "400GBASE-SR4", 4},
    Entry{0x12, "800G-SR8", 8}, Entry{0x13, "8GFC-MM"}, Entry{0x14, "10GFC-MM"},
    Entry{0x15, "16GFC-MM"}, Entry{0x16, "32GFC-MM"}, Entry{0x17, "64GFC-MM"},
    Entry{0x18, "128GFC-MM4"}, Entry{0x19, "256GFC-MM4"}, Entry{0x1A, "400GBASE-SR4.2"},
    Entry{0x1B, "200GBASE-SR2", 2}, Entry{0x1C, "128GFC-MM"}, Entry{0x1D, "100GBASE-VR1", 1},
    Entry{0x1E, "200GBASE-VR2", 2}, Entry{0x1F, "400GBASE-VR4", 4}, Entry{0x20, "800G-VR8", 8},
    Entry{0x21, "800G-VR4.2"}, Entry{0x22, "800G-SR4.2"}, Entry{0x23, "1.6T-VR8.2"},
    Entry{0x24, "1.6T-SR8.2"},
};

// ---- SFF-8024 Table 4-7: SMF media interface IDs, MediaType 02h (§14.6) --------------------
constexpr std::array kSmfMedia{
    Entry{0x00, "Undefined"}, Entry{0x01, "10GBASE-LW"}, Entry{0x02, "10GBASE-EW"},
    Entry{0x03, "10G-ZW"}, Entry{0x04, "10GBASE-LR", 1}, Entry{0x05, "10GBASE-ER"},
    Entry{0x06, "10G-ZR"}, Entry{0x07, "25GBASE-LR", 1}, Entry{0x08, "25GBASE-ER"},
    Entry{0x09, "40GBASE-LR4", 4}, Entry{0x0A, "40GBASE-FR", 1}, Entry{0x0B, "50GBASE-FR", 1},
    Entry{0x0C, "50GBASE-LR", 1}, Entry{0x0D, "100GBASE-LR4", 4}, Entry{0x0E, "100GBASE-ER4", 4},
    Entry{0x0F, "100G PSM4", 4}, Entry{0x10, "100G CWDM4", 4}, Entry{0x11, "100G 4WDM-10"},
    Entry{0x12, "100G 4WDM-20"}, Entry{0x13, "100G 4WDM-40"}, Entry{0x14, "100GBASE-DR", 1},
    Entry{0x15, "100G-FR/100GBASE-FR1", 1}, Entry{0x16, "100G-LR/100GBASE-LR1", 1},
    Entry{0x17, "200GBASE-DR4", 4}, Entry{0x18, "200GBASE-FR4", 4}, Entry{0x19, "200GBASE-LR4", 4},
    Entry{0x1A, "400GBASE-FR8", 8}, Entry{0x1B, "400GBASE-LR8", 8}, Entry{0x1C, "400GBASE-DR4", 4},
    Entry{0x1D, "400G-FR4/400GBASE-FR4", 4}, Entry{0x1E, "400G-LR4-10", 4}, Entry{0x1F, "8GFC-SM"},
    Entry{0x20, "10GFC-SM"}, Entry{0x21, "16GFC-SM"}, Entry{0x22, "32GFC-SM"},
    Entry{0x23, "64GFC-SM"}, Entry{0x24, "128GFC-PSM4"}, Entry{0x26, "128GFC-CWDM4"},
    Entry{0x34, "100G CWDM4-OCP"}, Entry{0x3E, "400ZR, DWDM, amplified"},
    Entry{0x3F, "400ZR, single wavelength, unamplified"}, Entry{0x40, "50GBASE-ER"},
    Entry{0x41, "200GBASE-ER4"}, Entry{0x42, "400GBASE-ER8"}, Entry{0x43, "400GBASE-LR4-6", 4},
    Entry{0x44, "100GBASE-ZR"}, Entry{0x45, "128GFC-SM"}, Entry{0x4A, "100G-LR1-20"},
    Entry{0x4B, "100G-ER1-30"}, Entry{0x4C, "100G-ER1-40"}, Entry{0x4D, "400GBASE-ZR"},
    Entry{0x4E, "10GBASE-BR"}, Entry{0x4F, "25GBASE-BR"}, Entry{0x50, "50GBASE-BR"},
    Entry{0x55, "400GBASE-DR4-2"}, Entry{0x56, "800GBASE-DR8", 8}, Entry{0x57, "800GBASE-DR8-2"},
};

// ---- SFF-8024 Tables 4-8 .. 4-10: passive copper, active cable, BASE-T (§14.7) -------------
constexpr std::array kPassiveCopperMedia{
    Entry{0x00, "Undefined"}, Entry{0x01, "Copper cable"}, Entry{0xBF, "Passive loopback module"},
};
constexpr std::array kActiveCableMedia{
    Entry{0x00, "Undefined"}, Entry{0x01, "Active cable, BER < 1e-12"},
    Entry{0x02, "Active cable, BER < 5e-5"}, Entry{0x03, "Active cable, BER < 2.6e-4"},
    Entry{0x04, "Active cable, BER < 1e-6"}, Entry{0xBF, "Active loopback module"},
};
constexpr std::array kBaseTMedia{
    Entry{0x00, "Undefined"}, Entry{0x01, "1000BASE-T"}, Entry{0x02, "2.5GBASE-T"},
    Entry{0x03, "5GBASE-T"}, Entry{0x04, "10GBASE-T"}, Entry{0x05, "25GBASE-T"},
    Entry{0x06, "40GBASE-T"}, Entry{0x07, "50GBASE-T"},
};

// ---- CMIS enumerations (§9) ------------------------------------------------------------------
constexpr std::array kMediaTypes{
    Entry{0x00, "Undefined"}, Entry{0x01, "MMF"}, Entry{0x02, "SMF"}, Entry{0x03, "Passive copper"},
    Entry{0x04, "Active cable"}, Entry{0x05, "BASE-T"},
};

constexpr std::array kMediaTechnologies{
    Entry{0x00, "850 nm VCSEL"}, Entry{0x01, "1310 nm VCSEL"}, Entry{0x02, "1550 nm VCSEL"},
    Entry{0x03, "1310 nm FP"}, Entry{0x04, "1310 nm DFB"}, Entry{0x05, "1550 nm DFB"},
    Entry{0x06, "1310 nm EML"}, Entry{0x07, "1550 nm EML"}, Entry{0x08, "Others"},
    Entry{0x09, "1490 nm DFB"}, Entry{0x0A, "Copper cable unequalized"},
    Entry{0x0B, "Copper cable passive equalized"},
    Entry{0x0C, "Copper cable, near and far end limiting active equalizers"},
    Entry{0x0D, "Copper cable, far end limiting active equalizers"},
    Entry{0x0E, "Copper cable, near end limiting active equalizers"},
    Entry{0x0F, "Copper cable, linear active equalizers"}, Entry{0x10, "C-band tunable laser"},
    Entry{0x11, "L-band tunable laser"},
};

constexpr std::array kModuleStates{
    Entry{code_of(ModuleState::LowPwr), "ModuleLowPwr"}, Entry{code_of(ModuleState::PwrUp), "ModulePwrUp"},
    Entry{code_of(ModuleState::Ready), "ModuleReady"}, Entry{code_of(ModuleState::PwrDn), "ModulePwrDn"},
    Entry{code_of(ModuleState::Fault), "ModuleFault"},
};

constexpr std::array kDataPathStates{
    Entry{code_of(DataPathState::Deactivated), "DPDeactivated"}, Entry{code_of(DataPathState::Init), "DPInit"},
    Entry{code_of(DataPathState::Deinit), "DPDeinit"}, Entry{code_of(DataPathState::Activated), "DPActivated"},
    Entry{code_of(DataPathState::TxTurnOn), "DPTxTurnOn"}, Entry{code_of(DataPathState::TxTurnOff), "DPTxTurnOff"},
    Entry{code_of(DataPathState::Initialized), "DPInitialized"},
};

constexpr std::array kModuleFaultCauses{
    Entry{0, "No fault detected or not supported"}, Entry{1, "TEC runaway"},
    Entry{2, "Data memory corrupted"}, Entry{3, "Program memory corrupted"},
};

constexpr std::array kConfigStatuses{
    Entry{0x0, "ConfigUndefined"}, Entry{0x1, "ConfigSuccess"}, Entry{0x2, "ConfigRejected"},
    Entry{0x3, "ConfigRejectedInvalidAppSel"}, Entry{0x4, "ConfigRejectedInvalidDataPath"},
    Entry{0x5, "ConfigRejectedInvalidSI"}, Entry{0x6, "ConfigRejectedLaneInUse"},
    Entry{0x7, "ConfigRejectedPartialDataPath"}, Entry{0xC, "ConfigInProgress"},
};

// ---- Revision / compliance bytes (SFF-8636 byte 1, SFF-8472 byte 94) ----------------------
constexpr std::array kSff8636Revisions{
    Entry{0x00, "Not specified"}, Entry{0x01, "SFF-8436 rev 4.8 or earlier"},
    Entry{0x02, "SFF-8436 rev 4.8 or earlier, bytes 1 and 186-189 per SFF-8636"},
    Entry{0x03, "SFF-8636 rev 1.3 or earlier"}, Entry{0x04, "SFF-8636 rev 1.4"},
    Entry{0x05, "SFF-8636 rev 1.5"}, Entry{0x06, "SFF-8636 rev 2.0"},
    Entry{0x07, "SFF-8636 rev 2.5-2.7"}, Entry{0x08, "SFF-8636 rev 2.8-2.10"},
};

constexpr std::array kSff8472Compliance{
    Entry{0, "Not included or undefined"}, Entry{1, "SFF-8472 rev 9.3"},
    Entry{2, "SFF-8472 rev 9.5"}, Entry{3, "SFF-8472 rev 10.2"}, Entry{4, "SFF-8472 rev 10.4"},
    Entry{5, "SFF-8472 rev 11.0"}, Entry{6, "SFF-8472 rev 11.3"}, Entry{7, "SFF-8472 rev 11.4"},
    Entry{8, "SFF-8472 rev 12.3"}, Entry{9, "SFF-8472 rev 12.4"},
};

static_assert(sorted_unique(kIdentifiers) && sorted_unique(kConnectors) &&
              sorted_unique(kExtendedCompliance) && sorted_unique(kHostInterfaces));
static_assert(sorted_unique(kMmfMedia) && sorted_unique(kSmfMedia) &&
              sorted_unique(kPassiveCopperMedia) && sorted_unique(kActiveCableMedia) &&
              sorted_unique(kBaseTMedia));
static_assert(sorted_unique(kMediaTypes) && sorted_unique(kMediaTechnologies) &&
              sorted_unique(kModuleStates) && sorted_unique(kDataPathStates) &&
              sorted_unique(kModuleFaultCauses) && sorted_unique(kConfigStatuses) &&
              sorted_unique(kSff8636Revisions) && sorted_unique(kSff8472Compliance));

// Powers of ten that a double holds exactly (10^0 .. 10^22).
constexpr std::array<double, 23> kExactPow10 = [] {
  std::array<double, 23> p{};
  double v = 1.0;
  for (double& x : p) {
    x = v;
    v *= 10.0;
  }
  return p;
}();

constexpr Names kIdentifierNames = all_names(kIdentifiers, reserved_or_vendor);
constexpr Names kConnectorNames = all_names(kConnectors, reserved_or_vendor);
constexpr Names kHostInterfaceNames = all_names(kHostInterfaces, reserved_or_custom_c0);
constexpr Names kMediaTypeNames = all_names(kMediaTypes, [](uint8_t c) -> std::string_view {
  return c >= 0x40 && c <= 0x8F ? kCustom(c) : kReserved(c);
});
constexpr Names kMmfMediaNames = all_names(kMmfMedia, reserved_or_custom_c0);
constexpr Names kSmfMediaNames = all_names(kSmfMedia, reserved_or_custom_c0);
constexpr Names kPassiveCopperMediaNames = all_names(kPassiveCopperMedia, reserved_or_custom_c0);
constexpr Names kActiveCableMediaNames = all_names(kActiveCableMedia, reserved_or_custom_c0);
constexpr Names kBaseTMediaNames = all_names(kBaseTMedia, reserved_or_custom_c0);
constexpr Names kUnknownMediaNames = all_names(std::array<Entry, 0>{}, unknown);
constexpr Names kMediaTechnologyNames = all_names(kMediaTechnologies, reserved_only);
constexpr Names kExtendedComplianceNames = all_names(kExtendedCompliance, reserved_only);
constexpr Names kModuleStateNames = all_names(kModuleStates, reserved_only);
constexpr Names kDataPathStateNames = all_names(kDataPathStates, reserved_only);
constexpr Names kModuleFaultCauseNames = all_names(kModuleFaultCauses, [](uint8_t c) -> std::string_view {
  return c >= 32 && c <= 63 ? kCustom(c) : kReserved(c);
});
constexpr Names kConfigStatusNames = all_names(kConfigStatuses, [](uint8_t c) -> std::string_view {
  return c >= 0xD && c <= 0xF ? kCustom(c) : kReserved(c);
});
constexpr Names kSff8636RevisionNames = all_names(kSff8636Revisions, reserved_only);
constexpr Names kSff8472ComplianceNames = all_names(kSff8472Compliance, reserved_only);

// The media interface table for a media type (SFF-8024 Tables 4-6 to 4-10) and its names by
// code; no entries for an undefined, reserved or custom media type, whose codes are all
// "unknown (0xNN)".
struct MediaTable {
  std::span<const Entry> entries;
  const Names& names;
};
MediaTable media_table(uint8_t media_type_code) {
  switch (media_type_code) {
    case 0x01: return {kMmfMedia, kMmfMediaNames};
    case 0x02: return {kSmfMedia, kSmfMediaNames};
    case 0x03: return {kPassiveCopperMedia, kPassiveCopperMediaNames};
    case 0x04: return {kActiveCableMedia, kActiveCableMediaNames};
    case 0x05: return {kBaseTMedia, kBaseTMediaNames};
    default: return {{}, kUnknownMediaNames};
  }
}

}  // namespace

std::string_view identifier(uint8_t code) { return kIdentifierNames[code]; }
std::string_view connector(uint8_t code) { return kConnectorNames[code]; }
std::string_view host_interface(uint8_t code) { return kHostInterfaceNames[code]; }
std::string_view media_type(uint8_t code) { return kMediaTypeNames[code]; }
std::string_view media_interface(uint8_t media_type_code, uint8_t code) {
  return media_table(media_type_code).names[code];
}

bool technology_is_copper(uint32_t code) { return code >= 0x0A && code <= 0x0F; }
bool technology_is_passive_copper(uint32_t code) { return code == 0x0A || code == 0x0B; }

int host_interface_lanes(uint8_t code) {
  const Entry* e = find_entry(kHostInterfaces, code);
  return e ? e->lanes : 0;
}

int media_interface_lanes(uint8_t media_type_code, uint8_t code) {
  const Entry* e = find_entry(media_table(media_type_code).entries, code);
  return e ? e->lanes : 0;
}

std::string_view media_interface_technology(uint8_t code) { return kMediaTechnologyNames[code]; }
std::string_view extended_compliance(uint8_t code) { return kExtendedComplianceNames[code]; }
std::string_view module_state(uint8_t code) { return kModuleStateNames[code]; }
std::string_view data_path_state(uint8_t code) { return kDataPathStateNames[code]; }
std::string_view module_fault_cause(uint8_t code) { return kModuleFaultCauseNames[code]; }
std::string_view config_status(uint8_t code) { return kConfigStatusNames[code]; }
std::string_view sff8636_revision(uint8_t code) { return kSff8636RevisionNames[code]; }
std::string_view sff8472_compliance(uint8_t code) { return kSff8472ComplianceNames[code]; }

bool is_application_terminator(uint8_t host_interface_code) {
  return host_interface_code == 0xFF || host_interface_code == 0x00;
}

uint16_t vdm_f16_raw(double value) {
  if (!(value > 0)) return 0;
  // Smallest exponent whose mantissa still fits in 11 bits.
  int exponent = std::clamp(static_cast<int>(std::ceil(std::log10(value / 2047.0))) + 24, 0, 31);
  for (; exponent <= 31; ++exponent) {
    const double mantissa = std::round(value / std::pow(10.0, exponent - 24));
    if (mantissa <= 2047) return static_cast<uint16_t>(exponent << 11 | static_cast<int>(mantissa));
  }
  return 0xFFFF;
}

double vdm_f16(uint16_t raw) {
  const int exponent = raw >> 11;              // bits 15-11
  const unsigned mantissa = raw & 0x07FFu;     // bits 10-0
  const int shift = exponent - 24;
  if (mantissa == 0) return 0.0;
  // Both operands are exact doubles here, so one IEEE operation gives the correctly rounded
  // value of m * 10^shift (e.g. 1000 * 10^-9 == 1e-6 bit for bit).
  if (shift >= 0) {
    return static_cast<double>(mantissa) * kExactPow10[static_cast<std::size_t>(shift)];
  }
  if (-shift < static_cast<int>(kExactPow10.size())) {
    return static_cast<double>(mantissa) / kExactPow10[static_cast<std::size_t>(-shift)];
  }
  // 10^23 and 10^24 are not exact doubles: let from_chars round "<m>e-<k>" correctly instead.
  std::array<char, 16> buf{};
  char* const last = buf.data() + buf.size();
  char* p = std::to_chars(buf.data(), last, mantissa).ptr;
  *p++ = 'e';
  *p++ = '-';
  p = std::to_chars(p, last, -shift).ptr;
  double value = 0.0;
  std::from_chars(buf.data(), p, value);
  return value;
}

}  // namespace xcvr::cmis::codes
