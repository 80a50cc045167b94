// SPDX-License-Identifier: Apache-2.0
// Tests of ReusePool (models/common/reuse_pool.h), which the logical unit's
// staging buffers and the LOG messenger's buffers live in.
#include "models/common/reuse_pool.h"

#include <gtest/gtest.h>

#include <string>

namespace lq {
namespace {

TEST(ReusePool, FreedIndicesComeBackBeforeThePoolGrows) {
  ReusePool<std::string> pool;
  const size_t a = pool.Take();
  const size_t b = pool.Take();
  EXPECT_NE(a, b);
  EXPECT_EQ(pool.size(), 2u);
  pool[a] = "first";
  pool.Free(a);
  EXPECT_EQ(pool.Take(), a) << "the freed index, not a new one";
  EXPECT_EQ(pool[a], "first") << "a reused item keeps what it held";
  EXPECT_EQ(pool.size(), 2u);
  pool.Free(b);
  pool.Free(a);
  EXPECT_EQ(pool.Take(), a) << "the most recently freed first";
  EXPECT_EQ(pool.Take(), b);
  EXPECT_EQ(pool.Take(), 2u) << "then the pool grows";
  EXPECT_EQ(pool.size(), 3u);
}

}  // namespace
}  // namespace lq
