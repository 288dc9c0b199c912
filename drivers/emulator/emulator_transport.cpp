#include "drivers/emulator/emulator_transport.hpp"

#include <cstdio>
#include <utility>

#include "cmis/image.hpp"
#include "drivers/page_select.hpp"

namespace xcvr::emulator {
namespace {

using drivers::Error;
using drivers::ErrorKind;


std::string hex2(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02Xh", v & 0xFF);
  return buf;
}

}  // namespace

EmulatorTransport::EmulatorTransport(EmulatedBus& bus, int cage, std::string port)
    : bus_(&bus), cage_(cage), port_(std::move(port)), seen_insertions_(bus.insertions(cage)) {}

std::string EmulatorTransport::describe() const {
  std::string d = "emulator " + bus_->name() + " cage " + std::to_string(cage_);
  if (!port_.empty()) d += " (" + port_ + ")";
  return d;
}

drivers::Presence EmulatorTransport::presence() {
  return bus_->present(cage_) ? drivers::Presence::Present : drivers::Presence::Absent;
}

std::string EmulatorTransport::where(uint8_t bank, uint8_t page, uint16_t offset) const {
  std::string w = describe() + " page " + hex2(page);
  if (bank != 0) w += " bank " + std::to_string(bank);
  return w + " offset " + std::to_string(offset);
}

Error EmulatorTransport::error_for(I2cStatus status, const std::string& what) const {
  switch (status) {
    case I2cStatus::Nack:
      // A NACK from an empty cage is absence; from an occupied one (presence pin asserted) a
      // module that is resetting or hung: worth retrying.
      if (bus_->present(cage_)) return {ErrorKind::Nack, what + ": module present but NACKed"};
      return {ErrorKind::Absent, what + ": no module (address NACK)"};
    case I2cStatus::Timeout: return {ErrorKind::Timeout, what + ": bus timeout"};
    case I2cStatus::Invalid: return {ErrorKind::Unsupported, what + ": invalid request"};
    case I2cStatus::Ok: break;
  }
  return {ErrorKind::Corrupt, what + ": unexpected status"};
}

std::optional<Error> EmulatorTransport::read_at(uint8_t device, uint8_t offset,
                                                std::span<uint8_t> out, const char* what) {
  const uint8_t offset_byte[1] = {offset};
  I2cMsg msgs[2] = {I2cMsg::write(offset_byte), I2cMsg::read(out)};
  const I2cStatus s = bus_->transfer(cage_, device, msgs);
  if (s != I2cStatus::Ok) return error_for(s, what);
  return std::nullopt;
}

std::optional<Error> EmulatorTransport::select_page(uint8_t device, uint8_t bank, uint8_t page) {
  if (selected_ && selected_->bank == bank && selected_->page == page) return std::nullopt;
  // CMIS 5.x: a bank change needs bank and page in one 2-byte write at 126; a page change within
  // the bank is a 1-byte write at 127. Unknown state (after an error) with bank 0 last written
  // needs only the page.
  const uint8_t known_bank = selected_ ? selected_->bank : last_bank_written_;
  const bool with_bank = bank != known_bank;
  const uint8_t page_only[2] = {drivers::page_select_offset(), page};
  const uint8_t bank_and_page[3] = {drivers::bank_select_offset(), bank, page};
  I2cMsg msg[1] = {with_bank ? I2cMsg::write(bank_and_page) : I2cMsg::write(page_only)};
  selected_.reset();
  ++page_select_writes_;
  if (const I2cStatus s = bus_->transfer(cage_, device, msg); s != I2cStatus::Ok) {
    return error_for(s, "page select " + where(bank, page, drivers::page_select_offset()));
  }
  if (with_bank) last_bank_written_ = bank;
  // Read back what the module took: an unsupported page reads back 0 (CMIS 5.3 8.2.15).
  uint8_t back[2] = {0, 0};
  const uint8_t back_offset = with_bank ? drivers::bank_select_offset() : drivers::page_select_offset();
  std::span<uint8_t> back_span(back, with_bank ? 2 : 1);
  if (auto e = read_at(device, back_offset, back_span, "page select read-back")) {
    e->message = where(bank, page, back_offset) + ": " + e->message;
    return e;
  }
  const uint8_t got_page = with_bank ? back[1] : back[0];
  const uint8_t got_bank = with_bank ? back[0] : bank;
  selected_ = Selection{got_bank, got_page};
  return drivers::page_select_error(bank, page, got_bank, got_page, with_bank, where(bank, page, drivers::page_select_offset()));
}

std::optional<Error> EmulatorTransport::read(const drivers::ReadRequest& r,
                                             std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) return drivers::bad_request(r, where(r.bank, r.page, r.offset));
  const bool lower = r.offset < cmis::kPageSize;
  // A new module (hot swap) starts at page 0, bank 0, whatever we selected in the old one.
  if (const uint64_t n = bus_->insertions(cage_); n != seen_insertions_) {
    seen_insertions_ = n;
    selected_ = Selection{0, 0};
    last_bank_written_ = 0;
  }
  if (!lower) {
    if (auto e = select_page(r.device, r.bank, r.page)) return e;
  }
  auto e = read_at(r.device, static_cast<uint8_t>(r.offset), out, "read");
  if (e) {
    selected_.reset();  // after a failure we no longer know what the module holds
    e->message = where(r.bank, r.page, r.offset) + ": " + e->message;
  }
  return e;
}

}  // namespace xcvr::emulator
