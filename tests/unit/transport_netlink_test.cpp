// The ethtool netlink transport: the pure reply parser on constructed kernel reply buffers
// (success, short data, errors, extended-ACK text, garbage), and the transport against a fake
// kernel that enforces net/ethtool/eeprom.c's request rules and answers from a module image.
#include <gtest/gtest.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/read_plan.hpp"
#include "emulator/catalog.hpp"
#include "emulator/model.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "drivers/netlink/netlink_reply.hpp"
#include "tests/support/static_read.hpp"
#include "tests/unit/netlink_bytes.hpp"

namespace xcvr::netlink {
namespace {

namespace fs = std::filesystem;
using drivers::ErrorKind;
using drivers::ReadRequest;
using namespace netlink_bytes;

// ---------------------------------------------------------------------------------------------
// Parser

TEST(TransportNetlinkParser, DataReply) {
  Bytes data(128);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i ^ 0x5A);
  auto r = parse_module_eeprom_reply(data_reply(7, data), 7u);
  ASSERT_TRUE(std::holds_alternative<ModuleEepromReply>(r));
  const auto& reply = std::get<ModuleEepromReply>(r);
  EXPECT_TRUE(reply.has_data);
  EXPECT_FALSE(reply.done);
  EXPECT_EQ(reply.data, data);
}

TEST(TransportNetlinkParser, DataAndAckInOneBuffer) {
  auto r = parse_module_eeprom_reply(concat(data_reply(3, Bytes{1, 2, 3}), ack(3)), 3u);
  const auto& reply = std::get<ModuleEepromReply>(r);
  EXPECT_TRUE(reply.done);
  EXPECT_EQ(reply.data, (Bytes{1, 2, 3}));
}

TEST(TransportNetlinkParser, ShortDataIsReturnedAsItCame) {
  auto r = parse_module_eeprom_reply(data_reply(1, Bytes(10, 0xEE)));
  const auto& reply = std::get<ModuleEepromReply>(r);
  EXPECT_EQ(reply.data.size(), 10u);  // the transport compares with what it asked
}

TEST(TransportNetlinkParser, StaleSequenceNumbersAreSkipped) {
  auto r = parse_module_eeprom_reply(concat(data_reply(1, Bytes{9}), data_reply(2, Bytes{8})), 2u);
  EXPECT_EQ(std::get<ModuleEepromReply>(r).data, Bytes{8});
}

TEST(TransportNetlinkParser, KernelErrorsMapToKinds) {
  struct Case {
    int err;
    ErrorKind kind;
    const char* text;
  };
  for (const Case c : {Case{EOPNOTSUPP, ErrorKind::Unsupported, "EOPNOTSUPP"},
                       Case{EPERM, ErrorKind::Permission, "CAP_NET_ADMIN"},
                       Case{EACCES, ErrorKind::Permission, "CAP_NET_ADMIN"},
                       Case{ENODEV, ErrorKind::Absent, "no such netdev"},
                       Case{EIO, ErrorKind::Busy, "EIO"},
                       Case{EINVAL, ErrorKind::Unsupported, "EINVAL"}}) {
    auto r = parse_module_eeprom_reply(error_msg(5, -c.err), 5u);
    ASSERT_TRUE(std::holds_alternative<drivers::Error>(r)) << c.text;
    const auto& e = std::get<drivers::Error>(r);
    EXPECT_EQ(e.kind, c.kind) << e.message;
    EXPECT_NE(e.message.find(c.text), std::string::npos) << e.message;
  }
}

TEST(TransportNetlinkParser, ExtackTextIsInTheMessage) {
  const std::string text = "reading from lower half page is allowed for page 0 only";
  for (const bool capped : {true, false}) {
    auto r = parse_module_eeprom_reply(error_msg(9, -EINVAL, text, capped), 9u);
    ASSERT_TRUE(std::holds_alternative<drivers::Error>(r));
    const auto& e = std::get<drivers::Error>(r);
    EXPECT_EQ(e.kind, ErrorKind::Unsupported);
    EXPECT_NE(e.message.find(text), std::string::npos) << e.message;
  }
  auto perm = parse_module_eeprom_reply(error_msg(2, -EPERM, "Operation not permitted here"));
  EXPECT_NE(std::get<drivers::Error>(perm).message.find("Operation not permitted here"),
            std::string::npos);
}

TEST(TransportNetlinkParser, GarbageAndTruncationAreCorrupt) {
  const Bytes good = concat(data_reply(4, Bytes(64, 1)), ack(4));
  // Every truncation of a good reply parses to an error or a (possibly partial) reply, never
  // more data than was there.
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = parse_module_eeprom_reply(std::span<const uint8_t>(good.data(), n));
    if (const auto* reply = std::get_if<ModuleEepromReply>(&r)) {
      EXPECT_LE(reply->data.size(), 64u);
    } else {
      EXPECT_FALSE(std::get<drivers::Error>(r).message.empty());
    }
  }
  auto empty = parse_module_eeprom_reply({});
  EXPECT_EQ(std::get<drivers::Error>(empty).kind, ErrorKind::Corrupt);

  Bytes lying = data_reply(1, Bytes(16, 2));
  lying[0] = 0xFF;  // nlmsg_len far beyond the buffer
  EXPECT_EQ(std::get<drivers::Error>(parse_module_eeprom_reply(lying)).kind, ErrorKind::Corrupt);

  Bytes bad_attr = data_reply(1, Bytes(16, 2));
  bad_attr[36] = 0xF0;  // the DATA attribute (after the 16-byte header nest) overruns
  EXPECT_EQ(std::get<drivers::Error>(parse_module_eeprom_reply(bad_attr)).kind, ErrorKind::Corrupt);

  EXPECT_EQ(std::get<drivers::Error>(parse_module_eeprom_reply(data_reply(1, Bytes(200, 3)))).kind,
            ErrorKind::Corrupt);  // more than the kernel can ever send

  Bytes wrong_cmd = data_reply(1, Bytes{1});
  wrong_cmd[16] = 99;
  EXPECT_EQ(std::get<drivers::Error>(parse_module_eeprom_reply(wrong_cmd)).kind, ErrorKind::Corrupt);

  Bytes extack_overrun = error_msg(1, -EINVAL, "x", false);
  extack_overrun[20] = 0xFF;  // the echoed request claims to be longer than the error
  EXPECT_EQ(std::get<drivers::Error>(parse_module_eeprom_reply(extack_overrun)).kind,
            ErrorKind::Corrupt);

  std::mt19937 rng(12345);
  for (int i = 0; i < 2000; ++i) {
    Bytes junk(rng() % 96);
    for (auto& b : junk) b = static_cast<uint8_t>(rng());
    if (junk.size() >= 4 && (i % 2) == 0) {  // plausible lengths reach the deeper paths
      const uint32_t len = static_cast<uint32_t>(junk.size());
      std::memcpy(junk.data(), &len, 4);
    }
    auto r = parse_module_eeprom_reply(junk);
    if (const auto* reply = std::get_if<ModuleEepromReply>(&r)) {
      EXPECT_LE(reply->data.size(), 128u);
    }
    (void)parse_family_reply(junk);
    (void)parse_module_eeprom_request(junk);
  }
}

TEST(TransportNetlinkParser, FamilyReply) {
  Bytes payload{CTRL_CMD_NEWFAMILY, 2, 0, 0};
  const Bytes name = attr(CTRL_ATTR_FAMILY_NAME, Bytes{'e', 't', 'h', 't', 'o', 'o', 'l', 0});
  Bytes id_value;
  append<uint16_t>(id_value, kFamily);
  const Bytes id = attr(CTRL_ATTR_FAMILY_ID, id_value);
  payload.insert(payload.end(), name.begin(), name.end());
  payload.insert(payload.end(), id.begin(), id.end());
  auto r = parse_family_reply(concat(nlmsg(GENL_ID_CTRL, 0, 1, payload), ack(1)), 1u);
  const auto& f = std::get<FamilyReply>(r);
  ASSERT_TRUE(f.family_id);
  EXPECT_EQ(*f.family_id, kFamily);
  EXPECT_TRUE(f.done);
  auto missing = parse_family_reply(error_msg(1, -ENOENT));
  EXPECT_TRUE(std::holds_alternative<drivers::Error>(missing));
}

TEST(TransportNetlinkParser, RequestCarriesTheKernelsRequiredAttributes) {
  const Bytes req = build_module_eeprom_request(kFamily, 42, {"eth3", 128, 74, 0x11, 1, 0x50});
  auto q = parse_module_eeprom_request(req);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->netdev, "eth3");
  EXPECT_EQ(q->offset, 128u);
  EXPECT_EQ(q->length, 74u);
  EXPECT_EQ(q->page, 0x11);
  EXPECT_EQ(q->bank, 1);
  EXPECT_EQ(q->i2c_address, 0x50);
  uint16_t type = 0, flags = 0;
  std::memcpy(&type, req.data() + 4, 2);
  std::memcpy(&flags, req.data() + 6, 2);
  EXPECT_EQ(type, kFamily);
  EXPECT_EQ(flags, NLM_F_REQUEST | NLM_F_ACK);
}

// ---------------------------------------------------------------------------------------------
// Transport against a fake kernel

// Plays the kernel: the controller answers the family lookup; MODULE_EEPROM_GET is checked
// against net/ethtool/eeprom.c's rules and answered from `image` (bank ignored unless
// `honour_banks`, as mlx5 does).
class FakeKernel final : public NetlinkChannel {
 public:
  explicit FakeKernel(cmis::ModuleImage image, bool honour_banks = false)
      : image_(std::move(image)), honour_banks_(honour_banks) {}

  int send(std::span<const uint8_t> m) override {
    ++sends;
    if (send_errno) return -send_errno;
    uint32_t seq = 0;
    uint16_t type = 0;
    std::memcpy(&type, m.data() + 4, 2);
    std::memcpy(&seq, m.data() + 8, 4);
    if (type == GENL_ID_CTRL) {
      Bytes payload{CTRL_CMD_NEWFAMILY, 2, 0, 0};
      Bytes id;
      append<uint16_t>(id, kFamily);
      const Bytes a = attr(CTRL_ATTR_FAMILY_ID, id);
      payload.insert(payload.end(), a.begin(), a.end());
      queue_.push_back(nlmsg(GENL_ID_CTRL, 0, seq, payload));
      queue_.push_back(ack(seq));
      return static_cast<int>(m.size());
    }
    auto q = parse_module_eeprom_request(m);
    if (!q) {
      queue_.push_back(error_msg(seq, -EINVAL, "malformed request"));
      return static_cast<int>(m.size());
    }
    requests.push_back(*q);
    std::string why;
    if (q->offset > 255) why = "offset out of range";
    else if (q->length < 1 || q->length > 128) why = "length out of range";
    else if (q->i2c_address > 0x7F) why = "address out of range";
    else if (q->page != 0 && q->offset < 128) why = "reading from lower half page is allowed for page 0 only";
    else if (q->offset < 128 && q->offset + q->length > 128) why = "reading cross half page boundary is illegal";
    else if (q->offset + q->length > 256) why = "reading cross page boundary is illegal";
    if (!why.empty()) {
      queue_.push_back(error_msg(seq, -EINVAL, why));
      return static_cast<int>(m.size());
    }
    if (reply_errno) {
      queue_.push_back(error_msg(seq, -reply_errno, reply_extack));
      return static_cast<int>(m.size());
    }
    Bytes data;
    const uint8_t bank = honour_banks_ ? q->bank : 0;
    const int16_t page = q->offset < 128 ? cmis::kLowerPage : q->page;
    for (uint32_t i = 0; i < q->length; ++i) {
      data.push_back(image_.byte(q->i2c_address, bank, page, static_cast<uint16_t>(q->offset + i)).value_or(0));
    }
    if (short_by > 0) data.resize(data.size() - short_by);
    queue_.push_back(data_reply(seq, data));
    queue_.push_back(ack(seq));
    return static_cast<int>(m.size());
  }
  int recv(std::span<uint8_t> buffer) override {
    if (queue_.empty()) return -EAGAIN;
    const Bytes m = queue_.front();
    queue_.pop_front();
    std::copy(m.begin(), m.end(), buffer.begin());
    return static_cast<int>(m.size());
  }

  std::vector<EepromRequest> requests;
  int sends = 0;
  int send_errno = 0;
  int reply_errno = 0;
  std::string reply_extack;
  std::size_t short_by = 0;

 private:
  cmis::ModuleImage image_;
  bool honour_banks_;
  std::deque<Bytes> queue_;
};

struct Rig {
  explicit Rig(cmis::ModuleImage image, bool honour = false, bool trust = false) {
    kernel = new FakeKernel(std::move(image), honour);
    NetlinkPortConfig cfg;
    cfg.netdev = "eth3";
    cfg.trust_banks = trust;
    transport = std::make_unique<NetlinkTransport>(cfg, [this](int&) {
      ++opens;
      return std::unique_ptr<NetlinkChannel>(kernel);
    });
  }
  ~Rig() {
    transport.reset();
    if (opens == 0) delete kernel;
  }
  FakeKernel* kernel;  // owned by the transport once opened
  int opens = 0;
  std::unique_ptr<NetlinkTransport> transport;
};

// Later pages may be unreachable: the image holds what was read.
cmis::ModuleImage read_static(drivers::Transport& t) { return test::read_static(t, false); }

emulator::ModuleModel sixteen_lanes() {
  emulator::ModuleModel m = *emulator::find_model("qsfpdd-400g-sr8");
  m.host_lanes = m.media_lanes = 16;
  for (auto& a : m.applications) a.host_lanes = a.media_lanes = 16;
  return m;
}

TEST(TransportNetlink, StaticReadFollowsTheKernelRulesAndDecodes) {
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8"));
  Rig rig(image);
  const auto got = read_static(*rig.transport);
  const auto report = cmis::decode(got);
  EXPECT_EQ(report.id.part_number, emulator::find_model("qsfpdd-400g-sr8")->part_number);
  EXPECT_EQ(report.lanes.size(), 8u);
  ASSERT_FALSE(rig.kernel->requests.empty());
  EXPECT_EQ(rig.kernel->requests.front().offset, 0u);  // lower page: offset 0, page 0
  EXPECT_EQ(rig.kernel->requests.front().page, 0);
  for (const auto& q : rig.kernel->requests) {
    EXPECT_EQ(q.netdev, "eth3");
    EXPECT_LE(q.length, 128u);
    if (q.page != 0) {
      EXPECT_GE(q.offset, 128u);
    }
  }
  EXPECT_EQ(rig.opens, 1);
  EXPECT_EQ(rig.transport->counters().transactions, rig.kernel->requests.size());
}

TEST(TransportNetlink, LowerReadsAlwaysAskForPageZero) {
  Rig rig(emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8")));
  std::vector<uint8_t> out(26);
  ASSERT_FALSE(rig.transport->read(ReadRequest{0x50, 0, 0x11, 0, 26}, out));
  EXPECT_EQ(rig.kernel->requests.back().page, 0);
  EXPECT_EQ(out[0], 0x18);
}

TEST(TransportNetlink, BanksBeyondZeroAreUnavailableUnlessTrusted) {
  const auto image = emulator::encode_image(sixteen_lanes());
  {
    Rig rig(image);  // mlx5-like: the bank would be ignored
    std::vector<uint8_t> out(74);
    auto e = rig.transport->read(ReadRequest{0x50, 1, 0x11, 128, 74}, out);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, ErrorKind::Unsupported);
    EXPECT_NE(e->message.find("lanes 9 and up are unavailable"), std::string::npos) << e->message;
    EXPECT_TRUE(rig.kernel->requests.empty());  // nothing asked that would come back wrong
    const auto got = read_static(*rig.transport);
    EXPECT_FALSE(got.has({0x50, 1, 0x11}));
  }
  {
    Rig rig(image, /*honour=*/true, /*trust=*/true);
    const auto got = read_static(*rig.transport);
    EXPECT_TRUE(got.has({0x50, 1, 0x11}));
    EXPECT_EQ(cmis::decode(got).lanes.size(), 16u);
    bool asked_bank1 = false;
    for (const auto& q : rig.kernel->requests) asked_bank1 |= q.bank == 1;
    EXPECT_TRUE(asked_bank1);
  }
}

TEST(TransportNetlink, KernelErrorsReachTheCallerWithPortAndPage) {
  Rig rig(emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8")));
  std::vector<uint8_t> out(16);
  rig.kernel->reply_errno = EPERM;
  auto e = rig.transport->read(ReadRequest{0x50, 0, 0x02, 128, 16}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Permission);
  EXPECT_NE(e->message.find("CAP_NET_ADMIN"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("ethtool eth3 page 02h offset 128"), std::string::npos) << e->message;

  rig.kernel->reply_errno = EOPNOTSUPP;
  rig.kernel->reply_extack = "Module EEPROM access is not supported";
  e = rig.transport->read(ReadRequest{0x50, 0, 0x02, 128, 16}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_NE(e->message.find("Module EEPROM access is not supported"), std::string::npos);

  rig.kernel->reply_errno = ENODEV;
  rig.kernel->reply_extack.clear();
  EXPECT_EQ(rig.transport->presence(), drivers::Presence::Absent);

  rig.kernel->reply_errno = 0;
  rig.kernel->short_by = 6;
  e = rig.transport->read(ReadRequest{0x50, 0, 0x02, 128, 16}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Corrupt);
  EXPECT_NE(e->message.find("10 of 16"), std::string::npos) << e->message;
  rig.kernel->short_by = 0;
  EXPECT_EQ(rig.transport->presence(), drivers::Presence::Present);
}

TEST(TransportNetlink, RejectsReadsAcrossTheHalfPage) {
  Rig rig(emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8")));
  std::vector<uint8_t> out(16);
  auto e = rig.transport->read(ReadRequest{0x50, 0, 0, 120, 16}, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Unsupported);
  EXPECT_EQ(rig.opens, 0);
}

TEST(TransportNetlink, DiscoveryFindsPhysicalNetdevsWithAModuleInterface) {
  const fs::path root = fs::temp_directory_path() / ("xcvr-net-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "devices" / "0000:3b:00.0");
  fs::create_directories(root / "devices" / "0000:3b:00.1");
  const fs::path net = root / "net";
  fs::create_directories(root / "devices" / "virtio0");
  for (const char* n : {"eth0", "eth1", "eth2", "lo", "br0"}) fs::create_directories(net / n);
  fs::create_directory_symlink(root / "devices" / "0000:3b:00.0", net / "eth0" / "device");
  fs::create_directory_symlink(root / "devices" / "0000:3b:00.1", net / "eth1" / "device");
  fs::create_directory_symlink(root / "devices" / "virtio0", net / "eth2" / "device");
  const auto image = emulator::encode_image(*emulator::find_model("qsfpdd-400g-sr8"));
  int opened = 0;
  std::vector<std::string> asked;
  auto found = discover_netdevs(net.string(), [&](int&) {
    ++opened;
    auto k = std::make_unique<FakeKernel>(image);
    if (opened == 2) k->reply_errno = ENODEV;      // eth1: an empty cage, a module may come
    if (opened == 3) k->reply_errno = EOPNOTSUPP;  // eth2: virtio-net reads no module memory
    return std::unique_ptr<NetlinkChannel>(std::move(k));
  });
  ASSERT_EQ(found.found.size(), 2u);
  EXPECT_EQ(found.found[0].netdev, "eth0");
  EXPECT_EQ(found.found[0].domain, "pci:0000:3b:00.0");
  EXPECT_EQ(found.found[1].netdev, "eth1");
  ASSERT_EQ(found.skipped.size(), 1u);
  EXPECT_EQ(found.skipped[0].substr(0, 6), "eth2: ");
  EXPECT_EQ(opened, 3);  // lo and br0 have no device link: never asked
  fs::remove_all(root);
}

TEST(TransportNetlink, RealKernelSocketIfAvailable) {
  // On this machine's kernel: the family resolves, and a netdev that does not exist is Absent
  // (or Permission without CAP_NET_ADMIN). Never a crash or a hang.
  NetlinkPortConfig cfg;
  cfg.netdev = "xcvr-no-such0";
  NetlinkTransport t(cfg);
  std::vector<uint8_t> out(1);
  auto e = t.read(ReadRequest{0x50, 0, 0, 0, 1}, out);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->kind == ErrorKind::Absent || e->kind == ErrorKind::Permission ||
              e->kind == ErrorKind::Unsupported)
      << e->message;
}

}  // namespace
}  // namespace xcvr::netlink
