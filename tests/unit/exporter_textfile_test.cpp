// Textfile output: atomic replace, readable by node_exporter, no temp files left behind,
// failure leaves the previous file alone.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exporters/metrics.hpp"
#include "exporters/textfile.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::exporters {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class ExporterTextfile : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/xcvr-textfile-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ExporterTextfile, WritesTheRenderedMetrics) {
  const auto s = testing::make_rich_snapshot();
  const fs::path file = dir_ / "transceivers.prom";
  std::string error;
  SeriesPlanner plans;
  ASSERT_TRUE(write_textfile(file, health::FleetView(s), plans, error)) << error;
  EXPECT_EQ(slurp(file), render_text(health::FleetView(s)));
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

TEST_F(ExporterTextfile, ReplacesAtomically) {
  const fs::path file = dir_ / "x.prom";
  std::string error;
  ASSERT_TRUE(write_file_atomic(file, "old\n", error));
  struct stat before {}, after {};
  ASSERT_EQ(::stat(file.c_str(), &before), 0);
  ASSERT_TRUE(write_file_atomic(file, "new\n", error));
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino);  // a new file renamed over the old, not rewritten
  EXPECT_EQ(slurp(file), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

TEST_F(ExporterTextfile, FailureIsReportedAndLeavesNothing) {
  std::string error;
  EXPECT_FALSE(write_file_atomic(dir_ / "missing" / "x.prom", "x", error));
  EXPECT_NE(error.find("missing"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir_));
  // Target is a directory: rename fails, temp file is cleaned up, directory untouched.
  fs::create_directory(dir_ / "d.prom");
  error.clear();
  EXPECT_FALSE(write_file_atomic(dir_ / "d.prom", "x", error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

}  // namespace
}  // namespace xcvr::exporters
