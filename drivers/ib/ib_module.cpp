#include "drivers/ib/ib_module.hpp"

#include <vector>

#include "drivers/ib/front_panel.hpp"

namespace xcvr::ib {
namespace {

// A transport that owns the clock, device and target behind it.
class OwnedIbTransport final : public drivers::Transport {
 public:
  OwnedIbTransport(std::shared_ptr<base::Clock> clock, std::unique_ptr<IbTransport> t)
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
  std::shared_ptr<base::Clock> clock_;
  std::unique_ptr<IbTransport> t_;
};

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
                                                                                          std::shared_ptr<base::Clock> clock) {
  const auto cp = parse_ca_port(ca_port);
  if (!cp) return drivers::Error{drivers::ErrorKind::Unsupported, "'" + ca_port + "' is not CA:PORT (e.g. mlx5_0:1)"};
  if (lid < 0 || lid >= 0xC000) return drivers::Error{drivers::ErrorKind::Unsupported, "LID " + std::to_string(lid) + " is not a unicast LID"};
  if (module < 0 || module > 255) return drivers::Error{drivers::ErrorKind::Unsupported, "module must be 0-255"};
  if (!opener) opener = open_umad_device;
  if (!clock) clock = std::make_shared<base::SteadyClock>(true);
  auto dev = opener(cp->first, cp->second, true);
  if (auto* e = std::get_if<drivers::Error>(&dev)) return *e;
  auto device = std::move(std::get<std::unique_ptr<UmadDevice>>(dev));
  TargetOptions o;
  o.lid = lid == 0 ? device->local_lid() : static_cast<uint16_t>(lid);
  const std::string name = device->describe();
  auto channel = std::make_shared<MadChannel>(std::move(device), *clock, nullptr, MadPolicy{}, name);
  auto target = std::make_shared<IbTarget>(o, *clock);
  if (auto e = target->probe(*channel)) return *e;
  const std::string port = module_port_name(target->name(), module);
  auto t = std::make_unique<IbTransport>(target, IbLane{channel, "ib:" + ca_port + ":lid" + std::to_string(o.lid)},
                                         static_cast<uint8_t>(module), port);
  return std::unique_ptr<drivers::Transport>(std::make_unique<OwnedIbTransport>(clock, std::move(t)));
}

}  // namespace xcvr::ib
