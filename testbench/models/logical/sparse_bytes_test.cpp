// SPDX-License-Identifier: Apache-2.0
// Tests of SparseBytes, the storage of a card's memory: zeros until
// written, writes across chunk edges, storage only where written.
#include "models/common/sparse_bytes.h"

#include <gtest/gtest.h>

#include <vector>

namespace lq {
namespace {

TEST(SparseBytes, UnwrittenBytesReadAsZeroAndCostNothing) {
  SparseBytes bytes(uint64_t{16} << 30);
  std::vector<uint8_t> out(16, 0xAA);
  bytes.Read((uint64_t{16} << 30) - 16, out.data(), out.size());
  EXPECT_EQ(out, std::vector<uint8_t>(16, 0));
  EXPECT_EQ(bytes.chunks(), 0u);
}

TEST(SparseBytes, WritesAcrossAChunkEdgeReadBack) {
  SparseBytes bytes(uint64_t{1} << 32);
  const uint64_t edge = 3 * SparseBytes::kChunkBytes;
  std::vector<uint8_t> in(300);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<uint8_t>(i + 1);
  }
  bytes.Write(edge - 100, in.data(), in.size());
  EXPECT_EQ(bytes.chunks(), 2u) << "the two chunks the write touched";
  std::vector<uint8_t> out(302);
  bytes.Read(edge - 101, out.data(), out.size());
  EXPECT_EQ(out.front(), 0);
  EXPECT_EQ(out.back(), 0);
  EXPECT_EQ(std::vector<uint8_t>(out.begin() + 1, out.end() - 1), in);
}

TEST(SparseBytes, ContainsChecksWithoutOverflow) {
  SparseBytes bytes(1000);
  EXPECT_TRUE(bytes.Contains(0, 1000));
  EXPECT_TRUE(bytes.Contains(1000, 0));
  EXPECT_FALSE(bytes.Contains(1, 1000));
  EXPECT_FALSE(bytes.Contains(~uint64_t{0}, 2)) << "no wrap past 2^64";
}

}  // namespace
}  // namespace lq
