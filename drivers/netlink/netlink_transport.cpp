#include "drivers/netlink/netlink_transport.hpp"

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <utility>

#include <libmnl/libmnl.h>

#include "base/files/files.hpp"
#include "cmis/image.hpp"
#include "drivers/netlink/carrier_watch.hpp"
#include "drivers/netlink/netlink_link.hpp"

namespace xcvr::netlink {
namespace {

using drivers::Error;
using drivers::ErrorKind;

constexpr uint16_t kHalf = cmis::kPageSize;  // the lower half of the window, and each upper page

}  // namespace

std::string netdev_pci_device(const std::string& sysfs_net, const std::string& netdev) {
  std::error_code ec;
  const auto dev = std::filesystem::read_symlink(sysfs_net + "/" + netdev + "/device", ec);
  if (ec) return {};
  const std::string name = dev.filename().string();
  // PCI addresses look like 0000:3b:00.0
  if (name.size() >= 12 && name[4] == ':' && name[7] == ':' && name[10] == '.') return "pci:" + name;
  return {};
}

NetlinkTransport::NetlinkTransport(NetlinkPortConfig config, ChannelFactory factory, CarrierSource* carrier)
    : config_(std::move(config)), factory_(std::move(factory)), carrier_(carrier) {
  if (!factory_) {
    factory_ = [](int& error) { return open_netlink_channel(error); };
    if (carrier_ == nullptr) carrier_ = &CarrierWatch::instance();
  }
}

std::string NetlinkTransport::domain() const {
  if (!config_.domain.empty()) return config_.domain;
  const std::string pci = netdev_pci_device(config_.sysfs_net, config_.netdev);
  return pci.empty() ? "netdev:" + config_.netdev : pci;
}

std::string NetlinkTransport::describe() const {
  std::string d = "ethtool " + config_.netdev;
  if (!config_.port.empty()) d += " (" + config_.port + ")";
  return d;
}

std::string NetlinkTransport::where(const drivers::ReadRequest& r) const {
  return drivers::describe_read(describe(), r.device, r.bank, r.page, r.offset);
}

std::optional<Error> NetlinkTransport::exchange(const std::vector<uint8_t>& request, const TakeReply& take) {
  bool broken = false;
  auto e = exchange_on(*channel_, request, take, broken);
  if (broken) channel_.reset();  // a broken socket: reopen next time
  return e;
}

std::optional<Error> NetlinkTransport::ensure_open() {
  if (channel_ && family_id_ != 0) return std::nullopt;
  if (!channel_) {
    int error = 0;
    channel_ = factory_(error);
    if (!channel_) return kernel_error({error == 0 ? EIO : error, "opening a netlink socket"});
    family_id_ = 0;
  }
  FamilyReply family;
  const uint32_t seq = ++seq_;
  const auto take = [&](std::span<const uint8_t> bytes) -> std::variant<bool, Error> {
    auto r = parse_family_reply(bytes, seq);
    if (auto* e = std::get_if<Error>(&r)) return *e;
    auto& got = std::get<FamilyReply>(r);
    if (got.family_id) family.family_id = got.family_id;
    return got.done;
  };
  if (auto e = exchange(build_family_request(seq, ETHTOOL_GENL_NAME), take)) {
    if (e->kind == ErrorKind::Absent) {  // ENOENT/ENODEV from the controller: no such family
      e->kind = ErrorKind::Unsupported;
    }
    e->message = "resolving the \"ethtool\" generic-netlink family: " + e->message +
                 " (kernel without ethtool netlink?)";
    return e;
  }
  if (!family.family_id) {
    return Error{ErrorKind::Unsupported,
                 "the kernel has no \"ethtool\" generic-netlink family (needs Linux >= 5.6; "
                 "MODULE_EEPROM_GET >= 5.13)"};
  }
  family_id_ = *family.family_id;
  return std::nullopt;
}

std::optional<std::string> NetlinkTransport::missing() {
  if (!files::missing_path(config_.sysfs_net + "/" + config_.netdev, "netdev")) return std::nullopt;
  return "netdev " + config_.netdev + " does not exist (`ip -br link` lists this host's)";
}

drivers::Presence NetlinkTransport::presence() {
  uint8_t b = 0;
  const auto err = read({cmis::kDeviceA0, 0, 0, 0, 1}, std::span<uint8_t>(&b, 1));
  if (!err) return drivers::Presence::Present;
  return err->kind == ErrorKind::Absent ? drivers::Presence::Absent : drivers::Presence::Unknown;
}

std::optional<Error> NetlinkTransport::read(const drivers::ReadRequest& r,
                                                   std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) return drivers::bad_request(r, where(r));
  const bool lower = r.offset < kHalf;
  if (!lower && r.bank != 0 && !config_.trust_banks) {
    return Error{ErrorKind::Unsupported,
                 where(r) + ": banks are not reachable through ethtool on this port (mlx5 ignores "
                            "the bank and would return bank 0); lanes 9 and up are unavailable "
                            "(for a driver that honours banks: trust_banks = true in the netlink source, or "
                            "xcvrctl --trust-banks)"};
  }
  if (auto e = ensure_open()) {
    e->message = where(r) + ": " + e->message;
    return e;
  }
  EepromRequest q;
  q.netdev = config_.netdev;
  q.offset = r.offset;
  q.length = r.length;
  q.page = lower ? 0 : r.page;  // the kernel accepts the lower half with page 0 only
  q.bank = lower ? 0 : r.bank;
  q.i2c_address = r.device;
  const uint32_t seq = ++seq_;
  ++counters_.transactions;
  counters_.bytes += 3 + r.length + (!lower && r.page != 0 ? 6 : 0);
  ModuleEepromReply reply;
  const auto take = [&](std::span<const uint8_t> bytes) -> std::variant<bool, Error> {
    auto parsed = parse_module_eeprom_reply(bytes, seq);
    if (auto* e = std::get_if<Error>(&parsed)) return *e;
    auto& got = std::get<ModuleEepromReply>(parsed);
    if (got.has_data) {
      reply.has_data = true;
      reply.data = std::move(got.data);
    }
    return got.done;
  };
  if (auto e = exchange(build_module_eeprom_request(family_id_, seq, q), take)) {
    e->message = where(r) + ": " + e->message;
    return e;
  }
  if (!reply.has_data) {
    return Error{ErrorKind::Corrupt, where(r) + ": the kernel acknowledged without data"};
  }
  if (reply.data.size() != r.length) {
    return Error{ErrorKind::Corrupt, where(r) + ": the kernel returned " +
                                         std::to_string(reply.data.size()) + " of " +
                                         std::to_string(r.length) + " bytes"};
  }
  std::copy(reply.data.begin(), reply.data.end(), out.begin());
  return std::nullopt;
}

template <typename Reply, typename Build, typename Parse, typename Merge>
std::optional<Error> NetlinkTransport::ask(Build build, Parse parse, Merge merge, drivers::LinkHealth& out) {
  const uint32_t seq = ++seq_;
  const std::vector<uint8_t> request = build(family_id_, seq, config_.netdev);
  ++out.transactions;
  out.bytes += request.size();
  return exchange(request, [&](std::span<const uint8_t> bytes) -> std::variant<bool, Error> {
    auto r = parse(bytes, seq);
    if (auto* e = std::get_if<Error>(&r)) return *e;
    auto& got = std::get<Reply>(r);
    merge(got);
    return got.done;
  });
}

std::variant<drivers::LinkHealth, Error> NetlinkTransport::read_link_health() {
  const std::string what = describe() + ": link counters: ";
  if (auto e = ensure_open()) {
    e->message = what + e->message;
    return *e;
  }
  drivers::LinkHealth out;
  // FEC statistics; a driver without FEC (or without its statistics) answers EOPNOTSUPP or
  // sends an empty nest: those counters are then absent.
  FecStatsReply fec;
  const auto fec_error = ask<FecStatsReply>(build_fec_stats_request, parse_fec_reply, [&](FecStatsReply& got) {
    if (got.has_stats) fec = std::move(got);
  }, out);
  if (fec_error && fec_error->kind != ErrorKind::Unsupported) return Error{fec_error->kind, what + fec_error->message};
  LinkStateReply state;
  if (auto e = ask<LinkStateReply>(build_linkstate_request, parse_linkstate_reply, [&](LinkStateReply& got) {
        if (got.link_up) state.link_up = got.link_up;
        if (got.down_count) state.down_count = got.down_count;
      }, out); e && e->kind != ErrorKind::Unsupported) {
    return Error{e->kind, what + e->message};
  }
  out.counters = link_counters(fec, state, config_.netdev);
  if (!fec.histogram.empty()) {
    // The correction limit depends on the rate per lane: one more request, only where there is
    // a histogram to put it beside. Without an answer the histogram comes without its limit.
    LinkModesReply modes;
    if (auto e = ask<LinkModesReply>(build_linkmodes_request, parse_linkmodes_reply, [&](LinkModesReply& got) {
          if (got.speed_mbps) modes.speed_mbps = got.speed_mbps;
          if (got.lanes) modes.lanes = got.lanes;
        }, out); e && e->kind != ErrorKind::Unsupported) {
      return Error{e->kind, what + e->message};
    }
    if (auto h = fec_histogram(fec, modes, config_.netdev)) out.fec_histograms.push_back(std::move(*h));
  }
  if (carrier_ != nullptr) {
    ++out.transactions;
    auto r = carrier_->read(config_.netdev);
    if (auto* e = std::get_if<Error>(&r); e && e->kind != ErrorKind::Unsupported) return Error{e->kind, what + e->message};
    if (auto* c = std::get_if<CarrierReading>(&r)) {
      out.bytes += c->bytes;
      if (c->down_count) {
        out.counters.push_back({drivers::LinkCounterId::CarrierDown, config_.netdev, 0, *c->down_count, false});
      }
      out.carrier.push_back(std::move(c->carrier));
    }
  }
  if (out.counters.empty() && out.carrier.empty()) {
    // kernel_error's EOPNOTSUPP hint speaks of module memory: not this request's.
    return Error{ErrorKind::Unsupported, what + "the driver reports no FEC statistics" +
                                             (fec_error ? " (" + fec_error->message.substr(0, fec_error->message.find(" — ")) + ")" : "") +
                                             " and the kernel no link-down count or carrier"};
  }
  return out;
}

std::vector<std::string> physical_netdevs(const std::string& sysfs_net) {
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(sysfs_net, ec)) {
    std::error_code link_ec;
    // Physical ports only: virtual netdevs (lo, bridges, veth, bonds) have no device link.
    if (!std::filesystem::exists(entry.path() / "device", link_ec)) continue;
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

NetdevDiscovery discover_netdevs(const std::string& sysfs_net, NetlinkTransport::ChannelFactory factory) {
  NetdevDiscovery out;
  for (const std::string& name : physical_netdevs(sysfs_net)) {
    NetlinkPortConfig cfg;
    cfg.netdev = name;
    cfg.sysfs_net = sysfs_net;
    NetlinkTransport t(cfg, factory);
    uint8_t b = 0;
    const auto err = t.read({cmis::kDeviceA0, 0, 0, 0, 1}, std::span<uint8_t>(&b, 1));
    if (!err || err->kind == ErrorKind::Absent) {
      out.found.push_back({name, t.domain()});
    } else {
      out.skipped.push_back(name + ": " + err->message);
    }
  }
  return out;
}

}  // namespace xcvr::netlink
