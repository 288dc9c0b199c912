// Placeholder: replaced by the full SFF-8024 tables (in progress).
#include "cmis/codes.hpp"
#include <cmath>
#include <cstdio>
namespace xcvr::cmis::codes {
namespace { std::string hex(const char* what, uint8_t c) { char b[40]; std::snprintf(b, sizeof b, "%s (0x%02x)", what, c); return b; } }
std::string identifier(uint8_t c) { return hex("identifier", c); }
std::string connector(uint8_t c) { return hex("connector", c); }
std::string host_interface(uint8_t c) { return hex("host", c); }
std::string media_type(uint8_t c) { return hex("media type", c); }
std::string media_interface(uint8_t, uint8_t c) { return hex("media", c); }
std::string media_interface_technology(uint8_t c) { return hex("tech", c); }
std::string extended_compliance(uint8_t c) { return hex("ext", c); }
std::string module_state(uint8_t c) { return hex("state", c); }
std::string data_path_state(uint8_t c) { return hex("dp", c); }
std::string module_fault_cause(uint8_t c) { return hex("fault", c); }
std::string config_status(uint8_t c) { return hex("cfg", c); }
std::string sff8636_revision(uint8_t c) { return hex("rev", c); }
std::string sff8472_compliance(uint8_t c) { return hex("rev", c); }
bool is_application_terminator(uint8_t c) { return c == 0xFF || c == 0x00; }
std::optional<VdmType> vdm_type(uint8_t) { return std::nullopt; }
double vdm_f16(uint16_t raw) { return (raw & 0x7FF) * std::pow(10.0, int(raw >> 11) - 24); }
}  // namespace xcvr::cmis::codes
