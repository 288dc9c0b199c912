#include "daemon/read_plan.hpp"

#include "cmis/cmis_map.hpp"
#include "cmis/decode.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::daemon {
namespace {

using cmis::CmisField;
using cmis::Field;
using cmis::kDeviceA0;
using cmis::kDeviceA2;
using cmis::kLowerPage;
using cmis::ModuleImage;
using cmis::PageKey;
using cmis::Sff8472Field;
using cmis::Sff8636Field;

ReadRange whole(const PageKey& key) {
  return {key, static_cast<uint16_t>(key.page == kLowerPage ? 0 : cmis::kPageSize),
          static_cast<uint16_t>(cmis::kPageSize)};
}

// The bytes from `first` (at lane `first_lane`) to the end of `last` (at lane `last_lane`).
ReadRange span(const Field& first, const Field& last, int last_lane = 1, uint8_t bank = 0) {
  const int lane_base = bank * cmis::kCmisLanesPerBank;
  const auto a = cmis::locate(first, first.lanes.count ? lane_base + 1 : 1);
  const auto b = cmis::locate(last, last.lanes.count ? lane_base + last_lane : 1);
  return {a->page, a->offset, static_cast<uint16_t>(b->offset + last.size - a->offset)};
}

std::optional<uint32_t> cmis_u(const ModuleImage& img, CmisField f) {
  return cmis::read_uint(img, cmis::cmis_field(f));
}

std::optional<cmis::Spec> spec_of(const ModuleImage& img) {
  const auto id = img.byte(kDeviceA0, 0, kLowerPage, 0);
  if (!id) return std::nullopt;
  return cmis::spec_for_identifier(*id).value_or(cmis::Spec::Cmis);
}

bool cmis_paged(const ModuleImage& img) { return cmis_u(img, CmisField::FlatMemory).value_or(0) == 0; }

int cmis_banks(const ModuleImage& img) {
  const auto code = cmis_u(img, CmisField::BanksSupported);
  return !code || *code == 0 || *code == 3 ? 1 : *code == 1 ? 2 : 4;
}

int cmis_vdm_groups(const ModuleImage& img) {
  if (cmis_u(img, CmisField::VdmPagesSupported).value_or(0) == 0) return 0;
  if (!img.has({kDeviceA0, 0, cmis::kCmisPageVdmAdvertising})) return 0;
  return static_cast<int>(cmis_u(img, CmisField::VdmGroupsSupported).value_or(0)) + 1;
}

std::vector<PageKey> cmis_static_pages(const ModuleImage& img) {
  std::vector<PageKey> pages{{kDeviceA0, 0, 0x00}};
  if (!cmis_paged(img)) return pages;
  pages.push_back({kDeviceA0, 0, cmis::kCmisPageAdvertising});
  pages.push_back({kDeviceA0, 0, cmis::kCmisPageThresholds});
  if (!img.has({kDeviceA0, 0, cmis::kCmisPageAdvertising})) return pages;  // banks/VDM unknown yet
  for (int b = 0; b < cmis_banks(img); ++b) {
    pages.push_back({kDeviceA0, static_cast<uint8_t>(b), cmis::kCmisPageLaneStatus});
  }
  if (cmis_u(img, CmisField::VdmPagesSupported).value_or(0) != 0) {
    pages.push_back({kDeviceA0, 0, cmis::kCmisPageVdmAdvertising});
    for (int g = 0; g < cmis_vdm_groups(img); ++g) {
      pages.push_back({kDeviceA0, 0, static_cast<int16_t>(cmis::kCmisPageVdmDescriptors + g)});
      pages.push_back({kDeviceA0, 0, static_cast<int16_t>(cmis::kCmisPageVdmValues + g)});
    }
  }
  return pages;
}

std::vector<PageKey> sff8636_static_pages(const ModuleImage& img) {
  std::vector<PageKey> pages{{kDeviceA0, 0, 0x00}};
  const bool flat = cmis::read_uint(img, cmis::sff8636_field(Sff8636Field::FlatMemory)).value_or(1) != 0;
  if (!flat) pages.push_back({kDeviceA0, 0, cmis::kSff8636PageThresholds});
  return pages;
}

bool sff8472_has_ddm(const ModuleImage& img) {
  return cmis::read_uint(img, cmis::sff8472_field(Sff8472Field::DdmImplemented)).value_or(0) != 0;
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
    case cmis::Spec::Cmis: wanted = cmis_static_pages(image); break;
    case cmis::Spec::Sff8636: wanted = sff8636_static_pages(image); break;
    case cmis::Spec::Sff8472: wanted = sff8472_static_pages(image); break;
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
    case cmis::Spec::Cmis: {
      const auto& f = cmis::cmis_field;
      std::vector<ReadRange> out{span(f(CmisField::Identifier), f(CmisField::CustomMonitor))};
      if (!cmis_paged(image)) return out;
      for (int b = 0; b < cmis_banks(image); ++b) {
        out.push_back(span(f(CmisField::DataPathState), f(CmisField::RxPower), cmis::kCmisLanesPerBank,
                           static_cast<uint8_t>(b)));
      }
      return out;
    }
    case cmis::Spec::Sff8636: {
      const auto& f = cmis::sff8636_field;
      return {span(f(Sff8636Field::Identifier), f(Sff8636Field::TxPower), cmis::kSff8636Lanes)};
    }
    case cmis::Spec::Sff8472: {
      const auto& f = cmis::sff8472_field;
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
    case cmis::Spec::Cmis: return {span(cmis::cmis_field(CmisField::Temperature), cmis::cmis_field(CmisField::Temperature))};
    case cmis::Spec::Sff8636: {
      const Field& t = cmis::sff8636_field(Sff8636Field::Temperature);
      return {span(t, t)};
    }
    case cmis::Spec::Sff8472: {
      if (!sff8472_has_ddm(image)) return {};
      const Field& t = cmis::sff8472_field(Sff8472Field::Temperature);
      return {span(t, t)};
    }
  }
  return {};
}

std::vector<ReadRange> vdm_reads(const ModuleImage& image) {
  if (spec_of(image) != cmis::Spec::Cmis) return {};
  std::vector<ReadRange> out;
  for (int g = 0; g < cmis_vdm_groups(image); ++g) {
    Field type = cmis::cmis_field(CmisField::VdmDescriptorType);
    type.page = static_cast<int16_t>(cmis::kCmisPageVdmDescriptors + g);
    int used = 0;  // instances up to the last described one
    for (int i = 1; i <= cmis::kCmisVdmInstancesPerPage; ++i) {
      if (cmis::read_uint(image, type, i).value_or(0) != 0) used = i;
    }
    if (used == 0) continue;
    Field value = cmis::cmis_field(CmisField::VdmValue);
    value.page = static_cast<int16_t>(cmis::kCmisPageVdmValues + g);
    out.push_back(span(value, value));
    out.back().length = static_cast<uint16_t>(used * value.lanes.stride);
  }
  return out;
}

std::vector<ReadRange> latch_confirm_reads(const ModuleImage& image) {
  std::vector<ReadRange> out;
  for (const cmis::ByteSpan& s : cmis::raised_latch_spans(image)) out.push_back({s.page, s.offset, s.length});
  return out;
}

std::size_t plan_bytes(const std::vector<ReadRange>& plan) {
  std::size_t n = 0;
  for (const ReadRange& r : plan) n += r.length;
  return n;
}

}  // namespace xcvr::daemon
