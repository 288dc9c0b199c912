// Runs inside a qemu VM of Debian's kernel (tests/qemu/run_qemu_netlink_test.sh):
// NetlinkTransport and netlink discovery against the kernel's own ethtool netlink code
// (net/ethtool/eeprom.c), served by the test-only NIC tests/qemu/kmod/xcvr_test_nic.c.
//
// Phases (one per invocation; the guest's /init sequences them):
//   image SOURCE           the NIC's module becomes SOURCE: a catalog model key (emulated, powered
//                          up) or a dump file; written to the NIC's debugfs image, optoe layout
//   read NETDEV SOURCE OP  the daemon's static read through the kernel equals SOURCE page for
//                          page (a dump: every page read) and decodes alike; OP (by_page | legacy) is the driver op the
//                          kernel called — legacy is the kernel's get_module_info/eeprom fallback
//   errors NETDEV          the kernel's own validation answers requests the transport never
//                          sends (a tampering channel rewrites them on the real socket): each
//                          comes back as the right error kind with the kernel's extack text;
//                          EOPNOTSUPP from lo and a dummy netdev, ENODEV for a netdev that
//                          does not exist
//   empty NETDEV           a cage whose image was emptied reads as Absent
//   discover NETDEV...     netlink discovery finds exactly these (lo and the dummy netdev are
//                          not physical; they are not even asked)
#include <fcntl.h>
#include <linux/netlink.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "dumpfile/dump_parser.hpp"
#include "drivers/netlink/netlink_transport.hpp"
#include "tests/qemu/vm_support.hpp"

namespace {

using namespace xcvr;
using vmtest::check;

const std::string kDebugfs = "/sys/kernel/debug/xcvr_test/";

// A model key, or a dump file (anything with a '/').
std::optional<cmis::ModuleImage> load_source(const std::string& source) {
  if (source.find('/') == std::string::npos) return vmtest::source_image(source.c_str());
  std::ifstream in(source, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto parsed = dumpfile::parse(bytes);
  if (auto* e = std::get_if<dumpfile::ParseError>(&parsed)) {
    check(false, source + ": " + e->message);
    return std::nullopt;
  }
  return std::get<dumpfile::ParsedDump>(parsed).image;
}

// optoe layout (the NIC's, and the kernel fallback's offsets): lower page at 0, page P at 128 * (P + 1).
std::vector<uint8_t> flat(const cmis::ModuleImage& image) {
  std::vector<uint8_t> out;
  for (const auto& e : image.entries()) {
    if (e.key.device != 0x50 || e.key.bank != 0) continue;
    const std::size_t at = e.key.page == cmis::kLowerPage ? 0 : 128 * (static_cast<std::size_t>(e.key.page) + 1);
    if (out.size() < at + 128) out.resize(at + 128, 0);
    std::copy(e.bytes.begin(), e.bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  }
  return out;
}

unsigned long debugfs_counter(const std::string& name) {
  std::ifstream in(kDebugfs + name);
  unsigned long v = 0;
  in >> v;
  return v;
}

netlink::NetlinkPortConfig port(const std::string& netdev) {
  netlink::NetlinkPortConfig c;
  c.netdev = netdev;
  c.port = netdev;
  return c;
}

void phase_image(const std::string& source) {
  const auto image = load_source(source);
  if (!image) return;
  const std::vector<uint8_t> bytes = flat(*image);
  const int fd = ::open((kDebugfs + "image").c_str(), O_WRONLY);
  const bool ok = fd >= 0 && ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  if (fd >= 0) ::close(fd);
  check(ok, "NIC image: " + source + ", " + std::to_string(bytes.size()) + " bytes");
}

void phase_read(const std::string& netdev, const std::string& source, const std::string& op) {
  const auto src = load_source(source);
  if (!src) return;
  const unsigned long by_page = debugfs_counter("by_page_calls"), legacy = debugfs_counter("legacy_calls");
  netlink::NetlinkTransport t(port(netdev));
  check(t.presence() == drivers::Presence::Present, netdev + ": module present");
  check(!t.missing(), netdev + ": exists");
  cmis::ModuleImage image;
  const auto err = vmtest::read_static(t, image);
  check(!err, "static read through ethtool netlink" + (err ? ": " + err->message : ""));
  // A dump holds pages the static read does not ask for, and lanes as they were (dark, maybe).
  const bool emulated = source.find('/') == std::string::npos;
  vmtest::compare_pages(*src, image, /*all=*/emulated);
  vmtest::compare_reports(cmis::decode(*src), cmis::decode(image), /*lanes=*/emulated);
  const unsigned long by_page_now = debugfs_counter("by_page_calls") - by_page;
  const unsigned long legacy_now = debugfs_counter("legacy_calls") - legacy;
  check(op == "by_page" ? by_page_now > 0 && legacy_now == 0 : legacy_now > 0 && by_page_now == 0,
        "served by " + op + " (driver calls: get_module_eeprom_by_page " + std::to_string(by_page_now) +
            ", get_module_info/eeprom " + std::to_string(legacy_now) + ")");
}

// The real socket, with each MODULE_EEPROM_GET request rewritten by `tamper` before it is sent.
class TamperingChannel final : public netlink::NetlinkChannel {
 public:
  TamperingChannel(std::unique_ptr<netlink::NetlinkChannel> real, std::function<void(netlink::EepromRequest&)> tamper)
      : real_(std::move(real)), tamper_(std::move(tamper)) {}
  int send(std::span<const uint8_t> message) override {
    auto request = netlink::parse_module_eeprom_request(message);
    if (!request || message.size() < sizeof(nlmsghdr)) return real_->send(message);
    nlmsghdr header;
    std::memcpy(&header, message.data(), sizeof header);
    tamper_(*request);
    return real_->send(netlink::build_module_eeprom_request(header.nlmsg_type, header.nlmsg_seq, *request));
  }
  int recv(std::span<uint8_t> buffer) override { return real_->recv(buffer); }

 private:
  std::unique_ptr<netlink::NetlinkChannel> real_;
  std::function<void(netlink::EepromRequest&)> tamper_;
};

// One read of byte 0 of the upper page 00h, rewritten by `tamper`: the error it ends in.
std::optional<drivers::Error> tampered_read(const std::string& netdev,
                                            std::function<void(netlink::EepromRequest&)> tamper) {
  auto factory = [tamper](int& error) -> std::unique_ptr<netlink::NetlinkChannel> {
    auto real = netlink::open_netlink_channel(error);
    if (!real) return nullptr;
    return std::make_unique<TamperingChannel>(std::move(real), tamper);
  };
  netlink::NetlinkTransport t(port(netdev), factory);
  std::vector<uint8_t> buf(1);
  return t.read({0x50, 0, 0, 128, 1}, buf);
}

void expect(const std::optional<drivers::Error>& err, drivers::ErrorKind kind, const std::string& text,
            const std::string& what) {
  const bool ok = err && err->kind == kind && err->message.find(text) != std::string::npos;
  check(ok, what + " -> " +
                (err ? std::string(drivers::error_kind_name(err->kind)) + ": " + err->message : std::string("no error")) +
                " (want " + std::string(drivers::error_kind_name(kind)) + ", \"" + text + "\")");
}

void phase_errors(const std::string& netdev) {
  using drivers::ErrorKind;
  // net/ethtool/eeprom.c eeprom_parse_request and the attribute policy, before any driver op.
  expect(tampered_read(netdev, [](auto& q) { q.offset = 0; q.page = 1; }), ErrorKind::Unsupported,
         "lower half page is allowed for page 0 only", "page 1 at offset 0");
  expect(tampered_read(netdev, [](auto& q) { q.offset = 120; q.length = 16; q.page = 0; }), ErrorKind::Unsupported,
         "cross half page boundary", "16 bytes from offset 120");
  expect(tampered_read(netdev, [](auto& q) { q.offset = 200; q.length = 100; }), ErrorKind::Unsupported,
         "cross page boundary", "length 100 from offset 200");
  expect(tampered_read(netdev, [](auto& q) { q.length = 129; }), ErrorKind::Unsupported, "out of range",
         "length 129");
  expect(tampered_read(netdev, [](auto& q) { q.i2c_address = 0x80; }), ErrorKind::Unsupported,
         "out of range", "i2c address 0x80");
  // The driver's own refusal, with its extack: a page the module image lacks.
  expect(tampered_read(netdev, [](auto& q) { q.page = 0xf0; }), ErrorKind::Unsupported,
         "page not in the module image", "page F0h");
  // The unmodified transport against netdevs with no module interface, or none at all.
  std::vector<uint8_t> buf(1);
  for (const char* other : {"lo", "dummy0"}) {
    netlink::NetlinkTransport t(port(other));
    expect(t.read({0x50, 0, 0, 0, 1}, buf), ErrorKind::Unsupported, "the driver cannot read module memory",
           std::string(other));
  }
  netlink::NetlinkTransport gone(port("nosuch0"));
  expect(gone.read({0x50, 0, 0, 0, 1}, buf), ErrorKind::Absent, "no such netdev", "nosuch0");
  check(gone.missing().has_value(), "nosuch0 is reported missing");
}

void phase_empty(const std::string& netdev) {
  netlink::NetlinkTransport t(port(netdev));
  check(t.presence() == drivers::Presence::Absent, netdev + ": emptied cage reads as absent");
}

void phase_discover(const std::vector<std::string>& netdevs) {
  const netlink::NetdevDiscovery d = netlink::discover_netdevs();
  std::vector<std::string> found;
  for (const auto& n : d.found) found.push_back(n.netdev);
  std::string list;
  for (const auto& n : found) list += n + " ";
  check(found == netdevs, "discovery found: " + list);
  check(d.skipped.empty(), "nothing physical skipped (" + std::to_string(d.skipped.size()) + ")");
  for (const char* virt : {"lo", "dummy0"}) {
    check(::access(("/sys/class/net/" + std::string(virt)).c_str(), F_OK) == 0 &&
              ::access(("/sys/class/net/" + std::string(virt) + "/device").c_str(), F_OK) != 0,
          std::string(virt) + " exists and is virtual");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv + 1, argv + argc);
  const std::string phase = a.empty() ? "" : a[0];
  std::printf("XCVR-QEMU phase %s\n", phase.c_str());
  if (phase == "image" && a.size() == 2) phase_image(a[1]);
  else if (phase == "read" && a.size() == 4) phase_read(a[1], a[2], a[3]);
  else if (phase == "errors" && a.size() == 2) phase_errors(a[1]);
  else if (phase == "empty" && a.size() == 2) phase_empty(a[1]);
  else if (phase == "discover" && a.size() >= 2) phase_discover({a.begin() + 1, a.end()});
  else check(false, "usage: vm_netlink_test image SOURCE | read NETDEV SOURCE by_page|legacy | errors NETDEV | "
                    "empty NETDEV | discover NETDEV...");
  return vmtest::verdict(phase);
}
