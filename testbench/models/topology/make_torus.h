// SPDX-License-Identifier: Apache-2.0
// A shared torus for the routing tests; bad sizes fail the calling test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "models/topology/torus.h"

namespace lq::topo {

inline std::shared_ptr<const Torus> MakeTorus(
    const std::vector<uint32_t>& sizes) {
  Result<Torus> torus = Torus::Create(sizes);
  EXPECT_TRUE(torus.ok()) << torus.error().reason;
  return std::make_shared<Torus>(torus.value());
}

}  // namespace lq::topo
