// The register side of an emulated switch for the real-IB-stack test (tests/e2e/ibsim_fabric.py):
// ibsim simulates SMA and PMA but not vendor class 0x0A (Access Register), so this process,
// attached to ibsim at a switch node as its "SM" client (umad2sim: SIM_HOST=<node>,
// SIM_SET_ISSM=1), receives the class 0x0A MADs sent to that switch through real libibumad and
// answers them with a FakeNode (tests/support/ib): MGPIR, MCAM, PMAOS, PMLP, and MCIA reads of
// emulated modules, PPCNT's physical layer statistics, and the RS-FEC codeword histogram: PPHCR
// says RS(544,514) with 16 bins 0..15 (FakeNode's default) and every PPCNT group 0x23 read of a
// port adds kHistogramGrowth to its counts, so each link poll sees bins 0-4 grow (a tail of 4
// symbols). Test-only; prints "ready" once registered, exits when stdin closes. A stdin line
// "ber PORT COEF MAG" sets a port's raw BER (PPCNT group 0x16) to COEF * 10^-MAG, as ibsim's
// console sets PMA counters.
//
//   ibsim_responder NAME GUID LID PORTS CAGES MODEL
#include <arpa/inet.h>
#include <infiniband/umad.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "tests/support/ib/fake_node.hpp"

// Codewords per histogram read by symbols corrected: most clean, a few needing up to 4.
constexpr xcvr::ib::RsHistogramCounts kHistogramGrowth = {1'000'000, 20'000, 400, 30, 2};

int main(int argc, char** argv) {
  using namespace xcvr;
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s NAME GUID LID PORTS CAGES MODEL\n", argv[0]);
    return 2;
  }
  base::SteadyClock clock(false);
  ib::FakeNodeConfig c;
  c.description = argv[1];
  c.guid = std::strtoull(argv[2], nullptr, 0);
  c.lid = static_cast<uint16_t>(std::strtoul(argv[3], nullptr, 0));
  c.node_type = ib::kNodeTypeSwitch;
  c.num_ports = static_cast<uint8_t>(std::strtoul(argv[4], nullptr, 0));
  c.cages = std::atoi(argv[5]);
  c.model = argv[6];
  c.rs_histogram_growth = kHistogramGrowth;
  ib::FakeNode node(c, clock);

  if (umad_init() < 0) {
    std::fprintf(stderr, "umad_init failed\n");
    return 1;
  }
  const int fd = umad_open_port(nullptr, 0);
  if (fd < 0) {
    std::fprintf(stderr, "umad_open_port: %d\n", fd);
    return 1;
  }
  long methods[16 / sizeof(long)] = {};
  for (int m : {ib::kMethodGet, ib::kMethodSet}) methods[m / (8 * sizeof(long))] |= 1L << (m % (8 * sizeof(long)));
  const int agent = umad_register(fd, ib::kClassVendorA, ib::kClassVersion, 0, methods);
  if (agent < 0) {
    std::fprintf(stderr, "umad_register(0x0A): %d\n", agent);
    return 1;
  }
  std::printf("ready\n");
  std::fflush(stdout);

  std::vector<uint8_t> in(umad_size() + ib::kMadSize), out(umad_size() + ib::kMadSize);
  uint64_t answered = 0;
  std::string command;
  while (true) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) {
      char b;
      if (read(STDIN_FILENO, &b, 1) <= 0) break;  // the test closed our stdin: done
      if (b != '\n') {
        command += b;
        continue;
      }
      std::istringstream words(command);
      command.clear();
      std::string verb;
      unsigned port = 0, coef = 0, magnitude = 0;
      if (words >> verb >> port >> coef >> magnitude && verb == "ber") {
        ib::PhysLayerStats s;
        s.raw_ber = {static_cast<uint8_t>(coef), static_cast<uint8_t>(magnitude)};
        s.effective_ber = {15, 255};
        node.set_phys_layer(static_cast<uint8_t>(port), s);
        std::fprintf(stderr, "%s: port %u raw BER %uE-%u\n", c.description.c_str(), port, coef, magnitude);
      }
    }
    int length = static_cast<int>(ib::kMadSize);
    const int rc = umad_recv(fd, in.data(), &length, 200);
    if (rc < 0) continue;  // timeout: check stdin again
    const auto* mad = static_cast<const uint8_t*>(umad_get_mad(in.data()));
    auto reply = node.handle(std::span<const uint8_t>(mad, ib::kMadSize));
    if (!reply) continue;
    const ib_mad_addr_t* from = umad_get_mad_addr(in.data());
    std::fill(out.begin(), out.end(), 0);
    umad_set_addr(out.data(), ntohs(from->lid), static_cast<int>(ntohl(from->qpn)), from->sl,
                  static_cast<int>(ib::kQp1Qkey));
    std::copy(reply->begin(), reply->end(), static_cast<uint8_t*>(umad_get_mad(out.data())));
    if (umad_send(fd, agent, out.data(), static_cast<int>(ib::kMadSize), 0, 0) == 0) ++answered;
  }
  std::fprintf(stderr, "%s: answered %llu MADs\n", c.description.c_str(), static_cast<unsigned long long>(answered));
  umad_unregister(fd, agent);
  umad_close_port(fd);
  return 0;
}
