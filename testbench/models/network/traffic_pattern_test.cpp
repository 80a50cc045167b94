// SPDX-License-Identifier: Apache-2.0
// Tests of the synthetic traffic patterns and their registry.
#include "models/network/traffic_pattern.h"

#include <gtest/gtest.h>

#include <vector>

namespace lq::net {
namespace {

std::unique_ptr<TrafficPattern> Make(const std::string& name, uint32_t nodes,
                                     const topo::ParamMap& params = {}) {
  auto pattern = CreateTrafficPattern(name, nodes, params);
  EXPECT_TRUE(pattern.ok()) << (pattern.ok() ? "" : pattern.error().reason);
  return std::move(pattern).value();
}

TEST(TrafficPatternTest, UniformNeverPicksTheSourceAndCoversTheRest) {
  const auto uniform = Make("uniform", 8);
  std::mt19937_64 random(1);
  std::vector<int> hits(8, 0);
  for (int i = 0; i < 70000; ++i) {
    const uint32_t dst = uniform->Destination(3, random);
    ASSERT_NE(dst, 3u) << "a node never sends to itself";
    ++hits[dst];
  }
  for (uint32_t n = 0; n < 8; ++n) {
    if (n != 3) {
      EXPECT_NEAR(hits[n], 10000, 400) << "node " << n << " equally likely";
    }
  }
}

TEST(TrafficPatternTest, UniformWithSelfPicksEveryNodeTheSourceToo) {
  const auto uniform = Make("uniform", 8, {{"self", "1"}});
  std::mt19937_64 random(1);
  std::vector<int> hits(8, 0);
  for (int i = 0; i < 80000; ++i) {
    ++hits[uniform->Destination(3, random)];
  }
  for (uint32_t n = 0; n < 8; ++n) {
    EXPECT_NEAR(hits[n], 10000, 400) << "node " << n << " equally likely";
  }
  EXPECT_FALSE(CreateTrafficPattern("uniform", 8, {{"self", "2"}}).ok());
}

TEST(TrafficPatternTest, BitPatternsPermuteTheNodeId) {
  std::mt19937_64 random(1);
  const auto transpose = Make("transpose", 16);
  EXPECT_EQ(transpose->Destination(0b0001, random), 0b0100u)
      << "(row 0, column 1) -> (row 1, column 0)";
  EXPECT_EQ(transpose->Destination(0b1110, random), 0b1011u);
  const auto bitcomp = Make("bitcomp", 16);
  EXPECT_EQ(bitcomp->Destination(3, random), 12u);
  EXPECT_NE(transpose->Destination(0b0101, random), 0b0101u)
      << "a fixed point sends elsewhere, not to itself";
}

TEST(TrafficPatternTest, HotspotAndIncastFavourTheirNode) {
  std::mt19937_64 random(2);
  const auto hotspot = Make("hotspot", 64, {{"node", "5"}, {"percent", "30"}});
  int hot = 0;
  for (int i = 0; i < 10000; ++i) {
    hot += hotspot->Destination(9, random) == 5;
  }
  EXPECT_NEAR(hot, 3000 + 7000 / 63, 200) << "30 % plus its uniform share";
  const auto incast = Make("incast", 64, {{"node", "7"}});
  EXPECT_EQ(incast->Destination(1, random), 7u);
  EXPECT_NE(incast->Destination(7, random), 7u) << "the target sends elsewhere";
}

TEST(TrafficPatternTest, RejectsUnknownNamesParametersAndShapes) {
  EXPECT_FALSE(CreateTrafficPattern("tornado", 16, {}).ok());
  EXPECT_FALSE(CreateTrafficPattern("uniform", 16, {{"node", "1"}}).ok())
      << "uniform has no parameters";
  EXPECT_FALSE(CreateTrafficPattern("bitcomp", 12, {}).ok())
      << "12 nodes is not a power of two";
  EXPECT_FALSE(CreateTrafficPattern("incast", 16, {{"node", "16"}}).ok())
      << "node beyond the last";
  EXPECT_FALSE(CreateTrafficPattern("hotspot", 16, {{"percent", "x"}}).ok());
  EXPECT_FALSE(CreateTrafficPattern("uniform", 1, {}).ok());
}

}  // namespace
}  // namespace lq::net
