#include "drivers/ib/ib_target.hpp"

#include <algorithm>
#include <cstdio>

namespace xcvr::ib {

std::optional<AccessPreference> parse_access_preference(std::string_view text) {
  if (text == "auto") return AccessPreference::Auto;
  if (text == "class-a") return AccessPreference::ClassA;
  if (text == "gmp") return AccessPreference::Gmp;
  if (text == "smp") return AccessPreference::Smp;
  return std::nullopt;
}

IbTarget::IbTarget(TargetOptions options, base::Clock& clock)
    : options_(std::move(options)), clock_(clock), name_(options_.name), guid_(options_.guid) {
  if (options_.access == AccessPreference::Gmp) method_ = AccessMethod::Gmp;
  if (options_.access == AccessPreference::Smp) method_ = AccessMethod::Smp;
  if (options_.mcia_bytes == static_cast<int>(kMciaMaxData)) mcia_bytes_ = static_cast<int>(kMciaMaxData);
}

uint64_t IbTarget::guid() const {
  std::lock_guard lock(mutex_);
  return guid_;
}

std::string IbTarget::name() const {
  std::lock_guard lock(mutex_);
  return name_locked();
}

std::string IbTarget::name_locked() const {
  return name_.empty() ? "lid-" + std::to_string(options_.lid) : name_;
}

AccessMethod IbTarget::method() const {
  std::lock_guard lock(mutex_);
  return method_;
}

TargetStats IbTarget::stats() const {
  std::lock_guard lock(mutex_);
  TargetStats s = stats_;
  s.method = std::string(access_method_name(method_));
  return s;
}

bool IbTarget::breaker_open() const {
  std::lock_guard lock(mutex_);
  return breaker_open_;
}

void IbTarget::downgrade_mcia() { mcia_bytes_ = static_cast<int>(kMciaLegacyData); }

void IbTarget::note_busy() {
  std::lock_guard lock(mutex_);
  ++stats_.busy;
}

std::optional<drivers::Error> IbTarget::admit() {
  std::lock_guard lock(mutex_);
  const int64_t now = clock_.now_ns();
  if (breaker_open_) {
    if (now < breaker_until_ns_) {
      ++stats_.failed_fast;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(breaker_until_ns_ - now) / 1e9);
      return drivers::Error{drivers::ErrorKind::Busy, name_locked() + ": not answering MADs; next probe in " + buf + " s"};
    }
    // Half-open: this request probes; everyone else keeps failing fast until it is answered.
    breaker_until_ns_ = now + static_cast<int64_t>(options_.probe_interval_s * 1e9);
  }
  ++in_flight_;
  ++stats_.mads;
  stats_.max_in_flight = std::max(stats_.max_in_flight, in_flight_);
  return std::nullopt;
}

void IbTarget::release(bool answered, bool transport_failure) {
  std::lock_guard lock(mutex_);
  --in_flight_;
  if (answered) {
    consecutive_unanswered_ = 0;
    breaker_open_ = false;
    return;
  }
  if (!transport_failure) return;
  if (++consecutive_unanswered_ >= options_.dead_after) {
    if (!breaker_open_) ++stats_.breaker_opens;
    breaker_open_ = true;
    breaker_until_ns_ = clock_.now_ns() + static_cast<int64_t>(options_.probe_interval_s * 1e9);
  }
}

std::variant<Mad, drivers::Error> IbTarget::exchange(MadChannel& ch, const Mad& request, const MadAddress& to,
                                                     const std::string& what) {
  if (auto refused = admit()) return *refused;
  auto r = ch.transact(request, to, what);
  if (auto* e = std::get_if<drivers::Error>(&r)) {
    // Busy from the channel is "no response" (or a failed send); Corrupt means bytes came back.
    release(e->kind == drivers::ErrorKind::Corrupt, e->kind == drivers::ErrorKind::Busy);
  } else {
    release(true, false);
  }
  return r;
}

std::vector<AccessMethod> IbTarget::methods_to_try(std::size_t size, uint8_t reg_method) const {
  auto fits = [&](AccessMethod m) {
    if (size > max_register_size(m)) return false;
    if (m == AccessMethod::Gmp) return reg_method == kRegMethodQuery && gmp_advertised_ != false;
    return true;
  };
  std::vector<AccessMethod> out;
  switch (options_.access) {
    case AccessPreference::ClassA: out = {AccessMethod::ClassA}; break;
    case AccessPreference::Gmp: out = {AccessMethod::Gmp}; break;
    case AccessPreference::Smp: out = {AccessMethod::Smp}; break;
    case AccessPreference::Auto:
      // mstflint's order for registers over 44 bytes (maccess_reg_ul): Class 0xA, then GMP when
      // GeneralInfo advertises it, SMP last and only where the register fits. The form that
      // answered last goes first.
      out = {method_};
      for (AccessMethod m : {AccessMethod::ClassA, AccessMethod::Gmp, AccessMethod::Smp}) {
        if (m != method_) out.push_back(m);
      }
      break;
  }
  std::erase_if(out, [&](AccessMethod m) { return !fits(m); });
  return out;
}

std::variant<std::vector<uint8_t>, drivers::Error> IbTarget::access_register(MadChannel& ch, uint16_t register_id,
                                                                             std::span<const uint8_t> image,
                                                                             uint8_t reg_method) {
  const std::string label = name();
  std::vector<AccessMethod> methods;
  {
    std::lock_guard lock(mutex_);
    methods = methods_to_try(image.size(), reg_method);
  }
  std::optional<drivers::Error> refused;
  for (AccessMethod m : methods) {
    if (m == AccessMethod::Smp && !ch.device().smp_allowed()) continue;
    if (m == AccessMethod::Gmp && options_.access == AccessPreference::Auto) {
      bool known;
      {
        std::lock_guard lock(mutex_);
        known = gmp_advertised_.has_value();
      }
      if (!known) {  // capability check, once: GeneralInfo capability_mask bit 20
        const Mad q = encode_general_info_get(0, options_.vs_key);
        auto r = exchange(ch, q, MadAddress::for_class(kClassVendorA, options_.lid), label + ": GeneralInfo");
        if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
        const auto gi = parse_general_info_reply(std::get<Mad>(r), ch.last_tid());
        std::lock_guard lock(mutex_);
        gmp_advertised_ = std::holds_alternative<bool>(gi) && std::get<bool>(gi);
        if (!*gmp_advertised_) continue;
      }
    }
    int busy_left = options_.busy_retries;
    int64_t backoff = ch.policy().backoff_ns;
    const std::string what = label + ": " + register_name(register_id) + " via " + std::string(access_method_name(m));
    while (true) {
      const auto mad = encode_access_register({m, register_id, reg_method, image, 0,
                                               m == AccessMethod::Smp ? options_.m_key : options_.vs_key});
      if (!mad) break;
      auto r = exchange(ch, *mad, MadAddress::for_class((*mad)[kOffMgmtClass], options_.lid), what);
      if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
      auto parsed = parse_access_register_reply(std::get<Mad>(r), m, register_id, image.size(), ch.last_tid());
      if (auto* ok = std::get_if<RegisterReply>(&parsed)) {
        std::lock_guard lock(mutex_);
        method_ = m;
        return std::move(ok->image);
      }
      const ReplyError& e = std::get<ReplyError>(parsed);
      if (e.kind == drivers::ErrorKind::Busy) {
        note_busy();
        if (busy_left-- > 0) {
          clock_.spend(backoff);
          backoff = std::min(ch.policy().backoff_max_ns, backoff * 2);
          continue;
        }
      }
      if (e.method_unsupported && options_.access == AccessPreference::Auto) {
        refused = drivers::Error{e.kind, label + ": " + e.message};
        break;  // try the next form
      }
      return drivers::Error{e.kind, label + ": " + e.message};
    }
  }
  if (refused) return *refused;
  return drivers::Error{drivers::ErrorKind::Unsupported,
                        label + ": " + register_name(register_id) + ": no form of Access Register can carry it here"};
}

std::variant<std::array<uint8_t, kSmpDataSize>, drivers::Error> IbTarget::smp_get(MadChannel& ch, uint16_t attr_id,
                                                                                  uint32_t attr_mod) {
  const std::string what = name() + ": SMP Get " + std::to_string(attr_id);
  if (!ch.device().smp_allowed()) {
    return drivers::Error{drivers::ErrorKind::Permission, what + ": no SMI agent (QP0 access) on " + ch.device().describe()};
  }
  auto r = exchange(ch, encode_smp_get(attr_id, attr_mod, 0, options_.m_key),
                    MadAddress::for_class(kClassSmiLid, options_.lid), what);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  auto parsed = parse_smp_reply(std::get<Mad>(r), kClassSmiLid, attr_id, ch.last_tid());
  if (auto* e = std::get_if<ReplyError>(&parsed)) return drivers::Error{e->kind, e->message};
  return std::get<std::array<uint8_t, kSmpDataSize>>(parsed);
}

std::optional<drivers::Error> IbTarget::probe(MadChannel& ch) {
  bool need_identity;
  {
    std::lock_guard lock(mutex_);
    need_identity = name_.empty() || guid_ == 0 || node_type_ == 0;
  }
  if (need_identity && ch.device().smp_allowed()) {
    // An SMA that drops our SMPs (M_Key protection) may still answer vendor MADs: an
    // unanswered NodeInfo only skips the names, the vendor queries below decide liveness.
    auto ni = smp_get(ch, kAttrNodeInfo, 0);
    if (auto* d = std::get_if<std::array<uint8_t, kSmpDataSize>>(&ni)) {
      if (auto info = decode_node_info(*d)) {
        std::lock_guard lock(mutex_);
        if (guid_ == 0) guid_ = info->node_guid;
        node_type_ = info->node_type;
        num_ports_ = info->num_ports;
      }
      auto nd = smp_get(ch, kAttrNodeDescription, 0);
      if (auto* desc = std::get_if<std::array<uint8_t, kSmpDataSize>>(&nd)) {
        std::lock_guard lock(mutex_);
        if (name_.empty()) name_ = decode_node_description(*desc);
      }
    }
  }
  if (options_.mcia_bytes == 0) {
    Mcam q;
    const auto img = encode_mcam(q);
    auto r = access_register(ch, kRegMcam, img);
    if (auto* e = std::get_if<drivers::Error>(&r); e && e->kind == drivers::ErrorKind::Busy) return *e;
    if (auto* bytes = std::get_if<std::vector<uint8_t>>(&r)) {
      const auto mcam = decode_mcam(*bytes);
      mcia_bytes_ = static_cast<int>(mcam && mcam->feature(kMcamMcia128Bytes) ? kMciaMaxData : kMciaLegacyData);
    }
  }
  {
    auto r = access_register(ch, kRegMgpir, encode_mgpir({}));
    if (auto* e = std::get_if<drivers::Error>(&r); e && e->kind == drivers::ErrorKind::Busy) return *e;
    if (auto* bytes = std::get_if<std::vector<uint8_t>>(&r)) {
      if (const auto m = decode_mgpir(*bytes)) module_count_ = m->num_of_modules;
    }
  }
  if (module_count_ == 0 && node_type_ != kNodeTypeSwitch) {
    // mlx5's way (port.c mlx5_query_module_num): PMLP of the local port, lane 0's module.
    Pmlp q;
    q.local_port = options_.local_port;
    auto r = access_register(ch, kRegPmlp, encode_pmlp(q));
    if (auto* e = std::get_if<drivers::Error>(&r); e && e->kind == drivers::ErrorKind::Busy) return *e;
    if (auto* bytes = std::get_if<std::vector<uint8_t>>(&r)) {
      if (const auto p = decode_pmlp(*bytes); p && p->width > 0) pmlp_module_ = p->lanes[0].module;
    }
  }
  return std::nullopt;
}

std::variant<std::array<uint8_t, kPmaDataSize>, drivers::Error> IbTarget::pma_get(MadChannel& ch, uint16_t attr_id,
                                                                                  uint8_t port) {
  const std::string what = name() + ": PMA " + (attr_id == kAttrClassPortInfo ? std::string("ClassPortInfo")
                                               : attr_id == kAttrPortCounters  ? "PortCounters port " + std::to_string(port)
                                                                               : "PortCountersExtended port " + std::to_string(port));
  auto r = exchange(ch, encode_pma_get(attr_id, port, 0), MadAddress::for_class(kClassPerfMgt, options_.lid), what);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  auto parsed = parse_pma_reply(std::get<Mad>(r), attr_id, ch.last_tid());
  if (auto* e = std::get_if<ReplyError>(&parsed)) return drivers::Error{e->kind, what + ": " + e->message};
  return std::get<std::array<uint8_t, kPmaDataSize>>(parsed);
}

std::variant<PmaCapabilities, drivers::Error> IbTarget::pma_capabilities(MadChannel& ch) {
  {
    std::lock_guard lock(mutex_);
    if (pma_caps_) return *pma_caps_;
  }
  auto r = pma_get(ch, kAttrClassPortInfo, 0);
  if (auto* e = std::get_if<drivers::Error>(&r)) return *e;
  const auto caps = decode_class_port_info(std::get<std::array<uint8_t, kPmaDataSize>>(r));
  if (!caps) return drivers::Error{drivers::ErrorKind::Corrupt, name() + ": PMA ClassPortInfo: short"};
  std::lock_guard lock(mutex_);
  pma_caps_ = *caps;
  return *caps;
}

std::variant<std::vector<uint8_t>, drivers::Error> IbTarget::ports_of_module(MadChannel& ch, uint8_t module) {
  if (node_type_ == kNodeTypeCa) return std::vector<uint8_t>{options_.local_port};
  if (node_type_ != kNodeTypeSwitch) {
    return drivers::Error{drivers::ErrorKind::Unsupported,
                          name() + ": node type unknown (no NodeInfo): cannot map modules to ports"};
  }
  {
    std::lock_guard lock(mutex_);
    if (module_ports_) {
      const auto it = module_ports_->find(module);
      return it == module_ports_->end() ? std::vector<uint8_t>{} : it->second;
    }
  }
  // Learned once per target (no lock held while the MADs are in flight: two lanes asking at
  // the same time learn the same map twice).
  const int ports = num_ports_.load();
  if (ports == 0) {
    return drivers::Error{drivers::ErrorKind::Unsupported, name() + ": port count unknown (no NodeInfo): "
                                                                    "cannot map modules to ports"};
  }
  // Per module: (the module lane a port starts at, the port), so a twin-port cage's ports come
  // in panel order (x/1 on lanes 1-4, x/2 on lanes 5-8) whatever their local port numbers.
  std::map<uint8_t, std::vector<std::pair<uint8_t, uint8_t>>> starts;
  for (int p = 1; p <= ports; ++p) {
    Pmlp q;
    q.local_port = static_cast<uint8_t>(p);
    auto r = access_register(ch, kRegPmlp, encode_pmlp(q));
    if (auto* e = std::get_if<drivers::Error>(&r)) {
      // Port 1 unanswered or refused: no map (asked again at the next link poll). A later
      // port the firmware does not map (no cage behind it) is skipped.
      if (p == 1) return drivers::Error{e->kind, "module to port map (PMLP): " + e->message};
      continue;
    }
    const auto pmlp = decode_pmlp(std::get<std::vector<uint8_t>>(r));
    if (pmlp && pmlp->width > 0) starts[pmlp->lanes[0].module].emplace_back(pmlp->lanes[0].tx_lane, static_cast<uint8_t>(p));
  }
  std::map<uint8_t, std::vector<uint8_t>> map;
  for (auto& [m, list] : starts) {
    std::sort(list.begin(), list.end());
    for (const auto& [lane, port] : list) map[m].push_back(port);
  }
  std::lock_guard lock(mutex_);
  module_ports_ = std::move(map);
  const auto it = module_ports_->find(module);
  return it == module_ports_->end() ? std::vector<uint8_t>{} : it->second;
}

std::vector<int> IbTarget::modules() const {
  std::vector<int> out;
  for (int m = 0; m < module_count_.load(); ++m) out.push_back(m);
  if (out.empty() && pmlp_module_.load() >= 0) out.push_back(pmlp_module_.load());
  return out;
}

}  // namespace xcvr::ib
