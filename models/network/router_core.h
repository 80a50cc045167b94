// SPDX-License-Identifier: Apache-2.0
// RouterCore: one router's state as both network kernels hold it
// (docs/spec/net.md section 8, decision 0038): its input unit, its output
// unit and its allocators' pointers, and what every kernel does alike on
// them, stage by stage. The kernels drive it: the cycle kernel with flits
// and no bytes, the SystemC router with each packet's bytes beside it.
// Times are the kernel's ticks; a router cycle is `period` ticks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory_resource>
#include <optional>

#include "models/network/input_unit.h"
#include "models/network/output_unit.h"
#include "models/network/router_params.h"
#include "models/network/separable_allocator.h"
#include "models/network/vc_allocator.h"
#include "models/topology/routing.h"

namespace lq::net {

class RouterCore {
 public:
  // A router of `ports` ports, port `local` its local one (a switch has
  // none: `local` is then its port count), whose input VCs have room for
  // `packets_behind` packets behind their heads to start with. Its state
  // comes from `memory`; what few steps touch (the input unit's ring, the
  // output unit's stall counts) from `cold_memory`.
  RouterCore(
      unsigned ports, unsigned local, const RouterParams& params,
      uint64_t period, unsigned packets_behind,
      std::pmr::memory_resource* memory = std::pmr::get_default_resource(),
      std::pmr::memory_resource* cold_memory = std::pmr::get_default_resource())
      : inputs(ports * params.vcs(), packets_behind, memory, cold_memory),
        outputs(ports, params, period, memory, cold_memory),
        va(ports * params.vcs(), ports * params.vcs(), memory),
        switch_allocator(ports, params.vcs(), memory),
        local_(local),
        vcs_(params.vcs()),
        vc_classes_(params.vc_classes),
        period_(period),
        restart_(period * params.head_restart_cycles()) {}

  InputUnit inputs;    // input VC i is port i / VCs, VC i % VCs
  OutputUnit outputs;  // output VC o likewise
  VcAllocator::Pointers va;
  SeparableAllocator::Pointers switch_allocator;

  unsigned local_port() const { return local_; }
  // The VC class a packet in input VC (port, vc) is in for routing: any
  // local VC of a set holds injected packets, all in class 0 (NET-8.8).
  unsigned InputClass(unsigned port, unsigned vc) const {
    return port == local_ ? 0 : vc % vc_classes_;
  }

  // Route computation (NET-4, NET-3.4): `head`, in input VC `in_vc`,
  // takes `step`. The local port keeps the packet's VC; a network hop
  // takes the routing function's class within the packet's VC set. An
  // `adaptive` packet chooses its port at VC allocation, `step` being its
  // escape (NET-4.3).
  void TakeRoute(PacketState& head, unsigned in_vc, const topo::RouteStep& step,
                 bool adaptive) const {
    head.routed = true;
    head.out_port = static_cast<uint16_t>(step.port);
    const unsigned set = in_vc / vc_classes_;
    head.out_vc = static_cast<uint8_t>(
        step.port == local_ ? in_vc : set * vc_classes_ + step.vc);
    head.adaptive = adaptive;
  }

  // VC allocation (NET-8.3): input VC i's head takes VC `vc` of output
  // `port` at `now`; its next stage comes due at `ready`, later than
  // `now`. It asks for the switch once the cycle's allocations have ended
  // (EndAllocations).
  void TakeOutputVc(unsigned i, unsigned port, unsigned vc, uint64_t now,
                    uint64_t ready) {
    PacketState& head = inputs.front(i);
    head.adaptive = false;
    head.out_port = static_cast<uint16_t>(port);
    head.out_vc = static_cast<uint8_t>(vc);
    head.allocated = true;
    head.ready = ready;
    inputs.Granted(i);
    outputs.Take(port * vcs_ + vc, now);
  }
  // A router cycle's VC and switch allocation are over: the heads that
  // took an output VC join the switch's list (InputUnit::Granted).
  void EndAllocations() { inputs.EndAllocations(); }

  // Switch allocation (NET-8.5): whether `head` may ask for the switch at
  // `now`: its output VC holds a credit and its output queue room
  // (NET-8.2, NET-8.11), its stage is due and a flit of it has arrived.
  bool WantsSwitch(const PacketState& head, uint64_t now) const {
    return !head.discard & head.allocated & (head.ready <= now) &
           (head.arrived > head.sent) &
           outputs.CanSend(head.out_port, head.out_vc, now);
  }

  // Switch allocation's requests (NET-8.5) into `allocator`: from each
  // input port with VCs listed to send, in round-robin order of its VCs
  // from the port's pointer (SeparableAllocator::RequestFrom), the output
  // port of each head that WantsSwitch at `now`. A head dropped earlier
  // goes to `drain(i)` first, which takes out VC i's dropped packets whose
  // flits have all come and answers whether it still holds a packet; the
  // kernels keep it out of line, as it is rare (decision 0058).
  // `port_of(i)` is input VC i's port, as the kernel finds it.
  template <typename PortOf, typename Drain>
  void RequestSwitch(SeparableAllocator& allocator, uint64_t now,
                     PortOf port_of, Drain drain) {
    allocator.Clear(switch_allocator);
    const unsigned vcs = vcs_;
    const auto to_send = [this](size_t w) { return inputs.to_send(w); };
    inputs.ForEachPort(to_send, port_of, vcs, [&](unsigned p, unsigned listed) {
      allocator.RequestFrom(p, listed,
                            [&](unsigned v) -> std::optional<unsigned> {
                              const unsigned i = p * vcs + v;
                              const PacketState& head = inputs.vc(i).head;
                              if (head.discard && !drain(i)) {
                                return std::nullopt;
                              }
                              if (!WantsSwitch(head, now)) {
                                return std::nullopt;
                              }
                              return head.out_port;
                            });
    });
  }

  // Input VC i's head, granted the switch at `now`, sends a flit: it
  // spends a credit, and its next flit may follow a cycle later. Returns
  // when the flit leaves the router (NET-8.11).
  uint64_t CrossSwitch(unsigned i, uint64_t now) {
    PacketState& head = inputs.front(i);
    ++head.sent;
    head.ready = now + period_;
    outputs.Spend(head.out_port * vcs_ + head.out_vc, now);
    return outputs.BookDeparture(head.out_port, now);
  }

  // Input VC i's head has sent its last flit at `now`: its output VC is
  // free, and the packet behind it becomes the head, ready no sooner than
  // router.vc_reuse allows (NET-8.3).
  void FinishHead(unsigned i, uint64_t now) {
    const PacketState& head = inputs.front(i);
    outputs.Release(head.out_port * vcs_ + head.out_vc, now);
    inputs.pop_front(i);
    if (restart_ > 0 && !inputs.vc(i).empty()) {
      PacketState& next = inputs.front(i);
      next.ready = std::max(next.ready, now + restart_);
    }
  }

 private:
  unsigned local_;
  unsigned vcs_;
  unsigned vc_classes_;
  uint64_t period_;
  uint64_t restart_;  // ticks
};

}  // namespace lq::net
