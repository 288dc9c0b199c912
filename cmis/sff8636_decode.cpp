// Placeholder until the SFF-8636 decoder lands (being written now).
#include "cmis/decode.hpp"
namespace xcvr::cmis {
ModuleReport decode_sff8636(const ModuleImage&) {
  ModuleReport r;
  r.spec = Spec::Sff8636;
  r.problems.push_back("SFF-8636 decoder not built yet");
  return r;
}
}  // namespace xcvr::cmis
