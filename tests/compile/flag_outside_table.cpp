// Compiled by ctest, never linked (tests/CMakeLists.txt). As it is, a memory map whose flag row is
// built from the flag table compiles; with XCVR_FLAG_OUTSIDE_TABLE the same row is written with
// a free name instead of a flag table id, and the map's static_assert must stop the build.
#include <array>
#include <cstdint>

#include "cmis/field_rows.hpp"

namespace {

using namespace xcvr::cmis;
enum class DemoField : uint16_t { Temperature, FlagRxLos };

constexpr std::array kTable = {
    field_rows::row(DemoField::Temperature, "temperature", kLowerPage, 22, 2, Type::S16),
#ifdef XCVR_FLAG_OUTSIDE_TABLE
    field_rows::bits(DemoField::FlagRxLos, "rx_loss", kLowerPage, 3, 0, 1, Role::Flag),
#else
    field_rows::flag(DemoField::FlagRxLos, FlagId::RxLos, kLowerPage, 3, 0),
#endif
};

static_assert(field_rows::flags_come_from_table(kTable), "a flag row outside the flag table");

}  // namespace

int main() { return static_cast<int>(kTable.size()) - 2; }
