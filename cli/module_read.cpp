#include "cli/module_read.hpp"

#include <algorithm>

#include "cli/commands.hpp"
#include "daemon/read_plan.hpp"

namespace xcvr::cli {

std::optional<drivers::Error> read_module(drivers::Transport& t, cmis::ModuleImage& image,
                                          std::vector<std::string>& skipped) {
  std::vector<cmis::PageKey> unavailable;
  for (int round = 0; round < 6; ++round) {
    auto plan = daemon::next_static_reads(image);
    std::erase_if(plan, [&](const daemon::ReadRange& r) {
      return std::find(unavailable.begin(), unavailable.end(), r.page) != unavailable.end();
    });
    if (plan.empty()) break;
    for (const daemon::ReadRange& r : plan) {
      std::vector<uint8_t> buf(r.length);
      const auto page = static_cast<uint8_t>(r.page.page == cmis::kLowerPage ? 0 : r.page.page);
      std::optional<drivers::Error> err;
      for (int attempt = 0; attempt < 3; ++attempt) {  // as the daemon retries busy reads
        err = t.read({r.page.device, r.page.bank, page, r.offset, r.length}, buf);
        if (!err || !drivers::is_retryable(err->kind)) break;
      }
      if (err && err->kind == drivers::ErrorKind::Unsupported && !image.empty()) {
        unavailable.push_back(r.page);
        skipped.push_back(err->message);
        continue;
      }
      if (err) return err;
      std::vector<uint8_t> half(cmis::kPageSize, 0);
      const uint16_t base = r.page.page == cmis::kLowerPage ? 0 : cmis::kPageSize;
      std::copy(buf.begin(), buf.end(), half.begin() + (r.offset - base));
      if (!image.update(r.page, r.offset, buf)) image.set_page(r.page, half);
    }
  }
  return std::nullopt;
}

int report_exit_code(const cmis::ModuleReport& report) {
  const bool bad_checksum = std::any_of(report.checksums.begin(), report.checksums.end(),
                                        [](const cmis::Checksum& c) { return !c.ok(); });
  return bad_checksum || !report.problems.empty() ? kExitProblems : kExitClean;
}

}  // namespace xcvr::cli
