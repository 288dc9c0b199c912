// Loud misconfiguration: each transport names what its configuration points at that the host
// lacks (Transport::missing), and the poller turns that into a port state of its own —
// misconfigured, with the reason, never an empty cage — which it leaves by itself when the
// thing appears. The e2e_misconfiguration test runs the same through the real daemon.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon/port_poller.hpp"
#include "emulator/bus.hpp"
#include "emulator/emulator_transport.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/optoe/optoe_transport.hpp"
#include "health/health.hpp"
#include "tests/support/delegating_transport.hpp"
#include "tests/support/emulated_engine.hpp"
#include "tests/support/emulated_i2c_syscalls.hpp"

namespace xcvr {
namespace {

namespace fs = std::filesystem;
using base::kSecond;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-missing-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST(NetlinkMissing, ANetdevThatDoesNotExistIsNamed) {
  TempDir d;
  netlink::NetlinkPortConfig c;
  c.netdev = "ens9np0";
  c.sysfs_net = d.path.string();
  netlink::NetlinkTransport t(c);
  ASSERT_TRUE(t.missing());
  EXPECT_NE(t.missing()->find("netdev ens9np0 does not exist"), std::string::npos) << *t.missing();
  fs::create_directories(d.path / "ens9np0");  // the driver bound later, or the netdev was renamed back
  EXPECT_FALSE(t.missing());
}

TEST(OptoeMissing, AnEepromFileThatDoesNotExistIsNamed) {
  TempDir d;
  optoe::OptoePortConfig c;
  c.path = (d.path / "9-0050" / "eeprom").string();
  optoe::OptoeTransport t(c);
  ASSERT_TRUE(t.missing());
  EXPECT_EQ(*t.missing(), "optoe file " + c.path + " does not exist");
  fs::create_directories(d.path / "9-0050");
  std::ofstream(c.path).put('\0');
  EXPECT_FALSE(t.missing());
}

TEST(I2cMissing, TheBusDeviceAndThePresenceFileAreChecked) {
  base::VirtualClock clock{1000 * kSecond};
  emulator::BusConfig bc;
  bc.cages = 1;
  emulator::EmulatedBus bus(bc, clock);
  i2c::EmulatedI2cSyscalls sys(bus, 0, "/dev/i2c-emul");
  TempDir d;
  i2c::I2cPortConfig c;
  c.device = "/dev/i2c-emul";
  c.lock_dir = "";
  i2c::I2cDevTransport t(c, sys);
  EXPECT_FALSE(t.missing()) << "the bus device opens";
  sys.inject(i2c::EmulatedI2cSyscalls::Op::Open, ENOENT);
  const auto why = t.missing();
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("i2c bus device /dev/i2c-emul does not exist"), std::string::npos) << *why;
  c.presence_file = (d.path / "present").string();
  i2c::I2cDevTransport with_presence(c, sys);
  ASSERT_TRUE(with_presence.missing());
  EXPECT_EQ(*with_presence.missing(), "presence file " + c.presence_file + " does not exist");
  std::ofstream(c.presence_file) << "1\n";
  EXPECT_FALSE(with_presence.missing());
}

// An emulated cage whose configuration can be made to point at nothing.
class ScriptedMissing final : public testing_support::DelegatingTransport {
 public:
  using DelegatingTransport::DelegatingTransport;
  std::optional<std::string> missing() override { return lacks; }
  std::optional<std::string> lacks = "netdev ens9np0 does not exist";
};

struct Rig {
  base::VirtualClock clock{1000 * kSecond};
  emulator::EmulatedBus bus{[] {
    emulator::BusConfig bc;
    bc.cages = 1;
    return bc;
  }(), clock};
  ScriptedMissing* transport = nullptr;
  std::unique_ptr<daemon::PortPoller> poller;
  double now = 0;

  Rig() {
    bus.insert(0, daemon::testing_support::make_module("osfp-800g-2xsr4-finned", clock));
    daemon::PollConfig poll;
    poll.dynamic_interval_s = 1;
    poll.settle_delay_s = 0;
    auto t = std::make_unique<ScriptedMissing>(std::make_unique<emulator::EmulatorTransport>(bus, 0, "gpu0"));
    transport = t.get();
    poller = std::make_unique<daemon::PortPoller>(daemon::PortIdentity{"gpu0", "", "netlink", "", {}, {}},
                                                  std::move(t), poll);
  }
  void run(double until) { daemon::testing_support::run_poller(*poller, clock, now, until); }
};

TEST(Misconfiguration, APortWhoseNetdevIsMissingIsMisconfiguredNotAnEmptyCage) {
  Rig r;
  r.run(5);
  const daemon::PortSnapshot s = r.poller->snapshot(r.now);
  EXPECT_EQ(daemon::port_state_name(s.state), "misconfigured");
  EXPECT_EQ(s.misconfiguration, "netdev ens9np0 does not exist");
  EXPECT_EQ(s.presence, daemon::PortPresence::Unknown) << "not an empty cage";
  EXPECT_FALSE(s.report) << "the module behind it is never read";
  EXPECT_EQ(s.insertions_total, 0u);
  const health::PortView v = health::assess(s);
  EXPECT_EQ(v.health, health::Health::Misconfigured);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0].kind, "misconfigured");
  EXPECT_EQ(v.reasons[0].text, "netdev ens9np0 does not exist");
  EXPECT_TRUE(health::is_problem(v.health));
}

TEST(Misconfiguration, ThePortFollowsTheNetdevAppearingAndDisappearing) {
  Rig r;
  r.run(3);
  r.transport->lacks.reset();  // the driver loaded: the netdev exists now
  r.run(8);
  daemon::PortSnapshot s = r.poller->snapshot(r.now);
  EXPECT_EQ(daemon::port_state_name(s.state), "ok");
  EXPECT_TRUE(s.misconfiguration.empty());
  EXPECT_EQ(s.insertions_total, 1u);
  EXPECT_EQ(health::assess(s).health, health::Health::Ok);
  // A module that is being read keeps being read; once reads fail (the netdev went away with
  // its driver), the port says why instead of failing on.
  r.transport->lacks = "netdev ens9np0 does not exist";
  r.bus.remove(0);
  r.run(30);
  s = r.poller->snapshot(r.now);
  EXPECT_EQ(daemon::port_state_name(s.state), "misconfigured");
  EXPECT_FALSE(s.report);
}

TEST(Misconfiguration, OutOfServiceOutranksIt) {
  daemon::PortSnapshot s;
  s.port = "gpu0";
  s.state = daemon::PortState::Misconfigured;
  s.misconfiguration = "netdev ens9np0 does not exist";
  s.in_service = false;
  EXPECT_EQ(health::assess(s).health, health::Health::Unused);
}

}  // namespace
}  // namespace xcvr
