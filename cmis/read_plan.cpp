#include "cmis/read_plan.hpp"

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "cmis/vdm.hpp"

namespace xcvr::cmis {
namespace {

ReadRange whole(const PageKey& key) {
  return {key, static_cast<uint16_t>(key.page == kLowerPage ? 0 : kPageSize),
          static_cast<uint16_t>(kPageSize)};
}

// The bytes from `first` (at lane `first_lane`) to the end of `last` (at lane `last_lane`).
ReadRange span(const Field& first, const Field& last, int last_lane = 1, uint8_t bank = 0) {
  const int lane_base = bank * kCmisLanesPerBank;
  const auto a = locate(first, first.lanes.count ? lane_base + 1 : 1);
  const auto b = locate(last, last.lanes.count ? lane_base + last_lane : 1);
  return {a->page, a->offset, static_cast<uint16_t>(b->offset + last.size - a->offset)};
}

std::optional<uint32_t> cmis_u(const ModuleImage& img, CmisField f) {
  return read_uint(img, cmis_field(f));
}

std::optional<Spec> spec_of(const ModuleImage& img) {
  const auto id = identify(img);
  if (!id) return std::nullopt;
  return id->spec;
}

bool cmis_paged(const ModuleImage& img) { return cmis_u(img, CmisField::FlatMemory).value_or(0) == 0; }

int cmis_banks(const ModuleImage& img) {
  return cmis_bank_count(cmis_u(img, CmisField::BanksSupported).value_or(0));
}


std::vector<PageKey> cmis_static_pages(const ModuleImage& img) {
  std::vector<PageKey> pages{{kDeviceA0, 0, 0x00}};
  if (!cmis_paged(img)) return pages;
  pages.push_back({kDeviceA0, 0, kCmisPageAdvertising});
  pages.push_back({kDeviceA0, 0, kCmisPageThresholds});
  if (!img.has({kDeviceA0, 0, kCmisPageAdvertising})) return pages;  // banks/VDM unknown yet
  for (int b = 0; b < cmis_banks(img); ++b) {
    pages.push_back({kDeviceA0, static_cast<uint8_t>(b), kCmisPageLaneStatus});
  }
  if (cmis_u(img, CmisField::VdmPagesSupported).value_or(0) != 0) {
    pages.push_back({kDeviceA0, 0, kCmisPageVdmAdvertising});
    for (int g = 0; g < vdm_group_count(img); ++g) {
      for (CmisField row : {CmisField::VdmDescriptorType, CmisField::VdmValue, CmisField::VdmThresholdHighAlarm}) {
        pages.push_back(locate(vdm_field(row, g), 1)->page);
      }
    }
    if (vdm_group_count(img) > 0) pages.push_back(locate(cmis_field(CmisField::VdmFlagHighAlarm), 1)->page);
  }
  return pages;
}

std::vector<PageKey> sff8636_static_pages(const ModuleImage& img) {
  std::vector<PageKey> pages{{kDeviceA0, 0, 0x00}};
  const bool flat = read_uint(img, sff8636_field(Sff8636Field::FlatMemory)).value_or(1) != 0;
  if (!flat) pages.push_back({kDeviceA0, 0, kSff8636PageThresholds});
  return pages;
}

bool sff8472_has_ddm(const ModuleImage& img) {
  return read_uint(img, sff8472_field(Sff8472Field::DdmImplemented)).value_or(0) != 0;
}

std::vector<PageKey> sff8472_static_pages(const ModuleImage& img) {
  std::vector<PageKey> pages{{kDeviceA0, 0, 0x00}};
  if (img.has({kDeviceA0, 0, 0x00}) && sff8472_has_ddm(img)) pages.push_back({kDeviceA2, 0, kLowerPage});
  return pages;
}

}  // namespace

std::vector<ReadRange> next_static_reads(const ModuleImage& image) {
  if (!image.has({kDeviceA0, 0, kLowerPage})) return {whole({kDeviceA0, 0, kLowerPage})};
  std::vector<PageKey> wanted;
  switch (*spec_of(image)) {
    case Spec::Cmis: wanted = cmis_static_pages(image); break;
    case Spec::Sff8636: wanted = sff8636_static_pages(image); break;
    case Spec::Sff8472: wanted = sff8472_static_pages(image); break;
  }
  std::vector<ReadRange> out;
  for (const PageKey& key : wanted) {
    if (!image.has(key)) out.push_back(whole(key));
  }
  return out;
}

std::vector<ReadRange> dynamic_reads(const ModuleImage& image) {
  const auto spec = spec_of(image);
  if (!spec) return {};
  switch (*spec) {
    case Spec::Cmis: {
      const auto& f = cmis_field;
      std::vector<ReadRange> out{span(f(CmisField::Identifier), f(CmisField::CustomMonitor))};
      if (!cmis_paged(image)) return out;
      for (int b = 0; b < cmis_banks(image); ++b) {
        out.push_back(span(f(CmisField::DataPathState), f(CmisField::RxPower), kCmisLanesPerBank,
                           static_cast<uint8_t>(b)));
      }
      return out;
    }
    case Spec::Sff8636: {
      const auto& f = sff8636_field;
      return {span(f(Sff8636Field::Identifier), f(Sff8636Field::TxPower), kSff8636Lanes)};
    }
    case Spec::Sff8472: {
      const auto& f = sff8472_field;
      if (!sff8472_has_ddm(image)) return {span(f(Sff8472Field::Identifier), f(Sff8472Field::Identifier))};
      return {span(f(Sff8472Field::Temperature), f(Sff8472Field::FlagRxPowerLowWarning))};
    }
  }
  return {};
}

std::vector<ReadRange> thermal_reads(const ModuleImage& image) {
  const auto spec = spec_of(image);
  if (!spec) return {};
  switch (*spec) {
    case Spec::Cmis: return {span(cmis_field(CmisField::Temperature), cmis_field(CmisField::Temperature))};
    case Spec::Sff8636: {
      const Field& t = sff8636_field(Sff8636Field::Temperature);
      return {span(t, t)};
    }
    case Spec::Sff8472: {
      if (!sff8472_has_ddm(image)) return {};
      const Field& t = sff8472_field(Sff8472Field::Temperature);
      return {span(t, t)};
    }
  }
  return {};
}

// Per group in use: the values up to the last described instance, and their flag nibbles.
std::vector<ReadRange> vdm_reads(const ModuleImage& image) {
  if (spec_of(image) != Spec::Cmis) return {};
  std::vector<int> last(4, 0);  // last described instance per group
  for (const VdmInstance& in : vdm_instances(image)) last[static_cast<std::size_t>(in.group)] = in.index;
  std::vector<ReadRange> out;
  for (int g = 0; g < 4; ++g) {
    const int used = last[static_cast<std::size_t>(g)];
    if (used == 0) continue;
    const Field value = vdm_field(CmisField::VdmValue, g);
    out.push_back(span(value, value, used));
    const Field flags = vdm_field(CmisField::VdmFlagHighAlarm, g);
    out.push_back(span(flags, flags, used));
  }
  return out;
}

std::vector<ReadRange> latch_confirm_reads(const ModuleImage& image) {
  std::vector<ReadRange> out;
  for (const ByteSpan& s : raised_latch_spans(image)) out.push_back({s.page, s.offset, s.length});
  return out;
}

std::size_t plan_bytes(const std::vector<ReadRange>& plan) {
  std::size_t n = 0;
  for (const ReadRange& r : plan) n += r.length;
  return n;
}

}  // namespace xcvr::cmis
