// What the in-guest test programs of tests/qemu share: PASS/FAIL bookkeeping in the format the
// runner greps for, the source module (a catalog module read through the emulator, so its live
// bytes are a real snapshot), the daemon's static read, and the decoded-report comparison.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "emulator/bus.hpp"
#include "emulator/catalog.hpp"
#include "emulator/emulator_transport.hpp"
#include "drivers/module_reader.hpp"

namespace xcvr::vmtest {

inline std::vector<std::string>& failures() {
  static std::vector<std::string> f;
  return f;
}

inline void check(bool ok, const std::string& what) {
  std::printf("  %s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) failures().push_back(what);
}

// "XCVR-QEMU phase <name>: PASS" or "...: FAIL <first failure>"; the exit code.
inline int verdict(const std::string& phase) {
  if (failures().empty()) {
    std::printf("XCVR-QEMU phase %s: PASS\n", phase.c_str());
    return 0;
  }
  std::printf("XCVR-QEMU phase %s: FAIL %s\n", phase.c_str(), failures().front().c_str());
  return 1;
}

// The daemon's static read (drivers/module_reader.hpp), every page required.
inline std::optional<drivers::Error> read_static(drivers::Transport& t, cmis::ModuleImage& image) {
  drivers::UnreachablePages unreachable;
  drivers::ReadResult r = drivers::read_static(t, image, unreachable, {0, 0});
  if (!r.error && !r.skipped.empty()) return r.skipped.front();
  return std::move(r.error);
}

// A catalog module (emulator/catalog.hpp), powered up for 10 s, as the daemon reads it.
inline cmis::ModuleImage source_image(const char* model) {
  base::VirtualClock clock;
  emulator::EmulatedBus bus({"src", emulator::kFastModeHz, 1, std::nullopt, 0}, clock);
  bus.insert(0, std::make_shared<emulator::EmulatedModule>(*emulator::find_model(model), clock));
  clock.advance(10 * base::kSecond);
  emulator::EmulatorTransport t(bus, 0);
  cmis::ModuleImage image;
  if (auto e = read_static(t, image)) std::printf("source read failed: %s\n", e->message.c_str());
  return image;
}

inline bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// Identity, temperature and (with `lanes`) every lane's rx/tx power decoded alike.
inline void compare_reports(const cmis::ModuleReport& want, const cmis::ModuleReport& got, bool lanes) {
  check(!got.id.vendor_name.empty() && got.id.vendor_name == want.id.vendor_name,
        "vendor '" + got.id.vendor_name + "'");
  check(!got.id.part_number.empty() && got.id.part_number == want.id.part_number,
        "part number '" + got.id.part_number + "'");
  check(got.id.serial == want.id.serial, "serial '" + got.id.serial + "'");
  if (!want.temperature_celsius) {  // passive copper: no monitor
    check(!got.temperature_celsius, "no temperature, as the source");
  } else {
    const bool temp_ok = got.temperature_celsius && near(*got.temperature_celsius, *want.temperature_celsius) &&
                         *got.temperature_celsius > 0 && *got.temperature_celsius < 90;
    check(temp_ok, "temperature " + (got.temperature_celsius ? std::to_string(*got.temperature_celsius) : "-") + " C");
  }
  if (!lanes) return;
  check(!got.lanes.empty() && got.lanes.size() == want.lanes.size(),
        std::to_string(want.lanes.size()) + " lanes (got " + std::to_string(got.lanes.size()) + ")");
  for (std::size_t i = 0; i < std::min(got.lanes.size(), want.lanes.size()); ++i) {
    const auto& g = got.lanes[i];
    const auto& w = want.lanes[i];
    const bool ok = g.rx_power_watts && w.rx_power_watts && near(*g.rx_power_watts, *w.rx_power_watts) &&
                    *g.rx_power_watts > 0 && g.tx_power_watts && w.tx_power_watts &&
                    near(*g.tx_power_watts, *w.tx_power_watts) && *g.tx_power_watts > 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "lane %d rx %.1f uW tx %.1f uW", g.lane,
                  g.rx_power_watts ? *g.rx_power_watts * 1e6 : -1.0, g.tx_power_watts ? *g.tx_power_watts * 1e6 : -1.0);
    check(ok, buf);
  }
}

// Every half-page read (`got`) equals the source's (byte 127 of the lower page, the page
// select, excepted); with `all`, every half-page of the source was read.
inline void compare_pages(const cmis::ModuleImage& want, const cmis::ModuleImage& got, bool all = true) {
  check(all ? got.entries().size() == want.entries().size() : !got.entries().empty(),
        std::to_string(got.entries().size()) + " half-pages read, " + std::to_string(want.entries().size()) +
            " in the source");
  for (const auto& e : got.entries()) {
    const auto* w = want.find(e.key);
    bool same = w != nullptr;
    for (std::size_t i = 0; same && i < 128; ++i) {
      if (e.key.page == cmis::kLowerPage && i == 127) continue;
      same = w->bytes[i] == e.bytes[i];
    }
    check(same, "page " + cmis::page_name(e.key) + (w ? " identical" : " not in the source"));
  }
}

}  // namespace xcvr::vmtest
