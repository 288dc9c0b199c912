// What a page-select read-back means, decided once for every transport that writes the page
// and bank select bytes itself (i2c-dev, the emulator): CMIS 5.3 §8.2.15 has a module that
// cannot give the requested page overwrite PageSelect with 0 (and BankSelect with 0), so a
// read-back of page 00h bank 0 is an unsupported page — the path cannot read it, like a dump
// without it — while any other page or bank is a select the module did not take (Corrupt).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "drivers/transport.hpp"

namespace xcvr::drivers {

// The select registers every paged transport writes (invariant 1: the only bytes ever written),
// from the CMIS table's rows (SFF-8636's page select is the same byte 127: a unit test checks).
uint8_t bank_select_offset();  // 126
uint8_t page_select_offset();  // 127

// nullopt when {got_bank, got_page} is what was requested; `where` names the port and page.
std::optional<Error> page_select_error(uint8_t bank, uint8_t page, uint8_t got_bank, uint8_t got_page,
                                       bool with_bank, const std::string& where);

}  // namespace xcvr::drivers
