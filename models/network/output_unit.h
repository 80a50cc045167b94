// SPDX-License-Identifier: Apache-2.0
// OutputUnit: a router's output side (docs/spec/net.md section 8), one
// implementation for both network kernels: per output VC whether a packet
// holds it (NET-8.3) and the credits its downstream buffer has granted
// (NET-8.2), and per output port the queue of NET-8.11, kept as the time
// its next flit may leave. It also counts the flits each port sent, and
// each output VC's credit stalls: the time a packet held it with no credit
// left. Times are the kernel's ticks (router cycles in the cycle kernel,
// SystemC time units in the SystemC router); a router cycle is `period`
// ticks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory_resource>
#include <vector>

#include "models/network/router_params.h"

namespace lq::net {

class OutputUnit {
 public:
  // Its state comes from `memory` (the cycle kernel keeps a router's
  // state together in one arena), the stall counts, which change only
  // when a stall begins or ends, from `cold_memory`.
  OutputUnit(
      unsigned ports, const RouterParams& params, uint64_t period,
      std::pmr::memory_resource* memory = std::pmr::get_default_resource(),
      std::pmr::memory_resource* cold_memory =
          std::pmr::get_default_resource());

  unsigned vcs() const { return vcs_; }
  unsigned size() const { return static_cast<unsigned>(outputs_.size()); }
  // Output VC `o` is port o / vcs(), VC o % vcs().
  unsigned index(unsigned port, unsigned vc) const { return port * vcs_ + vc; }

  bool owned(unsigned o) const { return outputs_[o].owned; }
  uint32_t credits(unsigned o) const { return outputs_[o].credits; }
  // A packet takes the VC at VC allocation and releases it after its last
  // flit (NET-8.3), at `now`.
  void Take(unsigned o, uint64_t now) {
    Vc& out = outputs_[o];
    out.owned = true;
    if (out.credits == 0) {
      stalls_[o].since = now;  // a stall counts only while it has no credit
    }
  }
  void Release(unsigned o, uint64_t now) {
    EndStall(o, now);
    outputs_[o].owned = false;
  }
  // A flit sent at `now` spends a credit; the downstream returns them
  // (NET-8.2).
  void Spend(unsigned o, uint64_t now) {
    if (--outputs_[o].credits == 0) {
      stalls_[o].since = now;
    }
  }
  void Grant(unsigned o, uint32_t count, uint64_t now) {
    if (count > 0) {
      EndStall(o, now);
      outputs_[o].credits += count;
    }
  }
  // Free, with `credits` (a port coming up or going down, a router
  // restored), at `now`. The stalls counted so far stay.
  void Reset(unsigned o, uint32_t credits, uint64_t now) {
    EndStall(o, now);
    outputs_[o].owned = false;
    outputs_[o].credits = credits;
  }
  // Router cycles output VC `o` has been held by a packet with no credit
  // left, up to `now`: backpressure from the buffer downstream.
  uint64_t stall_cycles(unsigned o, uint64_t now) const;

  // Whether a flit granted the switch at `now` for VC `vc` of `port` may
  // go: a credit, and room in the port's queue (NET-8.11).
  bool CanSend(unsigned port, unsigned vc, uint64_t now) const {
    return outputs_[index(port, vc)].credits > 0 && !Full(port, now);
  }
  // NET-8.11: `router.output_buffer_flits` flits already wait at `port`.
  bool Full(unsigned port, uint64_t now) const {
    return ports_[port].next_departure > now + pipeline_ + queue_;
  }
  // When a flit granted the switch at `now` out of `port` would leave: SA
  // and ST after the grant, or in turn after the flits waiting there.
  uint64_t Departure(unsigned port, uint64_t now) const {
    return std::max(now + pipeline_, ports_[port].next_departure);
  }
  // The same, for a flit that goes: the next one leaves a cycle later.
  uint64_t BookDeparture(unsigned port, uint64_t now) {
    const uint64_t departs = Departure(port, now);
    Port& at = ports_[port];
    at.next_departure = departs + period_;
    ++at.flits;
    return departs;
  }
  // The flits `port` has sent (booked departures).
  uint64_t flits_out(unsigned port) const { return ports_.at(port).flits; }
  // What both kernels report of the first `ports` ports: each one's flits
  // out, and each of their output VCs' stall cycles up to `now`, output VC
  // o at index o.
  std::vector<uint64_t> FlitsOut(unsigned ports) const;
  std::vector<uint64_t> StallCycles(unsigned ports, uint64_t now) const;

 private:
  // What every allocation reads, 8 bytes a VC: a network of 8,192
  // routers keeps them in cache only as long as the stall counts lie
  // elsewhere.
  struct Vc {
    bool owned = false;
    uint32_t credits = 0;
    bool stalling() const { return owned && credits == 0; }
  };
  struct Stall {
    uint64_t since = 0;  // while owned with no credit
    uint64_t ended = 0;  // ticks, over the stalls that ended
  };
  void EndStall(unsigned o, uint64_t now) {
    Stall& stall = stalls_[o];
    if (outputs_[o].stalling() && now > stall.since) {
      stall.ended += now - stall.since;
    }
  }
  unsigned vcs_;
  uint64_t period_;
  uint64_t pipeline_;  // SA + ST, in ticks
  uint64_t queue_;     // the output queue's depth, in ticks
  std::pmr::vector<Vc> outputs_;
  // Per port, what a flit sent reads and writes, side by side.
  struct Port {
    uint64_t next_departure = 0;
    uint64_t flits = 0;
  };
  std::pmr::vector<Port> ports_;
  std::pmr::vector<Stall> stalls_;
};

}  // namespace lq::net
