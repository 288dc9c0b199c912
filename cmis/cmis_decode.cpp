// Placeholder: the CMIS decoder is being written.
#include "cmis/decode.hpp"
namespace xcvr::cmis {
ModuleReport decode_cmis(const ModuleImage&) { ModuleReport r; return r; }
}  // namespace xcvr::cmis
