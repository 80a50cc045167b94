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

}  // namespace lq::net
