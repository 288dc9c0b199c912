// Reads a module the way the daemon's static read does (drivers::read_static), for transport
// tests that compare what a path returns with the module.
#pragma once

#include <gtest/gtest.h>

#include "cmis/image.hpp"
#include "drivers/module_reader.hpp"
#include "drivers/transport.hpp"

namespace xcvr::test {

// Stops at the first failed read and returns what was read so far; with `expect_every_read`
// every planned page must be reachable (no read error, no page skipped as unreachable).
inline cmis::ModuleImage read_static(drivers::Transport& t, bool expect_every_read = true) {
  cmis::ModuleImage image;
  drivers::UnreachablePages unreachable;
  const drivers::ReadResult r = drivers::read_static(t, image, unreachable, {0, 0});
  if (expect_every_read) {
    EXPECT_FALSE(r.error) << r.error->message;
    for (const drivers::Error& e : r.skipped) ADD_FAILURE() << "unreachable: " << e.message;
  }
  return image;
}

}  // namespace xcvr::test
