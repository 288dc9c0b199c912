// Placeholder until the SFF-8472 decoder lands (being written now).
#include "cmis/decode.hpp"
namespace xcvr::cmis {
ModuleReport decode_sff8472(const ModuleImage&) {
  ModuleReport r;
  r.spec = Spec::Sff8472;
  r.problems.push_back("SFF-8472 decoder not built yet");
  return r;
}
}  // namespace xcvr::cmis
