// SPDX-License-Identifier: Apache-2.0
// SlotChannel: binding both directions.
#include "systemc/network/slot_channel.h"

namespace lq::net {

SlotChannel::SlotChannel(const sc_core::sc_module_name& name,
                         sc_core::sc_time latency)
    : sc_module(name),
      a("a"),
      b("b"),
      latency_(latency),
      a_to_b_(b, latency_),
      b_to_a_(a, latency_) {
  a.in.bind(a_to_b_);
  b.in.bind(b_to_a_);
}

std::unique_ptr<SlotChannel> JoinSlotSockets(link::SlotSocket& a,
                                             link::SlotSocket& b,
                                             const sc_core::sc_time& latency,
                                             const std::string& name) {
  if (latency == sc_core::SC_ZERO_TIME) {
    Connect(a, b);
    return nullptr;
  }
  auto channel = std::make_unique<SlotChannel>(name.c_str(), latency);
  Connect(a, channel->a);
  Connect(b, channel->b);
  return channel;
}

}  // namespace lq::net
