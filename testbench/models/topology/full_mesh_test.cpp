// SPDX-License-Identifier: Apache-2.0
// Tests of the UB-Mesh 2D full mesh topology.
#include "models/topology/full_mesh.h"

#include <gtest/gtest.h>

#include <set>

namespace lq::topo {
namespace {

TEST(FullMesh2D, NET_6_3_EveryRowAndColumnIsFullyConnected) {
  Result<FullMesh2D> mesh = FullMesh2D::Create(8, 8);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->NodeCount(), 64u) << "one UB-Mesh rack is 64 NPUs";
  for (NodeId node = 0; node < mesh->NodeCount(); ++node) {
    ASSERT_EQ(mesh->PortCount(node), 14u) << "7 row peers + 7 column peers";
    std::set<NodeId> peers;
    for (PortId port = 0; port < 14; ++port) {
      const std::optional<PortRef> far = mesh->Neighbour(node, port);
      ASSERT_TRUE(far.has_value());
      const bool same_row = mesh->Row(far->node) == mesh->Row(node);
      const bool same_column = mesh->Column(far->node) == mesh->Column(node);
      EXPECT_NE(same_row, same_column)
          << "a peer shares exactly one of row and column";
      EXPECT_EQ(port < 7, same_row) << "ports 0..6 are row (X) links";
      const std::optional<PortRef> back = mesh->Neighbour(far->node, far->port);
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(*back, (PortRef{node, port})) << "links must be symmetric";
      peers.insert(far->node);
    }
    EXPECT_EQ(peers.size(), 14u) << "no peer is reached twice";
  }
}

TEST(FullMesh2D, NET_6_3_PortNumbersSkipTheNodesOwnColumnAndRow) {
  Result<FullMesh2D> mesh = FullMesh2D::Create(4, 3);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(FullMesh2D::ColumnPort(2, 0), 0u);
  EXPECT_EQ(FullMesh2D::ColumnPort(2, 3), 2u) << "column 2 itself is skipped";
  EXPECT_EQ(mesh->RowPort(1, 2), 4u) << "row ports follow the 3 X ports";
  EXPECT_EQ(mesh->LocalPort(0), 5u) << "local port = (X-1)+(Y-1)";
  EXPECT_EQ(mesh->Coordinates(6), (std::vector<uint32_t>{2, 1}));
}

}  // namespace
}  // namespace lq::topo
