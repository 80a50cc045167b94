// SPDX-License-Identifier: Apache-2.0
// The lossless fabric a scenario describes with its pfc.* and ecn.profile
// keys (trn.md TRN-8, TRN-9.3): every router's flow control, and the bytes
// each VC must hold so that PFC, not credits, binds first (TRN-8.9). The
// transport study and the cards of `lqemu board --scenario` both build it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "models/common/result.h"
#include "models/phy/link_profile.h"
#include "models/topology/routing.h"
#include "systemc/app/key_usage.h"
#include "systemc/common/param.h"
#include "systemc/network/router.h"
#include "systemc/transport/router_flow_control.h"

namespace lq::app {

struct LosslessPlan {
  transport::FlowControlConfig flow;
  uint64_t headroom_bytes = 0;  // TRN-8.8's H of the scenario's links
  std::string marking;          // the ECN profile's name
  // XOFF plus the headroom: what every VC of a router holds, in slots of
  // `slot_bytes`.
  unsigned VcBufferSlots(size_t slot_bytes) const {
    const uint64_t bytes = flow.pfc_params.xoff_bytes + headroom_bytes;
    return static_cast<unsigned>((bytes + slot_bytes - 1) / slot_bytes);
  }
};

// The keys ScenarioLossless reads: pfc.*, ecn.profile, link.cable_m.
void UseLosslessKeys(KeyUsage& usage);

// The keys ScenarioLosslessRouter reads: UseLosslessKeys' and the router's
// (UseRouterPipelineKeys), but router.clock_ghz and router.vc_buffer_flits,
// which a lossless fabric sets itself.
void UseLosslessRouterKeys(const ParamSet& params, KeyUsage& usage);

// For links of `profile` at full width over `link.cable_m`, packets of path
// MTU `pmtu`, and congestion control `cc`, whose marking profile
// `ecn.profile: auto` picks. Fails if XON is not below XOFF (TRN-8.5) or
// the headroom exceeds `pfc.headroom_max_bytes` (TRN-8.9).
Result<LosslessPlan> ScenarioLossless(const ParamSet& params,
                                      const phy::LinkProfile& profile,
                                      uint32_t pmtu, const std::string& cc);

// A router of a lossless fabric: the router.* and net.* keys' config
// (ScenarioRouterConfig), clocked at the links' flit rate so that a port
// carries what a link does and a PFC message takes one flit time (TRN-8.3),
// with every VC holding XOFF plus the headroom (TRN-8.9), and the flow
// control of `plan`. The transport study's routers, and the router the
// conformance suite checks.
struct LosslessRouter {
  net::RouterConfig router;
  LosslessPlan plan;
};

// The same arguments as ScenarioLossless, and `routing` for the router;
// fails as it does, or on a router configuration net::RouterConfigProblem
// refuses.
Result<LosslessRouter> ScenarioLosslessRouter(
    const ParamSet& params,
    std::shared_ptr<const topo::RoutingFunction> routing,
    const phy::LinkProfile& profile, uint32_t pmtu, const std::string& cc);

}  // namespace lq::app
