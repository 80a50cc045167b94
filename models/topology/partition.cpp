// SPDX-License-Identifier: Apache-2.0
// Partitioning by torus blocks and by METIS.
#include "models/topology/partition.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

#include "models/topology/torus.h"

#ifdef LQ_HAVE_METIS
#include <metis.h>
#endif

namespace lq::topo {
namespace {

// Every way of writing `ranks` as a product of one factor per dimension,
// each factor at most that dimension's size.
void Factorisations(unsigned ranks, const std::vector<uint32_t>& sizes,
                    std::vector<unsigned>& prefix,
                    std::vector<std::vector<unsigned>>& out) {
  const size_t dim = prefix.size();
  if (dim + 1 == sizes.size()) {
    if (ranks <= sizes[dim]) {
      prefix.push_back(ranks);
      out.push_back(prefix);
      prefix.pop_back();
    }
    return;
  }
  for (unsigned f = 1; f <= ranks && f <= sizes[dim]; ++f) {
    if (ranks % f == 0) {
      prefix.push_back(f);
      Factorisations(ranks / f, sizes, prefix, out);
      prefix.pop_back();
    }
  }
}

// The torus cut into blocks[d] contiguous pieces along each dimension d.
Partition Blocks(const Torus& torus, const std::vector<unsigned>& blocks) {
  Partition partition;
  partition.ranks = std::accumulate(blocks.begin(), blocks.end(), 1u,
                                    std::multiplies<unsigned>());
  partition.rank_of.resize(torus.NodeCount());
  partition.method = "blocks ";
  for (size_t d = 0; d < blocks.size(); ++d) {
    partition.method += (d > 0 ? "x" : "") + std::to_string(blocks[d]);
  }
  for (NodeId node = 0; node < torus.NodeCount(); ++node) {
    unsigned rank = 0;
    unsigned stride = 1;
    for (size_t d = 0; d < blocks.size(); ++d) {
      // Piece i holds coordinates [i * k / b, (i + 1) * k / b).
      const uint64_t piece =
          (static_cast<uint64_t>(torus.Coordinate(node, d)) * blocks[d]) /
          torus.sizes()[d];
      rank += static_cast<unsigned>(piece) * stride;
      stride *= blocks[d];
    }
    partition.rank_of[node] = rank;
  }
  return partition;
}

Result<Partition> TorusBlocks(const Torus& torus, unsigned ranks) {
  std::vector<std::vector<unsigned>> candidates;
  std::vector<unsigned> prefix;
  Factorisations(ranks, torus.sizes(), prefix, candidates);
  if (candidates.empty()) {
    return Fail("sim.partition blocks: " + std::to_string(ranks) +
                " ranks do not factor into blocks of " + torus.Describe());
  }
  std::optional<Partition> best;
  size_t best_cuts = std::numeric_limits<size_t>::max();
  for (const auto& blocks : candidates) {
    Partition partition = Blocks(torus, blocks);
    const size_t cuts = partition.CutCables(torus).size();
    if (cuts < best_cuts) {  // the first of equals: earlier dims cut less
      best_cuts = cuts;
      best = std::move(partition);
    }
  }
  return *std::move(best);
}

Result<Partition> Metis(const Topology& topology, unsigned ranks) {
#ifdef LQ_HAVE_METIS
  const NodeId nodes = topology.NodeCount();
  std::vector<idx_t> xadj{0};
  std::vector<idx_t> adjncy;
  for (NodeId node = 0; node < nodes; ++node) {
    for (PortId port = 0; port < topology.PortCount(node); ++port) {
      const auto far = topology.Neighbour(node, port);
      if (far && far->node != node) {
        adjncy.push_back(static_cast<idx_t>(far->node));
      }
    }
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  Partition partition;
  partition.ranks = ranks;
  partition.method = "metis";
  partition.rank_of.assign(nodes, 0);
  if (ranks == 1) {
    return partition;
  }
  idx_t vertices = static_cast<idx_t>(nodes);
  idx_t constraints = 1;
  idx_t parts = static_cast<idx_t>(ranks);
  idx_t cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // the same partition every run
  std::vector<idx_t> part(nodes);
  const int status = METIS_PartGraphKway(
      &vertices, &constraints, xadj.data(), adjncy.data(), nullptr, nullptr,
      nullptr, &parts, nullptr, nullptr, options, &cut, part.data());
  if (status != METIS_OK) {
    return Fail("sim.partition metis: METIS failed (status " +
                std::to_string(status) + ")");
  }
  for (NodeId node = 0; node < nodes; ++node) {
    partition.rank_of[node] = static_cast<unsigned>(part[node]);
  }
  return partition;
#else
  (void)topology;
  (void)ranks;
  return Fail(
      "sim.partition metis: this build has no METIS (install libmetis-dev "
      "and rebuild)");
#endif
}

// Whether `method` is one of kPartitionMethods.
bool IsPartitionMethod(const std::string& method) {
  return std::find(std::begin(kPartitionMethods), std::end(kPartitionMethods),
                   method) != std::end(kPartitionMethods);
}

}  // namespace

bool MetisBuilt() {
#ifdef LQ_HAVE_METIS
  return true;
#else
  return false;
#endif
}

std::vector<std::pair<PortRef, PortRef>> Partition::CutCables(
    const Topology& topology) const {
  std::vector<std::pair<PortRef, PortRef>> cuts;
  for (NodeId node = 0; node < topology.NodeCount(); ++node) {
    for (PortId port = 0; port < topology.PortCount(node); ++port) {
      const auto far = topology.Neighbour(node, port);
      if (!far || rank_of[node] == rank_of[far->node]) {
        continue;
      }
      if (far->node > node || (far->node == node && far->port > port)) {
        cuts.push_back({{node, port}, *far});
      }
    }
  }
  return cuts;
}

std::vector<unsigned> Partition::CutCablesPerRank(
    const Topology& topology) const {
  std::vector<unsigned> per_rank(ranks, 0);
  for (const auto& [a, b] : CutCables(topology)) {
    ++per_rank[rank_of[a.node]];
    ++per_rank[rank_of[b.node]];
  }
  return per_rank;
}

std::vector<unsigned> Partition::NodesPerRank() const {
  std::vector<unsigned> per_rank(ranks, 0);
  for (unsigned rank : rank_of) {
    ++per_rank[rank];
  }
  return per_rank;
}

Result<Partition> PartitionTopology(const Topology& topology, unsigned ranks,
                                    const std::string& method) {
  if (!IsPartitionMethod(method)) {
    return Fail("sim.partition: no method '" + method +
                "' (auto, blocks or metis)");
  }
  if (ranks == 0 || ranks > topology.NodeCount()) {
    return Fail(std::to_string(ranks) + " ranks for the " +
                std::to_string(topology.NodeCount()) + " nodes of " +
                topology.Describe() + ": every rank needs a node");
  }
  const auto* torus = dynamic_cast<const Torus*>(&topology);
  if (method == "blocks" && torus == nullptr) {
    return Fail("sim.partition blocks: " + topology.Describe() +
                " is not a torus (use metis)");
  }
  Result<Partition> partition = (torus != nullptr && method != "metis")
                                    ? TorusBlocks(*torus, ranks)
                                    : Metis(topology, ranks);
  if (!partition) {
    return partition;
  }
  const std::vector<unsigned> nodes = partition->NodesPerRank();
  const auto empty = std::find(nodes.begin(), nodes.end(), 0u);
  if (empty != nodes.end()) {
    return Fail("sim.partition " + partition->method + ": rank " +
                std::to_string(empty - nodes.begin()) + " of " +
                std::to_string(ranks) + " would have no node");
  }
  return partition;
}

}  // namespace lq::topo
