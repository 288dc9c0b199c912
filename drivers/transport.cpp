#include "drivers/transport.hpp"

namespace xcvr::drivers {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Absent: return "absent";
    case ErrorKind::Busy: return "busy";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Permission: return "permission";
    case ErrorKind::Corrupt: return "corrupt";
  }
  return "unknown";
}

bool is_retryable(ErrorKind kind) { return kind == ErrorKind::Busy; }

}  // namespace xcvr::drivers
