#include "cmis/vdm.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "cmis/codes.hpp"

namespace xcvr::cmis {
namespace {

using F = CmisField;

constexpr std::array kFlagRows{F::VdmFlagHighAlarm, F::VdmFlagLowAlarm, F::VdmFlagHighWarning,
                               F::VdmFlagLowWarning};

// An instance's four flag bits as one read: the rows' nibble (they are its bits 0-3).
void read_flags(const ModuleImage& image, int group, int index, VdmFlagLevels& out) {
  out.clear();
  Field nibble = vdm_field(F::VdmFlagHighAlarm, group);
  nibble.width = static_cast<uint8_t>(kFlagRows.size());
  const uint32_t bits = read_uint(image, nibble, index).value_or(0);
  if (bits == 0) return;
  for (std::size_t level = 0; level < kFlagRows.size(); ++level) {
    const Field& flag = cmis_field(kFlagRows[level]);
    if ((bits >> (flag.shift - nibble.shift) & 1) != 0) out.set(static_cast<int>(level));
  }
}

// The value of a described instance in its type's unit; nullopt when the value is not read.
std::optional<double> value_of(const ModuleImage& image, const codes::VdmTypeRef& type, int group, int index) {
  const auto raw = read_uint(image, vdm_field(F::VdmValue, group), index);
  if (!raw) return std::nullopt;
  return vdm_value(type, static_cast<uint16_t>(*raw));
}

}  // namespace

double vdm_value(const codes::VdmTypeRef& type, uint16_t raw) {
  switch (type.encoding) {
    case codes::VdmEncoding::U16: return scaled_value(raw, type.scale);
    case codes::VdmEncoding::S16: return scaled_value(static_cast<int16_t>(raw), type.scale);
    case codes::VdmEncoding::F16: return codes::vdm_f16(raw);
    case codes::VdmEncoding::S16Dbm: {
      const auto steps = static_cast<int16_t>(raw);
      if (steps == INT16_MIN) return 0;  // no light
      return 1e-3 * std::pow(10.0, steps * type.scale / 10.0);
    }
  }
  return 0;
}

uint16_t vdm_raw(const codes::VdmTypeRef& type, double value) {
  switch (type.encoding) {
    case codes::VdmEncoding::U16:
      return static_cast<uint16_t>(std::clamp(std::round(value / type.scale), 0.0, 65535.0));
    case codes::VdmEncoding::S16:
      return static_cast<uint16_t>(static_cast<int16_t>(std::clamp(std::round(value / type.scale), -32768.0, 32767.0)));
    case codes::VdmEncoding::F16: return codes::vdm_f16_raw(value);
    case codes::VdmEncoding::S16Dbm: {
      if (!(value > 0)) return static_cast<uint16_t>(INT16_MIN);  // no light
      const double steps = std::round(10.0 * std::log10(value / 1e-3) / type.scale);
      return static_cast<uint16_t>(static_cast<int16_t>(std::clamp(steps, INT16_MIN + 1.0, 32767.0)));
    }
  }
  return 0;
}

std::optional<Thresholds> vdm_thresholds(const ModuleImage& image, const VdmInstance& in) {
  const auto type = codes::vdm_type_ref(in.type_id);
  if (!type) return std::nullopt;
  const int set = in.threshold_set + 1;
  const auto raw = [&](F id) { return read_uint(image, vdm_field(id, in.group), set); };
  const auto ha = raw(F::VdmThresholdHighAlarm), la = raw(F::VdmThresholdLowAlarm),
             hw = raw(F::VdmThresholdHighWarning), lw = raw(F::VdmThresholdLowWarning);
  if (!ha || !la || !hw || !lw) return std::nullopt;
  if ((*ha | *la | *hw | *lw) == 0) return std::nullopt;  // a set the module leaves blank
  const auto v = [&](uint32_t r) { return vdm_value(*type, static_cast<uint16_t>(r)); };
  return Thresholds{v(*ha), v(*hw), v(*lw), v(*la)};
}

int vdm_group_count(const ModuleImage& image) {
  if (read_uint(image, cmis_field(F::VdmPagesSupported)).value_or(0) == 0) return 0;
  const auto groups = read_uint(image, cmis_field(F::VdmGroupsSupported));
  return groups ? static_cast<int>(*groups) + 1 : 0;
}

Field vdm_field(CmisField id, int group) {
  Field f = cmis_field(id);
  if (f.role == Role::VdmFlag) {
    f.offset = static_cast<uint16_t>(f.offset + kCmisVdmFlagBytesPerGroup * group);
  } else {
    f.page = static_cast<int16_t>(f.page + group);
  }
  return f;
}

std::vector<VdmInstance> vdm_instances(const ModuleImage& image) {
  std::vector<VdmInstance> out;
  for (int g = 0; g < vdm_group_count(image); ++g) {
    const Field type = vdm_field(F::VdmDescriptorType, g);
    if (!image.has({kDeviceA0, 0, type.page})) continue;
    const Field lane = vdm_field(F::VdmDescriptorLane, g);
    const Field set = vdm_field(F::VdmDescriptorThresholdSet, g);
    for (int i = 1; i <= kCmisVdmInstancesPerPage; ++i) {
      const auto id = read_uint(image, type, i).value_or(0);
      if (id == 0) continue;
      out.push_back({g, i, static_cast<uint8_t>(id), static_cast<int>(read_uint(image, lane, i).value_or(0)) + 1,
                     static_cast<int>(read_uint(image, set, i).value_or(0))});
    }
  }
  return out;
}

std::string vdm_flag_name(std::string_view type_name, std::string_view level) {
  std::string name = "vdm_";
  name.append(type_name).append("_").append(level);
  return name;
}

void decode_vdm_into(const ModuleImage& image, std::vector<VdmObservable>& out) {
  std::size_t n = 0;
  for (const VdmInstance& in : vdm_instances(image)) {
    const auto type = codes::vdm_type_ref(in.type_id);
    const auto value = type ? value_of(image, *type, in.group, in.index) : std::nullopt;
    if (!value) continue;
    if (n == out.size()) out.emplace_back();
    VdmObservable& o = out[n++];
    o.type_id = in.type_id;
    o.lane = static_cast<int16_t>(in.lane);
    o.value = *value;
    o.group = static_cast<int16_t>(in.group);
    o.index = static_cast<int16_t>(in.index);
    o.threshold_set = static_cast<int16_t>(in.threshold_set);
    // Instances of one type that name one set (a type's lanes usually do) share its levels.
    o.thresholds.reset();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const VdmObservable& s = out[i];
      if (s.type_id == o.type_id && s.group == o.group && s.threshold_set == o.threshold_set) {
        o.thresholds = s.thresholds;
        break;
      }
    }
    if (!o.thresholds) {
      if (const auto levels = vdm_thresholds(image, in)) o.thresholds = std::make_shared<const Thresholds>(*levels);
    }
    read_flags(image, in.group, in.index, o.flags);
  }
  out.resize(n);
}

bool refresh_vdm(const ModuleImage& image, std::vector<VdmObservable>& out) {
  for (VdmObservable& o : out) {
    const auto type = codes::vdm_type_ref(static_cast<uint8_t>(o.type_id));
    const auto value = type ? value_of(image, *type, o.group, o.index) : std::nullopt;
    if (!value) return false;
    o.value = *value;
    read_flags(image, o.group, o.index, o.flags);
  }
  return true;
}

std::optional<bool> vdm_flag_raised(const ModuleImage& image, std::string_view name, int lane) {
  for (const VdmInstance& in : vdm_instances(image)) {
    if (in.lane != lane) continue;
    const auto type = codes::vdm_type_ref(in.type_id);
    if (!type) continue;
    for (F row : kFlagRows) {
      const Field flag = vdm_field(row, in.group);
      if (vdm_flag_name(type->name, flag.name) != name) continue;
      const auto v = read_uint(image, flag, in.index);
      if (!v) return std::nullopt;
      return *v != 0;
    }
  }
  return std::nullopt;
}

std::optional<double> worst_media_vdm(const ModuleReport& report, std::string_view quantity, bool highest) {
  std::optional<double> worst;
  for (const VdmObservable& o : report.vdm) {
    if (o.quantity() != quantity || o.statistic() || o.qualifier() != "media" || !std::isfinite(o.value)) continue;
    if (!worst || (highest ? o.value > *worst : o.value < *worst)) worst = o.value;
  }
  return worst;
}

std::string_view VdmFlagLevels::level_name(int level) {
  static_assert(kFlagRows.size() == kLevels);
  return cmis_field(kFlagRows[static_cast<std::size_t>(level)]).name;
}

}  // namespace xcvr::cmis
