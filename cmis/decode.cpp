#include "cmis/decode.hpp"

#include "cmis/vdm.hpp"

#include <algorithm>

#include "cmis/cmis_map.hpp"
#include "cmis/codes.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::cmis {

std::optional<Spec> spec_for_identifier(uint8_t identifier) {
  switch (identifier) {
    case 0x03: return Spec::Sff8472;  // SFP/SFP+/SFP28
    case 0x0C:                        // QSFP
    case 0x0D:                        // QSFP+
    case 0x11: return Spec::Sff8636;  // QSFP28 or later
    case 0x18:                        // QSFP-DD
    case 0x19:                        // OSFP
    case 0x1B:                        // DSFP
    case 0x1E:                        // QSFP+ with CMIS
    case 0x1F:                        // SFP-DD with CMIS
    case 0x20:                        // SFP+ with CMIS
    case 0x21: return Spec::Cmis;     // OSFP-XD with CMIS
    default: return std::nullopt;
  }
}

std::optional<Identification> identify(const ModuleImage& image) {
  const auto byte0 = image.byte(kDeviceA0, 0, kLowerPage, 0);
  if (!byte0) return std::nullopt;
  Identification id{*byte0, *byte0};
  if (const auto spec = spec_for_identifier(*byte0)) {
    id.spec = *spec;
    return id;
  }
  const auto copy = read_uint(image, cmis_field(CmisField::IdentifierCopy));
  const auto copy_spec = copy ? spec_for_identifier(static_cast<uint8_t>(*copy)) : std::nullopt;
  if (copy_spec && *copy_spec != Spec::Sff8472) {  // SFF-8472 keeps no copy there
    id.code = static_cast<uint8_t>(*copy);
    id.spec = *copy_spec;
    id.from_copy = true;
  } else {
    id.guessed = true;
  }
  return id;
}

namespace {

ModuleReport decode_as(const ModuleImage& image, Spec spec) {
  switch (spec) {
    case Spec::Sff8472: return decode_sff8472(image);
    case Spec::Sff8636: return decode_sff8636(image);
    case Spec::Cmis: break;
  }
  return decode_cmis(image);
}

ModuleReport undecodable() {
  ModuleReport r;
  r.missing_pages.push_back("lower");
  r.problems.push_back("no lower page: nothing to decode");
  return r;
}

}  // namespace

ModuleReport decode(const ModuleImage& image) {
  const auto id = identify(image);
  // One return of one named report, so that it is built in place: a move of a report (a dozen
  // strings) costs a few percent of a decode, and GCC elides it only when every return names it.
  ModuleReport r = id ? decode_as(image, id->spec) : undecodable();
  if (id && id->from_copy) {
    r.problems.insert(r.problems.begin(),
                      "identifier byte 0 is " + std::string(codes::identifier(id->byte0)) +
                          ", no known management interface; decoded as its page 00h copy " +
                          std::string(codes::identifier(id->code)) + " says (" +
                          std::string(spec_name(id->spec)) + ")");
  } else if (id && id->guessed) {
    // Unknown identifier: decode identity as CMIS would, but say we guessed.
    r.problems.insert(r.problems.begin(),
                      "identifier " + std::string(codes::identifier(id->byte0)) +
                          " has no known management interface; decoded as CMIS");
  }
  return r;
}

std::span<const Field> spec_fields(Spec spec) {
  switch (spec) {
    case Spec::Sff8636: return sff8636_fields();
    case Spec::Sff8472: return sff8472_fields();
    case Spec::Cmis: break;
  }
  return cmis_fields();
}

namespace {

std::optional<Spec> image_spec(const ModuleImage& image) {
  const auto id = identify(image);
  if (!id) return std::nullopt;
  return id->spec;
}

bool latched_row(const Field& f) { return f.role == Role::Flag && f.type == Type::Bits && f.width == 1; }

}  // namespace

std::vector<ByteSpan> raised_latch_spans(const ModuleImage& image) {
  std::vector<ByteSpan> out;
  const auto spec = image_spec(image);
  if (!spec) return out;
  const auto add_raised = [&](const Field& f) {
    for (int lane = 1; lane <= std::max<int>(1, f.lanes.count); ++lane) {
      const auto loc = locate(f, lane);
      if (!loc) continue;
      const auto byte = image.byte(loc->page.device, loc->page.bank, loc->page.page, loc->offset);
      if (!byte || ((*byte >> loc->shift) & 1) == 0) continue;
      auto span = std::find_if(out.begin(), out.end(), [&](const ByteSpan& s) { return s.page == loc->page; });
      if (span == out.end()) {
        out.push_back({loc->page, loc->offset, 1});
        continue;
      }
      const uint16_t first = std::min(span->offset, loc->offset);
      const uint16_t end = std::max<uint16_t>(static_cast<uint16_t>(span->offset + span->length), static_cast<uint16_t>(loc->offset + 1));
      span->offset = first;
      span->length = static_cast<uint16_t>(end - first);
    }
  };
  const int vdm_groups = *spec == Spec::Cmis ? vdm_group_count(image) : 0;
  for (const Field& f : spec_fields(*spec)) {
    if (latched_row(f)) add_raised(f);
    if (f.role != Role::VdmFlag) continue;
    for (int g = 0; g < vdm_groups; ++g) add_raised(vdm_field(static_cast<CmisField>(f.id), g));
  }
  return out;
}

std::optional<bool> latched_flag_raised(const ModuleImage& image, std::string_view name, int lane) {
  const auto spec = image_spec(image);
  if (!spec) return std::nullopt;
  if (*spec == Spec::Cmis && name.starts_with("vdm_")) return vdm_flag_raised(image, name, lane);
  for (const Field& f : spec_fields(*spec)) {
    if (!latched_row(f) || f.name != name || (f.lanes.count != 0) != (lane != 0)) continue;
    const auto v = read_uint(image, f, lane != 0 ? lane : 1);
    if (!v) return std::nullopt;
    return *v != 0;
  }
  return std::nullopt;
}

std::optional<uint8_t> checksum(const ModuleImage& image, const PageKey& page, uint16_t first,
                                uint16_t last) {
  const ModuleImage::Entry* e = image.find(page);
  const uint16_t base = page.page == kLowerPage ? 0 : kPageSize;
  if (e == nullptr || first > last || first < base || last >= base + kPageSize) return std::nullopt;
  // A plain byte range (no uint16_t index that could wrap) summed modulo 256 in a byte, which
  // the compiler vectorizes as byte adds.
  const uint8_t* begin = e->bytes.data() + (first - base);
  const uint8_t* end = e->bytes.data() + (last - base) + 1;
  uint8_t sum = 0;
  for (const uint8_t* p = begin; p != end; ++p) sum = static_cast<uint8_t>(sum + *p);
  return sum;
}

}  // namespace xcvr::cmis
