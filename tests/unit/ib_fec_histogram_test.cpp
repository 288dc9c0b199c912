// The RS-FEC codeword histogram's registers as bytes: PPHCR (the bins) and PPCNT group 0x23 (their
// counts), each image written out by hand from the layout in the Linux kernel's mlx5_ifc.h
// (pphcr_reg, bin_range_layout, rs_histogram_cntrs; see mad_layout.hpp "HIST"), and the replies
// no firmware sends: too many bins, a bin upside down, out of order or overlapping, an unknown
// code, short images. The transport's side is ib_link_health_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "drivers/ib/mad_codec.hpp"
#include "drivers/ib/registers.hpp"
#include "tests/unit/ib_test_util.hpp"

namespace xcvr::ib {
namespace {

using test::hex;
using test::same_bytes;

// PPHCR of RS(544,514) with four bins 0, 1, 2-5, 6-15 at local port 11.
//   dword 0: active_hist_type[31:28] = 1, local_port[23:16] = 0x0B  -> 10 0B 00 00
//   dword 1: num_of_bins[23:16] = 4                                 -> 00 04 00 00
//   dwords 2-3 reserved; bin_range[i] at 16 + 4i: high_val[21:16], low_val[5:0]
std::vector<uint8_t> four_bin_pphcr_bytes() {
  std::vector<uint8_t> v = hex("10 0B 00 00 | 00 04 00 00 | 00 00 00 00 | 00 00 00 00 |"
                               "00 00 00 00 | 00 01 00 01 | 00 05 00 02 | 00 0F 00 06");
  v.resize(0x50, 0);
  return v;
}

Pphcr four_bin_pphcr() {
  Pphcr p;
  p.active_hist_type = kPphcrHistRs544;
  p.local_port = 11;
  p.num_of_bins = 4;
  p.bin_range[0] = {0, 0};
  p.bin_range[1] = {1, 1};
  p.bin_range[2] = {2, 5};
  p.bin_range[3] = {6, 15};
  return p;
}

const std::string& why(const std::variant<std::optional<drivers::LinkFecHistogram>, std::string>& r) {
  static const std::string none = "(accepted)";
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : none;
}

TEST(IbFecHistogram, PphcrLayoutAsMlx5IfcLaysItOut) {
  EXPECT_EQ(kSizePphcr, 0x50u) << "0x80 bits of header, 16 bin_range dwords";
  EXPECT_TRUE(same_bytes(encode_pphcr(four_bin_pphcr()), four_bin_pphcr_bytes()));
  // Every reserved bit set: the decoder reads the fields alone.
  auto noisy = hex("1F 0B FF FF | FF 04 FF FF | FF FF FF FF | FF FF FF FF |"
                   "FF C0 FF C0 | FF C1 FF C1 | FF C5 FF C2 | FF CF FF C6");
  noisy.resize(0x50, 0xFF);
  const auto p = decode_pphcr(noisy);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->active_hist_type, kPphcrHistRs544);
  EXPECT_EQ(p->local_port, 11);
  EXPECT_EQ(p->num_of_bins, 4);
  EXPECT_EQ(p->bin_range[2].low, 2);
  EXPECT_EQ(p->bin_range[2].high, 5);
  EXPECT_EQ(p->bin_range[3].low, 6);
  EXPECT_EQ(p->bin_range[3].high, 15);
  EXPECT_FALSE(decode_pphcr(std::span(noisy).first(0x4F))) << "short";
  EXPECT_FALSE(decode_pphcr({}));
}

TEST(IbFecHistogram, PpcntGroup0x23IsSixteen64BitCountersFromTheCounterSet) {
  // dword 0: local_port[23:16] = 7, grp[5:0] = 0x23; hist[i] at 8 + 8i, high dword first.
  std::vector<uint8_t> img(kPpcntQuerySize, 0);
  img[1] = 0x07;
  img[3] = 0x23;
  for (std::size_t i = 0; i < 16; ++i) put_be64(img, 8 + 8 * i, (uint64_t{i} << 32) | (0xA0 + i));
  const auto p = decode_ppcnt(img);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->local_port, 7);
  EXPECT_EQ(p->grp, kPpcntGroupRsHistogram);
  EXPECT_EQ(p->rs_histogram[0], 0xA0u);
  EXPECT_EQ(p->rs_histogram[15], (uint64_t{15} << 32) | 0xAF);
  EXPECT_TRUE(same_bytes(encode_ppcnt(*p), img));
  Ppcnt q;
  q.local_port = 7;
  q.grp = kPpcntGroupRsHistogram;
  EXPECT_EQ(be32(encode_ppcnt(q), 0), 0x00070023u);
  EXPECT_FALSE(decode_ppcnt(std::span(img).first(8 + 127))) << "the last counter cut short";
  EXPECT_TRUE(decode_ppcnt(std::span(img).first(8 + 128)));
  EXPECT_FALSE(decode_ppcnt(std::span(img).first(3)));
}

TEST(IbFecHistogram, HistTypesNameTheCodesOfCmisFec) {
  EXPECT_EQ(pphcr_code(kPphcrHistRs544)->t, cmis::kRs544.t);
  EXPECT_EQ(pphcr_code(kPphcrHistLlrs)->name, cmis::kRs272.name);
  EXPECT_EQ(pphcr_code(kPphcrHistRs528)->n, cmis::kRs528.n);
  for (int none : {0, 4, 15}) EXPECT_FALSE(pphcr_code(static_cast<uint8_t>(none))) << none;
}

TEST(IbFecHistogram, PphcrBinsBecomeTheHistogramWithItsCorrectionLimit) {
  auto r = pphcr_histogram(*decode_pphcr(four_bin_pphcr_bytes()));
  ASSERT_TRUE(std::holds_alternative<std::optional<drivers::LinkFecHistogram>>(r)) << why(r);
  const auto& h = std::get<std::optional<drivers::LinkFecHistogram>>(r);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->correction_limit, 15);
  ASSERT_EQ(h->bins.size(), 4u) << "num_of_bins, not the 16 slots";
  EXPECT_EQ(h->bins[3].low, 6);
  EXPECT_EQ(h->bins[3].high, 15);
  drivers::LinkFecHistogram filled = *h;
  RsHistogramCounts counts{};
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = 100 + i;
  fill_rs_histogram(counts, filled);
  EXPECT_EQ(filled.bins[0].value, 100u);
  EXPECT_EQ(filled.bins[3].value, 103u) << "counters past num_of_bins are not read";

  Pphcr rs528 = four_bin_pphcr();
  rs528.active_hist_type = kPphcrHistRs528;
  EXPECT_EQ(std::get<std::optional<drivers::LinkFecHistogram>>(pphcr_histogram(rs528))->correction_limit, 7);
  Pphcr llrs = four_bin_pphcr();
  llrs.active_hist_type = kPphcrHistLlrs;
  EXPECT_EQ(std::get<std::optional<drivers::LinkFecHistogram>>(pphcr_histogram(llrs))->correction_limit, 7);
}

TEST(IbFecHistogram, NoHistogramIsNotAnError) {
  for (int type : {0, 4, 9, 15}) {
    Pphcr p = four_bin_pphcr();
    p.active_hist_type = static_cast<uint8_t>(type);
    const auto r = pphcr_histogram(p);
    ASSERT_TRUE(std::holds_alternative<std::optional<drivers::LinkFecHistogram>>(r)) << why(r);
    EXPECT_FALSE(std::get<std::optional<drivers::LinkFecHistogram>>(r)) << "type " << type;
  }
  Pphcr empty = four_bin_pphcr();
  empty.num_of_bins = 0;
  EXPECT_FALSE(std::get<std::optional<drivers::LinkFecHistogram>>(pphcr_histogram(empty)));
}

TEST(IbFecHistogram, RepliesNoFirmwareSendsAreErrors) {
  auto rejected = [](std::vector<uint8_t> bytes, const std::string& says) {
    const auto p = decode_pphcr(bytes);
    if (!p) return ::testing::AssertionFailure() << "did not decode";
    const auto r = pphcr_histogram(*p);
    if (!std::holds_alternative<std::string>(r)) return ::testing::AssertionFailure() << "accepted";
    if (std::get<std::string>(r).find(says) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << std::get<std::string>(r) << "' does not say '" << says << "'";
    }
    return ::testing::AssertionSuccess();
  };
  auto with = [](std::size_t at, std::vector<uint8_t> dword) {
    auto v = four_bin_pphcr_bytes();
    std::copy(dword.begin(), dword.end(), v.begin() + static_cast<std::ptrdiff_t>(at));
    return v;
  };
  EXPECT_TRUE(rejected(with(4, {0x00, 0x11, 0x00, 0x00}), "17 bins"));
  EXPECT_TRUE(rejected(with(4, {0x00, 0xFF, 0x00, 0x00}), "255 bins"));
  EXPECT_TRUE(rejected(with(24, {0x00, 0x02, 0x00, 0x05}), "bin 2 (5-2): low above high"));
  EXPECT_TRUE(rejected(with(24, {0x00, 0x05, 0x00, 0x01}), "bin 2 (1-5): not above bin 1"));  // overlaps
  EXPECT_TRUE(rejected(with(28, {0x00, 0x01, 0x00, 0x01}), "bin 3 (1-1): not above bin 2"));  // out of order
  EXPECT_TRUE(rejected(with(20, {0x00, 0x00, 0x00, 0x00}), "bin 1 (0-0): not above bin 0"));  // twice
  // A bound past the code's symbols per codeword cannot be sent: bounds are 6 bits, and every
  // code has more than 63 symbols (registers.cpp asserts it). The widest bin is accepted.
  EXPECT_EQ(why(pphcr_histogram(*decode_pphcr(with(28, {0x00, 0x3F, 0x00, 0x06})))), "(accepted)");
  // Bins past num_of_bins are not looked at.
  EXPECT_EQ(why(pphcr_histogram(*decode_pphcr(with(40, {0x00, 0x00, 0x00, 0x3F})))), "(accepted)");
}

}  // namespace
}  // namespace xcvr::ib
