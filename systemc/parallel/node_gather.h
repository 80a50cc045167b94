// SPDX-License-Identifier: Apache-2.0
// What every rank measured of its own nodes, brought to rank 0 in node
// order, and any other share of a rank's (decision 0050): a run's report and
// statistics are made on rank 0 from the same per-node figures, taken in the
// same order, as a run in one process makes them from its own nodes, so they
// come out the same.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/common/bytes.h"
#include "systemc/parallel/rank_world.h"

namespace lq::parallel {

// `pack(node, out)` appends node `node`'s figures to `out` for every node
// `built` says is this rank's. Returns, on rank 0, each of the `nodes`
// nodes' packed figures by node (empty for a node no rank packed);
// elsewhere nothing.
std::vector<Bytes> GatherByNode(
    const RankWorld& world, unsigned nodes,
    const std::function<bool(unsigned node)>& built,
    const std::function<void(unsigned node, Bytes& out)>& pack);

// GatherByNode for figures kept by node: rank 0 hands `absorb` each node
// another rank packed, with what it packed; its own nodes' stay as they
// are. Every rank calls it.
void AbsorbOtherRanksNodes(
    const RankWorld& world, unsigned nodes,
    const std::function<bool(unsigned node)>& built,
    const std::function<void(unsigned node, Bytes& out)>& pack,
    const std::function<void(unsigned node, ByteView packed)>& absorb);

// In a parallel run, hands rank 0 every other rank's `mine`, by rank
// (`absorb(share)`), so that it holds the whole run's as one process
// would; nothing elsewhere, or in one process. Every rank calls it.
void AbsorbOtherRanks(const RankWorld& world, const Bytes& mine,
                      const std::function<void(ByteView share)>& absorb);

}  // namespace lq::parallel
