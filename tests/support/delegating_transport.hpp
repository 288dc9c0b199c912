// A transport that forwards to another: tests derive from it and script only what they test
// (link health, missing configuration, ...), the module reads staying the inner transport's.
#pragma once

#include <memory>

#include "drivers/transport.hpp"

namespace xcvr::testing_support {

class DelegatingTransport : public drivers::Transport {
 public:
  explicit DelegatingTransport(std::unique_ptr<drivers::Transport> inner) : inner_(std::move(inner)) {}
  std::string domain() const override { return inner_->domain(); }
  std::string describe() const override { return inner_->describe(); }
  drivers::Presence presence() override { return inner_->presence(); }
  std::optional<std::string> missing() override { return inner_->missing(); }
  std::optional<drivers::Error> read(const drivers::ReadRequest& r, std::span<uint8_t> out) override {
    return inner_->read(r, out);
  }
  drivers::BusCounters counters() const override { return inner_->counters(); }
  std::variant<drivers::LinkHealth, drivers::Error> read_link_health() override { return inner_->read_link_health(); }

 private:
  std::unique_ptr<drivers::Transport> inner_;
};

}  // namespace xcvr::testing_support
