// Front-panel numbering, as a Quantum-2's panel, its CLI and its cabling plans count: the cage
// holding MCIA module m is cage m + 1, and the IB ports a twin-port cage carries are <cage>/1
// and <cage>/2, in the order of the module lanes they start at (PMLP). Ports are named
// "<node description>/<cage>"; an HCA's link keeps its IB port number (node_exporter's `port`).
#pragma once

#include <string>

namespace xcvr::ib {

inline constexpr int kMaxCage = 256;  // MCIA's module field is one byte

// "1-256": the cages an operator may name, for messages.
inline std::string cage_range() { return "1-" + std::to_string(kMaxCage); }

inline int cage_of_module(int module) { return module + 1; }
inline int module_of_cage(int cage) { return cage - 1; }

// "<node>/<cage>": the port name of a module.
inline std::string module_port_name(const std::string& node, int module) {
  return node + "/" + std::to_string(cage_of_module(module));
}

// "<cage>/<n>": the `link` label of the n-th (from 0) IB port a switch cage carries.
inline std::string panel_link_name(int module, int index) {
  return std::to_string(cage_of_module(module)) + "/" + std::to_string(index + 1);
}

}  // namespace xcvr::ib
