#include "emulator/image_reader.hpp"

#include "cmis/cmis_map.hpp"
#include "cmis/sff8636_map.hpp"

namespace xcvr::emulator {

ImageRead read_image(drivers::Transport& transport, std::span<const cmis::PageKey> halves,
                     int64_t read_at_ns) {
  ImageRead result;
  cmis::PageBytes bytes{};
  for (const cmis::PageKey& key : halves) {
    const bool lower = key.page == cmis::kLowerPage;
    drivers::ReadRequest r;
    r.device = key.device;
    r.bank = key.bank;
    r.page = lower ? 0 : static_cast<uint8_t>(key.page);
    r.offset = lower ? 0 : cmis::kPageSize;
    r.length = cmis::kPageSize;
    if (auto e = transport.read(r, bytes)) {
      result.errors.emplace_back(key, std::move(*e));
    } else {
      result.image.set_page(key, bytes, read_at_ns);
    }
  }
  return result;
}

std::vector<cmis::PageKey> standard_halves(bool cmis, bool flat, int banks) {
  using cmis::kDeviceA0;
  std::vector<cmis::PageKey> h = {{kDeviceA0, 0, cmis::kLowerPage}, {kDeviceA0, 0, 0x00}};
  if (flat) return h;
  if (!cmis) {
    h.push_back({kDeviceA0, 0, cmis::kSff8636PageThresholds});
    return h;
  }
  h.push_back({kDeviceA0, 0, cmis::kCmisPageAdvertising});
  h.push_back({kDeviceA0, 0, cmis::kCmisPageThresholds});
  for (int b = 0; b < banks; ++b) {
    h.push_back({kDeviceA0, static_cast<uint8_t>(b), cmis::kCmisPageLaneControl});
    h.push_back({kDeviceA0, static_cast<uint8_t>(b), cmis::kCmisPageLaneStatus});
  }
  return h;
}

}  // namespace xcvr::emulator
