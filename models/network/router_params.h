// SPDX-License-Identifier: Apache-2.0
// RouterParams: what a router of docs/spec/net.md section 8 is made of, one
// name per quantity, shared by both network kernels (the SystemC router and
// the cycle kernel) and set from the scenario's router.* and net.* keys.
// Flits are the links' payload slots (PHY-2.4); times are router cycles.
#pragma once

#include <optional>
#include <string>

namespace lq::net {

// router.allocator (NET-8.5).
enum class SwitchAllocator { kRoundRobin, kIslip };

// router.vc_reuse (NET-8.3): how soon an input VC and an output VC serve
// their next packet after a packet's last flit wins the switch.
enum class VcReuse {
  // Decision 0030: switch allocation acts before VC allocation within a
  // cycle, so the freed output VC is allocated again in that cycle, and
  // the packet behind the tail, routed from its own arrival, with it.
  kSameCycle,
  // The classic input-queued router as BookSim2 builds it (issue 39): VC
  // allocation acts before switch allocation, so the freed output VC is
  // allocatable from the next cycle; the packet behind the tail starts
  // route computation only then, on reaching the head of its input VC.
  kAfterTail,
};

struct RouterParams {
  unsigned vc_classes = 2;        // net.vc_classes (C)
  unsigned vc_sets = 2;           // net.vc_sets (S); S x C <= 4 (NET-3.1)
  unsigned vc_buffer_flits = 64;  // router.vc_buffer_flits (NET-8.1)
  unsigned rc_cycles = 1;         // router.rc_cycles ... (NET-8.4)
  unsigned va_cycles = 1;
  unsigned sa_cycles = 1;
  unsigned st_cycles = 1;
  SwitchAllocator allocator = SwitchAllocator::kRoundRobin;
  unsigned islip_iterations = 1;      // router.islip_iterations
  unsigned speedup = 1;               // router.speedup (NET-8.11)
  unsigned output_buffer_flits = 32;  // router.output_buffer_flits
  VcReuse vc_reuse = VcReuse::kSameCycle;
  // router.credit_cycles (NET-8.2): cycles a router takes to process a
  // credit that came back over a link before it may spend it.
  unsigned credit_cycles = 0;
  // router.eject_vc (NET-8.3): a packet leaving at the local port asks for
  // the VC it arrived on (false), or for any free VC of its VC set (true).
  bool eject_any_vc = false;

  unsigned vcs() const { return vc_classes * vc_sets; }
  // router.vc_reuse (NET-8.3): whether a cycle's route computation and VC
  // allocation act before its switch allocation.
  bool allocates_vcs_first() const { return vc_reuse == VcReuse::kAfterTail; }
  // Cycles after a tail wins the switch when the packet behind it may be
  // allocated at the earliest: after_tail routes it from the next cycle;
  // 0 with same_cycle, where its own arrival alone decides.
  unsigned head_restart_cycles() const {
    return vc_reuse == VcReuse::kAfterTail ? 1 + rc_cycles : 0;
  }
  // The switch allocator's iSLIP iterations, 0 for round-robin.
  unsigned islip_rounds() const {
    return allocator == SwitchAllocator::kIslip ? islip_iterations : 0;
  }
};

// The local port's output VC a packet that arrived on `routed_vc` asks for
// (NET-8.3): `routed_vc` itself, or with eject_any_vc the first VC of its
// set, from `routed_vc` on, that `is_free(vc)`; `routed_vc` if none is.
template <typename IsFree>
unsigned EjectionVc(const RouterParams& params, unsigned routed_vc,
                    IsFree is_free) {
  if (!params.eject_any_vc) {
    return routed_vc;
  }
  const unsigned classes = params.vc_classes;
  const unsigned first = routed_vc - routed_vc % classes;
  for (unsigned k = 0; k < classes; ++k) {
    const unsigned vc = first + (routed_vc + k) % classes;
    if (is_free(vc)) {
      return vc;
    }
  }
  return routed_vc;
}

// Why `params` cannot make a router, for a routing function needing
// `routing_classes` VC classes (NET-3.1, NET-3.2, zero-cycle stages, no
// buffers), or nothing. Names the scenario keys.
std::optional<std::string> RouterParamsProblem(const RouterParams& params,
                                               unsigned routing_classes,
                                               const std::string& routing_name);

// Parse router.allocator ("rr" or "islip") and router.vc_reuse
// ("same_cycle" or "after_tail").
std::optional<SwitchAllocator> ParseSwitchAllocator(const std::string& name);
std::optional<VcReuse> ParseVcReuse(const std::string& name);

}  // namespace lq::net
