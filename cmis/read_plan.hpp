// What to read from a module, and when: derived from the field tables, never from offsets here.
//   static  : identity, advertisement, thresholds (at insertion, re-verified every N cycles);
//             whole half-pages, including the lane-status pages so the first poll is complete.
//   dynamic : only what changes — CMIS lower 0-25 plus page 11h 128-201 per bank; SFF-8636
//             lower 0-57; SFF-8472 A2h 96-117.
//   thermal : the temperature monitor alone (the fast thermal path).
//   vdm     : the VDM real-time value pages in use.
//   confirm : after a poll that found latched flags raised, those flag bytes once more (one
//             span per half-page, 1-24 bytes): a flag still raised is a persisting condition,
//             one that reads clear came and went (flag events, port_poller.cpp). Nothing while
//             no latched flag is raised, so a healthy module's poll stays at the dynamic bytes.
// The CMIS Active Control Set (11h:206-213, which data path each lane is in) is read with the
// static pages (the whole of 11h) and at every re-verify, not per poll: it changes only when
// the host reconfigures the module.
#pragma once

#include <vector>

#include "cmis/image.hpp"

namespace xcvr::cmis {

struct ReadRange {
  PageKey page;  // device, bank, page (kLowerPage for bytes 0-127)
  uint16_t offset;     // 0-255 within the window
  uint16_t length;     // never crosses the half-page
};

// Half-pages the static read still needs, given what the image holds so far (the lower page
// first; later pages depend on advertisement read earlier). Empty when complete.
std::vector<ReadRange> next_static_reads(const ModuleImage& image);
std::vector<ReadRange> dynamic_reads(const ModuleImage& image);
std::vector<ReadRange> thermal_reads(const ModuleImage& image);
std::vector<ReadRange> vdm_reads(const ModuleImage& image);
std::vector<ReadRange> latch_confirm_reads(const ModuleImage& image);

// Total bytes of a plan (for the bus-cost accounting and tests).
std::size_t plan_bytes(const std::vector<ReadRange>& plan);

}  // namespace xcvr::cmis
