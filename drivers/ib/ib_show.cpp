#include "drivers/ib/ib_show.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cmis/decode.hpp"
#include "cmis/quantities.hpp"
#include "cmis/report_json.hpp"
#include "drivers/module_reader.hpp"

namespace xcvr::ib {
namespace {

// A transport that owns the clock, device and target behind it.
class OwnedIbTransport final : public drivers::Transport {
 public:
  OwnedIbTransport(std::shared_ptr<drivers::Clock> clock, std::unique_ptr<IbTransport> t)
      : clock_(std::move(clock)), t_(std::move(t)) {}
  ~OwnedIbTransport() override { t_.reset(); }  // before the clock goes
  std::string domain() const override { return t_->domain(); }
  std::string describe() const override { return t_->describe(); }
  drivers::Presence presence() override { return t_->presence(); }
  std::optional<drivers::Error> read(const drivers::ReadRequest& r, std::span<uint8_t> out) override {
    return t_->read(r, out);
  }
  drivers::BusCounters counters() const override { return t_->counters(); }

 private:
  std::shared_ptr<drivers::Clock> clock_;
  std::unique_ptr<IbTransport> t_;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string dbm(std::optional<double> w) {
  if (!w) return "-";
  if (*w <= 0) return "-inf dBm";
  return fmt("%.2f dBm", 10 * std::log10(*w * 1000));
}

}  // namespace

std::optional<std::pair<std::string, int>> parse_ca_port(const std::string& text) {
  const auto colon = text.rfind(':');
  std::string ca = text.substr(0, colon);
  int port = 1;
  if (colon != std::string::npos) {
    const std::string p = text.substr(colon + 1);
    if (p.empty() || p.size() > 3 || p.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    port = std::stoi(p);
  }
  if (ca.empty() || port < 1 || port > 255) return std::nullopt;
  return std::make_pair(ca, port);
}

std::variant<std::unique_ptr<drivers::Transport>, drivers::Error> open_ib_module_transport(const std::string& ca_port,
                                                                                          int lid, int module,
                                                                                          DeviceOpener opener,
                                                                                          std::shared_ptr<drivers::Clock> clock) {
  const auto cp = parse_ca_port(ca_port);
  if (!cp) return drivers::Error{drivers::ErrorKind::Unsupported, "'" + ca_port + "' is not CA:PORT (e.g. mlx5_0:1)"};
  if (lid < 0 || lid >= 0xC000) return drivers::Error{drivers::ErrorKind::Unsupported, "LID " + std::to_string(lid) + " is not a unicast LID"};
  if (module < 0 || module > 255) return drivers::Error{drivers::ErrorKind::Unsupported, "module must be 0-255"};
  if (!opener) opener = open_umad_device;
  if (!clock) clock = std::make_shared<drivers::SteadyClock>(true);
  auto dev = opener(cp->first, cp->second, true);
  if (auto* e = std::get_if<drivers::Error>(&dev)) return *e;
  auto device = std::move(std::get<std::unique_ptr<UmadDevice>>(dev));
  TargetOptions o;
  o.lid = lid == 0 ? device->local_lid() : static_cast<uint16_t>(lid);
  const std::string name = device->describe();
  auto channel = std::make_shared<MadChannel>(std::move(device), *clock, nullptr, MadPolicy{}, name);
  auto target = std::make_shared<IbTarget>(o, *clock);
  if (auto e = target->probe(*channel)) return *e;
  const std::string port = target->name() + "/" + std::to_string(module);
  auto t = std::make_unique<IbTransport>(target, IbLane{channel, "ib:" + ca_port + ":lid" + std::to_string(o.lid)},
                                         static_cast<uint8_t>(module), port);
  return std::unique_ptr<drivers::Transport>(std::make_unique<OwnedIbTransport>(clock, std::move(t)));
}

int show_ib_module(const std::string& ca_port, int lid, int module, bool json, DeviceOpener opener, std::ostream& out,
                   std::ostream& err, std::shared_ptr<drivers::Clock> clock) {
  auto opened = open_ib_module_transport(ca_port, lid, module, std::move(opener), std::move(clock));
  if (auto* e = std::get_if<drivers::Error>(&opened)) {
    err << "xcvrctl show --ib " << ca_port << ": " << e->message << '\n';
    if (e->kind == drivers::ErrorKind::Absent) err << "(no usable InfiniBand device on this host?)\n";
    if (e->kind == drivers::ErrorKind::Permission) err << "(run as root, or grant access to /dev/infiniband/umad*)\n";
    return 2;
  }
  auto& t = *std::get<std::unique_ptr<drivers::Transport>>(opened);
  cmis::ModuleImage image;
  drivers::UnreachablePages unreachable;  // pages the switch firmware does not serve: left out
  const auto read_err = drivers::read_static(t, image, unreachable, {}).error;
  if (read_err && image.empty()) {
    err << read_err->message << '\n';
    if (read_err->kind == drivers::ErrorKind::Absent) err << "(no module in that cage?)\n";
    return 2;
  }
  const cmis::ModuleReport r = cmis::decode(image);
  if (json) {
    out << cmis::to_json(r).dump(2) << '\n';
  } else {
    const auto c = t.counters();
    out << t.describe() << " — " << image.entries().size() << " half-pages, " << c.transactions << " MADs\n"
        << "vendor       : " << r.id.vendor_name << '\n'
        << "part number  : " << r.id.part_number << '\n'
        << "serial       : " << r.id.serial << '\n'
        << "revision     : " << r.spec_revision << '\n';
    for (const cmis::QuantitySpec& q : cmis::kQuantities) {
      if (q.per_lane() || !(r.*q.module_value)) continue;
      std::string label(q.label);
      label.resize(std::max<std::size_t>(label.size(), 13), ' ');
      out << label << ": " << cmis::plain_text(q.unit, *(r.*q.module_value)) << '\n';
    }
    if (r.module_state) out << "module state : " << r.module_state->name << '\n';
    for (const cmis::LaneReport& l : r.lanes) {
      out << "lane " << l.lane << "       : rx " << dbm(l.rx_power_watts) << ", tx " << dbm(l.tx_power_watts);
      if (l.tx_bias_amperes) out << ", bias " << fmt("%.2f mA", *l.tx_bias_amperes * 1000);
      out << '\n';
    }
  }
  if (read_err) {
    err << "incomplete: " << read_err->message << '\n';
    return 1;
  }
  const bool bad_checksum = std::any_of(r.checksums.begin(), r.checksums.end(), [](const cmis::Checksum& c) { return !c.ok(); });
  return bad_checksum || !r.problems.empty() ? 1 : 0;
}

int show_ib_module(const std::string& ca_port, int lid, int module, bool json) {
  return show_ib_module(ca_port, lid, module, json, {}, std::cout, std::cerr);
}

}  // namespace xcvr::ib
