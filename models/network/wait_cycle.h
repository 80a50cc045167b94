// SPDX-License-Identifier: Apache-2.0
// The cycle of input VCs waiting on one another that a deadlock leaves
// (NET-4.7's failure seen in simulation), named for a report. Both network
// kernels' watchdogs use it.
#pragma once

#include <string>
#include <vector>

#include "models/topology/topology.h"

namespace lq::net {

// One input VC of one router.
struct InputVcRef {
  topo::NodeId node = 0;
  topo::PortId port = 0;
  unsigned vc = 0;
};

// The head packet of input VC `from` waits for room in input VC `to`, the
// far end of the output it holds or wants.
struct VcWait {
  InputVcRef from;
  InputVcRef to;
};

// Follows the waits from each blocked VC (each waits on at most one other,
// so a chain either ends or closes) and names the first cycle found, e.g.
// "node3.port0.vc0 -> node0.port1.vc0 -> node3.port0.vc0", or says that
// none was found.
std::string DescribeWaitCycle(const topo::Topology& topology,
                              const std::vector<VcWait>& waits);

}  // namespace lq::net
