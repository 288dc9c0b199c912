// The flag table (cmis/flags.hpp) against the three memory maps. The health model's reading of
// its severity column: ExporterHealth.EveryFlagTableRowGivesTheVerdictOfItsSeverity.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cmis/cmis_map.hpp"
#include "cmis/flags.hpp"
#include "cmis/sff8472_map.hpp"
#include "cmis/sff8636_map.hpp"
#include "cmis/vdm.hpp"

namespace xcvr::cmis {
namespace {

struct Map {
  Spec spec;
  std::span<const Field> table;
};

std::vector<Map> maps() {
  return {{Spec::Cmis, cmis_fields()}, {Spec::Sff8636, sff8636_fields()}, {Spec::Sff8472, sff8472_fields()}};
}

bool known_severity(Severity s) {
  switch (s) {
    case Severity::Alarm:
    case Severity::Warning:
    case Severity::Hot:
    case Severity::NotReady:
    case Severity::Event: return true;
  }
  return false;
}

// Every flag a map holds is a row of the table, with a severity, a cause rank, the map's spec
// among the row's and the row's scope; every row names a map that holds it.
TEST(FlagTable, EveryMapFlagHasARowWithSeverityAndCauseRank) {
  std::set<std::pair<Spec, FlagId>> held;
  for (const Map& m : maps()) {
    int flags = 0;
    for (const Field& f : m.table) {
      const bool read_as_flag = f.role == Role::Flag || f.role == Role::VdmFlag ||
                                (m.spec != Spec::Cmis && f.role == Role::Status && f.type == Type::Bits && f.width == 1);
      ASSERT_EQ(read_as_flag, f.flag.has_value()) << spec_name(m.spec) << " " << f.name;
      if (!f.flag) continue;
      ++flags;
      const FlagRow& row = flag_row(*f.flag);
      EXPECT_EQ(row.id, *f.flag);
      EXPECT_EQ(f.name, row.name) << spec_name(m.spec);
      EXPECT_TRUE(known_severity(row.severity)) << row.name;
      EXPECT_LE(row.cause_rank, kUnrankedCause) << row.name;
      EXPECT_NE(row.specs & spec_bit(m.spec), 0) << spec_name(m.spec) << " holds " << row.name;
      const FlagScope scope = f.role == Role::VdmFlag ? FlagScope::VdmInstance
                              : f.lanes.count != 0    ? FlagScope::Lane
                                                      : FlagScope::Module;
      EXPECT_EQ(scope, row.scope) << spec_name(m.spec) << " " << row.name;
      held.insert({m.spec, *f.flag});
    }
    EXPECT_GT(flags, 0) << spec_name(m.spec);
  }
  for (const FlagRow& row : kFlags) {
    for (const Map& m : maps()) {
      const bool listed = (row.specs & spec_bit(m.spec)) != 0;
      EXPECT_EQ(listed, held.contains({m.spec, row.id})) << spec_name(m.spec) << " " << row.name;
    }
  }
}

TEST(FlagTable, SeverityIsAColumnNotASuffix) {
  for (const FlagRow& row : kFlags) {
    if (!row.level) continue;
    const bool alarm_level = row.level == ThresholdLevel::HighAlarm || row.level == ThresholdLevel::LowAlarm;
    EXPECT_EQ(alarm_level, row.severity == Severity::Alarm) << row.name;
  }
  // Alarms whose names say nothing of it.
  for (FlagId id : {FlagId::RxLos, FlagId::TxLos, FlagId::TxFault, FlagId::RxCdrLol, FlagId::TxCdrLol,
                    FlagId::TxAdaptiveEqFault, FlagId::ModuleFirmwareError, FlagId::DatapathFirmwareError}) {
    EXPECT_EQ(flag_row(id).severity, Severity::Alarm) << flag_name(id);
  }
  EXPECT_EQ(flag_row(FlagId::TempHighWarning).severity, Severity::Hot);
  EXPECT_EQ(flag_row(FlagId::DataNotReady).severity, Severity::NotReady);
  EXPECT_EQ(flag_row(FlagId::ModuleStateChanged).severity, Severity::Event);
  EXPECT_EQ(flag_row(FlagId::DataPathStateChanged).severity, Severity::Event);
}

TEST(FlagTable, VdmFlagsTakeTheirLevelsRow) {
  const std::string alarm = vdm_flag_name("pre_fec_ber_current_media", level_name(ThresholdLevel::HighAlarm));
  ASSERT_NE(find_flag(alarm), nullptr);
  EXPECT_EQ(find_flag(alarm)->id, FlagId::VdmHighAlarm);
  EXPECT_EQ(find_flag(alarm)->severity, Severity::Alarm);
  const std::string warning = vdm_flag_name("esnr_media_input", level_name(ThresholdLevel::LowWarning));
  ASSERT_NE(find_flag(warning), nullptr);
  EXPECT_EQ(find_flag(warning)->severity, Severity::Warning);
  // A level alone, or a VDM name without a type, is no flag; nor is a name no row gives.
  EXPECT_EQ(find_flag("high_alarm"), nullptr);
  EXPECT_EQ(find_flag("vdm__high_alarm"), nullptr);
  EXPECT_EQ(find_flag("vdm_high_alarm"), nullptr);
  EXPECT_EQ(find_flag("rx_loss"), nullptr);
  ASSERT_NE(find_flag("rx_los"), nullptr);
  EXPECT_EQ(find_flag("rx_los")->id, FlagId::RxLos);
}

TEST(FlagTable, CauseRanksGiveTheVerdictOrder) {
  const std::vector<FlagId> first = {FlagId::RxLos, FlagId::TxLos, FlagId::TxFault, FlagId::RxCdrLol,
                                     FlagId::TxCdrLol, FlagId::TxAdaptiveEqFault, FlagId::ModuleFirmwareError,
                                     FlagId::DatapathFirmwareError};
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(flag_row(first[i]).cause_rank, i) << flag_name(first[i]);
  for (const FlagRow& row : kFlags) {
    if (std::find(first.begin(), first.end(), row.id) == first.end()) {
      EXPECT_EQ(row.cause_rank, kUnrankedCause) << row.name;
    }
  }
}

TEST(FlagTable, CageLabels) {
  EXPECT_EQ(cage_label("rx_los"), "RX LOS");
  EXPECT_EQ(cage_label("datapath_firmware_error"), "FW ERR");
  EXPECT_EQ(cage_label("data_not_ready"), "NOT RDY");
  EXPECT_EQ(cage_label("temperature_high_warning"), "TEMP HI");
  EXPECT_EQ(cage_label("rx_power_low_alarm"), "RX LO");
  EXPECT_EQ(cage_label("aux2_low_warning"), "AUX2 LO");
  EXPECT_EQ(cage_label("vdm_pre_fec_ber_current_media_high_alarm"), "VDM PRE");
}

// Every monitor the decoders give thresholds for has its four crossings (also a static_assert
// in cmis/flags.cpp), so a value past a level reads the same row as the module's flag.
TEST(FlagTable, ThresholdMonitorsHaveTheirCrossings) {
  for (const QuantitySpec& q : kQuantities) {
    if (!q.has_thresholds()) continue;
    for (auto level : {ThresholdLevel::HighAlarm, ThresholdLevel::HighWarning, ThresholdLevel::LowAlarm,
                       ThresholdLevel::LowWarning}) {
      const FlagRow* row = threshold_flag(q.id, level);
      ASSERT_NE(row, nullptr) << q.stem;
      EXPECT_EQ(row->name, std::string(q.stem) + "_" + std::string(level_name(level)));
    }
  }
}

}  // namespace
}  // namespace xcvr::cmis
