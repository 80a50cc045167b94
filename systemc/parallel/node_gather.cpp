// SPDX-License-Identifier: Apache-2.0
// GatherByNode: each rank's nodes packed with their numbers, unpacked into
// node order on rank 0; AbsorbOtherRanksNodes, AbsorbOtherRanks.
#include "systemc/parallel/node_gather.h"

#include "systemc/parallel/wire.h"

namespace lq::parallel {

std::vector<Bytes> GatherByNode(
    const RankWorld& world, unsigned nodes,
    const std::function<bool(unsigned node)>& built,
    const std::function<void(unsigned node, Bytes& out)>& pack) {
  Bytes mine;
  WireWriter out(mine);
  Bytes scratch;
  for (unsigned node = 0; node < nodes; ++node) {
    if (built(node)) {
      scratch.clear();
      pack(node, scratch);
      out.U32(node);
      out.Blob(scratch);
    }
  }
  std::vector<Bytes> by_node;
  if (!world.root()) {
    world.Gather(mine);
    return by_node;
  }
  by_node.resize(nodes);
  for (const Bytes& from_rank : world.Gather(mine)) {
    WireReader in(from_rank);
    while (!in.done()) {
      const uint32_t node = in.U32();
      const ByteView figures = in.Blob();
      by_node.at(node).assign(figures.begin(), figures.end());
    }
  }
  return by_node;
}

void AbsorbOtherRanksNodes(
    const RankWorld& world, unsigned nodes,
    const std::function<bool(unsigned node)>& built,
    const std::function<void(unsigned node, Bytes& out)>& pack,
    const std::function<void(unsigned node, ByteView packed)>& absorb) {
  const std::vector<Bytes> packed = GatherByNode(world, nodes, built, pack);
  for (unsigned node = 0; node < packed.size(); ++node) {
    if (!built(node)) {
      absorb(node, packed[node]);
    }
  }
}

void AbsorbOtherRanks(const RankWorld& world, const Bytes& mine,
                      const std::function<void(ByteView share)>& absorb) {
  if (!world.parallel()) {
    return;
  }
  const std::vector<Bytes> shares = world.Gather(mine);
  for (size_t rank = 1; rank < shares.size(); ++rank) {
    absorb(shares[rank]);
  }
}

}  // namespace lq::parallel
