#include "drivers/module_reader.hpp"

#include <algorithm>

namespace xcvr::drivers {
namespace {

const cmis::PageKey kLowerKey{cmis::kDeviceA0, 0, cmis::kLowerPage};

void store(cmis::ModuleImage& image, const cmis::ReadRange& r, std::span<const uint8_t> bytes, int64_t at_ns) {
  if (image.update(r.page, r.offset, bytes, at_ns)) return;
  // First read of this half-page: store it whole (a partial first read leaves zeros).
  std::vector<uint8_t> half(cmis::kPageSize, 0);
  const uint16_t base = r.page.page == cmis::kLowerPage ? 0 : cmis::kPageSize;
  std::copy(bytes.begin(), bytes.end(), half.begin() + (r.offset - base));
  image.set_page(r.page, half, at_ns);
}

}  // namespace

ReadRequest request_for(const cmis::ReadRange& r) {
  return {r.page.device, r.page.bank, static_cast<uint8_t>(r.page.page == cmis::kLowerPage ? 0 : r.page.page),
          r.offset, r.length};
}

ReadResult read_ranges(Transport& t, const std::vector<cmis::ReadRange>& plan, cmis::ModuleImage& image,
                       UnreachablePages& unreachable, const ReadPolicy& policy) {
  ReadResult out;
  std::vector<uint8_t> buf;
  for (const cmis::ReadRange& r : plan) {
    if (unreachable.count(r.page) != 0) continue;
    buf.assign(r.length, 0);
    const ReadRequest req = request_for(r);
    std::optional<Error> err;
    for (int attempt = 0; attempt <= policy.retries; ++attempt) {
      err = t.read(req, buf);
      if (!err || !is_retryable(err->kind)) break;
    }
    if (err && err->kind == ErrorKind::Unsupported && r.page != kLowerKey) {
      out.pages_changed = true;
      if (image.has(r.page)) {  // a page that used to answer stopped: an error
        image.erase(r.page);
        out.error = std::move(err);
        return out;
      }
      unreachable.insert(r.page);
      out.skipped.push_back(std::move(*err));
      continue;
    }
    if (err) {
      out.error = std::move(err);
      return out;
    }
    store(image, r, buf, policy.at_ns);
  }
  return out;
}

ReadResult read_static(Transport& t, cmis::ModuleImage& image, UnreachablePages& unreachable,
                       const ReadPolicy& policy) {
  image.clear();
  ReadResult out;
  for (int round = 0; round < kStaticReadRounds; ++round) {
    auto plan = cmis::next_static_reads(image);
    std::erase_if(plan, [&](const cmis::ReadRange& r) { return unreachable.count(r.page) != 0; });
    if (plan.empty()) break;
    ReadResult step = read_ranges(t, plan, image, unreachable, policy);
    out.pages_changed |= step.pages_changed;
    for (Error& e : step.skipped) out.skipped.push_back(std::move(e));
    if (step.error) {
      out.error = std::move(step.error);
      break;
    }
  }
  return out;
}

}  // namespace xcvr::drivers
