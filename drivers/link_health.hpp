// Link health beside the optic: error counters of the link(s) a module carries, as the path
// that reaches the module reports them — ethtool FEC statistics for a netdev, PMA PortCounters
// for the InfiniBand ports of a switch cage or HCA. Only what the device reports is here: a
// counter it does not give is absent, never 0. Beside the counters, the BER figures the
// device itself computes (PPCNT's physical layer statistics, as mlxlink shows them).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xcvr::drivers {

enum class LinkCounterId : uint8_t {
  FecCorrectedBlocks,        // ethtool FEC: codewords corrected
  FecUncorrectableBlocks,    // ethtool FEC: codewords that could not be corrected
  FecCorrectedBits,          // ethtool FEC: bits corrected
  SymbolErrors,              // PMA SymbolErrorCounter
  LinkErrorRecovery,         // PMA LinkErrorRecoveryCounter
  LinkDowned,                // PMA LinkDownedCounter; ethtool LINKSTATE link-down events
  RcvErrors,                 // PMA PortRcvErrors
  LocalLinkIntegrityErrors,  // PMA LocalLinkIntegrityErrors
  ExcessiveBufferOverrunErrors,  // PMA ExcessiveBufferOverrunErrors
  CarrierDown,               // a netdev's carrier losses: the kernel's carrier_down_count
};
inline constexpr int kLinkCounterIds = 10;
std::string_view link_counter_name(LinkCounterId id);  // "fec_corrected_blocks", ...

struct LinkCounter {
  LinkCounterId id = LinkCounterId::SymbolErrors;
  std::string link;      // the link within the port: an IB port number ("7"), a netdev ("eth0")
  int lane = 0;          // 1-based; 0 = the whole link
  uint64_t value = 0;
  // The device's counter stopped at its maximum (the narrow PMA counters: 16, 8 or 4 bits):
  // `value` is that maximum and no longer increases. We never reset a counter.
  bool saturated = false;
};

// The device's own BER of a link, averaged over the time since its counters were last cleared
// (`window_s`; usually the last link up).
enum class LinkBerId : uint8_t {
  Raw,        // before FEC
  Effective,  // after FEC
};
inline constexpr int kLinkBerIds = 2;
std::string_view link_ber_name(LinkBerId id);  // "raw", "effective"

struct LinkBer {
  LinkBerId id = LinkBerId::Raw;
  std::string link;
  double value = 0;
  double window_s = 0;
};

// A netdev's carrier now and its last loss, timed from rtnetlink notifications followed live
// (drivers/netlink/carrier.hpp); the count of losses is the CarrierDown counter.
struct LinkCarrier {
  std::string link;
  bool up = false;
  std::optional<double> last_down_seconds;  // how long the last loss that ended lasted
  std::optional<double> last_down_unix;     // when the last (or current) loss began
};

// A link's FEC codeword histogram: how many codewords needed `low`..`high` symbol corrections,
// as the device counts them (ethtool's FEC histogram). `tail` is the poller's: the highest bin
// whose count grew since the last read — how close the worst codewords of the last interval came
// to `correction_limit`, the t of the RS code the link runs.
struct LinkFecBin {
  uint16_t low = 0, high = 0;
  uint64_t value = 0;
};
// A bin's name as the metrics' `symbols` label and the port page show it: "3", or "9-15" for a
// range; written into `buffer`, no allocation.
std::string_view fec_bin_name(const LinkFecBin& bin, std::array<char, 16>& buffer);
struct LinkFecHistogram {
  std::string link;
  std::vector<LinkFecBin> bins;
  std::optional<int> correction_limit;
  std::optional<int> tail;  // the high bound of that bin; 0 when only bin 0 grew (or none)
};

// The IB port number behind a link named by its front-panel position (a switch cage's "4/1"):
// what perfquery, ibdiagnet and UFM take.
struct LinkIbPort {
  std::string link;
  int ib_port = 0;
};

struct LinkHealth {
  std::vector<LinkCounter> counters;
  std::vector<LinkBer> ber;
  std::vector<LinkCarrier> carrier;  // netdevs only
  std::vector<LinkFecHistogram> fec_histograms;
  std::vector<LinkIbPort> ib_ports;  // switch links only (an HCA's link is its port number)
  uint64_t transactions = 0;  // requests this read cost (MADs or netlink requests)
  uint64_t bytes = 0;         // bytes on the wire, both ways
};

}  // namespace xcvr::drivers
