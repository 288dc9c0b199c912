// Decoders: ModuleImage -> ModuleReport, dispatched on the module's own identifier byte (not
// the cage type: a QSFP28 in a QSFP-DD cage is decoded as SFF-8636).
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cmis/field.hpp"
#include "cmis/image.hpp"
#include "cmis/report.hpp"

namespace xcvr::cmis {

// Management spec a module with this SFF-8024 identifier speaks; nullopt if none we decode.
std::optional<Spec> spec_for_identifier(uint8_t identifier);

// How the image's memory map is read. Byte 0 names the spec; when it names none we decode (a
// vendor-specific 80h-FFh code, or a corrupt byte) and the identifier copy at page 00h byte 128
// (where CMIS and SFF-8636 both keep it) does, the copy decides. When neither does, CMIS is
// guessed. nullopt without a lower page. Decoder, read planner and coding checks all use this.
struct Identification {
  uint8_t byte0 = 0;
  uint8_t code = 0;        // the identifier the module is read as (byte 0 or its copy)
  Spec spec = Spec::Cmis;
  bool from_copy = false;  // byte 0 names no known spec; the copy did
  bool guessed = false;    // neither did: read as CMIS
};
std::optional<Identification> identify(const ModuleImage& image);

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

// A spec's field table (cmis_fields(), sff8636_fields() or sff8472_fields()).
std::span<const Field> spec_fields(Spec spec);

// Latched flags as events. A clear-on-read flag that reads raised says only that its condition
// occurred since the previous read; reading its byte again at once tells whether the condition
// is still there (a persisting condition latches again) or came and went. The poller re-reads
// these spans right after a poll that found latched flags raised.
struct ByteSpan {
  PageKey page;
  uint16_t offset = 0;  // 0-255 within the window
  uint16_t length = 0;  // never crosses the half-page
};
// One span per half-page, from the first to the last byte holding a raised latched flag of the
// module's spec (spec from its identifier byte). Empty when none is raised.
std::vector<ByteSpan> raised_latch_spans(const ModuleImage& image);
// Whether the latched flag `name` of `lane` (0 = module level) reads raised; nullopt when the
// spec has no latched flag of that name (a live status, e.g. SFF-8472 rx_los, whose every read
// is already the current state) or its byte is not in the image.
std::optional<bool> latched_flag_raised(const ModuleImage& image, std::string_view name, int lane);

// Low 8 bits of the sum of bytes [first, last] of one half-page window (offsets 0-255), or
// nullopt when the half is absent.
std::optional<uint8_t> checksum(const ModuleImage& image, const PageKey& page, uint16_t first,
                                uint16_t last);

}  // namespace xcvr::cmis
