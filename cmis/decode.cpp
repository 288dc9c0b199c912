#include "cmis/decode.hpp"

#include "cmis/codes.hpp"

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

ModuleReport decode(const ModuleImage& image) {
  const auto id = image.byte(kDeviceA0, 0, kLowerPage, 0);
  if (!id) {
    ModuleReport r;
    r.missing_pages.push_back("lower");
    r.problems.push_back("no lower page: nothing to decode");
    return r;
  }
  switch (spec_for_identifier(*id).value_or(Spec::Cmis)) {
    case Spec::Sff8472: return decode_sff8472(image);
    case Spec::Sff8636: return decode_sff8636(image);
    case Spec::Cmis: break;
  }
  if (!spec_for_identifier(*id)) {
    // Unknown identifier: decode identity as CMIS would, but say we guessed.
    ModuleReport r = decode_cmis(image);
    r.problems.insert(r.problems.begin(),
                      "identifier " + codes::identifier(*id) +
                          " has no known management interface; decoded as CMIS");
    return r;
  }
  return decode_cmis(image);
}

std::optional<uint8_t> checksum(const ModuleImage& image, const PageKey& page, uint16_t first,
                                uint16_t last) {
  const ModuleImage::Entry* e = image.find(page);
  const uint16_t base = page.page == kLowerPage ? 0 : kPageSize;
  if (e == nullptr || first > last || first < base || last >= base + kPageSize) return std::nullopt;
  unsigned sum = 0;
  for (uint16_t i = first; i <= last; ++i) sum += e->bytes[i - base];
  return static_cast<uint8_t>(sum & 0xFF);
}

}  // namespace xcvr::cmis
