// Reads module memory through any Transport into a ModuleImage, half-page by half-page, the way
// a poller does. Used by the emulator's tests, benchmarks and demo tooling.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "cmis/image.hpp"
#include "drivers/transport.hpp"

namespace xcvr::emulator {

struct ImageRead {
  cmis::ModuleImage image;
  std::vector<std::pair<cmis::PageKey, drivers::Error>> errors;  // halves that failed
};

// Reads each half named (PageKey page kLowerPage = bytes 0-127) as one 128-byte read.
ImageRead read_image(drivers::Transport& transport, std::span<const cmis::PageKey> halves,
                     int64_t read_at_ns = 0);

// The halves a module of this kind exposes: lower + 00h; unless flat, CMIS 01h, 02h and 10h/11h
// for `banks` banks, or SFF-8636 03h.
std::vector<cmis::PageKey> standard_halves(bool cmis, bool flat, int banks = 1);

}  // namespace xcvr::emulator
