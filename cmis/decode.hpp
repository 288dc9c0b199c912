// Decoders: ModuleImage -> ModuleReport, dispatched on the module's own identifier byte (not
// the cage type: a QSFP28 in a QSFP-DD cage is decoded as SFF-8636).
#pragma once

#include <optional>

#include "cmis/image.hpp"
#include "cmis/report.hpp"

namespace xcvr::cmis {

// Management spec a module with this SFF-8024 identifier speaks; nullopt if none we decode.
std::optional<Spec> spec_for_identifier(uint8_t identifier);

// Decodes whatever the image holds. Never throws on any byte content; an image without a lower
// page (or with an identifier we cannot decode) yields a report whose `problems` say so.
ModuleReport decode(const ModuleImage& image);

ModuleReport decode_cmis(const ModuleImage& image);

// The steady-state poll's decode: `report` is a decode() of this module's image; re-decodes in
// place only what a poll re-reads (CMIS module state, fault cause, flags, monitors, lane states,
// VDM values), keeping identity, advertisement, applications, thresholds and checksums, and
// reusing the report's storage. The result equals decode(image) as long as the static pages
// and the set of pages held are unchanged since `report` was decoded. Returns false, with
// `report` untouched, when the module is not CMIS or its lower page no longer matches `report`
// (identifier, revision, flat memory): decode in full then.
bool decode_dynamic(const ModuleImage& image, ModuleReport& report);
ModuleReport decode_sff8636(const ModuleImage& image);
ModuleReport decode_sff8472(const ModuleImage& image);

// Low 8 bits of the sum of bytes [first, last] of one half-page window (offsets 0-255), or
// nullopt when the half is absent.
std::optional<uint8_t> checksum(const ModuleImage& image, const PageKey& page, uint16_t first,
                                uint16_t last);

}  // namespace xcvr::cmis
