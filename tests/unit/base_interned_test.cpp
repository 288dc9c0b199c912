// base::interned: one stored copy per name, stable for the process, from any thread.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "base/interned.hpp"

namespace xcvr::base {
namespace {

TEST(Interned, EqualNamesShareOneCopyThatOutlivesTheirSource) {
  std::string a = "data_path_state_changed";
  const std::string_view first = interned(a);
  a.assign("overwritten, the view must not follow");
  EXPECT_EQ(first, "data_path_state_changed");
  EXPECT_EQ(interned(std::string("data_path_state_changed")).data(), first.data());
  EXPECT_NE(interned("module_state_changed").data(), first.data());
}

TEST(Interned, ThreadsInterningTheSameNamesGetTheSameViews) {
  std::vector<std::string_view> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&seen, t] {
      for (int i = 0; i < 1000; ++i) seen[t] = interned("vdm_esnr_media_input_low_warning_" + std::to_string(i % 7));
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string_view v : seen) EXPECT_EQ(v.data(), interned("vdm_esnr_media_input_low_warning_" + std::to_string(999 % 7)).data());
}

}  // namespace
}  // namespace xcvr::base
