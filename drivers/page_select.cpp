#include "drivers/page_select.hpp"

#include <cstdio>

#include "cmis/cmis_map.hpp"

namespace xcvr::drivers {
namespace {

std::string hex2(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02Xh", v & 0xFFu);
  return buf;
}

}  // namespace

uint8_t bank_select_offset() {
  static const auto offset = static_cast<uint8_t>(cmis::cmis_field(cmis::CmisField::BankSelect).offset);
  return offset;
}

uint8_t page_select_offset() {
  static const auto offset = static_cast<uint8_t>(cmis::cmis_field(cmis::CmisField::PageSelect).offset);
  return offset;
}

std::optional<Error> page_select_error(uint8_t bank, uint8_t page, uint8_t got_bank, uint8_t got_page,
                                       bool with_bank, const std::string& where) {
  if (got_page == page && got_bank == bank) return std::nullopt;
  const std::string wrote = "wrote page " + hex2(page) + (with_bank ? " bank " + std::to_string(bank) : "");
  if (got_page == 0 && got_bank == 0) {
    return Error{ErrorKind::Unsupported,
                 where + ": module does not support the page (" + wrote + ", reads back page 00h)"};
  }
  return Error{ErrorKind::Corrupt, where + ": page select not taken (" + wrote + ", reads back page " +
                                       hex2(got_page) + (with_bank ? " bank " + std::to_string(got_bank) : "") +
                                       ")"};
}

}  // namespace xcvr::drivers
