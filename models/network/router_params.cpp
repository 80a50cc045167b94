// SPDX-License-Identifier: Apache-2.0
// RouterParams: checks and the names scenario keys give its choices.
#include "models/network/router_params.h"

namespace lq::net {

std::optional<std::string> RouterParamsProblem(
    const RouterParams& params, unsigned routing_classes,
    const std::string& routing_name) {
  const unsigned vcs = params.vcs();
  if (vcs == 0 || vcs > 4) {
    return "net.vc_sets x net.vc_classes = " + std::to_string(vcs) +
           ": a link carries 1 to 4 VCs (NET-3.1)";
  }
  if (routing_classes > params.vc_classes) {
    return "routing " + routing_name + " needs " +
           std::to_string(routing_classes) + " VC classes, net.vc_classes is " +
           std::to_string(params.vc_classes) + " (NET-3.2)";
  }
  if (params.vc_buffer_flits == 0) {
    return "router.vc_buffer_flits must be at least 1";
  }
  if (params.rc_cycles == 0 || params.va_cycles == 0 || params.sa_cycles == 0 ||
      params.st_cycles == 0) {
    return "router.rc_cycles to router.st_cycles must be at least 1 "
           "(NET-8.4)";
  }
  if (params.islip_iterations == 0) {
    return "router.islip_iterations must be at least 1";
  }
  if (params.speedup == 0 || params.output_buffer_flits == 0) {
    return "router.speedup and router.output_buffer_flits must be at least 1";
  }
  return std::nullopt;
}

std::optional<SwitchAllocator> ParseSwitchAllocator(const std::string& name) {
  if (name == "rr") {
    return SwitchAllocator::kRoundRobin;
  }
  if (name == "islip") {
    return SwitchAllocator::kIslip;
  }
  return std::nullopt;
}

std::optional<VcReuse> ParseVcReuse(const std::string& name) {
  if (name == "same_cycle") {
    return VcReuse::kSameCycle;
  }
  if (name == "after_tail") {
    return VcReuse::kAfterTail;
  }
  return std::nullopt;
}

}  // namespace lq::net
