#include "drivers/ib/ib_transport.hpp"

#include <algorithm>

#include "drivers/ib/front_panel.hpp"

namespace xcvr::ib {

IbTransport::IbTransport(std::shared_ptr<IbTarget> target, IbLane lane, uint8_t module, std::string port)
    : target_(std::move(target)), lane_(std::move(lane)), module_(module), port_(std::move(port)) {}

std::string IbTransport::describe() const {
  return "ib " + lane_.channel->device().describe() + " -> " + target_->name() + " (LID " +
         std::to_string(target_->lid()) + ") module " + std::to_string(module_) + " (cage " +
         std::to_string(cage_of_module(module_)) + ")";
}

template <typename Fn>
auto IbTransport::counted(Fn&& fn) {
  const uint64_t before = lane_.channel->counters().sent;
  auto result = fn();
  const uint64_t mads = lane_.channel->counters().sent - before;
  counters_.transactions += mads;
  counters_.bytes += mads * 2 * kMadSize;
  return result;
}

drivers::Presence IbTransport::presence() {
  if (known_present_) return drivers::Presence::Present;
  Pmaos q;
  q.module = module_;
  const auto image = encode_pmaos(q);
  auto r = counted([&] { return target_->access_register(*lane_.channel, kRegPmaos, image); });
  auto* bytes = std::get_if<std::vector<uint8_t>>(&r);
  if (bytes == nullptr) return drivers::Presence::Unknown;
  const auto p = decode_pmaos(*bytes);
  if (!p || p->module != module_) return drivers::Presence::Unknown;
  last_pmaos_ = p;
  return pmaos_presence(*p);
}

std::optional<drivers::Error> IbTransport::read_chunk(uint8_t device, uint8_t bank, uint8_t page, uint16_t offset,
                                                      std::span<uint8_t> out) {
  const auto request = encode_mcia(mcia_read(module_, device, bank, page, offset, static_cast<uint16_t>(out.size())));
  const std::string where = port_ + ": MCIA module " + std::to_string(module_) + " page " + std::to_string(page) +
                            " offset " + std::to_string(offset);
  int busy_left = target_->options().busy_retries;
  int64_t backoff = lane_.channel->policy().backoff_ns;
  while (true) {
    auto r = counted([&] { return target_->access_register(*lane_.channel, kRegMcia, request); });
    if (auto* e = std::get_if<drivers::Error>(&r)) {
      e->message = port_ + ": " + e->message;
      return *e;
    }
    const auto m = decode_mcia(std::get<std::vector<uint8_t>>(r));
    if (!m) return drivers::Error{drivers::ErrorKind::Corrupt, where + ": short register image"};
    if (m->status == kMciaI2cError && busy_left-- > 0) {
      // The firmware's I2C transaction with the module failed: transient, ask again later.
      target_->note_busy();
      lane_.channel->clock().spend(backoff);
      backoff = std::min(lane_.channel->policy().backoff_max_ns, backoff * 2);
      continue;
    }
    if (m->status != kMciaOk) {
      const auto kind = mcia_status_kind(m->status);
      if (kind == drivers::ErrorKind::Absent) known_present_ = false;
      return drivers::Error{kind, where + ": " + describe_mcia_status(m->status)};
    }
    // The firmware echoes the index fields; a reply for some other module or address is wrong.
    if (m->module != module_ || m->device_address != offset || (offset >= 128 && m->page_number != page)) {
      return drivers::Error{drivers::ErrorKind::Corrupt,
                            where + ": reply is for module " + std::to_string(m->module) + " page " +
                                std::to_string(m->page_number) + " offset " + std::to_string(m->device_address)};
    }
    std::copy_n(m->data.begin(), out.size(), out.begin());
    return std::nullopt;
  }
}

std::optional<drivers::Error> IbTransport::read(const drivers::ReadRequest& request, std::span<uint8_t> out) {
  if (!drivers::request_fits(request, out.size())) {
    return drivers::bad_request(request, drivers::describe_read(port_, request.device, request.bank, request.page,
                                                                request.offset));
  }
  uint16_t done = 0;
  while (done < request.length) {
    const auto chunk = static_cast<uint16_t>(std::min<int>(target_->mcia_bytes(), request.length - done));
    auto err = read_chunk(request.device, request.bank, request.page, static_cast<uint16_t>(request.offset + done),
                          out.subspan(done, chunk));
    if (err && err->kind == drivers::ErrorKind::Unsupported && chunk > kMciaLegacyData) {
      // MCAM promised 32 dwords but the firmware refused them? If 12-dword pieces of the same
      // bytes work, use 12 for good; if not, the page itself is the problem.
      std::optional<drivers::Error> legacy;
      for (uint16_t sub = 0; sub < chunk && !legacy; sub = static_cast<uint16_t>(sub + kMciaLegacyData)) {
        const auto n = static_cast<uint16_t>(std::min<int>(kMciaLegacyData, chunk - sub));
        legacy = read_chunk(request.device, request.bank, request.page,
                            static_cast<uint16_t>(request.offset + done + sub), out.subspan(done + sub, n));
      }
      if (!legacy) {
        target_->downgrade_mcia();
        err.reset();
      }
    }
    if (err) return err;
    done = static_cast<uint16_t>(done + chunk);
  }
  known_present_ = true;
  return std::nullopt;
}

// Register `id`, asked for link health: its image; nullopt when the device cannot answer it (no
// such register, or no form of Access Register to carry it): `refused` is set, and the caller
// asks no more.
std::variant<std::optional<std::vector<uint8_t>>, drivers::Error> IbTransport::ask_link_register(
    uint16_t id, std::span<const uint8_t> image, bool& refused) {
  auto r = counted([&] { return target_->access_register(*lane_.channel, id, image); });
  if (auto* e = std::get_if<drivers::Error>(&r)) {
    if (e->kind != drivers::ErrorKind::Unsupported) return *e;
    refused = true;
    return std::nullopt;
  }
  return std::move(std::get<std::vector<uint8_t>>(r));
}

// PPCNT group `grp` of local port `port`, checked to be what was asked.
std::variant<std::optional<Ppcnt>, drivers::Error> IbTransport::ask_ppcnt(uint8_t port, uint8_t grp, bool& refused) {
  Ppcnt q;
  q.local_port = port;
  q.grp = grp;
  auto r = ask_link_register(kRegPpcnt, encode_ppcnt(q), refused);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  const auto& image = std::get<std::optional<std::vector<uint8_t>>>(r);
  if (!image) return std::nullopt;
  auto p = decode_ppcnt(*image);
  if (!p) return drivers::Error{drivers::ErrorKind::Corrupt, "short PPCNT image"};
  if (p->local_port != port || p->grp != grp) {
    return drivers::Error{drivers::ErrorKind::Corrupt, "PPCNT reply is for port " + std::to_string(p->local_port) +
                                                           " group " + std::to_string(p->grp) + ", asked port " +
                                                           std::to_string(port) + " group " + std::to_string(grp)};
  }
  return p;
}

// PPCNT's physical layer statistics of local port `port`, mlxlink's BER figures. A device that
// cannot answer (no PPCNT, or no AccessRegisterGMP to carry it) is asked once, then never.
std::optional<drivers::Error> IbTransport::read_phys_layer(uint8_t port, const std::string& link,
                                                           drivers::LinkHealth& out) {
  if (phys_layer_refused_) return std::nullopt;
  auto r = ask_ppcnt(port, kPpcntGroupPhysStats, phys_layer_refused_);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  if (const auto& p = std::get<std::optional<Ppcnt>>(r)) append_phys_layer(p->stats, link, out);
  return std::nullopt;
}

// PPHCR of local port `port`: the bins its histogram has now, kept in fec_bins_ when it has one.
std::optional<drivers::Error> IbTransport::ask_fec_bins(uint8_t port, uint64_t link_downed) {
  Pphcr q;
  q.local_port = port;
  auto r = ask_link_register(kRegPphcr, encode_pphcr(q), fec_histogram_refused_);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  const auto& image = std::get<std::optional<std::vector<uint8_t>>>(r);
  if (!image) return std::nullopt;
  const auto p = decode_pphcr(*image);
  if (!p) return drivers::Error{drivers::ErrorKind::Corrupt, "short PPHCR image"};
  if (p->local_port != port) {
    return drivers::Error{drivers::ErrorKind::Corrupt, "PPHCR reply is for port " + std::to_string(p->local_port) +
                                                           ", asked port " + std::to_string(port)};
  }
  auto h = pphcr_histogram(*p);
  if (auto* why = std::get_if<std::string>(&h)) return drivers::Error{drivers::ErrorKind::Corrupt, *why};
  // No histogram now (none configured, the link down): nothing kept, PPHCR asked again next read.
  if (auto& bins = std::get<std::optional<drivers::LinkFecHistogram>>(h)) fec_bins_[port] = {std::move(*bins), link_downed};
  return std::nullopt;
}

// The RS-FEC codeword histogram of local port `port`: PPHCR's bins, PPCNT group 0x23's counts.
// A device that cannot answer either is asked once, then never; after a failed read the bins
// are asked again.
std::optional<drivers::Error> IbTransport::read_fec_histogram(uint8_t port, const std::string& link,
                                                              uint64_t link_downed, drivers::LinkHealth& out) {
  if (fec_histogram_refused_) return std::nullopt;
  auto known = fec_bins_.find(port);
  if (known != fec_bins_.end() && known->second.link_downed != link_downed) fec_bins_.erase(known);
  if (!fec_bins_.count(port)) {
    if (auto e = ask_fec_bins(port, link_downed)) return e;
  }
  known = fec_bins_.find(port);
  if (known == fec_bins_.end()) return std::nullopt;
  auto r = ask_ppcnt(port, kPpcntGroupRsHistogram, fec_histogram_refused_);
  if (const auto* p = std::get_if<std::optional<Ppcnt>>(&r); p && *p) {
    drivers::LinkFecHistogram h = known->second.histogram;
    h.link = link;
    fill_rs_histogram((*p)->rs_histogram, h);
    out.fec_histograms.push_back(std::move(h));
    return std::nullopt;
  }
  fec_bins_.erase(known);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  return std::nullopt;
}

std::variant<drivers::LinkHealth, drivers::Error> IbTransport::read_link_health() {
  drivers::LinkHealth out;
  const drivers::BusCounters before = counters_;
  auto fail = [&](drivers::Error e) {
    e.message = port_ + ": link counters: " + e.message;
    return e;
  };
  auto ports = counted([&] { return target_->ports_of_module(*lane_.channel, module_); });
  if (auto* e = std::get_if<drivers::Error>(&ports)) return fail(*e);
  auto caps = counted([&] { return target_->pma_capabilities(*lane_.channel); });
  if (auto* e = std::get_if<drivers::Error>(&caps)) return fail(*e);
  const bool extended = std::get<PmaCapabilities>(caps).extended_error_counters();
  const uint16_t attr = extended ? kAttrPortCountersExt : kAttrPortCounters;
  const auto& carried = std::get<std::vector<uint8_t>>(ports);
  // A switch cage's links by their panel names (1/1, 1/2); an HCA's by its IB port number.
  const bool panel = target_->node_type() == kNodeTypeSwitch;
  for (std::size_t i = 0; i < carried.size(); ++i) {
    const uint8_t port = carried[i];
    const std::string link = panel ? panel_link_name(module_, static_cast<int>(i)) : std::to_string(port);
    if (panel) out.ib_ports.push_back({link, port});
    auto r = counted([&] { return target_->pma_get(*lane_.channel, attr, port); });
    if (auto* e = std::get_if<drivers::Error>(&r)) return fail(*e);
    const auto& data = std::get<std::array<uint8_t, kPmaDataSize>>(r);
    if (data[kPcPortSelect] != port) {
      return fail({drivers::ErrorKind::Corrupt, "reply is for port " + std::to_string(data[kPcPortSelect]) +
                                                    ", asked " + std::to_string(port)});
    }
    const auto c = extended ? decode_port_counters_ext(data) : decode_port_counters(data);
    if (!c) return fail({drivers::ErrorKind::Corrupt, "short PMA data"});
    auto counters = to_link_counters(*c, link, extended);
    out.counters.insert(out.counters.end(), counters.begin(), counters.end());
    if (auto e = read_phys_layer(port, link, out)) return fail(*e);
    if (auto e = read_fec_histogram(port, link, c->link_downed, out)) return fail(*e);
  }
  out.transactions = counters_.transactions - before.transactions;
  out.bytes = counters_.bytes - before.bytes;
  return out;
}

}  // namespace xcvr::ib
