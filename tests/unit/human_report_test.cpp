// xcvrctl's human report: the lines an operator reads off a terminal.
#include <gtest/gtest.h>

#include <string>

#include "cli/human_report.hpp"
#include "tests/e2e/synthetic_fleet.hpp"

namespace xcvr::cli {
namespace {

std::string interface_line(cmis::Spec spec, const char* revision) {
  auto r = std::make_shared<cmis::ModuleReport>(*testing::make_report(1));
  r->spec = spec;
  r->spec_revision = revision;
  const std::string text = render_human(*r);
  const auto at = text.find("Management interface");
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

// SFF revision names carry the spec's name ("SFF-8636 rev 2.5-2.7"); it is not said twice.
TEST(HumanReport, ManagementInterfaceNamesTheSpecOnce) {
  const std::string sff = interface_line(cmis::Spec::Sff8636, "SFF-8636 rev 2.5-2.7");
  EXPECT_NE(sff.find(": SFF-8636 rev 2.5-2.7"), std::string::npos) << sff;
  EXPECT_EQ(sff.find("SFF-8636 SFF-8636"), std::string::npos) << sff;
  const std::string cmis = interface_line(cmis::Spec::Cmis, "5.0");
  EXPECT_NE(cmis.find(": CMIS 5.0"), std::string::npos) << cmis;
}

}  // namespace
}  // namespace xcvr::cli
