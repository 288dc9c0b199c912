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

std::optional<Error> PageSelector::select(uint8_t bank, uint8_t page, const Write& write, const Read* read_back,
                                          const std::string& where) {
  const uint8_t known_bank = selected_ ? selected_->bank : last_bank_written_;
  const bool with_bank = bank != known_bank;
  const uint8_t page_only[2] = {page_select_offset(), page};
  const uint8_t bank_and_page[3] = {bank_select_offset(), bank, page};
  selected_.reset();
  ++writes_;
  if (auto e = write(with_bank ? std::span<const uint8_t>(bank_and_page) : std::span<const uint8_t>(page_only))) return e;
  if (with_bank) last_bank_written_ = bank;
  if (read_back == nullptr) {
    selected_ = Selection{bank, page};
    return std::nullopt;
  }
  // Read back what the module took: an unsupported page reads back 0 (CMIS 5.3 8.2.15).
  uint8_t back[2] = {0, 0};
  const std::span<uint8_t> back_span(back, with_bank ? 2 : 1);
  if (auto e = (*read_back)(with_bank ? bank_select_offset() : page_select_offset(), back_span)) return e;
  const uint8_t got_page = with_bank ? back[1] : back[0];
  const uint8_t got_bank = with_bank ? back[0] : bank;
  selected_ = Selection{got_bank, got_page};
  return page_select_error(bank, page, got_bank, got_page, with_bank, where);
}

}  // namespace xcvr::drivers
