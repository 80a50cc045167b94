// SPDX-License-Identifier: Apache-2.0
// Partitioning a topology over ranks (decision 0050): torus blocks, METIS,
// and the inputs that cannot be partitioned.
#include "models/topology/partition.h"

#include <gtest/gtest.h>

#include <set>

#include "models/topology/fat_tree.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

TEST(Partition, OneRankHoldsEveryNodeAndCutsNothing) {
  auto torus = MakeTorus({4, 4});
  Result<Partition> p = PartitionTopology(*torus, 1, "auto");
  ASSERT_TRUE(p.ok()) << p.error().reason;
  EXPECT_EQ(p->rank_of, std::vector<unsigned>(16, 0));
  EXPECT_TRUE(p->CutCables(*torus).empty());
}

TEST(Partition, TorusBlocksSplitTheLongestWayFirstAndAreContiguous) {
  // 8x4x4 over 2 ranks: halving X cuts 2 * 16 cables, halving Y or Z
  // 2 * 32; blocks take X.
  auto torus = MakeTorus({8, 4, 4});
  Result<Partition> p = PartitionTopology(*torus, 2, "blocks");
  ASSERT_TRUE(p.ok()) << p.error().reason;
  EXPECT_EQ(p->method, "blocks 2x1x1");
  EXPECT_EQ(p->CutCables(*torus).size(), 32u);
  for (NodeId node = 0; node < torus->NodeCount(); ++node) {
    EXPECT_EQ(p->rank_of[node], torus->Coordinate(node, 0) < 4 ? 0u : 1u);
  }
  EXPECT_EQ(p->NodesPerRank(), (std::vector<unsigned>{64, 64}));
  EXPECT_EQ(p->CutCablesPerRank(*torus), (std::vector<unsigned>{32, 32}));
}

TEST(Partition, FourRanksOnACubeTakeTwoDimensionsOnce) {
  // 4x4x4 over 4: 4x1x1 cuts 4 * 16 = 64; 2x2x1 cuts 2 * 16 + 2 * 16 = 64;
  // equal, so the earlier-dimension-first rule keeps the first found.
  auto torus = MakeTorus({4, 4, 4});
  Result<Partition> p = PartitionTopology(*torus, 4, "auto");
  ASSERT_TRUE(p.ok()) << p.error().reason;
  EXPECT_EQ(p->CutCables(*torus).size(), 64u);
  EXPECT_EQ(p->NodesPerRank(), (std::vector<unsigned>{16, 16, 16, 16}));
}

TEST(Partition, UnevenRingsGiveBlocksOfNearlyEqualSize) {
  auto torus = MakeTorus({5});
  Result<Partition> p = PartitionTopology(*torus, 2, "blocks");
  ASSERT_TRUE(p.ok()) << p.error().reason;
  EXPECT_EQ(p->rank_of, (std::vector<unsigned>{0, 0, 0, 1, 1}));
  EXPECT_EQ(p->CutCables(*torus).size(), 2u);  // a ring cut twice
}

TEST(Partition, MetisPartitionsAFatTreeEvenlyAndTheSameEachTime) {
  if (!MetisBuilt()) {
    GTEST_SKIP() << "built without METIS";
  }
  Result<FatTree> tree = FatTree::Create(4, 16);
  ASSERT_TRUE(tree.ok()) << tree.error().reason;
  Result<Partition> a = PartitionTopology(*tree, 2, "auto");
  Result<Partition> b = PartitionTopology(*tree, 2, "metis");
  ASSERT_TRUE(a.ok()) << a.error().reason;
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->method, "metis");
  EXPECT_EQ(a->rank_of, b->rank_of);
  const std::vector<unsigned> nodes = a->NodesPerRank();
  EXPECT_LE(nodes[0] > nodes[1] ? nodes[0] - nodes[1] : nodes[1] - nodes[0],
            2u);
  // A partition of a k=4 fat tree cutting fewer cables than its 48 / 2.
  EXPECT_LT(a->CutCables(*tree).size(), tree->CableCount() / 2);
}

TEST(Partition, RefusesWhatCannotBePartitioned) {
  auto torus = MakeTorus({2, 2});
  EXPECT_NE(PartitionTopology(*torus, 5, "auto")
                .error()
                .reason.find("every rank needs a node"),
            std::string::npos);
  EXPECT_FALSE(PartitionTopology(*torus, 0, "auto").ok());
  EXPECT_NE(PartitionTopology(*torus, 2, "stripes")
                .error()
                .reason.find("no method 'stripes'"),
            std::string::npos);
  // 3 ranks do not factor into a 2x2 torus's blocks.
  EXPECT_NE(
      PartitionTopology(*torus, 3, "blocks").error().reason.find("factor"),
      std::string::npos);
  Result<FatTree> tree = FatTree::Create(4, 16);
  ASSERT_TRUE(tree.ok());
  EXPECT_NE(
      PartitionTopology(*tree, 2, "blocks").error().reason.find("not a torus"),
      std::string::npos);
}

}  // namespace
}  // namespace lq::topo
