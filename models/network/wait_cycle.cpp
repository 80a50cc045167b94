// SPDX-License-Identifier: Apache-2.0
// The wait-for cycle of a deadlock.
#include "models/network/wait_cycle.h"

#include <map>
#include <optional>
#include <tuple>

namespace lq::net {

std::string DescribeWaitCycle(const topo::Topology& topology,
                              const std::vector<VcWait>& waits) {
  using Vc = std::tuple<topo::NodeId, topo::PortId, unsigned>;
  const auto key = [](const InputVcRef& ref) {
    return Vc{ref.node, ref.port, ref.vc};
  };
  std::map<Vc, Vc> waits_on;
  for (const VcWait& wait : waits) {
    waits_on[key(wait.from)] = key(wait.to);
  }
  const auto name = [&topology](const Vc& vc) {
    return topology.PortName(std::get<0>(vc), std::get<1>(vc)) + ".vc" +
           std::to_string(std::get<2>(vc));
  };
  for (const auto& start : waits_on) {
    std::map<Vc, size_t> seen;
    std::vector<Vc> path;
    std::optional<Vc> at = start.first;
    while (at && !seen.count(*at)) {
      seen[*at] = path.size();
      path.push_back(*at);
      const auto next = waits_on.find(*at);
      at = next == waits_on.end() ? std::nullopt
                                  : std::optional<Vc>(next->second);
    }
    if (!at) {
      continue;  // this chain ends at a VC that is not waiting
    }
    std::string cycle;
    for (size_t i = seen[*at]; i < path.size(); ++i) {
      cycle += name(path[i]) + " -> ";
    }
    return cycle + name(*at);
  }
  return "none found (packets wait on something other than buffers)";
}

}  // namespace lq::net
