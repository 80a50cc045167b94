// SPDX-License-Identifier: Apache-2.0
// Cards without boards on TL link ports of the pcie6 profile, routed by
// dor: a cluster whose cables the fault tests cut.
#pragma once

#include <memory>

#include "models/phy/link_profile.h"
#include "models/topology/routing_registry.h"
#include "systemc/cluster/cluster.h"

namespace lq::testing {

inline cluster::ClusterConfig TlCards(
    const std::shared_ptr<const topo::Topology>& topology) {
  const phy::LinkProfile pcie6 = phy::FindLinkProfile("pcie6").value();
  cluster::ClusterConfig config;
  config.boards = false;
  config.routing = topo::CreateRouting("dor", topology, {}).value();
  config.port.phy = phy::PhyPortConfig::ForProfile(pcie6);
  config.port.controller.profile = pcie6;
  return config;
}

}  // namespace lq::testing
