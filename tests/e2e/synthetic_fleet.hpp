// Hand-built snapshots for exporter tests, the e2e server and the scrape benchmark: a healthy
// fleet of 8-lane CMIS modules, and a "rich" snapshot in which every family and every health
// class appears (stale, empty, unknown, hot, alarm, fault, miscoded, fabric node, budgets).
#pragma once

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/interned.hpp"
#include "cmis/report.hpp"
#include "cmis/vdm_types.hpp"
#include "daemon/snapshot.hpp"

namespace xcvr::testing {

inline constexpr double kNow = 1796000000.0;  // a fixed "now" so rendered values are stable

// The texts name what the fixture means; they must be the type table's (cmis/vdm_types.hpp),
// which a report takes by type id: a fixture that disagrees with the table is refused.
inline cmis::VdmObservable vdm_observable(int type, std::string_view name, std::string_view quantity,
                                          std::string_view qualifier, int lane, double value, std::string_view unit,
                                          std::optional<cmis::Thresholds> thresholds = std::nullopt) {
  cmis::VdmObservable o;
  o.type_id = static_cast<uint8_t>(type);
  o.lane = static_cast<int16_t>(lane);
  o.value = value;
  if (thresholds) o.thresholds = std::make_shared<const cmis::Thresholds>(*thresholds);
  if (o.name() != name || o.quantity() != quantity || o.qualifier() != qualifier || o.unit() != unit) {
    throw std::logic_error("vdm_observable: type " + std::to_string(type) + " is " + std::string(o.name()) + ", not " +
                           std::string(name));
  }
  return o;
}

// An OSFP 800G-DR8-like module: full monitors, thresholds, 8 activated lanes, and the VDM a PAM4
// optic describes per lane (laser temperature, eSNR, LTP, pre-FEC BER, each with its set).
inline std::shared_ptr<cmis::ModuleReport> make_report(int seed) {
  auto r = std::make_shared<cmis::ModuleReport>();
  r->spec = cmis::Spec::Cmis;
  r->spec_revision = "5.0";
  r->id.identifier = {0x19, "OSFP 8X Pluggable Transceiver"};
  r->id.vendor_name = "ACME OPTICS";
  r->id.vendor_oui = "00:11:22";
  r->id.part_number = "OSFP-800G-DR8";
  r->id.revision = "A1";
  char serial[16];
  std::snprintf(serial, sizeof serial, "AC%06d", seed);
  r->id.serial = serial;
  r->id.date_code = "240115";
  r->id.firmware = "1.4";
  r->media_type = cmis::Coded{0x02, "Optical Interfaces: SMF"};
  cmis::Application app;
  app.index = 1;
  app.host_interface = {0x50, "800GAUI-8 C2M"};
  app.media_interface = {0x1C, "800G-DR8"};
  app.host_lane_count = 8;
  app.media_lane_count = 8;
  app.host_lane_assignment = 1;
  r->applications.push_back(app);
  r->power_class = 8;
  r->max_power_watts = 4.5;
  r->temperature_celsius = 40.0 + seed % 10;
  r->supply_voltage_volts = 3.3;
  r->implemented = {true, true, true, true, true};
  r->rx_power_type = "average";
  r->module_state = cmis::Coded{3, "ModuleReady"};
  for (int lane = 1; lane <= 8; ++lane) {
    cmis::LaneReport l;
    l.lane = lane;
    l.rx_power_watts = 0.0005 + 0.00001 * lane;
    l.tx_power_watts = 0.0006 + 0.00001 * lane;
    l.tx_bias_amperes = 0.04 + 0.0001 * lane;
    l.data_path_state = "DPActivated";
    r->lanes.push_back(l);
  }
  for (int lane = 1; lane <= 8; ++lane) {
    const bool first = lane == 1;
    r->vdm.push_back(vdm_observable(4, "laser_temperature", "laser_temperature", "", lane, 45.0 + 0.1 * lane, "celsius",
                                    first ? std::optional<cmis::Thresholds>({80, 75, 10, 5}) : std::nullopt));
    r->vdm.push_back(vdm_observable(5, "esnr_media_input", "esnr", "media", lane, 20.0 + 0.01 * lane, "decibels",
                                    first ? std::optional<cmis::Thresholds>({30, 28, 15, 13}) : std::nullopt));
    r->vdm.push_back(vdm_observable(7, "ltp_media_input", "ltp", "media", lane, 17.5, "decibels",
                                    first ? std::optional<cmis::Thresholds>({30, 28, 14, 12}) : std::nullopt));
    r->vdm.push_back(vdm_observable(15, "pre_fec_ber_current_media", "pre_fec_ber", "media", lane, 1.5e-7 * lane,
                                    "ratio", first ? std::optional<cmis::Thresholds>({2.4e-4, 1e-5, 0, 0}) : std::nullopt));
  }
  r->low_power = false;
  r->active_application = 1;
  r->thresholds["temperature_celsius"] = {75.0, 70.0, 0.0, -5.0};
  r->thresholds["supply_voltage_volts"] = {3.63, 3.465, 3.135, 2.97};
  r->thresholds["rx_power_watts"] = {0.0025, 0.002, 0.00005, 0.00002};
  r->thresholds["tx_power_watts"] = {0.0025, 0.002, 0.0001, 0.00005};
  r->thresholds["tx_bias_amperes"] = {0.1, 0.09, 0.01, 0.005};
  return r;
}

inline daemon::PortSnapshot make_port(const std::string& name, int seed,
                                      const std::string& group = "") {
  daemon::PortSnapshot p;
  p.port = name;
  p.domain = "i2c-" + std::to_string(seed / 8);
  p.source = "emulator";
  p.cage = "OSFP";
  if (!group.empty()) p.groups = {group};
  p.presence = daemon::PortPresence::Present;
  p.state = daemon::PortState::Ok;
  p.report = make_report(seed);
  p.last_good_read_unix = kNow - 2;
  p.insertions_total = 1;
  p.read_errors_total = {{"busy", 0}, {"corrupt", 0}, {"timeout", 0}};
  for (int lane = 1; lane <= 8; ++lane) p.aging.push_back({lane, 1.01, 0.99});
  return p;
}

// A port of make_port whose report is its own copy, for a test to edit (report_of).
inline daemon::PortSnapshot editable_port(const std::string& name = "t/Ethernet0", int seed = 1) {
  daemon::PortSnapshot p = make_port(name, seed);
  p.report = std::make_shared<cmis::ModuleReport>(*p.report);
  return p;
}
inline cmis::ModuleReport& report_of(daemon::PortSnapshot& p) {
  return *std::const_pointer_cast<cmis::ModuleReport>(p.report);
}

// `ports` healthy 8-lane modules on one device named `device` ("spine1/Ethernet0", ...).
inline daemon::Snapshot make_fleet(int ports, const std::string& device = "spine1") {
  daemon::Snapshot s;
  s.taken_unix = kNow;
  s.version = "0.1.0-test";
  for (int i = 0; i < ports; ++i) {
    s.ports.push_back(make_port(device + "/Ethernet" + std::to_string(i * 8), i, device));
  }
  daemon::BudgetSnapshot b;
  b.group = device;
  b.budget_watts = 5.0 * ports;
  b.per_port_allowance_watts = 5.0;
  b.allocated_watts = 4.5 * ports;
  b.projected_watts = b.allocated_watts;
  b.ports = ports;
  b.present = ports;
  s.budgets.push_back(b);
  for (int d = 0; d < (ports + 7) / 8; ++d) {
    daemon::DomainStats ds;
    ds.domain = "i2c-" + std::to_string(d);
    ds.cycles_total = 100;
    ds.last_cycle_seconds = 0.021;
    ds.cycle_seconds_buckets = {{0.01, 10}, {0.025, 90}, {0.05, 100}, {0.1, 100}};
    ds.cycle_seconds_sum = 2.0;
    ds.bus_bytes_total = 80000;
    ds.bus_transactions_total = 1600;
    s.domains.push_back(ds);
  }
  s.config_reloads_total = 1;
  s.last_config_reload_unix = kNow - 3600;
  return s;
}

inline daemon::FlagHistory flag_history(const std::string& flag, int lane, uint64_t total,
                                        bool raised) {
  daemon::FlagHistory h;
  h.flag = base::interned(flag);
  h.lane = lane;
  h.raised_total = total;
  h.raised = raised;
  h.since_unix = kNow - 90;
  h.last_seen_unix = kNow - 30;
  if (!raised) h.last_cleared_unix = kNow - 20;
  return h;
}

// Eight cages of spine1 in every state, plus one fabric-sourced port.
inline daemon::Snapshot make_rich_snapshot() {
  daemon::Snapshot s = make_fleet(8);
  auto& ports = s.ports;
  // Ethernet0: ok, but over its group's per-port allowance; laser temperature reported.
  ports[0].over_power_allowance = true;
  auto first = std::const_pointer_cast<cmis::ModuleReport>(ports[0].report);
  first->laser_temperature_celsius = 42.5;
  first->tec_current_ratio = 0.25;
  first->supply_voltage2_volts = 1.8;
  first->id.inactive_firmware = "1.3";
  // The rest of the exported VDM quantities, and a statistic (never exported).
  const cmis::Thresholds any{1, 0.9, 0.1, 0};
  first->vdm.push_back(vdm_observable(1, "laser_age", "laser_age", "", 1, 0.12, "ratio", any));
  first->vdm.push_back(vdm_observable(2, "tec_current", "tec_current", "", 1, 0.3, "ratio", any));
  first->vdm.push_back(vdm_observable(3, "laser_frequency_error", "laser_frequency_error", "", 1, 2e7, "hertz", cmis::Thresholds{1e9, 5e8, -5e8, -1e9}));
  first->vdm.push_back(vdm_observable(24, "errored_frames_current_host", "errored_frames", "host", 1, 1e-9, "ratio", cmis::Thresholds{1e-2, 1e-3, 0, 0}));
  first->vdm.push_back(vdm_observable(77, "vcc_2p6", "supply_rail_voltage", "2p6", 1, 2.6, "volts", cmis::Thresholds{2.86, 2.73, 2.47, 2.34}));
  // One observable of every other exported VDM row (cmis/vdm_types.hpp): a new row's families
  // appear here without a line of their own.
  for (const cmis::VdmQuantitySpec& q : cmis::kVdmQuantities) {
    const bool shown = std::any_of(first->vdm.begin(), first->vdm.end(), [&](const cmis::VdmObservable& o) {
      return cmis::vdm_quantity_of(o.type_id) == &q;
    });
    if (!q.exported() || shown) continue;
    const cmis::VdmTypeRow& t = q.types[0];
    first->vdm.push_back(vdm_observable(t.id, t.name, q.key, t.qualifier, 1, 0.5, q.unit, any));
  }
  auto stat = vdm_observable(11, "pre_fec_ber_max_media", "", "media", 1, 3e-7, "ratio");
  if (!stat.statistic()) throw std::logic_error("vdm_observable: type 11 is not a statistic");
  first->vdm.push_back(stat);
  // Ethernet8: hot (2 °C headroom) with the temperature warning raised.
  auto hot = std::make_shared<cmis::ModuleReport>(*ports[1].report);
  hot->temperature_celsius = 68.0;
  hot->module_flags = {"temperature_high_warning"};
  ports[1].report = hot;
  ports[1].flags = {flag_history("temperature_high_warning", 0, 4, true)};
  // Ethernet16: alarm: LOS on lane 3 (no light), plus an old, cleared tx_power warning.
  auto los = std::make_shared<cmis::ModuleReport>(*ports[2].report);
  los->lanes[2].rx_power_watts = 0.0;
  los->lanes[2].flags = {"rx_los", "rx_power_low_alarm"};
  ports[2].report = los;
  ports[2].flags = {flag_history("rx_los", 3, 3, true), flag_history("tx_power_low_warning", 5, 1, false)};
  ports[2].aging[2].tx_bias_ratio = 1.35;
  // Ethernet24: module fault with Tx fault on lane 1.
  auto fault = std::make_shared<cmis::ModuleReport>(*ports[3].report);
  fault->module_state = cmis::Coded{5, "ModuleFault"};
  fault->module_fault_cause = cmis::Coded{1, "TEC runaway"};
  fault->lanes[0].flags = {"tx_fault"};
  fault->lanes[0].data_path_state = "DPDeactivated";
  ports[3].report = fault;
  ports[3].state = daemon::PortState::Failing;
  // Ethernet32: stale: present, last good read 10 minutes ago, timeouts since.
  ports[4].stale = true;
  ports[4].state = daemon::PortState::Stale;
  ports[4].last_good_read_unix = kNow - 600;
  ports[4].read_errors_total["timeout"] = 12;
  ports[4].flags = {flag_history("rx_los", 1, 2, true)};
  // Ethernet40: empty cage, two insertions seen.
  ports[5].presence = daemon::PortPresence::Absent;
  ports[5].state = daemon::PortState::Empty;
  ports[5].report = nullptr;
  ports[5].insertions_total = 2;
  ports[5].aging.clear();
  // Ethernet48: miscoded, and vendor strings that try HTML and label injection.
  auto bad = std::make_shared<cmis::ModuleReport>(*ports[6].report);
  bad->id.vendor_name = "<script>alert(\"x\")</script>&'";
  bad->id.part_number = "PN\"} evil{x=\"1\xff";
  ports[6].report = bad;
  ports[6].coding = {{"checksum_00h", coding::CheckStatus::Fail, "page 00h bytes 128-221 sum 0x12, stored 0x34"},
                     {"oui_vendor_mismatch", coding::CheckStatus::Warn, "OUI 00:11:22 is not <registered>"}};
  // Ethernet56: presence unknown (reads failing), no data.
  ports[7].presence = daemon::PortPresence::Unknown;
  ports[7].state = daemon::PortState::Failing;
  ports[7].report = nullptr;
  ports[7].read_errors_total["busy"] = 7;
  ports[7].aging.clear();
  // A port read over the InfiniBand fabric from an unmanaged switch.
  daemon::PortSnapshot ib = make_port("quantum7/p1", 99, "");
  ib.node = "quantum7";
  ib.source = "ib";
  ib.domain = "lid-12";
  // Link health beside it: PMA PortCounters of the cage's two IB ports, one counter saturated.
  auto pma = std::make_shared<drivers::LinkHealth>();
  using drivers::LinkCounterId;
  for (const char* link : {"1", "2"}) {
    pma->counters.push_back({LinkCounterId::SymbolErrors, link, 0, link[0] == '1' ? 0xFFFFu : 3u, link[0] == '1'});
    pma->counters.push_back({LinkCounterId::LinkErrorRecovery, link, 0, 1, false});
    pma->counters.push_back({LinkCounterId::LinkDowned, link, 0, 2, false});
    pma->counters.push_back({LinkCounterId::RcvErrors, link, 0, 5, false});
    pma->counters.push_back({LinkCounterId::LocalLinkIntegrityErrors, link, 0, 0, false});
    pma->counters.push_back({LinkCounterId::ExcessiveBufferOverrunErrors, link, 0, 0, false});
    pma->ber.push_back({drivers::LinkBerId::Raw, link, link[0] == '1' ? 2e-5 : 1.5e-254, 3600});
    pma->ber.push_back({drivers::LinkBerId::Effective, link, 1.5e-254, 3600});
  }
  ib.link = pma;
  ib.link_read_unix = kNow - 5;
  ib.link_read_errors_total["busy"] = 1;
  s.ports.push_back(ib);
  // Ethernet0's netdev: FEC statistics with a total and per-lane values.
  auto fec = std::make_shared<drivers::LinkHealth>();
  fec->counters = {{LinkCounterId::FecCorrectedBlocks, "eth0", 0, 1500, false},
                   {LinkCounterId::FecCorrectedBlocks, "eth0", 1, 700, false},
                   {LinkCounterId::FecCorrectedBlocks, "eth0", 2, 800, false},
                   {LinkCounterId::FecUncorrectableBlocks, "eth0", 0, 2, false},
                   {LinkCounterId::FecCorrectedBits, "eth0", 0, 1600, false},
                   {LinkCounterId::CarrierDown, "eth0", 0, 4, false}};
  // Its carrier: up again after a 50 ms loss the kernel counted and the exporter timed.
  fec->carrier = {{"eth0", true, 0.05, kNow - 600}};
  // Its FEC codeword histogram (RS(544,514): t = 15), 16 bins as IEEE 802.3ck counts them, the
  // worst codeword of the last interval needing 5 corrections.
  drivers::LinkFecHistogram hist{"eth0", {}, 15, 5};
  for (uint16_t b = 0; b < 16; ++b) hist.bins.push_back({b, b, b <= 5 ? 1'000'000'000ull >> (3 * b) : 0});
  fec->fec_histograms = {hist};
  s.ports[0].fec_forecast = daemon::FecForecast{3 * 86400.0, 0.02, 1.4, ""};
  s.ports[0].link = fec;
  s.ports[0].link_read_unix = kNow - 3;
  // A port whose netdev this host lacks: misconfigured, not an empty cage.
  daemon::PortSnapshot lost;
  lost.port = "gpu0";
  lost.source = "netlink";
  lost.domain = "gpu0";
  lost.state = daemon::PortState::Misconfigured;
  lost.misconfiguration = "netdev ens9np0 does not exist";
  s.ports.push_back(lost);
  s.budgets[0].allocated_watts = 330;
  s.budgets[0].over_allowance_ports = {"spine1/Ethernet0"};
  s.config_reloads_total = 3;
  s.config_reload_failures_total = 1;
  s.last_config_reload_ok = false;
  return s;
}

}  // namespace xcvr::testing
