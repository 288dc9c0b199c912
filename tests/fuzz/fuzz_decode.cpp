// libFuzzer target: every decoder over hostile module images. The input is cut into 128-byte
// halves laid onto the pages a decoder reads (first byte picks which pages exist and the
// identifier family), then decoded and rendered to JSON. Any crash, UB or non-finite value fails.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "cmis/report_json.hpp"
#include "cmis/vdm.hpp"

namespace {

using namespace xcvr::cmis;

constexpr PageKey kPages[] = {
    {kDeviceA0, 0, kLowerPage}, {kDeviceA0, 0, 0x00}, {kDeviceA0, 0, 0x01}, {kDeviceA0, 0, 0x02},
    {kDeviceA0, 0, 0x03},       {kDeviceA0, 0, 0x11}, {kDeviceA0, 1, 0x11}, {kDeviceA0, 0, 0x20},
    {kDeviceA0, 0, 0x24},       {kDeviceA0, 0, 0x2F}, {kDeviceA2, 0, kLowerPage}, {kDeviceA2, 0, 0x00},
};
// Input left over after the pages above: VDM threshold sets, flags and a second group, in order.
constexpr PageKey kVdmPages[] = {{kDeviceA0, 0, 0x28}, {kDeviceA0, 0, 0x2C}, {kDeviceA0, 0, 0x21},
                                 {kDeviceA0, 0, 0x25}, {kDeviceA0, 0, 0x29}};
constexpr uint8_t kIdentifiers[] = {0x03, 0x0D, 0x11, 0x18, 0x19, 0x1E, 0x00, 0xFF};

void check_finite(double v) {
  if (!std::isfinite(v)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint16_t present = static_cast<uint16_t>(data[0] | data[1] << 8);
  std::span<const uint8_t> rest(data + 2, size - 2);
  ModuleImage image;
  for (std::size_t i = 0; i < std::size(kPages) && !rest.empty(); ++i) {
    if ((present >> i & 1) == 0) continue;
    const std::size_t n = std::min(rest.size(), kPageSize);
    image.set_page(kPages[i], rest.first(n));
    rest = rest.subspan(n);
  }
  for (const PageKey& key : kVdmPages) {
    if (rest.empty()) break;
    const std::size_t n = std::min(rest.size(), kPageSize);
    image.set_page(key, rest.first(n));
    rest = rest.subspan(n);
  }
  // Half the time force a known identifier so every decoder gets deep coverage.
  if ((present & 0x8000) != 0 && image.has(kPages[0])) {
    const uint8_t id = kIdentifiers[(present >> 12) & 7];
    image.update(kPages[0], 0, std::span<const uint8_t>(&id, 1));
  }
  const ModuleReport r = decode(image);
  if (r.temperature_celsius) check_finite(*r.temperature_celsius);
  if (r.supply_voltage_volts) check_finite(*r.supply_voltage_volts);
  for (const LaneReport& l : r.lanes) {
    if (l.rx_power_watts) check_finite(*l.rx_power_watts);
    if (l.tx_power_watts) check_finite(*l.tx_power_watts);
    if (l.tx_bias_amperes) check_finite(*l.tx_bias_amperes);
  }
  for (const VdmObservable& o : r.vdm) {
    check_finite(o.value);
    if (o.thresholds) {
      for (const auto& t : {o.thresholds->high_alarm, o.thresholds->high_warning, o.thresholds->low_warning,
                            o.thresholds->low_alarm}) {
        if (t) check_finite(*t);
      }
    }
    for (const std::string_view level : o.flags) (void)latched_flag_raised(image, vdm_flag_name(o.name(), level), o.lane);
  }
  // The steady-state poll's decode into the same report (VDM re-read per known instance).
  ModuleReport again = r;
  if (decode_dynamic(image, again)) {
    for (const VdmObservable& o : again.vdm) check_finite(o.value);
  }
  (void)raised_latch_spans(image);
  (void)vdm_reads(image);
  (void)to_json(r).dump();
  return 0;
}
