#include "drivers/carrier_timeline.hpp"

namespace xcvr::drivers {

void CarrierTimeline::on_state(const std::string& ifname, bool up, std::optional<uint32_t> down_count, double mono,
                               double unix_s) {
  auto it = by_name_.find(ifname);
  if (it == by_name_.end()) {
    if (by_name_.size() >= kMaxNetdevs) return;
    it = by_name_.emplace(ifname, Entry{}).first;
  }
  Entry& e = it->second;
  // The first message of a netdev only tells its state: a loss already under way began at an
  // unknown time.
  if (e.carrier) {
    const bool was_up = *e.carrier;
    // Losses the kernel counted beyond the one this message shows: a flap folded into it.
    const uint32_t shown = was_up && !up ? 1 : 0;
    const bool folded = e.down_count && down_count && *down_count != *e.down_count + shown;
    if (folded) {
      e.view.last_down_seconds.reset();
      e.view.last_down_unix.reset();
      e.down_since_mono.reset();
    }
    if (!up && (was_up || folded)) {
      e.down_since_mono = mono;
      e.view.last_down_unix = unix_s;
    } else if (up && !was_up && e.down_since_mono) {
      e.view.last_down_seconds = mono - *e.down_since_mono;
      e.down_since_mono.reset();
    }
  }
  e.carrier = up;
  if (down_count) e.down_count = down_count;
  e.view.down_now = !up;
}

std::optional<CarrierTimeline::View> CarrierTimeline::view(const std::string& ifname) const {
  const auto it = by_name_.find(ifname);
  if (it == by_name_.end()) return std::nullopt;
  return it->second.view;
}

}  // namespace xcvr::drivers
