// One coding-check finding: what a port's snapshot carries and /metrics exports
// (transceiver_coding_check_failed / _warning). Its own header so the snapshot needs no checks.
#pragma once

#include <string>
#include <string_view>

namespace xcvr::coding {

enum class CheckStatus { Pass, Warn, Fail, Skip };
std::string_view check_status_name(CheckStatus status);  // "pass", "warn", "fail", "skip"

struct CodingFinding {
  std::string check;     // stable id, e.g. "checksum_00h", "oui_vendor_mismatch"
  CheckStatus severity;  // Fail or Warn
  std::string message;   // names the bytes involved
};

}  // namespace xcvr::coding
