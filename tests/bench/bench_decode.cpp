// Decode cost per module: a full CMIS 8-lane image (lower, 00h, 01h, 02h, 10h, 11h: the Juniper
// 800G DR8 dump), an emulated 800G optic with VDM, and an SFF-8636 image with thresholds (the
// Mellanox SR4 640-byte dump).
#include <benchmark/benchmark.h>

#include <memory>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "dumpfile/dump_parser.hpp"
#include "emulator/catalog.hpp"
#include "emulator/model.hpp"

namespace {

using namespace xcvr;

cmis::ModuleImage load(const char* dir) {
  std::ifstream in(std::string(XCVR_TEST_DATA) + "/" + dir + "/raw.txt", std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto parsed = dumpfile::parse(bytes);
  if (auto* err = std::get_if<dumpfile::ParseError>(&parsed)) throw std::runtime_error(err->message);
  return std::get<dumpfile::ParsedDump>(parsed).image;
}

void BM_DecodeCmis8Lane(benchmark::State& state) {
  const cmis::ModuleImage image = load("osfp800g-juniper-dr8-xai01-port40");
  for (auto _ : state) benchmark::DoNotOptimize(cmis::decode(image));
}
BENCHMARK(BM_DecodeCmis8Lane);

// The steady-state poll's decode: only what a poll re-reads, into the previous report.
void BM_DecodeCmis8LaneDynamic(benchmark::State& state) {
  const cmis::ModuleImage image = load("osfp800g-juniper-dr8-xai01-port40");
  cmis::ModuleReport report = cmis::decode(image);
  for (auto _ : state) {
    if (!cmis::decode_dynamic(image, report)) state.SkipWithError("not refreshable");
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_DecodeCmis8LaneDynamic);

// The same with VDM: an emulated 800G optic describing laser temperature, eSNR, LTP and pre-FEC
// BER on its 8 lanes (32 instances, two groups, threshold sets and flags).
void BM_DecodeCmis8LaneDynamicVdm(benchmark::State& state) {
  const cmis::ModuleImage image = emulator::encode_image(*emulator::find_model("osfp-800g-2xsr4-finned"));
  cmis::ModuleReport report = cmis::decode(image);
  if (report.vdm.size() != 32) state.SkipWithError("no VDM");
  for (auto _ : state) {
    if (!cmis::decode_dynamic(image, report)) state.SkipWithError("not refreshable");
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_DecodeCmis8LaneDynamicVdm);

// What a steady-state poll of that optic pays (daemon/port_poller.cpp): a copy of the previous
// report, shared with the snapshots that hold it, then its dynamic part decoded again.
void BM_PollDecodeCopyThenDynamicVdm(benchmark::State& state) {
  const cmis::ModuleImage image = emulator::encode_image(*emulator::find_model("osfp-800g-2xsr4-finned"));
  auto report = std::make_shared<const cmis::ModuleReport>(cmis::decode(image));
  for (auto _ : state) {
    auto next = std::make_shared<cmis::ModuleReport>(*report);
    if (!cmis::decode_dynamic(image, *next)) state.SkipWithError("not refreshable");
    report = std::move(next);
  }
}
BENCHMARK(BM_PollDecodeCopyThenDynamicVdm);

void BM_DecodeSff8636(benchmark::State& state) {
  const cmis::ModuleImage image = load("qsfp28-sr4-mellanox-mma1b00-mlxsw");
  for (auto _ : state) benchmark::DoNotOptimize(cmis::decode(image));
}
BENCHMARK(BM_DecodeSff8636);

void BM_DecodeCmisToJson(benchmark::State& state) {
  const cmis::ModuleImage image = load("osfp800g-juniper-dr8-xai01-port40");
  for (auto _ : state) benchmark::DoNotOptimize(cmis::to_json(cmis::decode(image)).dump());
}
BENCHMARK(BM_DecodeCmisToJson);

}  // namespace
