// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic patterns (issue 6, docs/spec/net.md): which node a
// source sends its next packet to. Chosen by name from a registry and built
// from data, as topologies and routing functions are.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/params.h"

namespace lq::net {

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  virtual std::string Name() const = 0;
  // The destination of `src`'s next packet; never `src` itself.
  virtual uint32_t Destination(uint32_t src, std::mt19937_64& random) const = 0;
};

// One registered pattern: its name, what it does, and its parameters with
// defaults (for `lqemu list` and the docs).
struct TrafficPatternInfo {
  std::string name;
  std::string meaning;
  std::vector<std::pair<std::string, std::string>> params;  // name, default
};

const std::vector<TrafficPatternInfo>& TrafficPatternCatalogue();

// Builds pattern `name` for `nodes` endpoints. Unknown names or parameters,
// and node counts a pattern cannot use (bit patterns need a power of two),
// are errors saying what was expected.
Result<std::unique_ptr<TrafficPattern>> CreateTrafficPattern(
    const std::string& name, uint32_t nodes, const topo::ParamMap& params);

}  // namespace lq::net
