// One coding-check finding: what a port's snapshot carries and /metrics exports
// (transceiver_coding_check_failed / _warning). Its own header so the snapshot needs no checks.
#pragma once

#include <string>

namespace xcvr::coding {

struct CodingFinding {
  std::string check;     // stable id, e.g. "checksum_00h", "oui_vendor_mismatch"
  std::string severity;  // "fail" or "warn"
  std::string message;   // names the bytes involved
};

}  // namespace xcvr::coding
