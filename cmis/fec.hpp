// The Reed-Solomon FEC codes of the links beside the optics (IEEE 802.3 clauses 91, 119 and 161;
// InfiniBand HDR/NDR uses the same RS(544,514)): each corrects up to t 10-bit symbols per
// codeword. A codeword-histogram bin counts codewords that needed that many symbol corrections;
// a bin past t is a codeword the decoder could not correct. "FEC tail / t" is how close the
// worst codewords come to that cliff.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace xcvr::cmis {

struct RsFec {
  std::string_view name;
  int n = 0;  // symbols per codeword
  int k = 0;  // data symbols
  int t = 0;  // symbols it corrects: (n - k) / 2
};

inline constexpr RsFec kRs528{"RS(528,514)", 528, 514, 7};   // "KR4": 25G-per-lane NRZ (100GBASE-SR4, -CR4)
inline constexpr RsFec kRs544{"RS(544,514)", 544, 514, 15};  // "KP4": 50G/100G/200G-per-lane PAM4 (400G, 800G, NDR, XDR)
inline constexpr RsFec kRs272{"RS(272,257+1)", 272, 258, 7}; // low-latency RS of 25G/50G Ethernet (ethtool "LLRS")

// The RS code a link runs, from the kind of FEC in use and its rate per lane: RS over NRZ lanes
// of 25G is RS(528,514), over PAM4 lanes of 50G and up RS(544,514). Unknown rate: no answer.
enum class FecKind : uint8_t { None, Rs, BaseR, Llrs };
std::optional<RsFec> rs_fec_of(FecKind kind, std::optional<uint32_t> lane_mbps);

}  // namespace xcvr::cmis
