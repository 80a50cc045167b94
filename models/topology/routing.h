// SPDX-License-Identifier: Apache-2.0
// The RoutingFunction interface: where a router sends a packet next and on
// which VC class (docs/spec/net.md, NET-4).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// One routing decision: the output port and the VC class to use on it.
// At the destination the port is the local port (NET-4.1).
struct RouteStep {
  PortId port = 0;
  VcClass vc = 0;
};

// A routing function bound to the topology it was built for. Decisions
// depend only on the arguments of Route(), as a router's would (NET-4.1).
class RoutingFunction {
 public:
  explicit RoutingFunction(std::shared_ptr<const Topology> topology);
  virtual ~RoutingFunction() = default;

  virtual std::string Name() const = 0;
  // VC classes the function uses: every VcClass it returns is below this.
  virtual VcClass VcClasses() const = 0;
  // The next step for a packet to endpoint `dst` that arrived at `current`
  // through `in_port` (the local port when injected there) on VC class
  // `in_vc`. Fails when there is no route (e.g. an invalid table entry).
  virtual Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                                  NodeId dst) const = 0;
  // Route() without the reason for a failure, for the routers' hot path:
  // sets `step` and returns true, or returns false when there is no route.
  // Functions whose Route() builds a Result on every call override it.
  virtual bool TryRoute(NodeId current, PortId in_port, VcClass in_vc,
                        NodeId dst, RouteStep& step) const;

  // Adaptive functions (NET-4.3) only: the lowest class on which a packet
  // may choose among AdaptivePorts(); every class from it up to
  // VcClasses() - 1 is adaptive. Route() then gives the escape step.
  virtual std::optional<VcClass> AdaptiveClass() const { return std::nullopt; }
  // The productive ports at `current` toward `dst`, ascending; empty at DST.
  virtual void AdaptivePorts(NodeId /*current*/, NodeId /*dst*/,
                             std::vector<PortId>& ports) const {
    ports.clear();
  }
  // Where a packet from endpoint `src` to `dst` starts its search of the
  // `count` ports AdaptivePorts() gave, going round the list from there:
  // among equally good ports, flows then spread over all of them instead
  // of all taking the lowest (NET-4.3). A multiplicative hash (Knuth's
  // constant) of the pair, so that the two ways of a k/2 tie split evenly
  // although SRC + DST of such pairs is always even.
  static size_t FirstCandidate(NodeId src, NodeId dst, size_t count) {
    if (count == 0) {
      return 0;
    }
    const uint32_t key = (static_cast<uint32_t>(src) << 16) ^ dst;
    return ((key * 2654435761u) >> 16) % count;
  }
  // Whether a packet that arrived through `in_port` on class `in_class`,
  // and whose step leaves through `out_port`, still chooses among
  // AdaptivePorts() at VC allocation: one just injected at `local_port` or
  // in an adaptive class, not one leaving at the local port (NET-4.3).
  bool ChoosesAdaptively(PortId in_port, VcClass in_class, PortId out_port,
                         PortId local_port) const;
  // Adaptive functions only: the router VCs [first, end) of the adaptive
  // classes in the VC set of router VC `vc`, with `vc_classes` classes per
  // set (NET-3.4).
  struct VcRange {
    unsigned first;
    unsigned end;
  };
  VcRange AdaptiveVcs(unsigned vc, unsigned vc_classes) const;

  const Topology& topology() const { return *topology_; }
  const std::shared_ptr<const Topology>& shared_topology() const {
    return topology_;
  }
  // The number of (node, input port) pairs, local ports included. Times
  // VcClasses() it bounds a loop-free deterministic route (path.h).
  size_t InputCount() const { return input_count_; }

 protected:
  // Route() for a function whose TryRoute() fails only when a node is out
  // of range: TryRoute()'s step, or that reason.
  Result<RouteStep> RouteThroughTry(NodeId current, PortId in_port,
                                    VcClass in_vc, NodeId dst) const;

 private:
  std::shared_ptr<const Topology> topology_;
  size_t input_count_ = 0;
};

}  // namespace lq::topo
