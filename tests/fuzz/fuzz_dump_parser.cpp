// libFuzzer target for the dump-file parser: any bytes, read as every format, give either an
// image that holds only well-formed halves or a ParseError with a message — never a crash,
// hang or out-of-range access (the sanitizers check the rest).
//
// Build: CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DXCVR_FUZZ=ON -DXCVR_SANITIZE=ON
//        -DXCVR_BENCH=OFF && ninja -C build-fuzz fuzz_dump_parser
// Run:   build-fuzz/tests/fuzz_dump_parser -max_total_time=60 CORPUS_DIR SEED_DIR
//        (seeds: copies of tests/data/*/raw*.txt)
#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>

#include "cmis/image.hpp"
#include "dumpfile/dump_parser.hpp"

namespace {

using xcvr::dumpfile::Format;

constexpr Format kFormats[] = {Format::Auto,       Format::Binary, Format::EthtoolHex,
                               Format::SfputilHex, Format::Junos,  Format::I2cdump,
                               Format::CArray,     Format::PyBytearray};

bool well_formed(const xcvr::cmis::PageKey& key) {
  const bool device_ok = key.device == xcvr::cmis::kDeviceA0 || key.device == xcvr::cmis::kDeviceA2;
  const bool page_ok = key.page >= xcvr::cmis::kLowerPage && key.page <= 255;
  const bool bank_ok = key.bank < 8 && (key.page != xcvr::cmis::kLowerPage || key.bank == 0);
  return device_ok && page_ok && bank_ok;
}

void check(const xcvr::dumpfile::ParseResult& result) {
  if (const auto* error = std::get_if<xcvr::dumpfile::ParseError>(&result)) {
    if (error->message.empty() || error->line < 0 || error->column < 0) __builtin_trap();
    return;
  }
  const auto& dump = std::get<xcvr::dumpfile::ParsedDump>(result);
  if (dump.image.empty()) __builtin_trap();
  unsigned sum = 0;
  for (const auto& entry : dump.image.entries()) {
    if (!well_formed(entry.key)) __builtin_trap();
    for (uint8_t b : entry.bytes) sum += b;  // touch every byte
  }
  if (sum == 0xFFFFFFFFu) __builtin_trap();  // keeps the loop from being optimized away
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  for (Format format : kFormats) check(xcvr::dumpfile::parse(bytes, format));
  return 0;
}
