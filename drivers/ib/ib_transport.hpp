// IbTransport: drivers::Transport for one module (cage) of an IbTarget, read with MCIA over
// one lane. A request of up to 128 bytes becomes ceil(length / chunk) MCIAs, chunk = 128 with
// MCAM bit 34 else 48. Presence is free while reads succeed (a module that goes away makes the
// next MCIA fail with "not connected", which is Absent); otherwise one PMAOS says.
//
// The serialization domain is the lane: "ib:<target>#<lane>". A target's modules are spread
// over its lanes (module % lanes), so a target has at most `lanes` MADs in flight, and every
// target polls in parallel with the others.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "drivers/ib/ib_target.hpp"
#include "drivers/transport.hpp"

namespace xcvr::ib {

struct IbLane {
  std::shared_ptr<MadChannel> channel;
  std::string domain;  // "ib:<target>#<lane>"
};

class IbTransport final : public drivers::Transport {
 public:
  IbTransport(std::shared_ptr<IbTarget> target, IbLane lane, uint8_t module, std::string port);

  std::string domain() const override { return lane_.domain; }
  std::string describe() const override;
  drivers::Presence presence() override;
  std::optional<drivers::Error> read(const drivers::ReadRequest& request, std::span<uint8_t> out) override;
  // transactions: MADs this port caused (re-sends included); bytes: 256 per MAD each way.
  drivers::BusCounters counters() const override { return counters_; }
  // PMA PortCounters (PortCountersExtended where ClassPortInfo offers the 64-bit error
  // counters), PPCNT's physical layer statistics (BER) and its RS-FEC histogram counts (group
  // 0x23) of every IB port this module carries: 3 MADs per port, 6 for a twin-port cage. The
  // histogram's bins (PPHCR) are asked once per port, and again after the port's LinkDowned
  // counter moved (a link that came back up may run another FEC), after a histogram read
  // failed, and while the port has no histogram.
  std::variant<drivers::LinkHealth, drivers::Error> read_link_health() override;

  // The last PMAOS seen (module state, error type), for the CLI.
  const std::optional<Pmaos>& last_pmaos() const { return last_pmaos_; }
  uint8_t module() const { return module_; }
  IbTarget& target() { return *target_; }

 private:
  std::optional<drivers::Error> read_chunk(uint8_t device, uint8_t bank, uint8_t page, uint16_t offset,
                                           std::span<uint8_t> out);
  std::variant<std::optional<std::vector<uint8_t>>, drivers::Error> ask_link_register(uint16_t id,
                                                                                      std::span<const uint8_t> image,
                                                                                      bool& refused);
  std::variant<std::optional<Ppcnt>, drivers::Error> ask_ppcnt(uint8_t port, uint8_t grp, bool& refused);
  std::optional<drivers::Error> read_phys_layer(uint8_t port, const std::string& link, drivers::LinkHealth& out);
  std::optional<drivers::Error> read_fec_histogram(uint8_t port, const std::string& link, uint64_t link_downed,
                                                   drivers::LinkHealth& out);
  std::optional<drivers::Error> ask_fec_bins(uint8_t port, uint64_t link_downed);
  template <typename Fn>
  auto counted(Fn&& fn);

  std::shared_ptr<IbTarget> target_;
  IbLane lane_;
  uint8_t module_;
  std::string port_;
  bool known_present_ = false;
  bool phys_layer_refused_ = false;  // the device cannot answer PPCNT: not asked again
  bool fec_histogram_refused_ = false;  // ... PPHCR or PPCNT group 0x23: not asked again
  struct FecBins {
    drivers::LinkFecHistogram histogram;  // PPHCR's bins (counts 0) and correction limit
    uint64_t link_downed = 0;             // the port's LinkDownedCounter when PPHCR was read
  };
  std::map<uint8_t, FecBins> fec_bins_;  // by IB port; a port not here has PPHCR asked
  std::optional<Pmaos> last_pmaos_;
  drivers::BusCounters counters_;
};

}  // namespace xcvr::ib
