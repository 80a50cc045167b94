// SPDX-License-Identifier: Apache-2.0
// ScenarioLossless: PFC thresholds, TRN-8.8's headroom and the ECN profile
// from a scenario's keys.
#include "systemc/app/scenario_lossless.h"

#include <utility>

#include "models/roce/addressing.h"
#include "models/roce/pfc.h"
#include "models/transport/ecn_marking.h"
#include "systemc/app/network_study.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::app {
namespace {

constexpr uint8_t kDataPriority = roce::PriorityOfDscp(roce::kDscpData);

// TRN-8.8's headroom for links of `profile` at full width over `cable_m`,
// with the largest packet the routers buffer at `pmtu`.
uint64_t HeadroomBytes(const phy::LinkProfile& profile, double cable_m,
                       uint32_t pmtu, uint64_t react_ps) {
  roce::HeadroomInputs link;
  link.max_packet_bytes = transport::LargestBufferedPacketBytes(pmtu);
  link.goodput_bps = static_cast<uint64_t>(
      phy::PayloadGoodputGbps(profile, profile.max_lanes) * 1e9);
  link.flit_ps = phy::FlitTimePs(profile, profile.max_lanes);
  link.tx_ps = profile.tx_pipeline_ps;
  link.rx_ps = profile.rx_pipeline_ps;
  link.cable_ps = phy::CableDelayPs(cable_m);
  link.react_ps = react_ps;
  return roce::PfcHeadroomBytes(link);
}

}  // namespace

Result<LosslessPlan> ScenarioLossless(const ParamSet& params,
                                      const phy::LinkProfile& profile,
                                      uint32_t pmtu, const std::string& cc) {
  LosslessPlan plan;
  transport::FlowControlConfig& flow = plan.flow;
  transport::PfcParams& pfc = flow.pfc_params;
  pfc.xoff_bytes = static_cast<uint64_t>(params.Integer("pfc.xoff_bytes"));
  pfc.xon_bytes = static_cast<uint64_t>(params.Integer("pfc.xon_bytes"));
  pfc.react_ps = static_cast<uint64_t>(params.Integer("pfc.react_ns")) * 1000;
  pfc.pause_quanta = static_cast<uint16_t>(params.Integer("pfc.pause_quanta"));
  pfc.refresh_ps =
      static_cast<uint64_t>(params.Integer("pfc.refresh_ns")) * 1000;
  pfc.headroom_max_bytes =
      static_cast<uint64_t>(params.Integer("pfc.headroom_max_bytes"));
  if (pfc.xon_bytes >= pfc.xoff_bytes) {
    return Fail("pfc.xon_bytes must be below pfc.xoff_bytes (TRN-8.5)");
  }
  plan.headroom_bytes =
      HeadroomBytes(profile, params.Real("link.cable_m"), pmtu, pfc.react_ps);
  if (plan.headroom_bytes > pfc.headroom_max_bytes) {
    return Fail("the links need " + std::to_string(plan.headroom_bytes) +
                " bytes of PFC headroom, above pfc.headroom_max_bytes " +
                std::to_string(pfc.headroom_max_bytes) +
                " (TRN-8.9): shorten link.cable_m or raise the limit");
  }
  flow.line_rate_bps = phy::RawRateMbps(profile, profile.max_lanes) * 1'000'000;
  plan.marking =
      params.Text("ecn.profile") == "auto" ? cc : params.Text("ecn.profile");
  flow.ecn[kDataPriority] = transport::EcnProfileNamed(plan.marking).value();
  flow.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  return plan;
}

void UseLosslessKeys(KeyUsage& usage) {
  usage.Use({"pfc.xoff_bytes", "pfc.xon_bytes", "pfc.pause_quanta",
             "pfc.refresh_ns", "pfc.react_ns", "pfc.headroom_max_bytes",
             "ecn.profile", "link.cable_m"});
}

void UseLosslessRouterKeys(const ParamSet& params, KeyUsage& usage) {
  UseLosslessKeys(usage);
  UseRouterPipelineKeys(params, usage);
  usage.Skip("router.clock_ghz",
             "a lossless fabric's routers run at the links' flit rate "
             "(TRN-8.3)");
  usage.Skip("router.vc_buffer_flits",
             "a lossless fabric sizes every VC to XOFF plus the headroom "
             "(TRN-8.9)");
}

Result<LosslessRouter> ScenarioLosslessRouter(
    const ParamSet& params,
    std::shared_ptr<const topo::RoutingFunction> routing,
    const phy::LinkProfile& profile, uint32_t pmtu, const std::string& cc) {
  auto router = ScenarioRouterConfig(params, std::move(routing));
  if (!router) {
    return router.error();
  }
  auto plan = ScenarioLossless(params, profile, pmtu, cc);
  if (!plan) {
    return plan.error();
  }
  LosslessRouter lossless{*router, *plan};
  lossless.router.clock_ns = phy::FullWidthFlitNs(profile);
  lossless.plan.flow.message_delay =
      sc_core::sc_time(lossless.router.clock_ns, sc_core::SC_NS);
  lossless.router.vc_buffer_flits =
      lossless.plan.VcBufferSlots(lossless.router.slot_bytes);
  return lossless;
}

}  // namespace lq::app
