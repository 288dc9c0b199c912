// What a page-select read-back means, decided once for every transport that writes the page
// and bank select bytes itself (i2c-dev, the emulator): CMIS 5.3 §8.2.15 has a module that
// cannot give the requested page overwrite PageSelect with 0 (and BankSelect with 0), so a
// read-back of page 00h bank 0 is an unsupported page — the path cannot read it, like a dump
// without it — while any other page or bank is a select the module did not take (Corrupt).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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

// The paged access every transport that writes the select bytes itself shares (i2c-dev, the
// emulator), so both run one code path: what the module's select registers hold, and the one
// select sequence (invariant 1: the only write) — PageSelect alone, or BankSelect and
// PageSelect in one write when the bank changes (CMIS 5.x) — then the read-back of what was
// written, judged by page_select_error. How the bytes reach the module, and how its errors
// read, is the transport's (`Write`, `Read`).
class PageSelector {
 public:
  struct Selection {
    uint8_t bank = 0;
    uint8_t page = 0;
  };
  // Writes {bank, page}: `write(bytes)` puts the select register and its bytes on the wire.
  // With `verify`, `read_back(offset, out)` reads the register(s) written and the select is
  // judged (`where` names the port and page); without, it is taken as written. Both return the
  // transport's own Error. Templates, not std::function: this runs on every upper-page read.
  template <typename Write, typename ReadBack>
  std::optional<Error> select(uint8_t bank, uint8_t page, Write&& write, ReadBack&& read_back, bool verify,
                              const std::string& where) {
    const bool with_bank = bank != (selected_ ? selected_->bank : last_bank_written_);
    const uint8_t page_only[2] = {page_select_offset(), page};
    const uint8_t bank_and_page[3] = {bank_select_offset(), bank, page};
    selected_.reset();
    ++writes_;
    if (auto e = write(with_bank ? std::span<const uint8_t>(bank_and_page) : std::span<const uint8_t>(page_only))) {
      return e;
    }
    if (with_bank) last_bank_written_ = bank;
    if (!verify) {
      selected_ = Selection{bank, page};
      return std::nullopt;
    }
    // Read back what the module took: an unsupported page reads back 0 (CMIS 5.3 8.2.15).
    uint8_t back[2] = {0, 0};
    if (auto e = read_back(with_bank ? bank_select_offset() : page_select_offset(),
                           std::span<uint8_t>(back, with_bank ? 2 : 1))) {
      return e;
    }
    const uint8_t got_page = with_bank ? back[1] : back[0];
    const uint8_t got_bank = with_bank ? back[0] : bank;
    selected_ = Selection{got_bank, got_page};
    return page_select_error(bank, page, got_bank, got_page, with_bank, where);
  }

  const std::optional<Selection>& selected() const { return selected_; }
  bool holds(uint8_t bank, uint8_t page) const {
    return selected_ && selected_->bank == bank && selected_->page == page;
  }
  // Whether a look at the select registers needs BankSelect too (a bank other than 0 in play).
  bool banks_in_play(uint8_t bank) const { return bank != 0 || last_bank_written_ != 0; }
  void forget() { selected_.reset(); }  // after an error: what the module holds is unknown
  void assume(uint8_t bank, uint8_t page) { selected_ = Selection{bank, page}; }  // a look saw it
  void new_module() {  // a module just inserted starts at page 0, bank 0
    selected_ = Selection{0, 0};
    last_bank_written_ = 0;
  }
  uint64_t writes() const { return writes_; }

 private:
  std::optional<Selection> selected_;
  uint8_t last_bank_written_ = 0;  // survives errors: decides 1- vs 2-byte selects
  uint64_t writes_ = 0;
};

}  // namespace xcvr::drivers
