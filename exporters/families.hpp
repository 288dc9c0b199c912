// The metric families this exporter can emit: one table row per family (name, type, help).
// Every series is added through FamilySet, so a family that is not in this table cannot be
// rendered, and docs/metrics.md is checked against what is rendered (exporter_docs_test).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>

namespace xcvr::exporters {

enum class Fam : std::size_t {
  // per module
  ModulePresent,
  ModuleInfo,
  ModuleState,
  ModuleStale,
  PortLifecycleState,
  PortMisconfigured,
  PortHealth,
  Temperature,
  SupplyVoltage,
  LaserTemperature,
  TecCurrent,
  SupplyVoltage2,
  ModuleFaultCause,
  ModuleLowPower,
  LaneRxPower,
  LaneTxPower,
  LaneTxBias,
  LaneDataPathState,
  TemperatureThreshold,
  SupplyVoltageThreshold,
  RxPowerThreshold,
  TxPowerThreshold,
  TxBiasThreshold,
  TemperatureHeadroom,
  LaneTxBiasDrift,
  LaneTxPowerDrift,
  // VDM (exporters/metrics_vdm.cpp: one row per quantity)
  LaneLaserTemperature,
  LaneEsnr,
  LaneLtp,
  LanePreFecBer,
  LaneErroredFrames,
  LaneLaserAge,
  LaneTecCurrent,
  LaneLaserFrequencyError,
  SupplyRailVoltage,
  LaserTemperatureThreshold,
  EsnrThreshold,
  LtpThreshold,
  PreFecBerThreshold,
  ErroredFramesThreshold,
  LaserAgeThreshold,
  TecCurrentThreshold,
  LaserFrequencyErrorThreshold,
  SupplyRailVoltageThreshold,
  Flag,
  FlagRaisedTotal,
  MaxPower,
  PowerOverAllowance,
  CodingCheckFailed,
  CodingCheckWarning,
  InsertionsTotal,
  ReadErrorsTotal,
  LastReadTimestamp,
  // link health beside the optic (issue 18): one contiguous block
  LinkFecCorrectedBlocks,
  LinkFecUncorrectableBlocks,
  LinkFecCorrectedBits,
  LinkSymbolErrors,
  LinkErrorRecovery,
  LinkDowned,
  LinkRcvErrors,
  LinkLocalIntegrityErrors,
  LinkBufferOverrunErrors,
  LinkRawBer,
  LinkEffectiveBer,
  LinkCounterSaturated,
  LinkReadErrorsTotal,
  LinkLastReadTimestamp,
  // per power/port group
  PowerBudget,
  PowerAllocated,
  PowerProjected,
  PowerPortAllowance,
  PowerGroupCages,
  PowerGroupModules,
  // the exporter itself
  BuildInfo,
  PollCycleDuration,
  PollCycleLastDuration,
  BusBytesTotal,
  BusTransactionsTotal,
  ConfigReloadsTotal,
  ConfigReloadFailuresTotal,
  ConfigLastReloadSuccessful,
  ConfigLastReloadTimestamp,
  SnapshotTimestamp,
  ScrapeDuration,
  RenderErrorsTotal,
  StateWriteFailuresTotal,
  Count_,  // number of families, not a family
};

struct FamilySpec {
  Fam id;
  std::string_view name;
  prometheus::MetricType type;
  std::string_view help;  // one line, no backslash (prometheus-cpp writes HELP raw)
};

// All families, in output order.
const std::vector<FamilySpec>& family_specs();
const FamilySpec& family_spec(Fam id);

using Labels = std::vector<prometheus::ClientMetric::Label>;

// Collects the series of one render. Families come out in table order, each once, with its
// samples contiguous; families without samples are dropped; names are validated with
// prometheus::CheckMetricName/CheckLabelName; label values are made valid UTF-8; non-finite
// values are never emitted.
class FamilySet {
 public:
  explicit FamilySet(std::size_t ports = 0);  // ports: expected number, for reserving

  void gauge(Fam id, Labels labels, double value);
  void counter(Fam id, Labels labels, double value);
  void histogram(Fam id, Labels labels, prometheus::ClientMetric::Histogram histogram);

  std::size_t dropped() const { return dropped_; }  // samples refused (bad name or value)
  std::vector<prometheus::MetricFamily> take();

 private:
  prometheus::ClientMetric* add(Fam id, Labels&& labels);

  std::vector<prometheus::MetricFamily> families_;
  std::size_t dropped_ = 0;
};

}  // namespace xcvr::exporters
