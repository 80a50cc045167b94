// SPDX-License-Identifier: Apache-2.0
// Partitioning a topology's nodes over the ranks of a parallel run
// (decision 0050): every node belongs to one rank, and a cable
// whose two ends belong to different ranks is a cut link, across which the
// ranks exchange what the cable carries at the ends of synchronisation
// windows. Fewer cut links means fewer messages between ranks.
#pragma once

#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// The methods `sim.partition` names.
inline constexpr const char* kPartitionMethods[] = {"auto", "blocks", "metis"};

struct Partition {
  unsigned ranks = 1;
  std::vector<unsigned> rank_of;  // by node
  // What made it: "blocks 2x1x2" (ranks per dimension) or "metis".
  std::string method;

  // The cables with ends on two ranks, each once, from its lower end.
  std::vector<std::pair<PortRef, PortRef>> CutCables(
      const Topology& topology) const;
  // Cut cables with an end on each rank, by rank (a cut cable counts on
  // both of its ranks).
  std::vector<unsigned> CutCablesPerRank(const Topology& topology) const;
  // Nodes on each rank.
  std::vector<unsigned> NodesPerRank() const;
};

// `topology`'s nodes over `ranks` ranks by `method`:
// - "blocks" (a torus only): the torus cut into a grid of contiguous
//   blocks, as many per dimension as the factorisation of `ranks` that
//   cuts the fewest cables (ties: the fewest cuts in the earliest
//   dimensions), ranks numbered over the grid dimension 0 fastest;
// - "metis": METIS's k-way graph partition of the cable graph (a fixed
//   seed, so the same every run), when this build has METIS;
// - "auto": blocks on a torus, else metis.
// Fails if `ranks` is 0 or exceeds the nodes, the method is unknown or
// does not apply, or a rank would be left without a node.
Result<Partition> PartitionTopology(const Topology& topology, unsigned ranks,
                                    const std::string& method);

// Whether this build can partition by METIS (CMake found libmetis).
bool MetisBuilt();

}  // namespace lq::topo
