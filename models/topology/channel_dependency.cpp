// SPDX-License-Identifier: Apache-2.0
// Building the channel-dependency graph from traced routes, and finding a
// cycle in it by iterative depth-first search.
#include "models/topology/channel_dependency.h"

#include <algorithm>
#include <utility>

#include "models/topology/path.h"

namespace lq::topo {

Result<ChannelDependencyGraph> ChannelDependencyGraph::Build(
    const RoutingFunction& routing) {
  const Topology& topo = routing.topology();
  const VcClass classes = routing.VcClasses();
  ChannelDependencyGraph graph;
  std::vector<size_t> port_offset;
  for (NodeId node = 0; node < topo.NodeCount(); ++node) {
    port_offset.push_back(graph.channels_.size() / classes);
    for (PortId port = 0; port < topo.PortCount(node); ++port) {
      for (VcClass vc = 0; vc < classes; ++vc) {
        graph.channels_.push_back(Channel{node, port, vc});
      }
    }
  }
  auto index = [&](const Hop& hop) {
    return static_cast<uint32_t>((port_offset[hop.node] + hop.port) * classes +
                                 hop.vc);
  };
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  Path path;
  for (NodeId src = 0; src < topo.EndpointCount(); ++src) {
    for (NodeId dst = 0; dst < topo.EndpointCount(); ++dst) {
      if (!topo.NodeUp(src) || !topo.NodeUp(dst)) {
        continue;
      }
      Result<bool> traced = TracePathInto(routing, src, dst, path);
      if (!traced) {
        return traced.error();
      }
      for (size_t i = 1; i < path.size(); ++i) {
        edges.emplace_back(index(path[i - 1]), index(path[i]));
      }
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  graph.target_offset_.assign(graph.channels_.size() + 1, 0);
  for (const auto& [from, to] : edges) {
    ++graph.target_offset_[from + 1];
    graph.targets_.push_back(to);
  }
  for (size_t i = 1; i < graph.target_offset_.size(); ++i) {
    graph.target_offset_[i] += graph.target_offset_[i - 1];
  }
  return graph;
}

std::vector<Channel> ChannelDependencyGraph::FindCycle() const {
  enum class Colour : uint8_t { kUnseen, kOnStack, kDone };
  std::vector<Colour> colour(channels_.size(), Colour::kUnseen);
  // Each frame: a channel and the next dependency of it to explore.
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (uint32_t start = 0; start < channels_.size(); ++start) {
    if (colour[start] != Colour::kUnseen) {
      continue;
    }
    stack.emplace_back(start, target_offset_[start]);
    colour[start] = Colour::kOnStack;
    while (!stack.empty()) {
      auto& [channel, next] = stack.back();
      if (next == target_offset_[channel + 1]) {
        colour[channel] = Colour::kDone;
        stack.pop_back();
        continue;
      }
      const uint32_t target = targets_[next++];
      if (colour[target] == Colour::kOnStack) {
        std::vector<Channel> cycle;
        auto frame = std::find_if(stack.begin(), stack.end(),
                                  [&](auto& f) { return f.first == target; });
        for (; frame != stack.end(); ++frame) {
          cycle.push_back(channels_[frame->first]);
        }
        return cycle;
      }
      if (colour[target] == Colour::kUnseen) {
        colour[target] = Colour::kOnStack;
        stack.emplace_back(target, target_offset_[target]);
      }
    }
  }
  return {};
}

std::string ChannelDependencyGraph::Describe(
    const Topology& topology, const std::vector<Channel>& channels) {
  std::string text;
  for (const Channel& channel : channels) {
    text += (text.empty() ? "" : " -> ") +
            topology.PortName(channel.node, channel.port) + "/vc" +
            std::to_string(channel.vc);
  }
  return text;
}

}  // namespace lq::topo
