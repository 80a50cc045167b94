// SPDX-License-Identifier: Apache-2.0
// Up/down routing on a fat-tree (NET-4.4): up to the lowest common tier,
// then down, with the upward port chosen from the destination's ID.
#pragma once

#include <memory>

#include "models/common/result.h"
#include "models/topology/fat_tree.h"
#include "models/topology/routing.h"

namespace lq::topo {

// Every path climbs and then descends, so no channel waits on a channel
// above it after descending: one VC class is deadlock-free (NET-4.4).
class UpDownRouting : public RoutingFunction {
 public:
  explicit UpDownRouting(std::shared_ptr<const FatTree> tree);

  std::string Name() const override { return "updown"; }
  VcClass VcClasses() const override { return 1; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;

 private:
  std::shared_ptr<const FatTree> tree_;
};

}  // namespace lq::topo
