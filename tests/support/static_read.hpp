// Reads a module the way the daemon's static read does (daemon::next_static_reads until the
// plan is complete), for transport tests that compare what a path returns with the module.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cmis/image.hpp"
#include "daemon/read_plan.hpp"
#include "drivers/transport.hpp"

namespace xcvr::test {

// Stops at the first failed read and returns what was read so far; with `expect_every_read`
// the failure also fails the test (paths where every planned page must be reachable).
inline cmis::ModuleImage read_static(drivers::Transport& t, bool expect_every_read = true) {
  cmis::ModuleImage image;
  for (int round = 0; round < 6; ++round) {
    const auto plan = daemon::next_static_reads(image);
    if (plan.empty()) break;
    for (const auto& r : plan) {
      std::vector<uint8_t> buf(r.length);
      const auto page = static_cast<uint8_t>(r.page.page == cmis::kLowerPage ? 0 : r.page.page);
      auto e = t.read(drivers::ReadRequest{r.page.device, r.page.bank, page, r.offset, r.length}, buf);
      if (expect_every_read) {
        EXPECT_FALSE(e) << e->message;
      }
      if (e) return image;
      std::vector<uint8_t> half(cmis::kPageSize, 0);
      const uint16_t base = r.page.page == cmis::kLowerPage ? 0 : cmis::kPageSize;
      std::copy(buf.begin(), buf.end(), half.begin() + (r.offset - base));
      if (!image.update(r.page, r.offset, buf)) image.set_page(r.page, half);
    }
  }
  return image;
}

}  // namespace xcvr::test
