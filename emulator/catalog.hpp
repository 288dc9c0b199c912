// The module catalog: named ModuleModels of the optics and cables a 400G/800G fleet carries.
// Each entry is a parameter struct; encode_image() (model.hpp) builds its memory through the
// field tables, and EmulatedModule animates it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "emulator/model.hpp"

namespace xcvr::emulator {

// Every model, in a stable order. Keys:
//   osfp-400g-sr4-flat      NVIDIA MMA4Z00-NS400-class OSFP flat-top 400G SR4 (ConnectX-7 side)
//   osfp-800g-2xsr4-finned  NVIDIA MMA4Z00-NS-class OSFP finned-top twin-port 2x400G SR4
//                           ("800G SR8", Quantum-2 side)
//   qsfp112-400g-sr4        QSFP112 400GBASE-SR4, 4x100G PAM4, MMF 100 m, MPO-12 (identifier 0x1E)
//   qsfpdd-400g-sr8         QSFP-DD 400GBASE-SR8, 8x50G PAM4, MMF 100 m, MPO-16
//   qsfpdd-400g-dr4         QSFP-DD 400GBASE-DR4, 4x100G SMF 500 m, MPO-12
//   qsfpdd-400g-fr4         QSFP-DD 400G-FR4, CWDM 2 km, duplex LC
//   qsfpdd-400g-lr4         QSFP-DD 400G-LR4-10, 10 km, duplex LC
//   qsfp28-100g-sr4         QSFP28 100GBASE-SR4 (SFF-8636), MPO-12
//   qsfp28-100g-lr4         QSFP28 100GBASE-LR4 (SFF-8636), duplex LC
//   qsfpdd-400g-dac         QSFP-DD 400G passive copper DAC, flat memory, no monitors
//   osfp-800g-aec           OSFP 800G active electrical cable (paged, module monitors only)
const std::vector<ModuleModel>& catalog();
const ModuleModel* find_model(std::string_view key);
std::vector<std::string> catalog_keys();

// One manufactured unit of `model`: the same coding with a serial number of its own (the last
// five characters of the model's serial become `unit`, modulo 100000). Real fleets never hold
// two modules with one serial, and the daemon's per-serial state (aging baselines, the
// serial_duplicate / serial_recoded coding checks) relies on that.
ModuleModel unit_of(const ModuleModel& model, uint64_t unit);

// Models defined per spec (catalog.cpp, catalog_sff8636.cpp).
std::vector<ModuleModel> cmis_models();
std::vector<ModuleModel> sff8636_models();

// Optical power helpers for writing models in the units datasheets use.
double dbm_to_watts(double dbm);

}  // namespace xcvr::emulator
