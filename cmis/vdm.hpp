// CMIS VDM (Versatile Diagnostics Monitoring, §8, pages 20h-2Fh): which observables a module
// describes, and where each one's value, threshold set and latched flags are. The rows are the
// field table's (group 1); this file makes a group's copy of a row, so no VDM offset lives
// anywhere else. Statistics (min/max/avg) are decoded as read but only a freeze write (2Fh:144)
// holds them consistent, and the exporter never writes it (design invariant 1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/image.hpp"
#include "cmis/report.hpp"

namespace xcvr::cmis {

struct VdmInstance {
  int group = 0;          // 0-3
  int index = 1;          // 1-64 within the group (the field table's instance)
  uint8_t type_id = 0;    // observable type (descriptor odd byte)
  int lane = 1;           // 1-based (descriptor nibble + 1)
  int threshold_set = 0;  // 0-15, local to the group
};

// An observable's raw 16 bits in its type's unit, and back (the emulator encodes with it).
double vdm_value(const codes::VdmTypeRef& type, uint16_t raw);
uint16_t vdm_raw(const codes::VdmTypeRef& type, double value);

// Groups the module advertises: 0 without VDM, or before pages 01h and 2Fh are read.
int vdm_group_count(const ModuleImage& image);

// A group-1 VDM row moved to `group`: descriptor, value and threshold pages are one page per
// group (20h+g, 24h+g, 28h+g); the flags of every group share page 2Ch, 32 bytes apart.
Field vdm_field(CmisField id, int group);

// Instances whose descriptor names a type (0 = unused), in group and index order; a group
// whose descriptor page the image lacks is skipped.
std::vector<VdmInstance> vdm_instances(const ModuleImage& image);

// The levels of an instance's threshold set (28h+g) in its type's unit; nullopt when the set is
// not read, the type unknown, or the set all zero (one the module leaves blank).
std::optional<Thresholds> vdm_thresholds(const ModuleImage& image, const VdmInstance& instance);

// The pre-FEC BER past which the RS(544,514) "KP4" FEC of 400G/800G Ethernet and NDR InfiniBand
// starts to lose frames: the PMDs' BER budget at the PMD service interface (IEEE 802.3-2022
// clause 124.1, 400GBASE-DR4, "BER ... 2.4 x 10^-4"; likewise the other 50G/100G-per-lane PAM4
// PMDs). The alert rules carry the same figure (config/prometheus, recording rules).
inline constexpr double kKp4PreFecBerLimit = 2.4e-4;

// The worst current (not statistic) media-side value of an exported VDM quantity ("pre_fec_ber",
// "esnr") across lanes, as the module reports it: the highest when `highest`, else the lowest;
// nothing when no lane reports one.
std::optional<double> worst_media_vdm(const ModuleReport& report, std::string_view quantity, bool highest);

// Exported flag name of an observable's flag: "vdm_" + type name + "_" + level, e.g.
// "vdm_pre_fec_ber_current_media_high_warning" (level: "high_alarm", ... as the table rows).
std::string vdm_flag_name(std::string_view type_name, std::string_view level);

// Decodes every described observable of a known type into `out` (reusing its storage): value,
// threshold set (nullopt when page 28h+g is absent or the set is all zero, i.e. not given) and
// raised latched flags (when page 2Ch is in the image).
void decode_vdm_into(const ModuleImage& image, std::vector<VdmObservable>& out);

// A steady-state poll's VDM decode: the observables `out` already holds (decoded in full from the
// same descriptors and threshold sets, which only a static read changes) get their value and
// flags re-read, two reads each. False when a value is not in the image (decode in full).
bool refresh_vdm(const ModuleImage& image, std::vector<VdmObservable>& out);

// Whether the VDM flag `name` (a vdm_flag_name) of `lane` reads raised in the image; nullopt
// when no described instance has that name and lane, or its flag byte is absent.
std::optional<bool> vdm_flag_raised(const ModuleImage& image, std::string_view name, int lane);

}  // namespace xcvr::cmis
