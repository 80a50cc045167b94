// SPDX-License-Identifier: Apache-2.0
// RoutingBanks: a router's two routing tables (docs/spec/net.md NET-5.6,
// NET-7.7). The active bank routes every packet; the fabric manager writes
// the shadow bank; a switch makes the shadow bank active for every packet
// routed from then on and flips the epoch, so that the router can tell the
// DATA packets routed by the old tables (their EPOCH) and drop them.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "models/topology/routing.h"

namespace lq::net {

class RoutingBanks {
 public:
  explicit RoutingBanks(std::shared_ptr<const topo::RoutingFunction> active)
      : active_(std::move(active)) {}

  const topo::RoutingFunction& active() const { return *active_; }
  void WriteShadow(std::shared_ptr<const topo::RoutingFunction> routing) {
    shadow_ = std::move(routing);
  }
  // The shadow bank, if written, becomes the active one (the old one the
  // shadow); the epoch flips either way.
  void Switch() {
    if (shadow_) {
      std::swap(active_, shadow_);
    }
    epoch_ ^= 1;
  }
  uint8_t epoch() const { return epoch_; }
  // A router restored after a failure starts at EPOCH 0 (NET-7.12); its
  // banks keep what they held until the fabric manager rewrites them.
  void ResetEpoch() { epoch_ = 0; }

 private:
  std::shared_ptr<const topo::RoutingFunction> active_;
  std::shared_ptr<const topo::RoutingFunction> shadow_;
  uint8_t epoch_ = 0;
};

}  // namespace lq::net
