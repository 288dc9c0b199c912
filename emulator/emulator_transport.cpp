#include "emulator/emulator_transport.hpp"

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
  if (select_.holds(bank, page)) return std::nullopt;
  const auto write = [&](std::span<const uint8_t> bytes) -> std::optional<Error> {
    I2cMsg msg[1] = {I2cMsg::write(bytes)};
    if (const I2cStatus s = bus_->transfer(cage_, device, msg); s != I2cStatus::Ok) {
      return error_for(s, "page select " + where(bank, page, drivers::page_select_offset()));
    }
    return std::nullopt;
  };
  const auto read_back = [&](uint8_t offset, std::span<uint8_t> out) {
    auto e = read_at(device, offset, out, "page select read-back");
    if (e) e->message = where(bank, page, offset) + ": " + e->message;
    return e;
  };
  return select_.select(bank, page, write, read_back, /*verify=*/true, where(bank, page, drivers::page_select_offset()));
}

std::optional<Error> EmulatorTransport::read(const drivers::ReadRequest& r,
                                             std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) return drivers::bad_request(r, where(r.bank, r.page, r.offset));
  const bool lower = r.offset < cmis::kPageSize;
  // A new module (hot swap) starts at page 0, bank 0, whatever we selected in the old one.
  if (const uint64_t n = bus_->insertions(cage_); n != seen_insertions_) {
    seen_insertions_ = n;
    select_.new_module();
  }
  if (!lower) {
    if (auto e = select_page(r.device, r.bank, r.page)) return e;
  }
  auto e = read_at(r.device, static_cast<uint8_t>(r.offset), out, "read");
  if (e) {
    select_.forget();  // after a failure we no longer know what the module holds
    e->message = where(r.bank, r.page, r.offset) + ": " + e->message;
  }
  return e;
}

std::variant<drivers::LinkHealth, Error> EmulatorTransport::read_link_health() {
  const std::string link = port_.empty() ? "cage" + std::to_string(cage_) : port_.substr(port_.rfind('/') + 1);
  auto h = bus_->link_health(cage_, link);
  if (!h) return Error{drivers::ErrorKind::Unsupported, describe() + ": no emulated link on this bus"};
  return std::move(*h);
}

}  // namespace xcvr::emulator
