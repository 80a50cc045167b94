// SPDX-License-Identifier: Apache-2.0
// Channel-dependency graph of a routing function over its topology, and the
// cycle check that NET-4.7 requires to pass (Dally & Seitz's condition).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/routing.h"

namespace lq::topo {

// A channel: one VC class of one output port of one node.
struct Channel {
  NodeId node = 0;
  PortId port = 0;
  VcClass vc = 0;
};

// Channel a depends on channel b when some route holds a and asks for b
// next. Built from the routes of every ordered pair of working endpoints.
class ChannelDependencyGraph {
 public:
  static Result<ChannelDependencyGraph> Build(const RoutingFunction& routing);

  size_t ChannelCount() const { return channels_.size(); }
  size_t DependencyCount() const { return targets_.size(); }
  // One cycle of channels (first repeated at the end omitted), or empty
  // when the graph is acyclic, i.e. the routing is deadlock-free.
  std::vector<Channel> FindCycle() const;
  // "node1.port0/vc0 -> node2.port0/vc0 -> ..." for messages.
  static std::string Describe(const Topology& topology,
                              const std::vector<Channel>& channels);

 private:
  std::vector<Channel> channels_;      // By channel index.
  std::vector<size_t> target_offset_;  // Dependencies of channel i.
  std::vector<uint32_t> targets_;
};

}  // namespace lq::topo
