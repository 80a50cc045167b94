// SPDX-License-Identifier: Apache-2.0
// The registered traffic patterns: uniform, transpose, bit complement,
// hotspot and N-to-1 incast.
#include "models/network/traffic_pattern.h"

#include <algorithm>
#include <functional>
#include <map>

namespace lq::net {
namespace {

// Uniform over every other node, or over every node with `self`.
class Uniform : public TrafficPattern {
 public:
  Uniform(uint32_t nodes, bool self) : nodes_(nodes), self_(self) {}
  std::string Name() const override { return "uniform"; }
  uint32_t Destination(uint32_t src, std::mt19937_64& random) const override {
    std::uniform_int_distribution<uint32_t> pick(0, nodes_ - (self_ ? 1 : 2));
    const uint32_t dst = pick(random);
    return !self_ && dst >= src ? dst + 1 : dst;
  }

 private:
  uint32_t nodes_;
  bool self_;
};

// A permutation of the node ID's bits; a source it maps onto itself sends
// uniformly instead, so that no node sends to itself.
class BitPermutation : public TrafficPattern {
 public:
  BitPermutation(std::string name, uint32_t nodes,
                 std::function<uint32_t(uint32_t)> map)
      : name_(std::move(name)), uniform_(nodes, false), map_(std::move(map)) {}
  std::string Name() const override { return name_; }
  uint32_t Destination(uint32_t src, std::mt19937_64& random) const override {
    const uint32_t dst = map_(src);
    return dst != src ? dst : uniform_.Destination(src, random);
  }

 private:
  std::string name_;
  Uniform uniform_;
  std::function<uint32_t(uint32_t)> map_;
};

// A fraction of the traffic goes to one node, the rest uniformly.
class Hotspot : public TrafficPattern {
 public:
  Hotspot(uint32_t nodes, uint32_t hotspot, double fraction)
      : uniform_(nodes, false), hotspot_(hotspot), fraction_(fraction) {}
  std::string Name() const override { return "hotspot"; }
  uint32_t Destination(uint32_t src, std::mt19937_64& random) const override {
    std::bernoulli_distribution hot(fraction_);
    if (src != hotspot_ && hot(random)) {
      return hotspot_;
    }
    return uniform_.Destination(src, random);
  }

 private:
  Uniform uniform_;
  uint32_t hotspot_;
  double fraction_;
};

// Every source sends to one target; the target itself sends uniformly.
class Incast : public TrafficPattern {
 public:
  Incast(uint32_t nodes, uint32_t target)
      : uniform_(nodes, false), target_(target) {}
  std::string Name() const override { return "incast"; }
  uint32_t Destination(uint32_t src, std::mt19937_64& random) const override {
    return src != target_ ? target_ : uniform_.Destination(src, random);
  }

 private:
  Uniform uniform_;
  uint32_t target_;
};

Result<uint64_t> Integer(const topo::ParamMap& params, const std::string& key,
                         uint64_t fallback, uint64_t max) {
  const auto found = params.find(key);
  if (found == params.end()) {
    return fallback;
  }
  try {
    size_t used = 0;
    const unsigned long long value = std::stoull(found->second, &used);
    if (used == found->second.size() && value <= max) {
      return static_cast<uint64_t>(value);
    }
  } catch (const std::exception&) {
  }
  return Error{key + " must be an integer 0.." + std::to_string(max) +
                   ", not \"" + found->second + "\"",
               0};
}

unsigned Log2(uint32_t nodes) {
  unsigned bits = 0;
  while ((1u << bits) < nodes) {
    ++bits;
  }
  return bits;
}

}  // namespace

const std::vector<TrafficPatternInfo>& TrafficPatternCatalogue() {
  static const std::vector<TrafficPatternInfo> catalogue = {
      {"uniform",
       "every other node equally likely; with self 1 every node, the "
       "source too (as BookSim2's uniform)",
       {{"self", "0"}}},
      {"transpose",
       "node ID bits rotated by half their width (a matrix transpose); "
       "power-of-two node counts",
       {}},
      {"bitcomp", "node ID bits complemented; power-of-two node counts", {}},
      {"hotspot",
       "a share of all traffic to one node, the rest uniform",
       {{"node", "0"}, {"percent", "10"}}},
      {"incast", "every node to one target (N-to-1)", {{"node", "0"}}},
  };
  return catalogue;
}

Result<std::unique_ptr<TrafficPattern>> CreateTrafficPattern(
    const std::string& name, uint32_t nodes, const topo::ParamMap& params) {
  const auto& catalogue = TrafficPatternCatalogue();
  const auto info =
      std::find_if(catalogue.begin(), catalogue.end(),
                   [&](const TrafficPatternInfo& i) { return i.name == name; });
  if (info == catalogue.end()) {
    std::string names;
    for (const auto& i : catalogue) {
      names += (names.empty() ? "" : ", ") + i.name;
    }
    return Error{
        "unknown traffic pattern \"" + name + "\" (known: " + names + ")", 0};
  }
  for (const auto& param : params) {
    const std::string& key = param.first;
    const bool declared =
        std::any_of(info->params.begin(), info->params.end(),
                    [&](const auto& p) { return p.first == key; });
    if (!declared) {
      return Error{name + " has no parameter \"" + key + "\"", 0};
    }
  }
  if (nodes < 2) {
    return Error{"traffic needs at least 2 nodes", 0};
  }
  const bool power_of_two = (nodes & (nodes - 1)) == 0;
  if ((name == "transpose" || name == "bitcomp") && !power_of_two) {
    return Error{
        name + " needs a power-of-two node count, not " + std::to_string(nodes),
        0};
  }
  const unsigned bits = Log2(nodes);
  std::unique_ptr<TrafficPattern> pattern;
  if (name == "uniform") {
    const auto self = Integer(params, "self", 0, 1);
    if (!self) {
      return self.error();
    }
    pattern = std::make_unique<Uniform>(nodes, *self == 1);
  } else if (name == "transpose") {
    const unsigned half = bits / 2;
    pattern = std::make_unique<BitPermutation>(
        name, nodes, [bits, half, nodes](uint32_t src) {
          return ((src >> half) | (src << (bits - half))) & (nodes - 1);
        });
  } else if (name == "bitcomp") {
    pattern = std::make_unique<BitPermutation>(
        name, nodes, [nodes](uint32_t src) { return ~src & (nodes - 1); });
  } else {
    const auto node = Integer(params, "node", 0, nodes - 1);
    if (!node) {
      return node.error();
    }
    if (name == "incast") {
      pattern = std::make_unique<Incast>(nodes, static_cast<uint32_t>(*node));
    } else {
      const auto percent = Integer(params, "percent", 10, 100);
      if (!percent) {
        return percent.error();
      }
      pattern = std::make_unique<Hotspot>(nodes, static_cast<uint32_t>(*node),
                                          *percent / 100.0);
    }
  }
  return pattern;
}

}  // namespace lq::net
