// SPDX-License-Identifier: Apache-2.0
// VC allocation (docs/spec/net.md NET-8.3, NET-4.3), one implementation for
// both network kernels: which output VC a routed head packet asks for, and
// the round-robin arbiter of each output VC that picks among the asking
// input VCs.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <optional>
#include <vector>

#include "models/network/output_unit.h"
#include "models/network/round_robin_round.h"
#include "models/network/router_params.h"
#include "models/topology/routing.h"

namespace lq::net {

// What VC allocation needs of a routed head packet.
struct RoutedHead {
  uint32_t src = 0;
  uint32_t dst = 0;
  unsigned in_vc = 0;     // the input VC it waits in
  unsigned out_port = 0;  // the routing function's step (while adaptive:
  unsigned out_vc = 0;    // the escape step)
  bool adaptive = false;  // may still take any productive port (NET-4.3)
};

// Where a router's VC allocation looks: its node, routing function, output
// side, and whether a port and VC may take a new packet at all
// (`open(port, vc)`: false while the link is down or PFC pauses it).
struct VcChoiceContext {
  const RouterParams& params;
  const topo::RoutingFunction& routing;
  topo::NodeId node;
  unsigned local_port;
  const OutputUnit& outputs;
};

// Whether `head` asks for an output VC this cycle, and which, in `o`. An
// adaptive packet asks for the free, open, adaptive-class VC of a
// productive port with the most credits, taking the ports in the order of
// RoutingFunction::FirstCandidate and the lowest class among equals
// (NET-4.3); without one, for its escape step once that VC has a credit.
// A deterministic packet asks for its step's VC; at the local port, for
// the VC router.eject_vc gives (NET-8.3). Never for a VC another packet
// holds. `candidates` is scratch space. (An out-parameter, not an
// optional: decision 0058.)
template <typename Open>
bool ChooseOutputVc(const VcChoiceContext& at, const RoutedHead& head,
                    Open open, std::vector<topo::PortId>& candidates,
                    unsigned& o) {
  const OutputUnit& out = at.outputs;
  if (head.adaptive) {
    const auto [lowest, end] =
        at.routing.AdaptiveVcs(head.in_vc, at.params.vc_classes);
    at.routing.AdaptivePorts(at.node, head.dst, candidates);
    const size_t count = candidates.size();
    const size_t first =
        topo::RoutingFunction::FirstCandidate(head.src, head.dst, count);
    std::optional<unsigned> best;
    for (size_t k = 0; k < count; ++k) {
      const topo::PortId port = candidates[(first + k) % count];
      for (unsigned vc = lowest; vc < end; ++vc) {
        const unsigned c = out.index(port, vc);
        if (!out.owned(c) && out.credits(c) > 0 && open(port, vc) &&
            (!best || out.credits(c) > out.credits(*best))) {
          best = c;
        }
      }
    }
    if (best) {
      o = *best;
      return true;
    }
  }
  unsigned vc = head.out_vc;
  if (head.out_port == at.local_port) {
    vc = EjectionVc(at.params, vc, [&](unsigned v) {
      return !out.owned(out.index(at.local_port, v));
    });
  }
  o = out.index(head.out_port, vc);
  // Committed to a full escape VC, an adaptive packet would block its input
  // VC's adaptive packets: it asks only once the escape has a credit.
  return !out.owned(o) && open(head.out_port, vc) &&
         !(head.adaptive && out.credits(o) == 0);
}

// Each output VC's round-robin arbiter: of the input VCs that ask for it in
// a cycle, it grants the first after the one it granted last. A router
// keeps only its arbiters' pointers (Pointers); the round's working state
// is the allocator's, which the cycle kernel shares among its routers.
class VcAllocator {
 public:
  class Pointers {
   public:
    Pointers(
        unsigned input_vcs, unsigned output_vcs,
        std::pmr::memory_resource* memory = std::pmr::get_default_resource())
        : inputs_(input_vcs), next_(output_vcs, 0, memory) {}

   private:
    friend class VcAllocator;
    unsigned inputs_;
    std::pmr::vector<uint16_t> next_;  // per output VC
  };

  // For routers of up to `max_output_vcs` output VCs.
  explicit VcAllocator(unsigned max_output_vcs) : round_(max_output_vcs) {}

  // Starts a cycle's requests for the router whose arbiters are `pointers`.
  void Clear(Pointers& pointers) {
    pointers_ = &pointers;
    round_.Clear();
  }
  void Request(unsigned input, unsigned output) {
    round_.Offer(output, input,
                 RoundRobinRound::Distance(input, pointers_->next_[output],
                                           pointers_->inputs_));
  }
  // Calls grant(input, output) for each output VC asked for, in the order
  // first asked, moving its pointer past the winner; the round is then
  // over.
  template <typename Grant>
  void Allocate(Grant&& grant) {
    round_.TakeWinners([&](unsigned output, unsigned input) {
      pointers_->next_[output] = static_cast<uint16_t>(
          RoundRobinRound::Next(input, pointers_->inputs_));
      grant(input, output);
    });
  }

 private:
  Pointers* pointers_ = nullptr;  // the router allocating now
  RoundRobinRound round_;
};

}  // namespace lq::net
