#include "cmis/fec.hpp"

namespace xcvr::cmis {

std::optional<RsFec> rs_fec_of(FecKind kind, std::optional<uint32_t> lane_mbps) {
  if (kind == FecKind::Llrs) return kRs272;
  if (kind != FecKind::Rs || !lane_mbps || *lane_mbps == 0) return std::nullopt;
  // 25G lanes signal at 25.78 Gb/s NRZ; PAM4 lanes start at 50G. The boundary sits between.
  return *lane_mbps >= 40'000 ? kRs544 : kRs528;
}

}  // namespace xcvr::cmis
