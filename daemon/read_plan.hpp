// What to read from a module, and when: derived from the field tables, never from offsets here.
//   static  : identity, advertisement, thresholds (at insertion, re-verified every N cycles);
//             whole half-pages, including the lane-status pages so the first poll is complete.
//   dynamic : only what changes — CMIS lower 0-25 plus page 11h 128-201 per bank; SFF-8636
//             lower 0-57; SFF-8472 A2h 96-117.
//   thermal : the temperature monitor alone (the fast thermal path).
//   vdm     : the VDM real-time value pages in use.
#pragma once

#include <vector>

#include "cmis/image.hpp"

namespace xcvr::daemon {

struct ReadRange {
  cmis::PageKey page;  // device, bank, page (kLowerPage for bytes 0-127)
  uint16_t offset;     // 0-255 within the window
  uint16_t length;     // never crosses the half-page
};

// Half-pages the static read still needs, given what the image holds so far (the lower page
// first; later pages depend on advertisement read earlier). Empty when complete.
std::vector<ReadRange> next_static_reads(const cmis::ModuleImage& image);
std::vector<ReadRange> dynamic_reads(const cmis::ModuleImage& image);
std::vector<ReadRange> thermal_reads(const cmis::ModuleImage& image);
std::vector<ReadRange> vdm_reads(const cmis::ModuleImage& image);

// Total bytes of a plan (for the bus-cost accounting and tests).
std::size_t plan_bytes(const std::vector<ReadRange>& plan);

}  // namespace xcvr::daemon
