#include "tests/support/ib/fake_node.hpp"

#include <algorithm>
#include <utility>

#include "emulator/catalog.hpp"
#include "drivers/ib/pma.hpp"
#include "drivers/ib/registers.hpp"
#include "drivers/ib/smp_attributes.hpp"
#include "tests/support/ib/mad_encoders.hpp"

namespace xcvr::ib {

std::shared_ptr<emulator::EmulatedModule> make_fake_module(const std::string& model_key, const base::Clock& clock,
                                                           uint64_t seed) {
  const emulator::ModuleModel* model = emulator::find_model(model_key);
  if (model == nullptr) return nullptr;
  emulator::DynamicsConfig dyn;
  dyn.seed = seed;
  auto m = std::make_shared<emulator::EmulatedModule>(*model, clock, dyn);
  m->power_on();
  return m;
}

FakeNode::FakeNode(FakeNodeConfig config, const base::Clock& clock)
    : config_(std::move(config)), clock_(clock) {
  const auto n = static_cast<std::size_t>(std::max(0, config_.cages));
  cages_.resize(n);
  mcia_.assign(n, 0);
  pmaos_.assign(n, 0);
  if (!config_.model.empty()) {
    for (std::size_t i = 0; i < n; ++i) cages_[i] = make_fake_module(config_.model, clock_, config_.guid * 131 + i);
  }
  fec_bins_.active_hist_type = kPphcrHistRs544;
  fec_bins_.num_of_bins = kRsHistogramBins;
  for (std::size_t i = 0; i < kRsHistogramBins; ++i) {
    fec_bins_.bin_range[i] = {static_cast<uint8_t>(i), static_cast<uint8_t>(i)};
  }
}

void FakeNode::insert(int cage, std::shared_ptr<emulator::EmulatedModule> module) {
  std::lock_guard lock(mutex_);
  if (cage < 0 || cage >= static_cast<int>(cages_.size())) return;
  if (module) module->power_on();
  cages_[static_cast<std::size_t>(cage)] = std::move(module);
}

std::shared_ptr<emulator::EmulatedModule> FakeNode::remove(int cage) {
  std::lock_guard lock(mutex_);
  if (cage < 0 || cage >= static_cast<int>(cages_.size())) return nullptr;
  return std::exchange(cages_[static_cast<std::size_t>(cage)], nullptr);
}

std::shared_ptr<emulator::EmulatedModule> FakeNode::module(int cage) const {
  std::lock_guard lock(mutex_);
  if (cage < 0 || cage >= static_cast<int>(cages_.size())) return nullptr;
  return cages_[static_cast<std::size_t>(cage)];
}

void FakeNode::set_dead(bool dead) {
  std::lock_guard lock(mutex_);
  dead_ = dead;
}
void FakeNode::drop_next(int n) {
  std::lock_guard lock(mutex_);
  drop_ = n;
}
void FakeNode::busy_next(int n, FakeBusy kind) {
  std::lock_guard lock(mutex_);
  busy_ = n;
  busy_kind_ = kind;
}
void FakeNode::garble_next(int n, FakeGarble kind) {
  std::lock_guard lock(mutex_);
  garble_ = n;
  garble_kind_ = kind;
}

uint64_t FakeNode::mads() const {
  std::lock_guard lock(mutex_);
  return mads_;
}
uint64_t FakeNode::mcia(int cage) const {
  std::lock_guard lock(mutex_);
  return cage >= 0 && cage < static_cast<int>(mcia_.size()) ? mcia_[static_cast<std::size_t>(cage)] : 0;
}
uint64_t FakeNode::mcia_lower() const {
  std::lock_guard lock(mutex_);
  return mcia_lower_;
}
uint64_t FakeNode::pmaos(int cage) const {
  std::lock_guard lock(mutex_);
  return cage >= 0 && cage < static_cast<int>(pmaos_.size()) ? pmaos_[static_cast<std::size_t>(cage)] : 0;
}
uint64_t FakeNode::register_accesses(uint16_t id) const {
  std::lock_guard lock(mutex_);
  const auto it = registers_.find(id);
  return it == registers_.end() ? 0 : it->second;
}
uint64_t FakeNode::page_select_writes() const {
  std::lock_guard lock(mutex_);
  return page_selects_;
}
std::size_t FakeNode::module_write_violations() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& m : cages_) n += m ? m->violations() : 0;
  return n;
}

void FakeNode::link(uint8_t port, FakeNode* peer, uint8_t peer_port) {
  std::lock_guard lock(mutex_);
  links_[port] = Link{peer, peer_port};
}
FakeNode::Link FakeNode::link_at(uint8_t port) const {
  std::lock_guard lock(mutex_);
  const auto it = links_.find(port);
  return it == links_.end() ? Link{} : it->second;
}

bool FakeNode::take(int& counter) {
  if (counter <= 0) return false;
  --counter;
  return true;
}

std::vector<uint8_t> FakeNode::response(const Mad& request, uint16_t status) {
  std::vector<uint8_t> r(request.begin(), request.end());
  r[kOffMethod] = kMethodGetResponse;
  put_be16(r, kOffStatus, status);
  return r;
}

std::optional<std::vector<uint8_t>> FakeNode::pma(const Mad& request) {
  const auto h = *parse_header(request);
  if (h.method != kMethodGet) return response(request, 0x0008);
  auto r = response(request, 0);
  const uint8_t port = request[kOffPmaData + kPcPortSelect];
  std::array<uint8_t, kPmaDataSize> data{};
  switch (h.attr_id) {
    case kAttrClassPortInfo: data = encode_class_port_info(config_.pma); break;
    case kAttrPortCounters: data = encode_port_counters(port_counters_[port], port); break;
    case kAttrPortCountersExt:
      if (!config_.pma.extended_error_counters()) return response(request, 0x000C);
      data = encode_port_counters_ext(port_counters_[port], port);
      break;
    default: return response(request, 0x000C);
  }
  std::copy(data.begin(), data.end(), r.begin() + kOffPmaData);
  ++pma_;
  return r;
}

void FakeNode::set_port_counters(uint8_t port, const PortErrorCounters& c) {
  std::lock_guard lock(mutex_);
  port_counters_[port] = c;
}

void FakeNode::set_phys_layer(uint8_t port, const PhysLayerStats& s) {
  std::lock_guard lock(mutex_);
  phys_layer_[port] = s;
}

void FakeNode::set_fec_bins(const Pphcr& bins) {
  std::lock_guard lock(mutex_);
  fec_bins_ = bins;
}

void FakeNode::set_rs_histogram(uint8_t port, const RsHistogramCounts& counts) {
  std::lock_guard lock(mutex_);
  rs_histogram_[port] = counts;
}

uint64_t FakeNode::pma_mads() const {
  std::lock_guard lock(mutex_);
  return pma_;
}

std::optional<std::vector<uint8_t>> FakeNode::handle(std::span<const uint8_t> request, uint8_t arrival_port) {
  std::lock_guard lock(mutex_);
  ++mads_;
  if (dead_ || take(drop_) || request.size() < kMadSize) return std::nullopt;
  auto reply = answer(request, arrival_port);
  if (reply && take(garble_)) {
    switch (garble_kind_) {
      case FakeGarble::Truncated: reply->resize(kMadHeaderSize + 17); break;
      case FakeGarble::Garbage:
        for (std::size_t i = 0; i < reply->size(); ++i) (*reply)[i] = static_cast<uint8_t>(i * 37 + 11);
        (*reply)[kOffMethod] = kMethodGetResponse;
        std::copy(request.begin() + kOffTid, request.begin() + kOffTid + 8, reply->begin() + kOffTid);
        break;
      case FakeGarble::WrongTid: (*reply)[kOffTid + 7] ^= 0x5A; break;
      case FakeGarble::WrongRegister: (*reply)[kOffClassAData + 4] ^= 0x01; break;
    }
  }
  return reply;
}

std::optional<std::vector<uint8_t>> FakeNode::answer(std::span<const uint8_t> bytes, uint8_t arrival_port) {
  Mad request{};
  std::copy_n(bytes.begin(), kMadSize, request.begin());
  const auto h = *parse_header(request);
  if (h.base_version != kBaseVersion || (h.method & kMethodResponseBit) != 0) return std::nullopt;
  const uint64_t key = be64(request, kOffMkey);  // M_Key or VS key: the same slot
  if (h.mgmt_class == kClassSmiLid || h.mgmt_class == kClassSmiDirected) {
    if (config_.m_key != 0 && key != config_.m_key) return std::nullopt;
    if (h.attr_id == kAttrAccessRegister) {
      if (!config_.smp_access || h.mgmt_class != kClassSmiLid) return response(request, 0x000C);
      if (h.method != kMethodSet) return response(request, 0x0008);
      return access_register_tlv(request, kOffSmpData, kMaxRegSmp);
    }
    return sma(request, arrival_port);
  }
  if (h.mgmt_class == kClassPerfMgt) return pma(request);
  if (h.mgmt_class != kClassVendorA) return response(request, 0x0004);  // class not supported
  if (config_.vs_key != 0 && key != config_.vs_key) return std::nullopt;
  switch (h.attr_id) {
    case kAttrAccessRegister:
      if (!config_.class_a) return response(request, 0x000C);
      if (h.method != kMethodSet) return response(request, 0x0008);
      return access_register_tlv(request, kOffClassAData, kMaxRegClassA);
    case kAttrAccessRegisterGmp:
      if (!config_.gmp || h.method != kMethodGet) return response(request, kGmpStatusMethodUnsupported);
      return access_register_gmp(request);
    case kAttrGeneralInfo: {
      if (h.method != kMethodGet) return response(request, 0x0008);
      auto r = response(request, 0);
      std::fill(r.begin() + kOffVendorData + 8, r.end(), 0);
      put_be32(r, kOffGeneralInfoCapMask, config_.gmp ? 1u << kGeneralInfoCapAccessRegGmp : 0u);
      return r;
    }
    default: return response(request, 0x000C);
  }
}

std::optional<std::vector<uint8_t>> FakeNode::access_register_tlv(const Mad& request, std::size_t at, std::size_t max) {
  if (busy_ > 0 && busy_kind_ == FakeBusy::MadStatus) {
    --busy_;
    return response(request, kStatusBusy);
  }
  auto r = response(request, 0);
  const uint32_t op0 = be32(request, at), op1 = be32(request, at + 4), reg0 = be32(request, at + kOpTlvSize);
  auto set_status = [&](uint8_t s) {
    put_be32(r, at, (op0 & 0xFFFF00FFu) | static_cast<uint32_t>(s & 0x7F) << 8);
    put_be32(r, at + 4, op1 | 0x8000u);  // r: this is the response
  };
  if ((op0 >> 27) != kTlvOperation || (reg0 >> 27) != kTlvRegister) {
    set_status(kRegStatusUnknownTlv);
    return r;
  }
  const std::size_t len = std::min<std::size_t>(((reg0 >> 16) & 0x7FF) * 4, max + kRegTlvHeaderSize);
  if (len < kRegTlvHeaderSize) {
    set_status(kRegStatusBadParameter);
    return r;
  }
  if (((op1 >> 8) & 0x7F) != kRegMethodQuery) {
    set_status(kRegStatusMethodUnsupported);  // this firmware only answers queries
    return r;
  }
  if (busy_ > 0 && busy_kind_ == FakeBusy::RegisterStatus) {
    --busy_;
    set_status(kRegStatusBusy);
    return r;
  }
  const std::size_t img = at + kOpTlvSize + kRegTlvHeaderSize;
  const std::span<const uint8_t> image(request.data() + img, len - kRegTlvHeaderSize);
  RegisterResult result = run_register(static_cast<uint16_t>(op1 >> 16), image);
  set_status(result.reg_status);
  std::copy_n(result.image.begin(), std::min(result.image.size(), image.size()), r.begin() + static_cast<std::ptrdiff_t>(img));
  return r;
}

std::optional<std::vector<uint8_t>> FakeNode::access_register_gmp(const Mad& request) {
  if (busy_ > 0 && busy_kind_ != FakeBusy::McciaI2cError) {
    --busy_;
    return response(request, kGmpStatusBusy);
  }
  const auto id = static_cast<uint16_t>(be32(request, kOffAttrMod));
  const std::span<const uint8_t> image(request.data() + kOffGmpRegister, kMaxRegGmpBlock);
  RegisterResult result = run_register(id, image);
  uint16_t status = 0;
  switch (result.reg_status) {
    case kRegStatusOk: break;
    case kRegStatusBusy: status = kGmpStatusBusy; break;
    case kRegStatusRegisterUnsupported: status = kGmpStatusRegisterUnsupported; break;
    default: status = kGmpStatusBadParameter; break;
  }
  auto r = response(request, status);
  std::copy(result.image.begin(), result.image.end(), r.begin() + kOffGmpRegister);
  return r;
}

std::optional<std::vector<uint8_t>> FakeNode::sma(const Mad& request, uint8_t arrival_port) {
  const auto h = *parse_header(request);
  if (h.method != kMethodGet) return response(request, 0x0008);
  std::array<uint8_t, kSmpDataSize> data{};
  switch (h.attr_id) {
    case kAttrNodeInfo: {
      NodeInfo n;
      n.node_type = config_.node_type;
      n.num_ports = config_.num_ports;
      n.system_guid = n.node_guid = config_.guid;
      n.port_guid = config_.guid + (config_.node_type == kNodeTypeSwitch ? 0 : 1);
      n.device_id = config_.device_id;
      n.vendor_id = config_.vendor_id;
      n.local_port = arrival_port;
      data = encode_node_info(n);
      break;
    }
    case kAttrNodeDescription: data = encode_node_description(config_.description); break;
    case kAttrPortInfo: {
      if (h.attr_mod > config_.num_ports) return response(request, static_cast<uint16_t>(kCodeInvalidField << kStatusCodeShift));
      PortInfo p;
      p.lid = config_.lid;  // switches: one LID (port 0); HCAs: the port's LID
      p.local_port = static_cast<uint8_t>(h.attr_mod);
      const auto port = static_cast<uint8_t>(h.attr_mod);
      p.state = (port == 0 || links_.count(port) != 0) ? kPortStateActive : 1;
      data = encode_port_info(p);
      break;
    }
    default: return response(request, 0x000C);
  }
  auto r = response(request, 0);
  std::copy(data.begin(), data.end(), r.begin() + kOffSmpData);
  return r;
}

FakeNode::RegisterResult FakeNode::run_register(uint16_t id, std::span<const uint8_t> image) {
  ++registers_[id];
  RegisterResult out;
  out.image.assign(image.begin(), image.end());
  auto place = [&out](std::span<const uint8_t> bytes) {
    out.image.assign(bytes.begin(), bytes.end());
  };
  const auto cage_count = static_cast<int>(cages_.size());
  switch (id) {
    case kRegMcia: return mcia(image);
    case kRegPmaos: {
      auto q = decode_pmaos(image);
      if (!q || q->module >= cage_count) return {out.image, kRegStatusBadParameter};
      ++pmaos_[q->module];
      q->admin_status = 1;
      q->oper_status = cages_[q->module] ? kPmaosPluggedEnabled : kPmaosUnplugged;
      place(encode_pmaos(*q));
      return out;
    }
    case kRegMgpir: {
      if (!config_.mgpir) return {out.image, kRegStatusRegisterUnsupported};
      Mgpir m;
      m.num_of_devices = 1;
      m.num_of_modules = static_cast<uint8_t>(cage_count);
      m.num_of_modules_per_system = static_cast<uint8_t>(cage_count);
      place(encode_mgpir(m));
      return out;
    }
    case kRegMcam: {
      Mcam m;
      m.set_feature(kMcamMcia128Bytes, config_.mcia_128);
      place(encode_mcam(m));
      return out;
    }
    case kRegPmlp: {
      auto q = decode_pmlp(image);
      if (!q || q->local_port == 0) return {out.image, kRegStatusBadParameter};
      // Twin-port switch cages carry local ports 2m+1 (module lanes 0-3) and 2m+2 (lanes 4-7);
      // an HCA's port p is module p-1, lanes 0-3.
      const bool sw = config_.node_type == kNodeTypeSwitch;
      const int module = sw ? (q->local_port - 1) / 2 : q->local_port - 1;
      if (module >= cage_count) return {out.image, kRegStatusBadParameter};
      const int first_lane = sw ? 4 * (((q->local_port - 1) % 2) ^ (config_.twin_ports_reversed ? 1 : 0)) : 0;
      q->width = 4;
      for (std::size_t l = 0; l < 4; ++l) {
        const auto lane = static_cast<uint8_t>(first_lane + static_cast<int>(l));
        q->lanes[l] = {static_cast<uint8_t>(module), 0, lane, lane};
      }
      place(encode_pmlp(*q));
      return out;
    }
    case kRegPpcnt: {
      auto q = decode_ppcnt(image);
      if (!config_.ppcnt) return {out.image, kRegStatusRegisterUnsupported};
      if (!q || q->local_port == 0 || q->local_port > config_.num_ports) return {out.image, kRegStatusBadParameter};
      if (q->grp == kPpcntGroupRsHistogram && config_.rs_histogram) {
        RsHistogramCounts& counts = rs_histogram_[q->local_port];
        for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += config_.rs_histogram_growth[i];
        q->rs_histogram = counts;
        place(encode_ppcnt(*q));
        return out;
      }
      if (q->grp != kPpcntGroupPhysStats) return {out.image, kRegStatusBadParameter};
      const auto it = phys_layer_.find(q->local_port);
      if (it != phys_layer_.end()) {
        q->stats = it->second;
      } else {  // what firmware reports for a clean link
        q->stats = {};
        q->stats.raw_ber = q->stats.effective_ber = {15, 255};
      }
      place(encode_ppcnt(*q));
      return out;
    }
    case kRegPphcr: {
      auto q = decode_pphcr(image);
      if (!config_.pphcr) return {out.image, kRegStatusRegisterUnsupported};
      if (!q || q->local_port == 0 || q->local_port > config_.num_ports) return {out.image, kRegStatusBadParameter};
      Pphcr reply = fec_bins_;
      reply.local_port = q->local_port;
      place(encode_pphcr(reply));
      return out;
    }
    default: return {out.image, kRegStatusRegisterUnsupported};
  }
}

FakeNode::RegisterResult FakeNode::mcia(std::span<const uint8_t> image) {
  auto q = decode_mcia(image);
  if (!q) return {std::vector<uint8_t>(image.begin(), image.end()), kRegStatusBadParameter};
  const std::vector<uint8_t> echo(image.begin(), image.end());
  const std::size_t max = config_.mcia_128 ? kMciaMaxData : kMciaLegacyData;
  const unsigned end = q->device_address + q->size;
  if (q->module >= cages_.size() || q->size == 0 || q->size > max || end > 256 ||
      (q->device_address < 128 && end > 128) || q->i2c_device_address != 0x50) {
    return {echo, kRegStatusBadParameter};
  }
  ++mcia_[q->module];
  if (q->device_address < 128) ++mcia_lower_;
  Mcia reply = *q;
  reply.data.fill(0);
  const auto& module = cages_[q->module];
  if (!module) {
    reply.status = kMciaNotConnected;
  } else if (busy_ > 0 && busy_kind_ == FakeBusy::McciaI2cError) {
    --busy_;
    reply.status = kMciaI2cError;
  } else {
    if (q->device_address >= 128) {
      // Select the bank/page the way CMIS asks: both bytes together when the bank changes.
      if (module->selected_bank() != q->bank_number) {
        const uint8_t both[2] = {q->bank_number, q->page_number};
        module->write(126, both);
        ++page_selects_;
      } else if (module->selected_page() != q->page_number) {
        const uint8_t page[1] = {q->page_number};
        module->write(127, page);
        ++page_selects_;
      }
      if (module->selected_page() != q->page_number || module->selected_bank() != q->bank_number) {
        return {echo, kRegStatusBadParameter};  // the module does not have that page
      }
    }
    module->read(static_cast<uint8_t>(q->device_address), std::span<uint8_t>(reply.data.data(), q->size));
    reply.status = kMciaOk;
  }
  const auto encoded = encode_mcia(reply);
  return {std::vector<uint8_t>(encoded.begin(), encoded.end()), kRegStatusOk};
}

}  // namespace xcvr::ib
