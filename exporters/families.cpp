#include "exporters/families.hpp"

#include "exporters/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>

#include <prometheus/check_names.h>

namespace xcvr::exporters {
namespace {

using prometheus::MetricType;
constexpr MetricType G = MetricType::Gauge;
constexpr MetricType C = MetricType::Counter;
constexpr MetricType H = MetricType::Histogram;

// HELP texts say "(cached ...)" where values come from the background poller, as the
// exporter guidelines ask for cached metrics.
constexpr FamilySpec kFixedSpecs[] = {
    {Fam::ModulePresent, "transceiver_module_present", G, "", "port",
     "1 if a module is seated in the cage, 0 if the cage is empty."},
    {Fam::ModuleInfo, "transceiver_module_info", G, "",
     "port, identifier, spec, spec_revision, vendor, vendor_oui, part_number, revision, serial, date_code, "
     "media_type, media_interface, host_interface, firmware, inactive_firmware",
     "Identity of the seated module as labels (value always 1); vendor strings appear only here."},
    {Fam::ModuleState, "transceiver_module_state", G, "", "port, state",
     "1 for the current CMIS module state (low_power, power_up, ready, power_down, fault)."},
    {Fam::ModuleStale, "transceiver_module_stale", G, "", "port",
     "1 if the module is present but has not been read successfully recently; monitor series are "
     "withheld while stale."},
    {Fam::PortLifecycleState, "transceiver_port_lifecycle_state", G, "", "port, state",
     "1 for the exporter's lifecycle state of the port (empty, settling, reading, ok, failing, "
     "stale, misconfigured)."},
    {Fam::PortMisconfigured, "transceiver_port_misconfigured", G, "", "port, reason",
     "1 while the port's configuration names what this host lacks (a netdev, an i2c bus, an optoe or "
     "presence file); `reason` says what. Sparse."},
    {Fam::PortHealth, "transceiver_port_health", G, "", "port, health",
     "1 for the port's health verdict (ok, warning, alarm, down, hot, miscoded, misconfigured, stale, empty, "
     "unused): one series per port, the landing page's verdict."},
    {Fam::ModuleFaultCause, "transceiver_module_fault_cause", G, "", "port, cause",
     "1 with the cause a CMIS module in ModuleFault gives (absent while it is not in fault)."},
    {Fam::ModuleLowPower, "transceiver_module_low_power", G, "", "port",
     "1 while the module is in low power mode (CMIS ModuleLowPwr, SFF-8636 host low power), else 0."},
    {Fam::LaneDataPathState, "transceiver_lane_data_path_state", G, "", "port, lane, [data_path], state",
     "1 for the current CMIS data path state of the lane (activated, deactivated, init, ...)."},
    {Fam::TemperatureHeadroom, "transceiver_temperature_headroom_celsius", G, "celsius", "port",
     "Module's high-warning temperature threshold minus its temperature."},
    {Fam::LaneTxBiasDrift, "transceiver_lane_tx_bias_drift_ratio", G, "ratio", "port, lane, [data_path]",
     "Laser bias now divided by the first value seen for this module serial (laser aging)."},
    {Fam::LaneTxPowerDrift, "transceiver_lane_tx_power_drift_ratio", G, "ratio", "port, lane, [data_path]",
     "Tx power now divided by the first value seen for this module serial (laser aging)."},
    {Fam::WorstLaneRxPowerMargin, "transceiver_worst_lane_rx_power_margin_decibels", G, "decibels", "port",
     "Rx power over the module's rx-power low-warning threshold, in dB, on the in-service lane with the least (lanes with light)."},
    {Fam::WorstLanePreFecBer, "transceiver_worst_lane_pre_fec_ber_ratio", G, "ratio", "port, side",
     "Highest pre-FEC BER (VDM) of the port's in-service lanes that measure, per side."},
    {Fam::WorstLaneEsnr, "transceiver_worst_lane_esnr_decibels", G, "decibels", "port, side",
     "Lowest eSNR (VDM) of the port's in-service lanes that measure, per side."},
    {Fam::WorstLaneTxBiasDrift, "transceiver_worst_lane_tx_bias_drift_ratio", G, "ratio", "port",
     "Laser bias drift ratio farthest from 1 among the port's lit in-service lanes not in Tx fault."},
    {Fam::WorstLane, "transceiver_worst_lane", G, "", "port, quantity, [side]",
     "The lane (1-based) a transceiver_worst_lane_* series was taken from; quantity names the series."},
    {Fam::Flag, "transceiver_flag", G, "", "port, [lane], [data_path], flag",
     "1 while a module or lane flag is raised (only raised flags are exported)."},
    {Fam::FlagRaisedTotal, "transceiver_flag_raised_total", C, "", "port, [lane], flag",
     "Times a flag was raised (rising edges: a persisting condition counts once); appears when a flag is first raised."},
    {Fam::MaxPower, "transceiver_max_power_watts", G, "watts", "port",
     "Maximum power consumption the module advertises."},
    {Fam::PowerOverAllowance, "transceiver_power_over_allowance", G, "", "port",
     "1 if the module's advertised maximum power exceeds its group's per-port allowance."},
    {Fam::CodingCheckFailed, "transceiver_coding_check_failed", G, "", "port, check",
     "1 per coding check the module's EEPROM fails (only failing checks are exported)."},
    {Fam::CodingCheckWarning, "transceiver_coding_check_warning", G, "", "port, check",
     "1 per coding check the module's EEPROM only passes with a warning (sparse)."},
    {Fam::InsertionsTotal, "transceiver_insertions_total", C, "", "port",
     "Module insertions seen in this cage since the exporter started."},
    {Fam::ReadErrorsTotal, "transceiver_read_errors_total", C, "", "port, kind",
     "Failed module reads, by error kind."},
    {Fam::LastReadTimestamp, "transceiver_last_read_timestamp_seconds", G, "seconds", "port",
     "Unix time of the last good read of the module."},
    // link health beside the optic (issue 18): one contiguous block
    {Fam::LinkFecCorrectedBlocks, "transceiver_link_fec_corrected_blocks_total", C, "", "port, link, [lane]",
     "FEC codewords corrected on the port's link (ethtool FEC statistics, cached; per lane where the driver gives them)."},
    {Fam::LinkFecUncorrectableBlocks, "transceiver_link_fec_uncorrectable_blocks_total", C, "", "port, link, [lane]",
     "FEC codewords that could not be corrected on the port's link (ethtool FEC statistics, cached)."},
    {Fam::LinkFecCorrectedBits, "transceiver_link_fec_bit_corrections_total", C, "", "port, link, [lane]",
     "Bits corrected by FEC on the port's link (ethtool FEC statistics, cached)."},
    {Fam::LinkSymbolErrors, "transceiver_link_symbol_errors_total", C, "", "port, link",
     "Minor link errors on a physical lane of the link (PMA SymbolErrorCounter, cached)."},
    {Fam::LinkErrorRecovery, "transceiver_link_error_recovery_total", C, "", "port, link",
     "Times the link error recovery process completed (PMA LinkErrorRecoveryCounter, cached)."},
    {Fam::LinkDowned, "transceiver_link_downed_total", C, "", "port, link",
     "Times the link went down (PMA LinkDownedCounter or ethtool link-down events, cached)."},
    {Fam::LinkRcvErrors, "transceiver_link_rcv_errors_total", C, "", "port, link",
     "Packets with errors received on the link (PMA PortRcvErrors, cached)."},
    {Fam::LinkLocalIntegrityErrors, "transceiver_link_local_integrity_errors_total", C, "", "port, link",
     "Times local physical errors exceeded the link's threshold (PMA LocalLinkIntegrityErrors, cached)."},
    {Fam::LinkBufferOverrunErrors, "transceiver_link_buffer_overrun_errors_total", C, "", "port, link",
     "Consecutive flow-control update periods with buffer overrun (PMA ExcessiveBufferOverrunErrors, cached)."},
    {Fam::FecLimitForecast, "transceiver_fec_limit_forecast_seconds", G, "seconds", "port",
     "Seconds until the worst media lane's pre-FEC BER reaches the FEC limit (2.4e-4, RS(544,514)) at its trend of the last hours (a weighted line through log10 BER, tau 6 h); absent when the trend cannot say (too few samples, not rising, too noisy)."},
    {Fam::LinkFecCodewords, "transceiver_link_fec_codewords_total", C, "", "port, link, symbols",
     "FEC codewords by the number of symbols corrected in each (`symbols`: a bin of the device's codeword histogram, \"3\" or \"9-15\"; ethtool FEC histogram, or PPHCR and PPCNT group 0x23 on InfiniBand, cached; full profile or detail ports)."},
    {Fam::LinkFecTail, "transceiver_link_fec_tail_symbols", G, "", "port, link",
     "The FEC tail: the most symbols corrected in one codeword during the last link interval (the high bound of the highest histogram bin that grew); 0 when none needed correcting."},
    {Fam::LinkFecCorrectionLimit, "transceiver_link_fec_correction_limit_symbols", G, "", "port, link",
     "Symbols per codeword the link's RS FEC corrects (t: 7 for RS(528,514), 15 for RS(544,514)); a codeword past it is uncorrectable."},
    {Fam::LinkCarrierDown, "transceiver_link_carrier_down_total", C, "", "port, link",
     "Times the netdev lost carrier: the kernel's carrier_down_count through rtnetlink, which counts a loss shorter than a poll and survives an exporter restart (cached)."},
    {Fam::LinkCarrierUp, "transceiver_link_carrier_up", G, "", "port, link",
     "1 while the netdev has carrier, 0 while it has none (rtnetlink, as of the last link read)."},
    {Fam::LinkLastDownDuration, "transceiver_link_last_down_duration_seconds", G, "seconds", "port, link",
     "How long the netdev's last carrier loss lasted, timed from rtnetlink notifications followed live; absent until one was seen to end, or when a flap was folded into one notification."},
    {Fam::LinkLastDownTimestamp, "transceiver_link_last_down_timestamp_seconds", G, "seconds", "port, link",
     "Unix time the netdev's last (or current) carrier loss began, seen live through rtnetlink."},
    {Fam::LinkRawBer, "transceiver_link_raw_ber_ratio", G, "ratio", "port, link",
     "The device's own bit error ratio of the link before FEC since its counters were last cleared (PPCNT raw BER, as mlxlink shows it)."},
    {Fam::LinkEffectiveBer, "transceiver_link_effective_ber_ratio", G, "ratio", "port, link",
     "The device's own bit error ratio of the link after FEC since its counters were last cleared (PPCNT effective BER)."},
    {Fam::LinkCounterSaturated, "transceiver_link_saturated", G, "", "port, link, [lane], counter",
     "1 for a link counter stuck at its device maximum (it no longer increases; sparse)."},
    {Fam::LinkReadErrorsTotal, "transceiver_link_read_errors_total", C, "", "port, kind",
     "Failed link-counter reads, by error kind."},
    {Fam::LinkLastReadTimestamp, "transceiver_link_last_read_timestamp_seconds", G, "seconds", "port",
     "Unix time of the last good read of the port's link counters."},
    {Fam::PowerBudget, "transceiver_power_budget_watts", G, "watts", "group",
     "Configured power budget of the port group."},
    {Fam::PowerAllocated, "transceiver_power_allocated_watts", G, "watts", "group",
     "Sum of the advertised maximum power of the modules present in the group."},
    {Fam::PowerProjected, "transceiver_power_projected_watts", G, "watts", "group",
     "Allocated power plus every empty cage of the group filled at the per-port allowance."},
    {Fam::PowerPortAllowance, "transceiver_power_port_allowance_watts", G, "watts", "group",
     "Configured per-port power allowance of the group."},
    {Fam::PowerGroupCages, "transceiver_power_group_cages", G, "", "group",
     "Number of cages in the port group."},
    {Fam::PowerGroupModules, "transceiver_power_group_modules", G, "", "group",
     "Number of modules present in the port group."},
    {Fam::BuildInfo, "transceiver_exporter_build_info", G, "", "version, revision, build_date",
     "Version, git revision and build date (UTC) of the exporter (value always 1)."},
    {Fam::PollCycleDuration, "transceiver_exporter_poll_cycle_duration_seconds", H, "seconds", "domain",
     "Duration of poll cycles per serialization domain (bus, NIC, IB target)."},
    {Fam::PollCycleLastDuration, "transceiver_exporter_poll_cycle_last_duration_seconds", G, "seconds", "domain",
     "Duration of the last poll cycle per serialization domain."},
    {Fam::BusBytesTotal, "transceiver_exporter_bus_bytes_total", C, "bytes", "domain",
     "Bytes read from modules per serialization domain."},
    {Fam::BusTransactionsTotal, "transceiver_exporter_bus_transactions_total", C, "", "domain",
     "Read transactions per serialization domain."},
    {Fam::ConfigReloadsTotal, "transceiver_exporter_config_reloads_total", C, "", "",
     "Configuration reloads attempted."},
    {Fam::ConfigReloadFailuresTotal, "transceiver_exporter_config_reload_failures_total", C, "", "",
     "Configuration reloads that failed (the previous configuration stays active)."},
    {Fam::ConfigLastReloadSuccessful, "transceiver_exporter_config_last_reload_successful", G, "", "",
     "1 if the last configuration reload succeeded."},
    {Fam::ConfigLastReloadTimestamp, "transceiver_exporter_config_last_reload_timestamp_seconds", G, "seconds", "",
     "Unix time of the last configuration reload."},
    {Fam::SnapshotTimestamp, "transceiver_exporter_snapshot_timestamp_seconds", G, "seconds", "",
     "Unix time the poller published the snapshot being served."},
    {Fam::ScrapeDuration, "transceiver_exporter_scrape_duration_seconds", G, "seconds", "",
     "Time the exporter took to render /metrics for the previous snapshot (one render per snapshot)."},
    {Fam::RenderErrorsTotal, "transceiver_exporter_render_errors_total", C, "", "",
     "Metric renders that failed or samples dropped for an invalid name or value."},
    {Fam::StateWriteFailuresTotal, "transceiver_exporter_state_write_failures_total", C, "", "",
     "Writes of the state directory (aging baselines, flight-recorder events) that failed; the state is kept in memory and retried."},
    {Fam::RecorderEventsTotal, "transceiver_exporter_recorder_events_total", C, "", "",
     "Flight-recorder events frozen since start (a link down, an alarm flag, a data path leaving DPActivated, a FEC tail jump): /api/v1/events."},
    {Fam::ProcessCpuSeconds, "process_cpu_seconds_total", C, "seconds", "", "Total user and system CPU time spent in seconds."},
    {Fam::ProcessResidentMemory, "process_resident_memory_bytes", G, "bytes", "", "Resident memory size in bytes."},
    {Fam::ProcessVirtualMemory, "process_virtual_memory_bytes", G, "bytes", "", "Virtual memory size in bytes."},
    {Fam::ProcessStartTime, "process_start_time_seconds", G, "seconds", "",
     "Start time of the process since unix epoch in seconds."},
    {Fam::ProcessOpenFds, "process_open_fds", G, "", "", "Number of open file descriptors."},
    {Fam::ProcessMaxFds, "process_max_fds", G, "", "", "Maximum number of open file descriptors."},
};

constexpr std::size_t kFamilyCount = static_cast<std::size_t>(Fam::Count_);
constexpr std::size_t slot(Fam id) { return static_cast<std::size_t>(id); }

// Every row in its Fam slot: the fixed rows, each cmis::kQuantities row's family (and its
// thresholds'), each exported cmis::kVdmQuantities row's two families.
template <typename Visit>
constexpr void for_each_row(Visit visit) {
  constexpr FamilyLabels kModule = "port";
  constexpr FamilyLabels kLane = "port, lane, [data_path]";
  constexpr FamilyLabels kThreshold = "port, level";
  for (const FamilySpec& fixed : kFixedSpecs) visit(fixed);
  for (const cmis::QuantitySpec& q : cmis::kQuantities) {
    visit(FamilySpec{quantity_family(q.id), q.metric, G, q.unit, q.per_lane() ? kLane : kModule, q.help});
    if (q.has_thresholds()) {
      visit(FamilySpec{quantity_threshold_family(q.id), q.threshold_metric, G, q.unit, kThreshold, q.threshold_help});
    }
  }
  for (std::size_t row = 0; row < cmis::kVdmExportedCount; ++row) {
    const cmis::VdmQuantitySpec& v = cmis::kVdmQuantities[row];
    // The qualifier ("side", "rail", ...) is on every series of a quantity that has one.
    const FamilyLabels own = (v.per_lane ? kLane : kModule).plus(v.qualifier_label);
    visit(FamilySpec{vdm_family(row), v.metric, G, v.unit, own, v.help});
    visit(FamilySpec{vdm_threshold_family(row), v.threshold_metric, G, v.unit,
                     kModule.plus(v.qualifier_label).plus("level"), v.threshold_help});
  }
}

constexpr std::array<FamilySpec, kFamilyCount> kSpecs = [] {
  std::array<FamilySpec, kFamilyCount> specs{};
  for_each_row([&](const FamilySpec& row) { specs[slot(row.id)] = row; });
  return specs;
}();

// ---- the rows' rules, checked at compile time: a wrong row or order fails the build ----
// The fixed rows are listed in Fam order (the output order), so a row out of place is found here
// rather than rendered under another family's name.
static_assert(std::adjacent_find(std::begin(kFixedSpecs), std::end(kFixedSpecs),
                                 [](const FamilySpec& a, const FamilySpec& b) { return slot(a.id) >= slot(b.id); }) ==
                  std::end(kFixedSpecs),
              "kFixedSpecs: rows out of Fam order (or one Fam listed twice)");

// Every Fam slot has exactly one row: no family without a name, none named twice.
static_assert([] {
  std::array<int, kFamilyCount> rows{};
  bool in_range = true;
  for_each_row([&](const FamilySpec& row) {
    if (slot(row.id) < kFamilyCount) ++rows[slot(row.id)];
    else in_range = false;
  });
  return in_range && std::all_of(rows.begin(), rows.end(), [](int n) { return n == 1; });
}(), "a Fam slot without exactly one row");

// The metric name rule ([a-zA-Z_:][a-zA-Z0-9_:]*), our namespaces, counters named _total.
constexpr bool name_valid(const FamilySpec& f) {
  const auto name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':';
  };
  if (!(f.name.starts_with("transceiver_") || f.name.starts_with("process_"))) return false;
  if (!std::all_of(f.name.begin(), f.name.end(), name_char)) return false;
  return f.name.ends_with("_total") == (f.type == C);
}
// The units a name may end in (OpenMetrics: the unit is the name's suffix, before _total).
constexpr std::string_view kUnits[] = {"amperes", "bytes",   "celsius",            "decibels",          "hertz",
                                       "ratio",   "seconds", "radians_per_second", "seconds_per_meter", "seconds_squared",
                                       "volts",   "watts"};
// A row's unit is one of those and its name's suffix; a row without one ends in none of them.
constexpr bool unit_valid(const FamilySpec& f) {
  const std::string_view stem = f.type == C ? f.name.substr(0, f.name.size() - std::string_view("_total").size()) : f.name;
  const auto suffix = [&](std::string_view unit) {
    return stem.size() > unit.size() && stem.ends_with(unit) && stem[stem.size() - unit.size() - 1] == '_';
  };
  if (f.unit.empty()) return std::none_of(std::begin(kUnits), std::end(kUnits), suffix);
  return std::find(std::begin(kUnits), std::end(kUnits), f.unit) != std::end(kUnits) && suffix(f.unit);
}
// HELP: one line of printable ASCII without a backslash (prometheus-cpp writes it raw).
constexpr bool help_valid(const FamilySpec& f) {
  return !f.help.empty() &&
         std::all_of(f.help.begin(), f.help.end(), [](char c) { return c >= 0x20 && c < 0x7F && c != '\\'; });
}
static_assert(std::all_of(kSpecs.begin(), kSpecs.end(), [](const FamilySpec& f) { return name_valid(f) && help_valid(f); }),
              "a family name or HELP breaks the exposition rules");
static_assert(std::all_of(kSpecs.begin(), kSpecs.end(), unit_valid),
              "a family's unit is not one of kUnits or not its name's suffix (or a unitless name ends in a unit)");
static_assert(std::all_of(kSpecs.begin(), kSpecs.end(), [](const FamilySpec& f) { return f.labels.ok(); }),
              "a family's label list breaks the label-name rule or names a label twice");
static_assert([] {
  for (std::size_t i = 0; i < kSpecs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (kSpecs[i].name == kSpecs[j].name) return false;
    }
  }
  return true;
}(), "two families with one name");

bool plain_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace

std::span<const FamilySpec> family_specs() { return kSpecs; }

const FamilySpec& family_spec(Fam id) { return kSpecs[slot(id)]; }

void Labels::push_back(LabelView label) {
  if (n_ == kMax) throw std::length_error("more labels on one series than Labels holds");
  std::construct_at(&items_[n_++], label);
}

namespace {

template <typename LabelRange>
bool labels_valid(const LabelRange& labels) {
  return std::all_of(labels.begin(), labels.end(), [](const auto& l) { return label_name_valid(l.name); });
}

// A series' labels (at most Labels::kMax and one more) with every value valid UTF-8.
class Utf8Labels {
 public:
  Utf8Labels() {}  // NOLINT: leaves views_ unwritten (zeroing 700 bytes per series showed in profiles)
  // Appends [first, last), pointing a value that is not plain ASCII at its valid-UTF-8 copy.
  void add(const LabelView* first, const LabelView* last) {
    for (; first != last; ++first, ++n_) {
      LabelView* view = std::construct_at(&views_[n_], *first);
      if (!plain_ascii(first->value)) {
        fixed_.reserve(Labels::kMax + 1);
        view->value = fixed_.emplace_back(valid_utf8(first->value));
      }
    }
  }
  std::span<const LabelView> span() const { return {views_, n_}; }

 private:
  union {  // LabelView is trivially copyable and destructible: only the first n_ are constructed
    LabelView views_[Labels::kMax + 1];
  };
  std::size_t n_ = 0;
  std::vector<std::string> fixed_;  // the values that were not: reserved once, so views stay valid
};

}  // namespace

FamilySet::FamilySet(const std::vector<std::size_t>* family_bytes) {
  const std::size_t n = family_specs().size();
  text_samples_.resize(n);
  std::vector<std::size_t> room(n);  // room for longer values than last time
  if (family_bytes != nullptr && family_bytes->size() == n) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t bytes = (*family_bytes)[i];
      room[i] = bytes == 0 ? 0 : bytes + bytes / 16 + 64;
    }
  }
  char* window = body_.room(std::accumulate(room.begin(), room.end(), std::size_t{0}));
  text_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    text_.push_back(TextBuffer::window(window, room[i]));
    window += room[i];
  }
}

FamilySet::FamilySet(FamilySink& sink) : sink_(&sink) {}

namespace {
[[noreturn]] void wrong_labels(const FamilySpec& spec, std::string_view what, std::string_view label) {
  throw std::logic_error(std::string(spec.name) + ": " + std::string(what) + " label '" + std::string(label) +
                         "' (exporters/families.cpp lists its labels)");
}
}  // namespace

// A debug build's check that a series carries its family's labels: every required one, no other
// (the suite runs the renderers under it; the release render does not pay for it).
void FamilySet::check_labels(const FamilySpec& spec, const Labels& labels, const LabelView* last) {
  const auto carries = [&](std::string_view name) {
    return std::any_of(labels.begin(), labels.end(), [&](const LabelView& l) { return l.name == name; }) ||
           (last != nullptr && last->name == name);
  };
  const auto listed = [&](const LabelView& l) {
    if (!spec.labels.allows(l.name)) wrong_labels(spec, "unlisted", l.name);
  };
  std::for_each(labels.begin(), labels.end(), listed);
  if (last != nullptr) listed(*last);
  for (const FamilyLabels::Name& n : spec.labels) {
    if (!n.optional && !carries(n.name)) wrong_labels(spec, "missing", n.name);
  }
}

// `last`: a label after `labels`, or nullptr. `histogram`: the metric of a histogram series (its
// labels are added here); nullptr for a gauge or counter, whose value is `value`.
void FamilySet::add(Fam id, const Labels& labels, const LabelView* last, prometheus::ClientMetric* histogram,
                    double value) {
  const std::size_t i = static_cast<std::size_t>(id);
#ifndef NDEBUG
  check_labels(kSpecs[i], labels, last);
#endif
  // The text output of a plain gauge or counter skips the labels already rendered.
  const bool skip_rendered = sink_ == nullptr && histogram == nullptr;
  if (skip_rendered && !labels.rendered_valid_) {
    ++refused_labels_;
    return;
  }
  const LabelView* first = labels.begin() + (skip_rendered ? labels.rendered_count_ : 0);
  if (first == labels.end() && (last == nullptr || plain_ascii(last->value))) {  // most series: nothing to copy
    add_valid(i, labels, last == nullptr ? std::span<const LabelView>() : std::span(last, 1), histogram, value);
    return;
  }
  add_made_valid(i, labels, first, last, histogram, value);
}

// Apart from add(), so that the common series does not pay for this frame (21 labels and a
// vector, with the stack protector's check).
void FamilySet::add_made_valid(std::size_t i, const Labels& labels, const LabelView* first, const LabelView* last,
                               prometheus::ClientMetric* histogram, double value) {
  Utf8Labels utf8;
  utf8.add(first, labels.end());
  if (last != nullptr) utf8.add(last, last + 1);
  add_valid(i, labels, utf8.span(), histogram, value);
}

// `valid`: the series' labels after those already rendered (text output) or all of them, valid
// UTF-8.
void FamilySet::add_valid(std::size_t i, const Labels& labels, std::span<const LabelView> valid,
                          prometheus::ClientMetric* histogram, double value) {
  const FamilySpec& spec = kSpecs[i];
  if (!labels_valid(valid)) {  // counted by take_text()
    ++refused_labels_;
    return;
  }
  if (sink_ != nullptr) {
    sink_->sample(spec, valid, histogram, value);
    return;
  }
  if (text_samples_[i]++ == 0) begin_family_text(i);
  if (histogram == nullptr) {
    append_sample(text_[i], spec.name, labels.rendered_count_ != 0 ? labels.rendered_ : std::string_view(), valid, value);
    return;
  }
  for (const LabelView& l : valid) histogram->label.push_back({std::string(l.name), std::string(l.value)});
  std::string lines;  // a histogram per poll domain: few
  append_metric(lines, spec.name, spec.type, *histogram);
  text_[i].append(lines);
}

Labels FamilySet::with_rendered(const Labels& labels) {
  Labels out = labels;
  if (sink_ != nullptr || labels.size() == labels.rendered_count_) return out;
  // Labels that begin with rendered ones (a lane's after its port's) extend their text.
  Utf8Labels utf8;
  utf8.add(labels.begin() + labels.rendered_count_, labels.end());
  const std::span<const LabelView> valid = utf8.span();
  // Into a chunk with room for the whole text, so the views of earlier texts stay valid.
  constexpr std::size_t kChunkBytes = 64 << 10;
  const std::size_t bound = labels.rendered_.size() + labels_bound(valid);
  if (rendered_.empty() || rendered_.back().capacity() - rendered_.back().size() < bound) {
    rendered_.emplace_back().reserve(std::max(kChunkBytes, bound));
  }
  TextBuffer& chunk = rendered_.back();
  const std::size_t at = chunk.size();
  chunk.append(labels.rendered_);
  append_labels(chunk, valid, !labels.rendered_.empty());
  out.rendered_ = chunk.view().substr(at);
  out.rendered_count_ = labels.size();
  out.rendered_valid_ = labels.rendered_valid_ && labels_valid(valid);
  return out;
}

void FamilySet::gauge(Fam id, const Labels& labels, double value) { add_value(id, labels, nullptr, value, false); }
void FamilySet::gauge(Fam id, const Labels& labels, LabelView last, double value) {
  add_value(id, labels, &last, value, false);
}
void FamilySet::counter(Fam id, const Labels& labels, double value) { add_value(id, labels, nullptr, value, true); }
void FamilySet::counter(Fam id, const Labels& labels, LabelView last, double value) {
  add_value(id, labels, &last, value, true);
}

void FamilySet::add_value(Fam id, const Labels& labels, const LabelView* last, double value, bool counter) {
  if (!std::isfinite(value) || (counter && value < 0)) {
    ++dropped_;
    return;
  }
  add(id, labels, last, nullptr, value);
}

void FamilySet::histogram(Fam id, const Labels& labels, prometheus::ClientMetric::Histogram histogram) {
  if (!std::isfinite(histogram.sample_sum)) {
    ++dropped_;
    return;
  }
  prometheus::ClientMetric metric;
  metric.histogram = std::move(histogram);
  add(id, labels, nullptr, &metric, 0);
}

void FamilySet::begin_family_text(std::size_t i) {
  const FamilySpec& spec = kSpecs[i];
  std::string header;
  append_family_header(header, spec.name, spec.type, spec.help);
  text_[i].append(header);
}

TextBuffer FamilySet::take_text(std::vector<std::size_t>* family_bytes) {
  dropped_ += refused_labels_;
  if (family_bytes != nullptr) {
    family_bytes->resize(text_.size());
    for (std::size_t i = 0; i < text_.size(); ++i) (*family_bytes)[i] = text_[i].size();
  }
  std::vector<std::size_t> shown;  // the families that go out, in order
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_samples_[i] == 0) continue;
    if (!prometheus::CheckMetricName(std::string(kSpecs[i].name))) {
      dropped_ += text_samples_[i];
      continue;
    }
    shown.push_back(i);
    bytes += text_[i].size();
  }
  // Closing the gaps moves each family down to where the previous one ends, never past its own
  // window. A family that outgrew its window (the first render has none) has its text elsewhere:
  // then the body is built apart, and the next render sizes its windows from this one.
  const bool in_place =
      std::all_of(shown.begin(), shown.end(), [&](std::size_t i) { return text_[i].in_window(); });
  TextBuffer out;
  if (in_place) {
    char* const body = body_.room(0);
    char* end = body;
    for (const std::size_t i : shown) {
      const std::string_view t = text_[i].view();
      if (!t.empty()) std::memmove(end, t.data(), t.size());
      end += t.size();
    }
    body_.commit(end);
    out = std::move(body_);
  } else {
    out.reserve(bytes);
    for (const std::size_t i : shown) out.append(text_[i].view());
  }
  body_ = TextBuffer();
  text_.clear();
  text_samples_.clear();
  rendered_.clear();
  return out;
}

}  // namespace xcvr::exporters
